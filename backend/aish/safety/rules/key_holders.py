"""A token, HSM or smart card initialised, or a disk's key slot unbound, by the holder's own tool.

Initialising a PKCS#11 token (``p11tool --initialize``, ``pkcs11-tool --init-token``, ``sc-hsm-tool
--initialize``) destroys every key and certificate on it; unbinding a LUKS slot (``clevis luks unbind -d DEV -s 2
-f``, ``clevis-luks-unbind``) removes the key a machine unlocks its disk with at boot, and ``-f`` skips the question.
Read for tools whose name says they hold keys (pkcs, p11, hsm, token, card, piv, fido, yubi, tpm, opensc, clevis,
luks): an initialise, erase, format, factory-reset or unbind word in an option or a subcommand.  Listings, reads and
PIN changes stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_WORDS = ("init", "erase", "format", "factory", "unbind", "wipe", "delete-token", "zeroi")
_HOLDER = lazy(r"pkcs|p11|hsm|token|card|piv|fido|yubi|tpm|opensc|clevis|luks", re.I)
_LOSES_KEYS = lazy(r"(?:--?)?(?:initiali[sz]e|init-token|init-card|initialize-token|erase(?:-card)?|"
                   r"format(?:-card)?|factory-reset|factory_reset|unbind|wipe-token|delete-token|zeroi[sz]e)"
                   r"(?:=\S*)?", re.I)


@triggered_by(_WORDS, otherwise=False)
def may_lose_keys(c: Ctx) -> bool:
    """Cheap: a key holder's name, and unbind or init among its words."""
    if not ("unbind" in c.prog or any(w in c.lowered for w in _WORDS)):
        return False
    return bool(_HOLDER.search(c.prog))


def rule_keys_lost(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    if set(texts) & {"--help", "-h", "list", "--list", "--list-tokens"}:
        return None
    said = "unbind" if c.prog.endswith("-unbind") else next((t for t in texts if _LOSES_KEYS.fullmatch(t)), None)
    if said is None:
        return None
    what = "a disk's key slot is unbound" if "unbind" in said.lower() else "every key and certificate on it is lost"
    return MEDIUM, f"{c.prog} {said}: {what} ({c.text})"
