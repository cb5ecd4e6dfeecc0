"""Effect: the search path every program is found by, replaced or emptied for good (Windows spellings).

``setx PATH "C:\\Tools" /M``, ``setx PATH ""``, ``[Environment]::SetEnvironmentVariable('Path', '', 'Machine')``,
``reg add "HKLM\\…\\Session Manager\\Environment" /v Path /d C:\\Tools /f``, ``Set-ItemProperty
HKCU:\\Environment -Name Path -Value …``: unlike ``$env:Path = …`` (this session only), the value is stored,
and every new window, service and logon finds no program the old path listed.  A value that keeps the old
path (``%PATH%;C:\\x``, ``$env:Path + ';C:\\x'``, ``"$oldPath;C:\\x"``) adds to it and stays quiet, as do
other variables.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.winpaths import typed_text
from aish.safety.lazy_regex import lazy

_NAMES = frozenset({"path", "pathext", "psmodulepath", "comspec", "systemroot", "windir"})
_KEEPS = lazy(r"%path%|\$env:path|\$\{env:path\}|\$\w*path\w*|getenvironmentvariable", re.IGNORECASE)
_DOTNET = lazy(r"\[(?:system\.)?environment\]::setenvironmentvariable\(\s*(['\"])(\w+)\1\s*,\s*(.*?)\s*,\s*"
               r"(?:['\"]?(?:\[(?:system\.)?environmentvariabletarget\]::)?(machine|user)['\"]?)\s*\)",
               re.IGNORECASE | re.DOTALL)
_ENV_KEY = lazy(r"(\\session manager\\environment|^(hkcu|hkey_current_user|registry::hkey_current_user)"
                r":?\\environment)\\?$", re.IGNORECASE)


def _replaced(name: str, value: str) -> bool:
    return name.lower() in _NAMES and not _KEEPS.search(value)


def rule_setx(c: Ctx) -> Optional[tuple]:
    """``setx PATH "C:\\Tools" /M``, ``reg add …\\Environment /v Path /d …``, ``sp …\\Environment``."""
    prog = c.prog.lower().removesuffix(".exe")
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    if prog == "setx":
        bare = [t for k, t in enumerate(typed) if not t.startswith(("/", "-")) and
                (not k or lowered[k - 1] not in ("/s", "/u", "/p", "/d", "/r", "/x"))]  # their values: not ours
        if len(bare) >= 2 and "/k" not in lowered and "/f" not in lowered and _replaced(bare[0], bare[1]):
            where = "for every user" if "/m" in lowered else "for this user"
            return MEDIUM, f"setx stores a new {bare[0]} {where}: programs on the old one are no longer found " \
                           f"({c.text})"
        return None
    if prog == "reg" and lowered[:1] == ["add"] and len(typed) > 1 and _ENV_KEY.search(lowered[1]):
        name = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "/v"), "")
        value = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "/d"), "")
    elif prog in ("set-itemproperty", "sp", "new-itemproperty") and any(_ENV_KEY.search(t) for t in lowered):
        name = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-name"), "")
        value = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-value"), "")
    else:
        return None
    if _replaced(name, value):
        return MEDIUM, f"stores a new {name} in the registry: programs on the old one are no longer found ({c.text})"
    return None


def line_path_replaced(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """``[Environment]::SetEnvironmentVariable('Path', '', 'Machine')``: stored, not this session's."""
    if "ariable(" not in text or "setenvironmentvariable" not in text.lower():
        return None
    m = _DOTNET.search(text)
    if m is None or not _replaced(m.group(2), m.group(3)):
        return None
    return MEDIUM, f"stores a new {m.group(2)} for the {m.group(4).lower()}: programs on the old one are no longer " \
                   f"found ({' '.join(text.split()[:4])})"


RULES: dict = {p: [rule_setx] for p in ("setx", "setx.exe", "reg", "reg.exe", "set-itemproperty", "sp",
                                        "new-itemproperty")}
