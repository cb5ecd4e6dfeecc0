"""Effect: whatever git's rules say, for CLIs that are git by another name.

Some programs wrap git and hand it what they do not know (``hub``, ``lab``), or copy its command
line for another kind of data (Dolt: "git for data": ``dolt reset --hard``, ``dolt push --force``,
``dolt branch -D``).  Their history-rewriting and discarding forms mean what git's do, so they
are judged as the same git command; their own subcommands (``hub pull-request``, ``dolt sql``)
go on to the other rules as before.
"""
from __future__ import annotations

import shlex
from typing import Optional

from aish.safety.rules.common import Ctx

MIRRORS = frozenset({"dolt", "hub", "lab"})
# git's subcommands whose rules judge history and the working tree; the rest are the program's own words.
_GIT_SUBCOMMANDS = frozenset("push reset clean checkout restore switch stash filter-branch filter-repo rebase reflog "
                             "gc prune update-ref branch tag remote".split())


def rule_as_git(c: Ctx) -> Optional[tuple]:
    """``dolt reset --hard``, ``hub push -f origin master``: judged as ``git …``."""
    sub = next((t for t in c.texts if not t.startswith("-")), "")
    if sub not in _GIT_SUBCOMMANDS:
        return None
    found = c.recurse("git " + " ".join(shlex.quote(t) for t in c.texts))
    if found is None:
        return None
    return found[0], f"{found[1]} (as {c.prog} runs it, a git command)"


RULES: dict = {p: [rule_as_git] for p in MIRRORS}
