"""Effect: text decoded and run by a shell, read as what it decodes to.  ``bash -c "$(echo
cm0gLXJmIH4K | base64 -d)"`` and ``eval "$(printf … | base64 --decode)"`` run a command nobody
sees on the line: a literal is decoded and judged as the command it is; a payload that is not a
literal (a file, a variable) is flagged as unread.
"""
from __future__ import annotations

import base64
import binascii
import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx

_DECODED = re.compile(r"^\s*(?:echo|printf)\s+(?:-[neE]+\s+)?['\"]?([A-Za-z0-9+/=_-]{4,})['\"]?\s*\|\s*"
                      r"(?:base64|openssl\s+(?:base64|enc\s+-base64))\s+(?:-\w+\s+)*(?:-d|--decode|-D)\b")
_ANY_DECODE = re.compile(r"\|\s*(?:base64|openssl\s+(?:base64|enc\s+-base64)|xxd\s+-r|basenc)\b.*-(?:d|D|r|-decode)\b")
_RUNNERS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "eval", "source", "."}


def rule_decoded_run(c: Ctx) -> Optional[tuple]:
    if c.prog not in _RUNNERS:
        return None
    for w in c.args:
        for sub in w.subs:
            m = _DECODED.match(sub)
            if m:
                try:
                    text = base64.b64decode(m.group(1) + "=" * (-len(m.group(1)) % 4)).decode("utf-8", "replace")
                except (binascii.Error, ValueError):
                    text = ""
                found = c.recurse(text) if text.strip() else None
                if found is not None:
                    return found[0], f"{found[1]}, decoded from base64 and run by {c.prog}"
            if _ANY_DECODE.search(sub):
                return MEDIUM, f"runs decoded text nobody read first ({c.text})"
    return None


RULES = {p: [rule_decoded_run] for p in _RUNNERS}
