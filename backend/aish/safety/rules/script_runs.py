"""Effect: a script file handed to a shell runs as if it were run by its own name.

``./k3s-uninstall.sh --yes`` is judged by the script's name and arguments (a script named for
uninstalling, tearing down or wiping does that); ``bash k3s-uninstall.sh --yes``, ``sudo sh
/opt/agent/uninstall.sh`` and ``source ./teardown.sh`` run the same file, so they are judged as
that same command.  A syntax check (``bash -n``) or a shell told a command string (``-c``, judged
elsewhere) runs nothing of the file.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import Ctx
from aish.safety.lazy_regex import lazy

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "source", "."})
_SCRIPT = lazy(r"[\w.-]\.(sh|bash|zsh|ksh)$")
# Shell options that take a value (`bash -o pipefail x.sh`, `bash --rcfile f x.sh`).
_VALUED = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


def rule_script_run(c: Ctx) -> Optional[tuple]:
    """``bash NAME.sh ARGS``: judged as ``NAME.sh ARGS``."""
    texts = c.texts
    k = 0
    while k < len(texts) and texts[k][:1] in "-+" and texts[k] != "--":
        if texts[k] == "-c" or texts[k][:1] == "-" and not texts[k].startswith("--") and \
                ("c" in texts[k] or "n" in texts[k]):
            return None  # a command string (judged elsewhere) or a syntax check: the file does not run
        k += 2 if texts[k] in _VALUED else 1
    if k < len(texts) and texts[k] == "--":
        k += 1
    if k >= len(texts) or not _SCRIPT.search(texts[k]):
        return None
    found = c.recurse(" ".join(w.raw for w in c.args[k:]))
    return (found[0], f"{found[1]}, run by {c.prog}") if found else None


RULES: dict = {p: [rule_script_run] for p in SHELLS}
