"""Effect: a protection switched off by a setting, in any configuration tool's words.

The setting's NAME says it protects (``stonith-enabled``, ``receive.denyNonFastForwards``,
``security.enabled``, ``auth/@required``, ``no-quorum-policy``) and its VALUE turns it off (``false``, ``0``,
``no``, ``off``, ``ignore``); the tool does not matter: a cluster's property (``pcs property set
stonith-enabled=false``: fencing off, a split cluster writes the same disks twice), git's server settings
(``git config --system receive.denyNonFastForwards false``: history may be rewritten by any push), an XML,
YAML, JSON, TOML or INI editor (``xmlstarlet ed -u '//security/@enabled' -v false``, ``yq -i
'.security.enabled = false'``, ``crudini --set F security enabled false``).  Reading a setting, or turning
it on, stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_GATE = LazyRegex(r"stonith|fenc|deny|quorum|secur|auth|ssl|tls|verif|protect|encrypt|audit|csrf|xsrf|signing",
                  re.IGNORECASE)
# A setting's path whose name says it protects; `enabled`/`required` after such a word is the switch.
_PROTECTS = LazyRegex(r"(^|[^a-z])(stonith|fencing|security|auth|authentication|authorization|ssl|tls|"
                      r"verify|verification|protection|protected|encryption|encrypt|audit|auditing|csrf|xsrf|"
                      r"signing|signature|signatures)([^a-z]*(enabled?|required?|on|mode|check|checks))?[^a-z]*$|"
                      r"denynonfastforwards$|denydeletes$|(^|[^a-z])require[-_]?(auth|ssl|tls|signing|password)\w*$",
                      re.IGNORECASE)
_QUORUM = LazyRegex(r"no-quorum-policy$", re.IGNORECASE)
_OFF = frozenset({"false", "0", "no", "off", "disabled", "disable", "none"})
_ASSIGN = LazyRegex(r"^['\"]?([\w./@:\[\]\"-]+?)['\"]?\s*=\s*['\"]?(\w+)['\"]?$")
_READS = frozenset({"get", "show", "list", "sel", "select", "read", "--get", "--list", "-l", "query", "eval"})
_VALUE_OPTIONS = frozenset({"-v", "--value"})


@triggered_by(_GATE, otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """A cheap test before the readings: one search of the line."""
    return bool(_GATE.search(" ".join(c.texts)))


def rule_protection_off(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if set(texts[:3]) & _READS:
        return None
    for key, value in _settings(texts):
        key = key.strip("'\"").rstrip(".")
        value = value.strip("'\"").lower()
        if _QUORUM.search(key) and value in ("ignore", "freeze"):
            return MEDIUM, f"{c.prog} sets {key}={value}: a node cut off from its cluster goes on writing " \
                f"({c.text})"
        if value in _OFF and _PROTECTS.search(key):
            return MEDIUM, f"{c.prog} sets {key} to {value}: the protection it names is switched off ({c.text})"
    return None


def _settings(texts: list) -> list:
    """(name, value) pairs in any tool's spelling: NAME=VALUE, an expression `.a.b = false`, git's NAME VALUE,
    an INI section and key followed by their value, an XPath or path given with ``-v VALUE``."""
    out = []
    for k, t in enumerate(texts):
        m = _ASSIGN.match(t.strip()) if not t.startswith("-") else None  # `--tls-verify=false`: the client's own
        if m and re.search(r"[./@_-]", m.group(1)):  # a setting's path, not a bare `tls=0` given to a client
            out.append((m.group(1), m.group(2)))
        nxt = texts[k + 1] if k + 1 < len(texts) else ""
        if t in _VALUE_OPTIONS and nxt:
            paths = [p for p in texts if "/" in p or p.startswith(".")]
            out += [(p, nxt) for p in paths[-2:]]
        elif nxt.lower() in _OFF and not t.startswith("-") and k + 2 == len(texts):
            before = texts[k - 1] if k and not texts[k - 1].startswith("-") and "/" not in texts[k - 1] else ""
            out.append((f"{before}.{t}" if before else t, nxt))  # `git config K false`, `crudini --set F S K false`
    return out
