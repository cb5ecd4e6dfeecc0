"""Effect: another user's session watched or controlled without asking them.

Shadowing a Remote Desktop session and sharing a desktop ask the person at it first; that question is the whole
protection.  Turning it off is what an administrator refuses:

- ``mstsc /shadow:ID /noConsentPrompt`` (with or without ``/control``): this connection skips the question;
- the Remote Desktop ``Shadow`` policy (``…\\Policies\\Microsoft\\Windows NT\\Terminal Services`` or the
  ``RDP-Tcp`` listener) set to 2 or 4, full control or viewing without the user's permission, by ``reg add``
  (a remote machine's ``\\\\host\\HKLM`` too), ``Set-ItemProperty``, ``New-ItemProperty``;
- desktop sharing told to skip its dialog: ``krfb --nodialog``, Vino's ``prompt-enabled false``, Apple Remote
  Desktop's ``kickstart … -setreqperm -reqperm no``.

Medium.  Shadowing that asks, the policy values that ask (1, 3), the prompt kept on stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.winpaths import typed_text

_SHADOW_KEY = lazy(r"(?i)(policies\\microsoft\\windows nt\\terminal services|winstations\\rdp-tcp)\\?$")
_WITHOUT_ASKING = {"2": "full control", "4": "viewing", "0x2": "full control", "0x4": "viewing",
                   "0x00000002": "full control", "0x00000004": "viewing"}


def _after(typed: list, *names: str) -> str:
    lowered = [t.lower() for t in typed]
    return next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t in names), "")


def _shadow_policy(c: Ctx, prog: str) -> str:
    """The value a registry writer gives Remote Desktop's ``Shadow`` policy ('' if it gives none)."""
    typed = [typed_text(w) for w in c.args]
    if prog == "reg":
        if [t.lower() for t in typed[:1]] != ["add"] or len(typed) < 2 or not _SHADOW_KEY.search(typed[1]):
            return ""
        return _after(typed, "/d") if _after(typed, "/v").lower() == "shadow" else ""
    bare = [t for k, t in enumerate(typed) if not t.startswith("-") and (k == 0 or not typed[k - 1].startswith("-"))]
    key = _after(typed, "-path", "-literalpath") or (bare[0] if bare else "")
    name = _after(typed, "-name") or (bare[1] if len(bare) > 1 else "")
    if not _SHADOW_KEY.search(key.replace("HKLM:", "HKLM")) or name.lower() != "shadow":
        return ""
    return _after(typed, "-value") or (bare[2] if len(bare) > 2 else "")


def rule_consent_skipped(c: Ctx) -> Optional[tuple]:
    """A session watched or controlled without its user being asked (see the module's doc)."""
    prog = c.prog.lower().removesuffix(".exe")
    lowered = [t.lower() for t in c.texts]
    said = ""
    if prog == "mstsc" and "/noconsentprompt" in lowered and any(t.startswith("/shadow") for t in lowered):
        said = "shadows another user's session without asking them" + (", in control" if "/control" in lowered else "")
    elif prog in ("reg", "set-itemproperty", "sp", "new-itemproperty"):
        what = _WITHOUT_ASKING.get(_shadow_policy(c, prog).lower().strip("'\""), "")
        if what:
            said = f"lets anyone allowed shadow every Remote Desktop session, {what} without the user's permission"
    elif prog == "krfb" and "--nodialog" in lowered:
        said = "shares the desktop without asking the person at it"
    elif prog == "gsettings" and "org.gnome.vino" in lowered and "prompt-enabled" in lowered and \
            lowered[-1:] == ["false"]:
        said = "shares the desktop without asking the person at it"
    elif prog == "kickstart" and "-setreqperm" in lowered and \
            re.search(r"-reqperm\s+no\b", " ".join(lowered)):
        said = "lets Remote Desktop observe and control without asking the person at the Mac"
    return (MEDIUM, f"{said} ({c.text})") if said else None


RULES: dict = {p: [rule_consent_skipped] for p in ("mstsc", "mstsc.exe", "reg", "reg.exe", "set-itemproperty", "sp",
                                                    "new-itemproperty", "krfb", "gsettings", "kickstart")}
