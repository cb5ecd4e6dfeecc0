"""Where a test process pauses Python's cyclic garbage collector, and why.

Two stretches of a unit run make objects by the hundred thousand and keep them: collection
(test modules, their tables, the cases) and the static checks (tests/sources.py's syntax trees of
every aish module, about a million nodes).  While they grow, the collector's full passes walk
all of them again and again: 0.13-0.19 s of CPU per collecting process, and 0.8-0.9 s over the
static checks (measured with ``gc.callbacks`` in one process; docs/performance.md, "The unit
part's garbage collector").  Neither stretch makes garbage cycles worth collecting, so
the collector waits until each ends; ``gc.collect()`` still works while it waits, for a case
that calls it."""
from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Stop automatic collections until ``resume`` (a no-op where something else stopped them)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Start them again, if ``pause`` stopped them."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()
