"""Effect: a security descriptor written in SDDL that gives everyone (or anonymous, guests, any user) full,
write or ownership rights, for any tool that takes one.

Windows' tools take access rules as SDDL strings, an ACE being ``(A;flags;rights;;;who)``: ``sc sdset``,
``Set-Service -SecurityDescriptorSddl``, ``Set-PSSessionConfiguration -SecurityDescriptorSddl``,
``Register-PSSessionConfiguration``, ``wevtutil sl … /ca:``, ``netsh http add urlacl … sddl=``,
``$acl.SetSecurityDescriptorSddlForm(…)``.  An allow ACE whose rights hold generic/file/key all or write
(``GA`` ``GW`` ``FA`` ``FW`` ``KA`` ``KW``), change of permissions or owner (``WD`` ``WO``), or a service's
change-config (``DC``), granted to Everyone (``WD``), Anonymous (``AN``), Guests (``BG``), Users (``BU``) or
Authenticated Users (``AU``), lets any of them take the object over.  Read/execute grants (``GR``, ``GX``: the
everyday ``urlacl`` reservation) and grants to administrators or SYSTEM stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_ACE = lazy(r"(?i)\(a;[^;()]*;([^;()]*);[^;()]*;[^;()]*;(wd|an|bg|bu|au|s-1-1-0|s-1-5-7|s-1-5-11|"
            r"s-1-5-32-545|s-1-5-32-546)\)")
_STRONG = frozenset({"ga", "gw", "fa", "fw", "ka", "kw", "wd", "wo", "dc"})
_WHO = {"wd": "everyone", "s-1-1-0": "everyone", "an": "anonymous callers", "s-1-5-7": "anonymous callers",
        "bg": "guests", "s-1-5-32-546": "guests", "bu": "every local user", "s-1-5-32-545": "every local user",
        "au": "every signed-in user", "s-1-5-11": "every signed-in user"}


@triggered_by(("(a;",), otherwise=False)
def may_grant(c: Ctx) -> bool:
    """Cheap: an ACE's opening ``(A;`` somewhere on the line."""
    return "(a;" in c.lowered or "(a;" in c.prog.lower()  # `$acl.SetSecurityDescriptorSddlForm('…(A;…)')`


def _strong(rights: str) -> bool:
    rights = rights.lower()
    if rights.startswith("0x"):
        try:
            return int(rights, 16) & 0x10000000 != 0 or int(rights, 16) & 0x000C0000 != 0  # GA, WD, WO
        except ValueError:
            return False
    return any(rights[k:k + 2] in _STRONG for k in range(0, len(rights) - 1, 2))


def rule_sddl_grant(c: Ctx) -> Optional[tuple]:
    for m in _ACE.finditer(c.prog.lower() + " " + c.lowered):
        if _strong(m.group(1)):
            who = _WHO[m.group(2).lower()]
            return MEDIUM, f"{c.prog}: the security descriptor gives {who} {m.group(1).upper()} rights: " \
                f"they may take the object over ({c.text})"
    return None
