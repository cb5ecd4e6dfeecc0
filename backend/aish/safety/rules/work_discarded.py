"""Effect: what the user could still get back is thrown away, by tools other rules do not name.

- The trash emptied by any desktop or command-line trash tool (``ktrash5 --empty``, ``trash -e``,
  ``trashy empty --all``, ``rip --decompose``): deleted files can no longer be restored.
- A patch stack popped by force (``quilt pop -af``, ``guilt pop -a -f``, ``stg pop -a --force``): the
  changes not yet refreshed into the patches are lost.
- Checkouts synced by resetting them (``gclient sync --reset``, ``repo sync --force-remove-dirty``, ``jiri update
  -gc``): local changes, or whole checkouts, go.
- A bulk cloner pruning without asking (``ghorg clone org --prune --prune-no-confirm``): local clones that
  are gone upstream are deleted, with any work in them.
- A command run in every repository by a multi-repo runner (``mr run git clean -fdx``, ``vcs custom
  --args reset --hard``, ``meta exec "git reset --hard"``): judged as the git command, in each one.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_TRASH_NAME = re.compile(r"trash|recycl|wastebasket|graveyard|^rip$")
_EMPTIES = {"empty", "--empty", "-e", "-E", "purge", "--purge", "--decompose", "clear", "--clear", "prune",
            "--empty-all", "empty-all"}
_FORCE = {"-f", "--force", "-F"}
_RESETS = {"--reset", "--reset-hard", "--discard", "--discard-changes", "--hard", "--force-reset",
           "--force-remove-dirty", "-gc", "--gc", "--prune-dirty", "--delete-dirty"}
_NO_CONFIRM = lazy(r"^--(\w+-)?no-?confirm(ation)?$|^--(yes|assume-yes|non-interactive)$|^-y$")
_RUNNERS = {"run", "exec", "foreach", "forall", "custom", "each"}


@triggered_by(_TRASH_NAME, ("trash", "pop", "--prune", "git"), _RESETS, _RUNNERS)
def rule_work_discarded(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    prog = c.prog.lower()
    words = [t.lower() for t in texts if not t.startswith("-")]
    if _TRASH_NAME.search(prog) or words[:1] == ["trash"]:
        said = next((t for t in texts if t in _EMPTIES), None)
        if said is not None:
            return MEDIUM, f"{c.prog} {said} empties the trash: deleted files can no longer be restored ({c.text})"
        return None
    if words[:1] == ["pop"] and (set(texts) & _FORCE or any(re.fullmatch(r"-[a-z]*f[a-z]*", t) for t in texts)):
        return MEDIUM, (f"{c.prog} pop --force drops the changes not refreshed into the patches ({c.text})")
    if words[:1] and words[0] in ("sync", "update", "up", "checkout") and set(texts) & _RESETS:
        return MEDIUM, f"{c.prog} {words[0]} resets the checkouts: local changes are discarded ({c.text})"
    if any(t.startswith("--prune") for t in texts) and any(_NO_CONFIRM.match(t) for t in texts):
        return MEDIUM, f"{c.prog} prunes without asking: local copies gone upstream are deleted ({c.text})"
    return _run_in_each(c, words)


def _run_in_each(c: Ctx, words: list) -> Optional[tuple]:
    """``mr run git clean -fdx``, ``vcs custom --git --args reset --hard``: the git command, in each repository."""
    texts = c.texts
    if words[:1] == ["git"] and texts[:1] == ["git"]:  # `meta git clean -fdx`: git's command, in each repository
        inner = " ".join(texts)
    elif not words or words[0] not in _RUNNERS:
        return None
    elif "--args" in texts:
        inner = "git " + " ".join(texts[texts.index("--args") + 1:])
    elif "git" in texts:
        inner = " ".join(texts[texts.index("git"):])
    elif any(t.startswith("git ") for t in texts[1:]):
        inner = next(t for t in texts[1:] if t.startswith("git "))  # `meta exec "git reset --hard"`
    else:
        return None
    found = c.recurse(inner)
    if found is None:
        return None
    return found[0], f"{found[1]}, run by {c.prog} in each repository"
