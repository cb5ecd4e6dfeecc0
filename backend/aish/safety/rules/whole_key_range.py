"""A key-value store's whole key range cleared.

FoundationDB's ``clearrange "" \\xff`` and RocksDB's ``ldb deleterange "" "\\xff"`` name the range from the empty key
(the first of all) to the last: every key the database holds goes, as ``FLUSHALL`` or ``etcdctl del "" --prefix``
does.  Read for any program: a clear/delete-range verb (in any argument, a shell-like client's ``--exec`` body too)
whose start is the empty key or ``\\x00``.  A range between two named keys stays for the other rules.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import HIGH, Ctx
from aish.safety.lazy_regex import lazy

_WHOLE = lazy(r"""(?:clear|delete|del|drop|remove)[-_ ]?range\s*\(?\s*"""
              r"""(?:""|''|\\x00|b""|b''|\\\\x00)(?:\s|,|$)""", re.I)


@triggered_by(("range",), otherwise=False)
def may_clear(c: Ctx) -> bool:
    """Cheap: the word range on the line."""
    return "range" in c.lowered


def rule_whole_range(c: Ctx) -> Optional[tuple]:
    joined = " ".join(c.texts[:64])
    if not _WHOLE.search(joined) and not _WHOLE.search(" ".join(w.raw for w in c.args[:64])):
        return None
    return HIGH, f"{c.prog} clears the whole key range, from the first key to the last: every key goes ({c.text})"
