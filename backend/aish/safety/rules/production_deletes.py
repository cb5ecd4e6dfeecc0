"""Effect: something named for production deleted by a CLI no rule knows, whatever its noun.

The vocabulary keeps quiet on deletes of what is cheap to lose (a cache, sessions, builds, logs): on a
developer's machine they come back.  A managed service's cache or session store named for production
(``momento cache delete --cache prod-sessions``, ``upstash redis delete prod-cache``) is where the
live service keeps its state: deleting it is an outage.  A delete verb among an unknown CLI's first
words, with an operand or option value that names production, is medium whatever the noun.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_PROD_WORDS = ("prod", "live", "prd")
_PROD = LazyRegex(r"(^|[^a-z])(prod|production|prd|live)([^a-z]|$)", re.IGNORECASE)
_DELETES = frozenset({"delete", "destroy", "rm", "remove", "drop", "purge", "flush", "del", "terminate",
                      "delete-cache", "delete-store", "flushall", "flushdb"})
_NOT_PROD = LazyRegex(r"(^|[^a-z])(non-?prod|preprod|pre-prod|pre-production|staging|dev|test)([^a-z]|$)",
                      re.IGNORECASE)


@triggered_by(_PROD_WORDS, otherwise=False)
def may_delete(c: Ctx) -> bool:
    """One search of the line: production is named."""
    return any(w in c.lowered for w in _PROD_WORDS)


def rule_production_delete(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    words = [t.lower() for t in texts if not t.startswith("-")][:3]
    verb = next((w for w in words if w in _DELETES), None)
    if verb is None or any(t in ("--dry-run", "--help", "-h") for t in texts):
        return None
    named = [t for t in texts[texts.index(next(t for t in texts if t.lower() == verb)) + 1:]
             if "=" in t or not t.startswith("-")]
    prod = next((t for t in named if _PROD.search(t.split("=", 1)[-1]) and not _NOT_PROD.search(t)), None)
    if prod is None:
        return None
    return MEDIUM, f"{c.prog} {verb} removes {prod.split('=', 1)[-1]}, named for production: the live service " \
                   f"loses what it holds ({c.text})"
