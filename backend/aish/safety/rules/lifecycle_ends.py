"""Effect: a thing's lifecycle set to its end, or a cluster sent back to its start, by a program no rule names.

Inventory, bare-metal and cluster managers rarely say ``delete``: the end comes as a VALUE given to a verb that
sets a state (``ironic node-set-provision-state UUID deleted``, ``foreman-cli host set-state web01
decommissioned``, ``xe vm-param-set uuid=… power-state=destroyed``, ``fleetctl machine mark node-3 destroyed``):
the machine is wiped or handed back, the record retired.  A cluster manager's ``init`` told not to ask
(``stolonctl … init -y``, ``rqlitectl cluster init -y``) writes a new, empty cluster over the one it manages.

Listing or filtering by such a state (``ironic node-list --provision-state deleted``, ``cmdbctl asset list --state
retired``), a state that is not an end (``set-state web01 active``), text in a message, and ``init`` of a project
(``npm init -y``: no cluster, no control program) stay quiet.

Installed patches rolled back (``opatch rollback -id N -silent``, ``datapatch -rollback all``, ``dnf history
rollback 5``, an efix or patch manager's ``-r`` with a label: ``emgr -r -L X``) take the fixes out of a running
product: the security and data fixes they carried are gone.  A deployment's or a migration's rollback without a
patch's name stays with the rules that read those.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# States that are the end of a machine's or a record's life.
_END_STATES = frozenset({"deleted", "destroyed", "terminated", "purged", "wiped", "erased", "decommissioned",
                         "retired", "deprovisioned", "scrapped", "disposed"})
# Parts of a word that set a state (`node-set-provision-state`, `set-status`, `mark`, `transition`).
_SETS = frozenset({"set", "mark", "state", "status", "transition", "provision", "lifecycle", "move", "change",
                   "update", "put"})
_READS = frozenset({"list", "ls", "get", "show", "describe", "search", "query", "find", "filter", "count", "where",
                    "select", "history", "log", "logs", "report", "export", "--filter", "--where", "help", "--help"})
_PROSE = frozenset({"-m", "--message", "--comment", "--title", "--description", "--note", "--reason", "--body",
                    "--subject", "--summary"})
_PARTS = lazy(r"[-_.:]")
_INIT = frozenset({"init", "initialize", "initialise", "reinit", "re-init", "reinitialize", "reinitialise"})
_NO_QUESTION = frozenset({"-y", "--yes", "--force", "--assume-yes", "--no-confirm", "--noconfirm",
                          "--yes-i-really-mean-it"})
_CONTROL_NAME = lazy(r"(ctl|adm|admin)$")


def _parts(word: str) -> set:
    return set(_PARTS.split(word.lower().lstrip("-")))


def _end_value(texts: list) -> Optional[str]:
    """The end state given as a value to a word that sets a state, or None."""
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1] in _PROSE)]
    for k, t in enumerate(texts):
        if k and texts[k - 1] in _PROSE:
            continue
        key, eq, value = t.partition("=")
        if eq and value.lower() in _END_STATES and _parts(key) & {"state", "status", "lifecycle"}:
            return t  # `power-state=destroyed`, `--status=decommissioned`
        if not eq and t.lower() in _END_STATES and k:
            before = texts[k - 1]
            if before.startswith("-") and _parts(before) & {"state", "status", "lifecycle"}:
                return f"{before} {t}"  # `--state deleted` after a set verb
            if not before.startswith("-") and any(_parts(w) & _SETS for w in operands[:4] if w != t):
                return t  # `node-set-provision-state UUID deleted`, `set-state web01 retired`
    return None


_ROLLBACK = frozenset({"rollback", "nrollback", "-rollback", "--rollback", "undo", "rollback-patch",
                       "patch-rollback", "remove-patch", "uninstall-patch"})
_PATCH_NAME = lazy(r"patch|fix|emgr")
_PATCH_IDS = frozenset({"-id", "--id", "-patch", "--patch", "-patch_id", "--patch-id", "-l", "-k", "all", "-all"})


def _patch_rollback(c: Ctx, lowered: list) -> Optional[str]:
    """``opatch rollback -id N``, ``datapatch -rollback all``, ``dnf history rollback 5``, ``emgr -r -L X``."""
    name = c.prog.lower()
    said = next((t for t in lowered[:3] if t in _ROLLBACK), None)
    if said is not None and (_PATCH_NAME.search(name) or "history" in lowered[:2] or set(lowered) & _PATCH_IDS and
                             "patch" in " ".join(lowered)):
        return said
    if re.search(r"(patch|fix)(rm|remove|del|delete|uninstall)$", name) and any(not t.startswith("-") for t in lowered):
        return "(a patch remover)"  # `patchrm 150400-01`
    if _PATCH_NAME.search(name) and name != "patch" and "-r" in lowered and set(lowered) & {"-l", "-k", "-id", "--id"}:
        return "-r"
    return None


@triggered_by(_END_STATES | _INIT | _ROLLBACK | {"patch", "fix", "emgr"})
def rule_lifecycle_end(c: Ctx) -> Optional[tuple]:
    """A state set to an end (deleted, destroyed, decommissioned), or a cluster initialised over without asking."""
    if c.prog in READ_ONLY or not c.texts:
        return None
    texts = c.texts[:32]
    lowered = [t.lower() for t in texts]
    rolled = _patch_rollback(c, lowered) if not set(lowered) & {"list", "info", "-h", "--help", "-n"} else None
    if rolled is not None:
        return MEDIUM, f"{c.prog} {rolled}: installed patches are taken out, with the fixes they carried ({c.text})"
    if any(t in _READS or _parts(t) & _READS for t in lowered if not t.startswith("-") or t in _READS):
        return None
    value = _end_value(texts)
    if value is not None:
        return MEDIUM, f"{c.prog} sets the state to {value}: the machine or record it names is ended ({c.text})"
    words = [t for t in lowered if not t.startswith("-")][:4]
    if set(words) & _INIT and set(lowered) & _NO_QUESTION and \
            (_CONTROL_NAME.search(c.prog.lower()) or any("cluster" in t for t in lowered)):
        said = next(t for t in words if t in _INIT)
        return MEDIUM, f"{c.prog} {said} without asking: a new, empty cluster is written over the one it manages " \
            f"({c.text})"
    return None
