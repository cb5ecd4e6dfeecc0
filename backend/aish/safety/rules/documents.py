"""Effect: a user's own document lost in the classic ways: emptied by a redirection from nothing
(``: > ~/Documents/budget.ods``, ``true > ~/notes.md``, ``cat /dev/null > ~/thesis.tex``), written
over from an empty input (``cp /dev/null ~/report.txt``, ``sort -o ~/data.csv /dev/null``), replaced
by a forced move (``mv -f old.odt ~/Documents/thesis.odt``) or unlinked by name.

A document is a file under the user's home that is not a dotfile, a backup, a log or a cache
(``~/Documents/contract.pdf``, ``~/notes/todo.md``); a project's files, logs and build output
stay routine (``: > build.log``, ``mv -f build/app.js dist/``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, classify
from aish.safety.shell_words import Segment
from aish.safety.unwrap import unwrap
from aish.safety.lazy_regex import lazy

# Commands that write nothing: a `>` after them leaves the file empty.
_WRITES_NOTHING = frozenset({":", "true", "false"})
_ROUTINE = lazy(r"\.(log|out|err|pid|lock|tmp|part|crdownload|cache)$|/(\.cache|tmp|Downloads)/", re.IGNORECASE)
_OUTPUT_OPTIONS = frozenset({"-o", "--output"})


_HOME_VARIABLE = lazy(r"^(\$HOME|\$\{HOME\}|\"\$HOME\")(?=/)")
_FORCE_LETTERS = lazy(r"-[a-zA-Z]*f[a-zA-Z]*")


def is_document(path: str) -> bool:
    """A file of the user's own under home: ``~/Documents/x.pdf``, ``$HOME/notes/todo.md``."""
    if path.endswith("/") or _ROUTINE.search(path):
        return False
    path = _HOME_VARIABLE.sub("~", path)
    return classify(path) == "user" and "." in path.rsplit("/", 1)[-1]


def rule_emptied(seg: Segment) -> Optional[tuple]:
    """``: > ~/doc``, ``cat /dev/null > ~/doc``, ``cp /dev/null ~/doc``, ``sort -o ~/doc /dev/null``."""
    outs = [r.target.text for r in seg.redirects if r.target is not None and r.op in (">", "1>", ">|", "1>|")]
    if not outs and not any(w.text == "/dev/null" for w in seg.words) and not seg.redirects:
        return None  # the common case, decided without unwrapping the words
    words = [w.text for w in unwrap(seg.words)[0]] if seg.words else []
    if words[:1] == ["tee"] and any(r.op == "<" and r.target is not None and r.target.text == "/dev/null"
                                    for r in seg.redirects):
        outs = outs + [t for t in words[1:] if not t.startswith("-")]  # `tee ~/doc < /dev/null`
        words = [":"]
    empty = not words or words[0] in _WRITES_NOTHING or words[:2] == ["cat", "/dev/null"] or \
        words[0] in ("printf", "echo") and all(t in ("''", '""', "", "-n") for t in words[1:])
    for out in outs:
        if empty and is_document(out):
            return MEDIUM, f"> {out} empties your document {out}: what it held is lost"
    if "/dev/null" not in words[1:] or words[0] in ("cat", "echo", "printf"):
        return None
    for k, t in enumerate(words[1:], 1):
        given = words[k + 1] if t in _OUTPUT_OPTIONS and k + 1 < len(words) else \
            t.split("=", 1)[1] if t.startswith("--output=") else t if not t.startswith("-") else ""
        if given and given != "/dev/null" and is_document(given):
            return MEDIUM, f"{words[0]} writes nothing from /dev/null over your document {given} ({' '.join(words)})"
    return None


def rule_document_replaced(c: Ctx) -> Optional[tuple]:
    """``mv -f old.odt ~/Documents/thesis.odt`` replaces the document; ``unlink ~/Documents/x.pdf`` deletes it."""
    operands = [t for t in c.texts if not t.startswith("-")]
    if c.prog == "unlink" and operands and is_document(operands[0]):
        return MEDIUM, f"unlink deletes your document {operands[0]} (no trash, no question) ({c.text})"
    forced = any(t in ("-f", "--force") or _FORCE_LETTERS.fullmatch(t) for t in c.texts)
    if c.prog == "mv" and forced and len(operands) >= 2 and "-t" not in c.texts and is_document(operands[-1]):
        return MEDIUM, f"mv -f writes over your document {operands[-1]} if it exists ({c.text})"
    return None


RULES: dict = {"mv": [rule_document_replaced], "unlink": [rule_document_replaced]}
