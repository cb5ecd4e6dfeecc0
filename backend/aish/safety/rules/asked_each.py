"""A delete that asks before each file it removes: the user decides at every prompt, nothing goes unasked.

``rm -ri ~/Documents/old`` prompts for every file and directory, and only what the user answers yes to is
removed; as ``rm -i notes.txt`` (quiet already: one file), a recursive one is no loss the user has not chosen.
The last of ``-i``/``-f``/``-I`` given decides (``rm -if`` forces, ``rm -fi`` asks); ``-I`` asks once for the
whole set and does not count.  Answers fed in (``yes | rm -ri x``, ``rm -ri x < answers``, ``xargs rm -ri``) make
the prompts empty, and a severe target (``/``, the home, a disk, the system's top) keeps its level: a prompt per
file is no protection against having typed the wrong root.
"""
from __future__ import annotations

from aish.safety.rules.common import Ctx

_LONG = {"--interactive": "i", "--interactive=always": "i", "--force": "f", "--interactive=once": "I",
         "--interactive=never": "f"}


def asks_each(c: Ctx) -> bool:
    """Was ``rm`` told last to ask for each file, with nothing feeding it answers?"""
    if c.xargs or c.chain or any(r.op.startswith("<") for r in c.seg.redirects):
        return False
    last = ""
    for text in c.texts:
        if text == "--" or not text.startswith("-") or text == "-":
            if text == "--":
                break
            continue
        if text.startswith("--"):
            last = _LONG.get(text, last)
            continue
        for letter in text[1:]:
            if letter in "ifI":
                last = letter
    return last == "i"
