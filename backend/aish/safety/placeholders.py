"""Placeholders in answers: ``rm -r <directory>``, ``dd if=<image> of=/dev/<disk>``.

Models and documentation write the part the user must supply as ``<name>``. A shell
reads ``<directory>`` as two redirections (input from ``directory``, output to what
follows), so the judge saw ``rm -r`` with no operand and said nothing, while
``rclone sync <source> <dest> --dry-run`` became a sync whose ``--dry-run`` was a
file it wrote to. The user runs the line only after filling the blanks in, so the
line that matters is the one with each placeholder read as the word it stands for.

When a placeholder's ``>`` has no word after it (the end of the line, a pipe, ``;``,
``&``, another ``<``), a shell refuses the line as it stands: only the filled reading
can ever run. Otherwise both readings are possible (``sc config <svc> binpath= …``
also parses as redirections) and the judge keeps the worse.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from aish.safety.lazy_regex import lazy

# `<dir>`, `<container_id>`, `<remote-name>`, `<file.txt>`: a name and nothing a shell would read inside it
_PLACEHOLDER = lazy(r"<([A-Za-z][\w.-]{0,63})>")
_NO_WORD_AFTER = lazy(r"[ \t]*(?:$|[\n|;&<)])")


@dataclass(frozen=True)
class Filled:
    """The line with its placeholders read as words, and whether a shell refuses the line as written."""
    text: str
    refused: bool


def filled(text: str) -> Optional[Filled]:
    """``text`` with every unquoted ``<name>`` read as ``name``; None when it holds none."""
    if "<" not in text or ">" not in text:
        return None
    pieces: list[str] = []
    refused = False
    quote = ""
    i = start = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "<" and (i == 0 or text[i - 1] not in "<$"):
            m = _PLACEHOLDER.match(text, i)
            if m and text[m.end():m.end() + 1] not in (">", "&", "("):  # `<a>>log` appends: a redirection
                pieces.append(text[start:i])
                pieces.append(m.group(1))
                refused = refused or _NO_WORD_AFTER.match(text, m.end()) is not None
                i = start = m.end()
                continue
        i += 1
    if not pieces:
        return None
    pieces.append(text[start:])
    return Filled("".join(pieces), refused)
