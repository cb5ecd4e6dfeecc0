"""Effect: what a program puts in place of the live state, for programs no rule names.

- A backup or snapshot put back by a resource-style subcommand (``X backups restore ID``, ``X
  snapshot restore ID``): what changed since it was taken is lost, unless the restore goes somewhere
  new (``--target``, ``--to``, ``--new-name``, ``--as``).
- An import told to replace what exists (``X import --force``, ``--overwrite``, ``--replace``,
  ``--clean``): the records it meets are overwritten or dropped first.
- A schema applied without asking (``X schema apply --yes``, ``--auto-approve``): the tables and
  columns the file no longer names are dropped with their data, and nobody saw the plan.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_BACKUP_NOUNS = frozenset({"backup", "backups", "snapshot", "snapshots", "archive", "archives", "dump", "dumps",
                           "checkpoint", "checkpoints", "savepoint", "savepoints", "restorepoint"})
_PUT_BACK = frozenset({"restore", "revert", "rollback", "load", "apply"})
_SOMEWHERE_NEW = lazy(r"^--?(target|to|dest\w*|destination|new[\w-]*|as|into|restore-to|output|out|dir|"
                      r"directory|path|location|name|clone|copy)$", re.IGNORECASE)
_REPLACING = frozenset({"--force", "--overwrite", "--replace", "--clean", "--drop", "--wipe", "--truncate",
                        "-force", "-overwrite", "--force-overwrite", "--delete-existing"})
_WITHOUT_ASKING = frozenset({"--yes", "-y", "--auto-approve", "-auto-approve", "--force", "--accept-data-loss",
                             "--no-confirm", "--non-interactive", "--skip-confirm", "--skip-confirmation",
                             "--confirm", "--assume-yes"})
_SCHEMA_WORDS = frozenset({"schema", "schemas", "ddl"})
_APPLIES = frozenset({"apply", "push", "sync", "deploy", "migrate", "load", "import"})


# Asked on every unflagged command: each finding needs a backup's noun before its verb, `import`, or a schema's word
# among the words (every noun holds one of these); a line with none is skipped.
@triggered_by(("backup", "snapshot", "archive", "dump", "checkpoint", "savepoint", "restorepoint", "import", "schema",
               "ddl"))
def rule_replaces_live(c: Ctx) -> Optional[tuple]:
    """A backup put back over the live state, an import that replaces, a schema applied without asking."""
    words = [t for t in c.texts[:5] if not t.startswith("-")][:3]
    lower = [w.lower() for w in words]
    options = {t.split("=", 1)[0].lower() for t in c.texts if t.startswith("-")}
    for k in range(1, len(lower)):
        if lower[k] in _PUT_BACK and lower[k - 1] in _BACKUP_NOUNS:
            if any(_SOMEWHERE_NEW.match(o) for o in options):
                return None  # restored somewhere new: the live state stays
            return MEDIUM, (f"{c.prog} {words[k - 1]} {words[k]} puts a backup back over the live state: what "
                            f"changed since it was taken is lost ({c.text})")
    if "import" in lower[:2] and options & _REPLACING:
        return MEDIUM, f"{c.prog} import replaces what exists: the records it meets are overwritten ({c.text})"
    for k in range(1, len(lower)):
        if lower[k] in _APPLIES and lower[k - 1] in _SCHEMA_WORDS and options & _WITHOUT_ASKING:
            return MEDIUM, (f"{c.prog} {words[k - 1]} {words[k]} applies a schema without asking: the tables and "
                            f"columns it no longer names are dropped with their data ({c.text})")
    return None
