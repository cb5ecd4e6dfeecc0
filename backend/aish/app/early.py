"""What a question can start while a cold daemon still builds its service.

A cold ``aish ask`` waits for the daemon's imports before its first byte, one core busy
with them.  Work of other processes that the ask will need can run meanwhile on the
other core: the ``git status`` of the question's repository (its git line) is begun here,
and the ask collects it (``context.git.start``).  Light on purpose: the daemon calls this
before the service is imported (``daemon/__main__.py``'s ``LazyService``).
"""
from __future__ import annotations

from typing import Any


def begin(request: Any) -> None:
    """Start what ``request`` will need from other processes; never raises."""
    if getattr(request, "kind", "") != "ask" or getattr(request, "mode", "") == "explain" or not request.cwd:
        return
    try:
        from aish.context import git

        git.start(request.cwd)
    except Exception:  # noqa: BLE001 - the ask runs git itself
        return
