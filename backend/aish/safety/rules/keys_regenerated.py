"""Effect: a tunnel's or an interface's private key replaced with one generated on the spot, by any program.

A VPN interface is reached by peers that hold its public key; its private key set to a fresh one
(``wg set wg0 private-key <(wg genkey)``, NetworkManager's ``wireguard.private-key "$(wg genkey)"``,
OpenWrt's ``uci set network.wg0.private_key="$(wg genkey)"``, a unit's ``PrivateKey`` written the same way)
changes its identity: no peer's configuration matches any more and every tunnel to it stops, the session the
command came over included.  What these share is a key named ``private key`` given the output of a generator
(``$(…)``, ``<(…)`` or backquotes around genkey, keygen, genpkey, generate, rand).

A key read or shown, and a key given from a file that holds it (the interface set up with its own key),
stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_PRIVATE_KEY = lazy(r"private[-_.]?key", re.IGNORECASE)
_GENERATED = lazy(r"(\$\(|<\(|`)[^)`]*(genkey|keygen|genpkey|generate|rand\b|pki --gen)", re.IGNORECASE)
_READS = frozenset({"show", "showconf", "get", "list", "print", "--get", "-g", "export"})


@triggered_by("privatekey", "private-key", "private_key", "private.key", otherwise=False)
def may_replace_key(c: Ctx) -> bool:
    return bool(_PRIVATE_KEY.search(c.lowered))


def rule_key_regenerated(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    if {t.lower() for t in texts} & _READS:
        return None
    for k, t in enumerate(texts):
        if not _PRIVATE_KEY.search(t):
            continue
        given = " ".join(texts[k:k + 2]) if not _GENERATED.search(t) else t
        if _GENERATED.search(given):
            return MEDIUM, f"{c.prog} gives the interface a private key generated on the spot: no peer matches " \
                f"it any more and every tunnel to it stops ({c.text})"
    return None
