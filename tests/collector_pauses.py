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
# Between those stretches, a young collection starts after this many new container objects
# (CPython's default: 700).  The cases make objects by the million (the judge's words, segments
# and contexts, requests parsed and answered) and free nearly all of them by reference counting,
# so at 700 the collector ran ~950 times in a unit run: 0.58 s of CPU on three workers, against
# 0.29 s at 20,000 (``gc.callbacks``, one run each at load 23).
YOUNG_THRESHOLD = 20_000


def fewer_young_collections() -> None:
    """Raise the young generation's threshold to ``YOUNG_THRESHOLD`` (the older ones are kept)."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_THRESHOLD), middle, old)


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
