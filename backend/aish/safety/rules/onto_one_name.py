"""Effect: many files moved or copied onto ONE fixed name: each overwrites the one before, and only the last
one is left.

The name given to every match holds no part of the match (no ``{}``, ``$1``, ``(*)``…): ``find . -name
'*.log' -exec mv {} /tmp/all.log \\;``, ``fd -e log -x mv {} all.log``, ``ls | xargs -I F mv F out.txt``,
``parallel mv {} merged.csv ::: *.csv``, zsh's ``zmv -f '(*).txt' 'all.txt'``, perl's ``rename -f
's/.*/all.txt/' *``.  A target that is a directory (``mv {} /backup/``, a name with no extension) is where
files go side by side and stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_MOVERS = frozenset({"mv", "cp", "gmv", "gcp", "ln"})
NAMES = frozenset({"find", "gfind", "fd", "fdfind", "xargs", "parallel", "zmv", "zcp", "zln", "rename",
                   "perl-rename", "prename", "file-rename"}) | _MOVERS
_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch"})
_END = frozenset({";", "\\;", "+"})
_A_FILE = lazy(r"^[^{}$]*\.[A-Za-z0-9]{1,6}$")  # a name with an extension, not a directory
_BACKREF = lazy(r"\$|#\d|\(|\\\d|\{\}")


def rule_onto_one_name(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if prog in ("zmv", "zcp", "zln"):
        return _zmv(c)
    if prog in ("rename", "perl-rename", "prename", "file-rename"):
        return _rename(c)
    texts = c.texts
    if prog in _MOVERS:  # run by xargs or parallel for each input: `xargs -I F mv F out.csv`
        words = texts[:texts.index(":::")] if ":::" in texts else texts
        operands = [t for t in words if not t.startswith("-")]
        return _judged(c, [prog] + operands, operands[0]) if c.xargs and len(operands) == 2 else None
    if prog == "xargs":
        at = next((k for k, t in enumerate(texts[:-1]) if t in ("-I", "-i", "--replace")), None)
        if at is None:
            return None
        holder = texts[at + 1]
        words = [t for t in texts[at + 2:] if not t.startswith("-")]
        return _judged(c, words, holder)
    if prog == "parallel":
        words = texts[:texts.index(":::")] if ":::" in texts else texts
        return _judged(c, [t for t in words if not t.startswith("-")], "{}")
    start = next((k for k, t in enumerate(texts) if t in _EXEC), None)
    if start is None:
        return None
    words = []
    for t in texts[start + 1:]:
        if t in _END:
            break
        if not t.startswith("-"):
            words.append(t)
    return _judged(c, words, "{}")


def _judged(c: Ctx, words: list, holder: str) -> Optional[tuple]:
    """``mv HOLDER TARGET``: every match onto TARGET when TARGET is a file name that does not hold the match."""
    if len(words) != 3 or words[0] not in _MOVERS or holder not in words[1]:
        return None
    target = words[2]
    if holder in target or not _A_FILE.match(target):
        return None
    return MEDIUM, f"{c.prog} {words[0]}s every match onto {target}: each overwrites the one before, only the " \
        f"last is left ({c.text})"


def _zmv(c: Ctx) -> Optional[tuple]:
    operands = [t for t in c.texts if not t.startswith("-")]
    if len(operands) != 2 or not re.search(r"[*?]", operands[0]) or _BACKREF.search(operands[1]) or \
            re.search(r"[*?]", operands[1]):
        return None
    return MEDIUM, f"{c.prog} gives every file matching {operands[0]} the one name {operands[1]}: only the last " \
        f"is left ({c.text})"


def _rename(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not {"-f", "--force"} & set(texts):
        return None
    expr = next((t for t in texts if re.match(r"^s(.)", t)), "")
    m = re.match(r"^s(.)(.*?)\1(.*?)\1\w*$", expr)
    if m is None or ".*" not in m.group(2) and "^.+$" not in m.group(2) or _BACKREF.search(m.group(3)) or \
            "&" in m.group(3):
        return None
    return MEDIUM, f"{c.prog} -f renames every file to {m.group(3) or 'nothing'}: only the last is left ({c.text})"
