"""The order of the cases for xdist's worksteal: long modules first, each worker's share of
the run's seconds even, quick cases last.

worksteal hands each of the W workers a contiguous run of N/W cases (by count, not time), and a
worker that runs out takes the second half of the longest queue left; what starts a run stays
on its worker.  In collection order one worker's run could hold most of the waiting cases
(MCP servers starting, time-outs being checked) and others steal its slow tail at the end.
So the runs are filled by the seconds each module took in earlier runs (the controller keeps
them in pytest's cache and hands them to its workers, so every worker orders alike): the
longest modules go first, each to the run with the fewest seconds so far that has room, and
the quick ones fill the runs' ends, where stealing moves them in small slices.

- The modules that talk to the MCP test servers (tests/mcp_servers) stay in as few runs as
  fit their seconds (one, unless they outlast a worker's share), at their starts: one worker
  imports the SDK's client (~0.8 s of CPU), not every worker that gets one of them.
  So no test module imports the SDK at its top (collection, in every worker): the cases that
  need it import it (tests/test_schedule.py checks what collection imported, ``AT_COLLECTION``).
- The modules whose checks read aish's sources (tests/sources.py) stay in one run: one
  worker parses and walks backend/aish (~1 s of CPU) and forgets the trees after the last of
  them (tests/conftest.py's pytest_runtest_teardown).

Without recorded seconds (a fresh clone) a case in a real shell or on the real wire counts as
a second, any other as 10 ms.  Each module's cases keep
their order and stay together, but for the quick modules that fill a run's last places."""
from __future__ import annotations

import math
import os
import types
from collections import defaultdict
from pathlib import Path
from typing import Optional

CACHE_KEY = "aish/module-seconds"
WORKER_INPUT_KEY = "aish_module_seconds"
# a module's recorded seconds follow its runs: the newest run counts half (the host's load
# varies from run to run)
NEWEST_WEIGHT = 0.5
UNKNOWN_CASE_SECONDS = 0.01  # a module no run has timed yet, per case
UNKNOWN_WIRED_CASE_SECONDS = 1.0  # the same, for a case marked so (tests/conftest.py)
WIRED_MARKS = ("e2e", "shell")
# the MCP modules take a second worker (a second import of the SDK's client, ~0.8 s of CPU)
# only when they would take more than this many of one worker's share of the seconds (the
# workers that run out steal their end meanwhile; each one that does imports the client too)
MCP_SHARE = 1.0

# the MCP SDK's packages, none of which collecting the tests may import (see above); and
# which of them this process had imported when its collection ended (tests/conftest.py)
MCP_SDK = ("mcp", "mcp_types")
AT_COLLECTION: list[str] = []

TESTS = Path(__file__).resolve().parent
# the modules that judge the same corpus lines (destructive.txt, the effect corpora, the fresh
# rounds): a worker keeps what it judged (tests/safety/kept.py), so they go to one run, the static
# checks' (test_triggers.py, which judges a sample of the same lines, is one), after those; spread
# over the workers, 1,443 of their lines (0.73 s of CPU) were judged in two (docs/performance.md)
SHARE_VERDICTS = ("tests/safety/test_fresh_corpora.py", "tests/safety/test_assess.py",
                  "tests/safety/test_trained_corpora.py")

# what a module's cases need that is costly to have twice
READS_SOURCES, TALKS_MCP, PLAIN = "reads aish's sources", "talks to the MCP test servers", "plain"
_NEEDS: dict[object, str] = {}


def needs(item) -> str:
    module = getattr(item, "module", None)
    if module not in _NEEDS:
        homes = {str(getattr(value, "__name__" if isinstance(value, types.ModuleType) else "__module__", ""))
                 for value in vars(module).values()} if module is not None else set()
        _NEEDS[module] = READS_SOURCES if "tests.sources" in homes else \
            TALKS_MCP if any(home.startswith("tests.mcp_servers") for home in homes) else PLAIN
    return _NEEDS[module]


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def order(items, seconds: Optional[dict[str, float]] = None) -> None:
    """Reorder ``items`` in place for this run's workers (PYTEST_XDIST_WORKER_COUNT)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    blocks: dict[str, list] = {}
    for item in items:
        blocks.setdefault(module_of(item.nodeid), []).append(item)
    if workers < 2:  # one process: the static checks first, forgetting their trees once
        items[:] = [item for need in (READS_SOURCES, TALKS_MCP, PLAIN)
                    for item in items if needs(item) == need]
        return
    timed = _timing(blocks, seconds or {})
    runs = _fill_runs(blocks, timed, _run_sizes(len(items), workers))
    items[:] = [item for run in runs for item in run]


def _timing(blocks: dict[str, list], seconds: dict[str, float]) -> dict[str, float]:
    """Recorded seconds, or a guess for a module no run has timed yet (a fresh clone): a case
    on the real wire or in a real shell is long, any other short."""
    def guess(cases: list) -> float:
        wired = any(cases[0].get_closest_marker(mark) for mark in WIRED_MARKS)
        return len(cases) * (UNKNOWN_WIRED_CASE_SECONDS if wired else UNKNOWN_CASE_SECONDS)
    return {name: seconds[name] if name in seconds else guess(cases) for name, cases in blocks.items()}


def _run_sizes(count: int, workers: int) -> list[int]:
    """The contiguous runs worksteal's first distribution hands out, in its order."""
    sizes = []
    for left in range(workers, 0, -1):
        sizes.append((count - sum(sizes)) // left)
    return sizes


def _fill_runs(blocks: dict[str, list], timed: dict[str, float], sizes: list[int]) -> list[list]:
    """Longest first into the run with the fewest seconds that has room; a module no run has
    room for is split over the runs' last places (only quick ones are left by then)."""
    runs: list[list] = [[] for _ in sizes]
    run_seconds = [0.0] * len(sizes)

    def place(run: int, cases: list, secs: float) -> None:
        runs[run].extend(cases)
        run_seconds[run] += secs

    by_need: dict[str, list[str]] = defaultdict(list)
    for name, cases in blocks.items():
        by_need[needs(cases[0])].append(name)
    fewest = lambda among: min(among, key=lambda run: (run_seconds[run], run))  # noqa: E731
    # the MCP modules in as few runs as keep each run within its share of the seconds (the
    # first runs), the static checks in the run with the fewest seconds after them
    mcp = sorted(by_need[TALKS_MCP], key=lambda name: (-timed[name], name))
    share = sum(timed.values()) / len(sizes)
    mcp_runs = min(len(sizes), max(1, math.ceil(sum(timed[name] for name in mcp) / (MCP_SHARE * share))))
    for name in mcp:
        place(fewest(range(mcp_runs)), blocks[name], timed[name])
    static = sorted(by_need[READS_SOURCES], key=lambda name: (-timed[name], name))
    together = sorted((name for name in by_need[PLAIN] if name in SHARE_VERDICTS),
                      key=lambda name: (-timed[name], name))
    if static or together:  # the corpus modules after the static checks (their trees go first)
        run = fewest(range(len(sizes)))
        for name in static + together:
            place(run, blocks[name], timed[name])
    rest = sorted((name for name in by_need[PLAIN] if name not in SHARE_VERDICTS),
                  key=lambda name: (-timed[name], name))
    for name in rest:
        cases = blocks[name]
        roomy = [run for run in range(len(sizes)) if sizes[run] - len(runs[run]) >= len(cases)]
        if roomy:
            place(fewest(roomy), cases, timed[name])
            continue
        per_case = timed[name] / len(cases)
        while cases:
            run = max(range(len(sizes)), key=lambda run: (sizes[run] - len(runs[run]), -run))
            room = max(1, sizes[run] - len(runs[run]))
            place(run, cases[:room], per_case * len(cases[:room]))
            cases = cases[room:]
    return runs


def record(seconds: dict[str, float], durations: dict[str, float]) -> dict[str, float]:
    """The recorded seconds after a run that timed ``durations`` (per module)."""
    merged = dict(seconds)
    for name, secs in durations.items():
        old = merged.get(name)
        merged[name] = round(secs if old is None else NEWEST_WEIGHT * secs + (1 - NEWEST_WEIGHT) * old, 4)
    return merged
