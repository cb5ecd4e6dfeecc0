"""Effect: a command's output written over what it reads or over a file that matters.

``sort data.csv > data.csv`` empties ``data.csv`` before ``sort`` opens it: the shell truncates
a ``>`` target first, so a command (or a pipe feeding it) that reads the same file reads nothing
and the file ends empty.  ``tar czf ~/.zshrc ~/docs`` writes the archive over a start-up file: an
archiver's own output is judged like a redirection.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, describe, target
from aish.safety.rules.content import overwrite_level
from aish.safety.shell_words import Segment, Word
from aish.safety.unwrap import unwrap

# Programs whose operands are text, not files they read.
_TEXT_ARGS = {"echo", "printf", "print", "true", "false", ":", "tee", "yes", "seq", "date", "expr", "test", "["}
_MAX_OPERANDS = 64  # operands compared per segment: the judgement stays linear


def rule_truncates_input(seg: Segment, chain: list) -> Optional[tuple]:
    """``cmd f > f``, ``cat f | tr a-z A-Z > f``: the file is emptied before it is read."""
    outs = [r.target.text for r in seg.redirects if r.target is not None and r.op in (">", "1>", ">|", "1>|")
            and not r.target.text.startswith("/dev/")]
    if not outs:
        return None
    read: set = set()
    for s in [seg] + chain:
        words = unwrap(s.words)[0] if s.words else []
        if words and words[0].text.rsplit("/", 1)[-1] not in _TEXT_ARGS:
            read |= {_norm(w.text) for w in words[1:_MAX_OPERANDS] if not w.text.startswith("-") and not w.subs}
        read |= {_norm(r.target.text) for r in s.redirects if r.op == "<" and r.target is not None}
    for out in outs:
        if _norm(out) in read:
            return MEDIUM, f"> {out} empties {out} before the command reads it: the file ends empty"
    return None


def _norm(path: str) -> str:
    return re.sub(r"^(\./)+", "", path)


def rule_archive_over(c: Ctx) -> Optional[tuple]:
    """``tar czf ~/.zshrc ~/docs``: an archive created over a file that matters."""
    texts = c.texts
    if not texts:
        return None
    first = texts[0].lstrip("-")
    creates = "--create" in texts or re.fullmatch(r"[a-zA-Z]*c[a-zA-Z]*", first or "") is not None and \
        not texts[0].startswith("--")
    if not creates:
        return None
    out = None
    for k, t in enumerate(texts):
        if t.startswith("--file="):
            out = t.split("=", 1)[1]
        elif (t == "-f" or k == 0 and "f" in first and not t.startswith("--") or
              re.fullmatch(r"-[a-zA-Z]*f", t)) and k + 1 < len(texts):
            out = texts[k + 1]
            break
    if not out or out == "-":
        return None
    t = target(Word(out, out, has_var="$" in out))
    level = overwrite_level(t) if t.kind != "home" else None
    if level is None:
        return None
    return level, f"{c.prog} writes the archive over {describe(t)} ({c.text})"


RULES: dict = {p: [rule_archive_over] for p in ("tar", "gtar", "bsdtar")}
