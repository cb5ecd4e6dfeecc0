"""The test processes' garbage collector (tests/collector_pauses.py): paused over collection and
the static checks, and between them started by fewer young objects than CPython's default."""
from __future__ import annotations

import gc

from tests import collector_pauses


def test_young_collections_wait_for_many_new_objects():
    assert gc.get_threshold()[0] >= collector_pauses.YOUNG_THRESHOLD > 700


def test_a_pause_stops_automatic_collections_until_it_ends():
    was = gc.isenabled()
    try:
        gc.enable()
        collector_pauses.pause()
        assert not gc.isenabled()
        collector_pauses.resume()
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
