"""Effect: records deleted by number from a program's own store.

Bookmark managers, task boards, clipboard and note keepers delete an entry by the number
they list it under: ``tb --delete 3``, ``buku --delete 14-20``, ``clipcat --remove 7``.  A long
deleting option given a number (``3``, ``14-20``, ``3,5``, ``@1``) names a record, not a path or
a value of another kind.  The short ``-d`` is left alone: given a number it is as
often a delay, a date or a descriptor (``-d 5`` of a screenshot tool or a monitor)."""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_LONG = frozenset({"--delete", "--remove", "--del", "--rm", "-delete", "-remove"})
_RECORD = lazy(r"^@?\d+([-,:]\d+)*$")


@triggered_by(_LONG)
def rule_record_ids(c: Ctx) -> Optional[tuple]:
    """A long deleting option followed by a record number."""
    texts = c.texts
    if len(texts) < 2 or not _LONG.intersection(texts) or c.prog in READ_ONLY:
        return None
    for k, t in enumerate(texts[:-1]):
        if t in _LONG and _RECORD.match(texts[k + 1]):
            return MEDIUM, f"{c.prog} {t} deletes record {texts[k + 1]} from its store ({c.text})"
    return None
