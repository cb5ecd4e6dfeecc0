"""Effect: a protection switched off inside the running shell by writing over its memory.

PowerShell reaches its own protections through reflection and raw memory: AMSI (the scan every script passes),
ETW (the events endpoint products read) and script-block logging are flags and functions in the process.  Set one
private field (``[Ref].Assembly.GetType('…AmsiUtils').GetField('amsiInitFailed','NonPublic,Static').SetValue($null,
$true)``, ``…PSEtwLogProvider`` ``etwProvider``/``m_enabled``, ``cachedGroupPolicySettings`` for script-block
logging), or overwrite a function's first bytes (``AmsiScanBuffer``, ``EtwEventWrite`` made writable with
``VirtualProtect`` and patched with ``Marshal]::Copy``/``WriteProcessMemory``), and everything the session runs
afterwards is neither scanned nor logged.  The shell's reading splits such a line into pieces at its brackets, so
it is judged whole: a protection's name and a write into memory or a private field on the same line.  Reading a
field (``GetValue``) or naming AMSI in text stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, fragment

_PROTECTION = lazy(r"amsi(InitFailed|Context|Session|Utils|ScanBuffer|OpenSession|\.dll)|PSEtwLogProvider|"
                   r"etwProvider|EtwEventWrite|EventProvider\b.*m_enabled|m_enabled|ScriptBlockLogging|"
                   r"cachedGroupPolicySettings|EnableTranscripting|signatures\b.*HashSet", re.IGNORECASE)
_WRITE = lazy(r"\.SetValue\s*\(|Marshal\]::Copy\s*\(|WriteProcessMemory|VirtualProtect|"
              r"::Write(Int\d+|Byte|IntPtr)\s*\(|"
              r"\bRtlMoveMemory\b|\[['\"]Enable\w+['\"]\]\s*=\s*0", re.IGNORECASE)


def line_protection_patched(text: str) -> Optional[tuple]:
    """``[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils').GetField('amsiInitFailed',
    'NonPublic,Static').SetValue($null,$true)``: judged on the whole line."""
    if "alue" not in text and "opy" not in text and "emory" not in text and "rotect" not in text \
            and "rite" not in text and "] =" not in text and "]=" not in text:
        return None  # every write this reads holds one of these
    if not _WRITE.search(text):
        return None
    m = _PROTECTION.search(text)
    if m is None:
        return None
    found = m.group(0).lower()
    what = "AMSI" if "amsi" in found else "script-block logging" if "cached" in found or "script" in found \
        or "transcript" in found else "ETW event logging"
    return MEDIUM, f"switches {what} off inside the shell: what runs next is neither scanned nor logged " \
                   f"({fragment([text])})"
