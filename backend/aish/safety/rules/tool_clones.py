"""Clones and wrappers of rm and git that no rule names, judged as the tool they stand for.

Removers written to be faster or safer than rm take its operands without its letters: ``rmz dir1 dir2`` deletes
recursively and without asking (rm -rf), ``rip``/``rip2`` bury what they are given recursively in a graveyard
(rm -r, restorable: medium at most).  Wrappers hand their words to git: ``etckeeper vcs reset --hard HEAD~5`` is git
run in /etc.  git's helper programs (``git-sweep``, ``git-trim``, ``git-gone``, ``git-clean-branches``) delete
branches, often on the remote too, and ask first unless told not to: a cleanup word with a force or no-confirm
option is medium, their previews and dry runs quiet.
"""
from __future__ import annotations

import re
import shlex
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# name -> (the tool it stands for with the letters it implies, whether what it removes can be restored)
_REMOVERS = {"rmz": ("rm -rf", False), "rip": ("rm -r", True), "rip2": ("rm -r", True)}
_RESTORE_OPTIONS = frozenset({"-u", "--unbury", "-s", "--seance", "--decompose", "-d", "--inspect", "-i",
                              "--graveyard"})
# Wrappers that run git with the words after their own subcommand.
_GIT_WRAPPERS = {"etckeeper": ("vcs",)}
_CLEANUP = lazy(r"clean|trim|sweep|prune|delete|purge|remove|gone|tidy|nuke", re.I)
_NO_QUESTION = frozenset({"--force", "-f", "--yes", "-y", "--no-confirm", "--noconfirm", "--no-prompt",
                          "--no-interactive", "-D"})


@triggered_by(tuple(_REMOVERS), tuple(_GIT_WRAPPERS), ("git-",), otherwise=False)
def may_stand_for(c: Ctx) -> bool:
    """Cheap: one of the names, or a git helper's."""
    return c.prog in _REMOVERS or c.prog in _GIT_WRAPPERS or c.prog[:4] == "git-"


def _quoted(texts: list) -> str:
    return " ".join(shlex.quote(t) for t in texts)


def rule_stands_for(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]
    if c.prog in _REMOVERS:
        as_rm, restorable = _REMOVERS[c.prog]
        if not texts or set(texts) & _RESTORE_OPTIONS:
            return None
        found = c.recurse(f"{as_rm} {_quoted([t for t in texts if not t.startswith('-')])}")
        if found is None or found[0] < MEDIUM:
            return found
        level = MEDIUM if restorable else found[0]
        return level, f"{c.prog} removes recursively what it is given, as {as_rm}: {found[1]}" \
            f"{' (buried in its graveyard, restorable)' if restorable else ''}"
    if c.prog in _GIT_WRAPPERS:
        subs = _GIT_WRAPPERS[c.prog]
        if texts[:1] and texts[0] in subs and len(texts) > 1:
            found = c.recurse(f"git {_quoted(texts[1:])}")
            return (found[0], f"{c.prog} {texts[0]} runs git: {found[1]}") if found else None
        return None
    lowered = [t.lower() for t in texts]
    if (_CLEANUP.search(c.prog) or any(_CLEANUP.search(t) for t in lowered if not t.startswith("-"))) and \
            set(texts) & _NO_QUESTION and not {"--dry-run", "-n", "preview", "--help"} & set(lowered):
        return MEDIUM, f"{c.prog} deletes branches without asking ({c.text})"
    return None
