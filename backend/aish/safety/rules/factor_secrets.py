"""Effect: a second factor's secret replaced without asking, by an authenticator's own tool.

``google-authenticator --force`` writes a new TOTP secret over ``~/.google_authenticator`` (or ``-s FILE``) with no
question; ``ykman otp chalresp --force --generate 2`` and ``ykman otp static --force 1`` write a new secret over a
YubiKey slot, ``ykpersonalize -1 … -y`` the same with the old tool, ``ykman oath accounts add --force NAME`` and
pass-otp's ``pass otp insert --force NAME`` over an enrolled account. Every phone or key enrolled with the old
secret stops working; where it guards ssh or sudo (pam_google_authenticator, pam_yubico) the next login fails.
Resets of a whole key are read by the verb rules; listing, showing codes and a first enrolment (no force) stay
quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_FACTOR_TOOL = lazy(r"authenticator|(^|[-_.])(otp|oath|totp|hotp|2fa|mfa)([-_.]|$)|^yk|yubi|nitropy|^solo|"
                    r"onlykey", re.IGNORECASE)
# what writes a secret (a tool named for the authenticator writes one whenever it runs)
_WRITES = frozenset({"add", "static", "chalresp", "hotp", "yubiotp", "generate", "--generate", "-g", "new", "init",
                     "write", "set", "-1", "-2", "program", "put", "insert"})
_FORCE = frozenset({"--force", "-f", "-y", "--yes", "--no-confirm", "--noconfirm", "--force-overwrite"})
_READS = frozenset({"list", "info", "show", "code", "codes", "calculate", "verify", "get", "ls", "status", "--help",
                    "-h", "--version", "dump", "export"})


@triggered_by(("-f", "-y", "confirm"), otherwise=False)
def may_replace(c: Ctx) -> bool:
    """Cheap: a force word on the line of an authenticator's tool."""
    return ("-f" in c.lowered or "-y" in c.lowered or "confirm" in c.lowered) and \
        (bool(_FACTOR_TOOL.search(c.prog)) or any(_FACTOR_TOOL.search(t) for t in c.texts[:1]))  # `pass otp insert -f`


def rule_factor_secret_replaced(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    forced = next((t for t in lowered if t in _FORCE), None)
    if forced is None or set(lowered) & _READS:
        return None
    if "authenticator" not in c.prog.lower() and not set(lowered) & _WRITES:
        return None
    return MEDIUM, f"{c.prog} {forced} writes a new second-factor secret over the old one without asking: " \
        f"what was enrolled with it stops working ({c.text})"
