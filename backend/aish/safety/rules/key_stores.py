"""Effect: an entry deleted from a store of keys, passwords or certificates whose program is named for it.

A program named for what it keeps (``pacman-key``, ``rpmkeys``, ``…-passwd``, ``…-certs``, ``…-secrets``)
told ``--delete ID`` or ``--remove ID`` takes that key out of the store: signatures it vouched for stop
verifying, a login stops working.  Listing, importing and refreshing stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_STORE_NAME = lazy(r"(key|keys|keyring|keychain|keystore|passwd|passwords?|secrets?|creds|credentials|certs?|"
                   r"wallet|tokens?)$", re.IGNORECASE)
_DELETES = frozenset({"--delete", "--remove", "--erase", "--del", "-delete", "-remove", "--delete-key",
                      "--remove-key", "--delete-keys", "--remove-keys"})


@triggered_by(_DELETES)
def rule_store_entry_deleted(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    option = next((t for t in texts if t.split("=", 1)[0] in _DELETES), None)
    if option is None:
        return None
    name = re.sub(r"\.(exe|sh|py)$", "", c.prog)
    if not _STORE_NAME.search(name):
        return None
    k = texts.index(option)
    if "=" not in option and (k + 1 == len(texts) or texts[k + 1].startswith("-")):
        return None  # nothing named
    return MEDIUM, f"{c.prog} {option.split('=', 1)[0]} takes an entry out of its store of keys or logins ({c.text})"
