"""Effect: a command run in every repository of a tree, judged as that command, once per repository.

``git submodule foreach [--recursive] CMD``, ``repo forall [PROJECT…] -c CMD`` and ``gita super CMD`` run
CMD in each checkout: ``git submodule foreach git reset --hard`` discards the local work of every
submodule, as ``git reset --hard`` would in one.  What CMD would be judged alone decides the level;
reads (``git status``, ``git pull``) stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import Ctx


def rule_each_repo(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    inner = ""
    if c.prog == "git" and texts[:2] == ["submodule", "foreach"]:
        rest = [t for t in texts[2:] if t not in ("--recursive", "-q", "--quiet")]
        inner = " ".join(rest)
    elif c.prog == "repo" and texts[:1] == ["forall"] and "-c" in texts:
        inner = " ".join(texts[texts.index("-c") + 1:])
    elif c.prog == "gita" and texts[:1] == ["super"] and len(texts) > 1:
        verb = next((k for k, t in enumerate(texts[1:], 1) if t in _GIT_VERBS), None)  # repositories come first
        inner = "git " + " ".join(texts[verb:]) if verb is not None else ""
    if not inner.strip():
        return None
    found = c.recurse(inner)
    if found is None:
        return None
    return found[0], f"{found[1]}, in every repository of the tree"


_GIT_VERBS = frozenset("reset clean checkout restore stash push branch tag rebase gc prune switch".split())
RULES: dict = {"git": [rule_each_repo], "repo": [rule_each_repo], "gita": [rule_each_repo]}
