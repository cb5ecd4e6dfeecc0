"""The daemon's heap once it has started: out of the cyclic garbage collector's way.

Why: what a daemon loads before and just after its first answer (modules, the safety rules'
tables, the config schema, compiled patterns: ~200,000 objects that live as long as it does)
was walked by every collection of the oldest generation, and in part by the younger ones'
promotions: at 50 shells asking at once, a full collection took ~25 ms of CPU, with the GIL
held, while every shell waited for its first byte (docs/performance.md, many shells).
``gc.freeze()`` moves what exists into a generation the collector never walks (as servers that
fork their workers do); what an ask makes afterwards is collected as before.  The youngest
generation's threshold is raised too: 50 asks in flight keep far more than 700 young objects
alive at any moment, so the default collected every few hundred allocations, walked them all
and promoted the survivors, whose next generation was then walked again.
"""
from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000  # allocations (net of frees) between collections of the youngest generation


def settle() -> None:
    """Collect once, freeze what is left, and collect the young less often (after start-up)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
