"""The names a command line sets for the rest of itself: `d=$(mktemp -d) && cp KEY "$d"/` sets d before cp runs.

A segment of assignments alone (`d=…`, `export T=…`, `local X=…`) sets its names for the segments after it; a
prefix (`X=1 cmd`) sets X for cmd alone.  The preview reads this so that it does not call such a name unset."""
from __future__ import annotations

import re

from aish.safety.lazy_regex import lazy

_ASSIGNMENT = lazy(r"^([A-Za-z_]\w*)=(.*)$", re.DOTALL)
_DECLARERS = frozenset({"export", "local", "declare", "typeset", "readonly"})


def assigned(words: list) -> dict:
    """The names a segment of assignments alone sets, each to its literal value or to None where a command prints
    it (set, its value unknown to a preview that runs nothing); {} when the segment runs a program."""
    if words and words[0].text in _DECLARERS:
        words = [w for w in words[1:] if not w.text.startswith("-")]
    found: dict = {}
    for w in words:
        m = _ASSIGNMENT.match(w.raw)
        if m is None:
            return {}
        literal = not w.subs and "$" not in m.group(2) and "`" not in m.group(2)
        found[m.group(1)] = w.text.split("=", 1)[1] if literal else None
    return found
