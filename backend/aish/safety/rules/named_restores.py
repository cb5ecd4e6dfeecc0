"""Effect: a backup or a snapshot restored in place over a target the command names, for programs no rule names.

``forced_restores`` flags a restore told to go ahead over existing data (``--force``, ``--drop``); most restore
tools of databases, clustered filesystems, directories and appliances do not ask at all: a restore whose target is
named (``fsrestore fs1 snap0301``, ``vgcfgrestore vg_name``, ``influxd restore -portable telemetry DIR``,
``tdbrestore secrets.tdb``) writes the backup over what that target holds now, and what changed since is lost.
The restore is said by the program's name (anywhere in it), a subcommand or an option, as ``forced_restores``
reads it.

The target is an operand beside the restore word (not an option's value) that is not what the backup is read
from (a dump's or a backup's file, a snapshot, a URL), a bare number (a new id) or a configuration file; when a
long option says where the data goes (``--db``, ``--database``: most tools insert there, ``mongorestore --db D
DIR``) the operands are what is read, and the restore stays quiet.

Quiet: a bare restore (nothing named, or only the backup: the tool's default, which it usually refuses to
overwrite), what is put back that was not there (a trashed item, a session, a font size: ``trash restore ID``,
``--restore session``; ``restore create``, a restore job), a build's package restore (``dotnet restore``,
``nuget restore x.sln``), a restore into a place given apart that is not live (``--target ./restored``,
``-o meta.img``, a new database, a last operand under ``/tmp``), a configuration file loaded (``restore
/etc/nvmet/config.json``), what only looks (``list``, ``verify``, ``--dry-run``, ``--help``), and SELinux's
``restorecon`` (labels, not data).  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, classify
from aish.safety.rules.forced_restores import restore_said, restores_packages
from aish.safety.rules.triggers import triggered_by

_LOOKS = frozenset({"-l", "--list", "list", "ls", "info", "show", "status", "--help", "-h", "help", "verify",
                    "--verify", "validate", "--validate", "check", "--check", "--dry-run", "--dryrun",
                    "--whatif", "-whatif", "--test", "--staged", "--preview", "--plan", "--version", "describe",
                    "get", "ls-backups", "list-backups"})
# Names that restore something other than data (SELinux labels, a terminal's or a session's layout).
_NOT_DATA = re.compile(r"restorecon|trash|recycle|restore-?(session|layout|window|tab|cursor|term|screen)|^resurrect|"
                       r"^(?:enable|get|checkpoint|new|add|test|show|export)-\w*restore",  # `Enable-ComputerRestore`
                       re.IGNORECASE)
# What is put back that was not data in place: a trashed item, a session, a font size; a restore job created.
_NOT_OVER = frozenset({"trash", "session", "sessions", "font", "layout", "window", "windows", "tab", "tabs", "create",
                       "--seed", "--create-database", "--create-db", "--new"})
# Only a configuration named (`restore /etc/nvmet/config.json`): settings loaded, not data written over.
_CONFIG = re.compile(r"\.(json|conf|cfg|xml|ya?ml|ini|toml)$", re.IGNORECASE)
_LIVE = frozenset({"root", "system-top", "home", "critical", "system", "userhome"})
_APART = frozenset({"--target", "-t", "--to", "--dest", "--destination", "--target-dir", "--restore-path", "--into",
                    "--output-dir", "--output", "--out", "--new-name", "-C", "--local-folder", "-o",
                    "--as", "--rename", "--restore-as"})
# What the backup is read from: a backup's or a dump's file, a snapshot, a URL, a source option's value.
_SOURCE = re.compile(r"backup|dump|snap|\.(bak|bck|dmp|sql|ldif|tar|tgz|gz|zst|xz|bz2|lzo|vma|zip|7z|img|arc|fbk)"
                     r"(\.|$)|^[a-z][a-z0-9+]*://", re.IGNORECASE)
_RESTORE_WORD = re.compile(r"^-{0,2}(restore|recover)([-_][a-z]+)?$", re.IGNORECASE)
# A long option naming where the data goes (`mongorestore --db D DIR`): the operands are then what is read.
_INTO = frozenset({"--db", "--database", "--dbname", "--keyspace", "--index", "--bucket", "--collection", "--nsinclude",
                   "--table", "--schema"})


@triggered_by(("restor",))
def rule_named_restore(c: Ctx) -> Optional[tuple]:
    """``fsrestore fs1 snap0301``, ``zorkdb --restore prod.dump``, ``X restore -db telemetry /backups/D``."""
    name = c.prog.lower().rsplit("/", 1)[-1]
    if _NOT_DATA.search(name) or restores_packages(c):
        return None
    texts = c.texts
    lowered = {t.lower() for t in texts}
    if lowered & (_LOOKS | _NOT_OVER) or not ("restore" in name or restore_said(c)):
        return None
    named = [t for k, t in enumerate(texts) if t and not t.startswith("-") and "=" not in t and
             not _RESTORE_WORD.search(t) and not (k and _takes_value(texts[k - 1]))]
    if named and named[-1].startswith(("/tmp/", "/var/tmp/")) and len(named) >= 2:
        return None  # `duplicity restore URL /tmp/restore`: put back somewhere new
    if any(t.split("=", 1)[0].lower() in _INTO for t in texts):
        return None  # where it goes given by an option, a database: most tools insert there (`mongorestore --db D`)
    targets = [t for t in named if not _SOURCE.search(t) and not t.isdigit() and not _CONFIG.search(t) and
               not t.startswith(("/tmp/", "/var/tmp/"))]
    if not targets:
        return None  # only what is read named (`mongorestore --dir dump`, `qmrestore FILE 105`): the tool's default
    where = _apart(texts)
    if where is not None and classify(where) not in _LIVE:
        return None  # put back somewhere apart: the live data stays
    return MEDIUM, f"{c.prog} restores over {targets[0]}: what it holds now is replaced by the backup, and what " \
        f"changed since is lost ({c.text})"


def _apart(texts: list) -> Optional[str]:
    """The place an option gives the restore (`--target DIR`, `-o=OUT`), or None."""
    for k, t in enumerate(texts):
        key, eq, value = t.partition("=")
        if key in _APART:
            return value if eq else (texts[k + 1] if k + 1 < len(texts) else None)
    return None


def _takes_value(option: str) -> bool:
    """`--db NAME`, `-D DIR`: a long option or a one-letter one takes the word after it; `-portable` (a word after a
    single dash, the X11 style) is a switch, and so is `--x=VALUE`."""
    return option.startswith("--") and "=" not in option or len(option) == 2 and option[0] == "-"
