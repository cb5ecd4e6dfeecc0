"""What failed, inside the exception groups the SDK's task groups raise.

Why its own module: the connection and the sign-in both turn those groups into one
line, and neither should import the other for it.
"""
from __future__ import annotations

from typing import Optional


def leaves(exc: Optional[BaseException]) -> list:
    """The plain exceptions inside (nested) exception groups, causes included."""
    out: list = []
    todo = [exc] if exc is not None else []
    seen: set = set()
    while todo and len(out) < 50:
        err = todo.pop(0)
        if err is None or id(err) in seen:
            continue
        seen.add(id(err))
        nested = getattr(err, "exceptions", None)
        if nested:
            todo.extend(nested)
            continue
        out.append(err)
        todo.extend(e for e in (err.__cause__, err.__context__) if e is not None)
    return out
