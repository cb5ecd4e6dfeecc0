"""A Windows path in double quotes that ends in a backslash: ``"C:\\Program Files\\"``.

cmd and PowerShell take no escapes inside double quotes (PowerShell's escape is the backtick), so
``schtasks /query /tn "\\Microsoft\\Windows\\" & rd /s /q C:\\Users`` closes its quote after the
backslash.  A POSIX reading takes ``\\"`` for an escaped quote instead, the string runs on to the next
quote, and the rest of the line (here ``rd /s /q``) is read as text in it and never judged.

A quoted string whose text holds a backslash before the ``\\"`` that ends it, followed by a space, a
control operator or the end of the line, is a Windows path: its last backslash is doubled, so both
readings agree that the quote closes there.  A POSIX string that escapes its quotes (``"say \\"hi\\" to
me"``, ``"rm -rf \\"$DIR\\" && …"``) holds no other backslash before them and is left as it is.
"""
from __future__ import annotations

import re

_PATH_THEN_BACKSLASH_QUOTE = re.compile(r'"([^"\\\n]*\\[^"\n]*?)(?<!\\)\\"(?=[\s|;&),]|$)')


def closed(text: str) -> str:
    """``text`` with each Windows path's closing ``\\"`` written ``\\\\"`` (see the module's doc)."""
    if '\\"' not in text:
        return text
    return _PATH_THEN_BACKSLASH_QUOTE.sub(lambda m: '"' + m.group(1) + '\\\\"', text)
