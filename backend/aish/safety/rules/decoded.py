"""Effect: text decoded and run by a shell or an interpreter, read as what it decodes to.  ``bash -c "$(echo
cm0gLXJmIH4K | base64 -d)"`` and ``eval "$(printf … | base64 --decode)"`` run a command nobody
sees on the line: a literal is decoded and judged as the command it is; a payload that is not a
literal (a file, a variable) is flagged as unread.
"""
from __future__ import annotations

import base64
import binascii
import shlex
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_DECODED = lazy(r"^\s*(?:echo|printf)\s+(?:-[neE]+\s+)?['\"]?([A-Za-z0-9+/=_-]{4,})['\"]?\s*\|\s*"
                r"(?:base64|openssl\s+(?:base64|enc\s+-base64))\s+(?:-\w+\s+)*(?:-d|--decode|-D)\b")
_ANY_DECODE = lazy(r"\|\s*(?:(?:base64|base32|basenc|openssl\s+(?:base64|enc))\b.*-(?:d|D|-decode)\b|xxd\b.*-r|"
                   r"rev\b|tr\s+['\"]?A-Za-z['\"]?\s+['\"]?N-ZA-Mn-za-m|gunzip\b|zcat\b|gzip\s+-d|uudecode\b)")
# `echo 726d202d7266207e | xxd -r -p`: a literal written in hex
_DECODED_HEX = lazy(r"^\s*(?:echo|printf)\s+(?:-[neE]+\s+)?['\"]?((?:[0-9a-fA-F]{2}){4,})['\"]?\s*\|\s*"
                    r"xxd\s+(?:-\w+\s+)*-(?:r|p)\b")
_RUNNERS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "eval", "source", "."}


def rule_decoded_run(c: Ctx) -> Optional[tuple]:
    if c.prog not in _RUNNERS and c.prog not in _INTERPRETERS:
        return None
    for w in c.args:
        for sub in w.subs:
            m = _DECODED.match(sub)
            hexed = _DECODED_HEX.match(sub) if m is None else None
            if m or hexed:
                try:
                    text = (base64.b64decode(m.group(1) + "=" * (-len(m.group(1)) % 4)) if m else
                            bytes.fromhex(hexed.group(1) if hexed else "")).decode("utf-8", "replace")
                except (binascii.Error, ValueError):
                    text = ""
                if text.strip() and c.prog not in _RUNNERS:  # `python3 -c "$(echo … | base64 -d)"`: the code given
                    text = " ".join(shlex.quote(text) if x is w else x.raw for x in c.words)
                found = c.recurse(text) if text.strip() else None
                if found is not None:
                    return found[0], f"{found[1]}, decoded from {'base64' if m else 'hex'} and run by {c.prog}"
            if _ANY_DECODE.search(sub):
                return MEDIUM, f"runs decoded text nobody read first ({c.text})"
    return None


# Interpreters whose code is given on the line (`python3 -c "$(echo … | base64 -d)"`).
_INTERPRETERS = {"python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php", "lua", "Rscript", "julia",
                 "bun", "deno", "pwsh", "powershell", "osascript", "tclsh", "groovy", "elixir", "erl", "scala",
                 "kotlin", "jshell", "ipython"}
RULES = {p: [rule_decoded_run] for p in _RUNNERS | _INTERPRETERS}
