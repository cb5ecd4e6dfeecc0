"""tests/schedule.py: the order worksteal's runs are cut from."""
from __future__ import annotations

import types

import pytest

from tests import schedule


def module(name: str, *needs: str) -> types.ModuleType:
    made = types.ModuleType(name)
    for need in needs:  # what the module imported, as needs() reads it
        setattr(made, need.replace(".", "_"), types.ModuleType(need))
    return made


class Item:
    def __init__(self, mod: types.ModuleType, path: str, index: int) -> None:
        self.module, self.nodeid = mod, f"{path}::test_{index}"

    def __repr__(self) -> str:
        return self.nodeid

    def get_closest_marker(self, name):
        return name if name == "shell" and "/shell/" in self.nodeid else None


def cases(path: str, count: int, *needs: str) -> list[Item]:
    mod = module(path, *needs)
    return [Item(mod, path, index) for index in range(count)]


def runs_of(items, workers):
    sizes = schedule._run_sizes(len(items), workers)
    runs, start = [], 0
    for size in sizes:
        runs.append(items[start:start + size])
        start += size
    return runs


def seconds_of(run, seconds):
    return sum(seconds[schedule.module_of(item.nodeid)] / counts[schedule.module_of(item.nodeid)]
               for item in run for counts in [_COUNTS])


_COUNTS: dict[str, int] = {}


@pytest.fixture
def suite(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "3")
    items = (cases("tests/a/test_quick.py", 300) + cases("tests/a/test_waits.py", 6)
             + cases("tests/b/test_mcp.py", 12, "tests.mcp_servers") + cases("tests/b/test_slow.py", 4)
             + cases("tests/test_arch.py", 5, "tests.sources") + cases("tests/c/test_tiny.py", 80)
             + cases("tests/c/test_more.py", 200))
    _COUNTS.clear()
    for item in items:
        _COUNTS[schedule.module_of(item.nodeid)] = _COUNTS.get(schedule.module_of(item.nodeid), 0) + 1
    return items


SECONDS = {"tests/a/test_quick.py": 0.6, "tests/a/test_waits.py": 4.0, "tests/b/test_mcp.py": 5.0,
           "tests/b/test_slow.py": 4.5, "tests/test_arch.py": 1.0, "tests/c/test_tiny.py": 0.1,
           "tests/c/test_more.py": 0.5}


def test_the_long_modules_start_runs_of_even_seconds_and_quick_ones_end_them(suite):
    items = list(suite)
    schedule.order(items, SECONDS)
    assert sorted(items, key=id) == sorted(suite, key=id)  # the same cases
    runs = runs_of(items, 3)
    starts = [schedule.module_of(run[0].nodeid) for run in runs]
    assert starts == ["tests/b/test_mcp.py", "tests/test_arch.py", "tests/b/test_slow.py"]
    # the waiting module goes where the seconds are fewest, not where collection put it
    assert {schedule.module_of(item.nodeid) for item in runs[1]} >= {"tests/a/test_waits.py"}
    spread = [seconds_of(run, SECONDS) for run in runs]
    assert max(spread) - min(spread) < 1.0, spread
    for run in runs:  # every run ends with the quickest cases, which stealing moves
        assert schedule.module_of(run[-1].nodeid) in {"tests/c/test_tiny.py", "tests/c/test_more.py",
                                                      "tests/a/test_quick.py"}
    # a module's cases stay together and in order, but for the quick ones filling the ends
    for name in ("tests/a/test_waits.py", "tests/b/test_mcp.py", "tests/b/test_slow.py"):
        mine = [item for item in items if item.nodeid.startswith(name)]
        at = items.index(mine[0])
        assert items[at:at + len(mine)] == [item for item in suite if item in mine]


def test_every_worker_orders_alike_and_without_seconds_counts_cases(suite, monkeypatch):
    first, second = list(suite), list(reversed(suite))[::-1]
    schedule.order(first, SECONDS)
    schedule.order(second, dict(SECONDS))
    assert [item.nodeid for item in first] == [item.nodeid for item in second]
    fresh = list(suite)
    schedule.order(fresh, None)  # a fresh clone: the MCP and static modules still start runs
    runs = runs_of(fresh, 3)
    assert schedule.module_of(runs[0][0].nodeid) == "tests/b/test_mcp.py"
    assert schedule.module_of(runs[1][0].nodeid) == "tests/test_arch.py"
    shells = cases("tests/shell/test_zsh.py", 3) + list(suite)
    schedule.order(shells, None)  # a case in a real shell is long even where none was timed
    run = next(run for run in runs_of(shells, 3) if "tests/shell/test_zsh.py::test_0" in map(repr, run))
    plain = [schedule.module_of(item.nodeid) for item in run if schedule.needs(item) == schedule.PLAIN]
    assert plain[0] == "tests/shell/test_zsh.py"  # before the runs' 300 quick cases, not after
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "1")
    alone = list(suite)
    schedule.order(alone, SECONDS)
    assert schedule.module_of(alone[0].nodeid) == "tests/test_arch.py"


def test_recorded_seconds_follow_the_runs():
    recorded = schedule.record({}, {"tests/a.py": 2.0})
    assert recorded == {"tests/a.py": 2.0}
    recorded = schedule.record(recorded, {"tests/a.py": 4.0, "tests/b.py": 1.0})
    assert recorded == {"tests/a.py": 3.0, "tests/b.py": 1.0}
    assert schedule.record(recorded, {}) == recorded


def test_mcp_modules_take_a_second_worker_only_when_they_outlast_a_share(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "3")
    items = (cases("tests/m/test_one.py", 10, "tests.mcp_servers") + cases("tests/p/test_plain.py", 300)
             + cases("tests/m/test_two.py", 10, "tests.mcp_servers"))
    mcp_starts = []
    for mcp_seconds in (0.5, 6.0):  # of 3 + 2 * mcp_seconds in all: within a share, then over
        ordered = list(items)
        schedule.order(ordered, {"tests/m/test_one.py": mcp_seconds, "tests/m/test_two.py": mcp_seconds,
                                 "tests/p/test_plain.py": 3.0})
        runs = runs_of(ordered, 3)
        mcp_starts.append([schedule.module_of(run[0].nodeid) for run in runs
                           if schedule.needs(run[0]) == schedule.TALKS_MCP])
    assert mcp_starts == [["tests/m/test_one.py"], ["tests/m/test_one.py", "tests/m/test_two.py"]]


def test_the_modules_that_judge_the_same_corpus_lines_share_the_static_checks_run(monkeypatch):
    """A worker keeps the verdicts it judged (tests/safety/kept.py): the modules that judge the
    same corpus lines go to one run, the static checks' (tests/safety/test_triggers.py is one of
    them), after those; elsewhere each of their lines was judged by two workers."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "3")
    together = list(schedule.SHARE_VERDICTS)
    items = (cases("tests/test_arch.py", 5, "tests.sources") + cases("tests/p/test_plain.py", 300)
             + [item for name in together for item in cases(name, 20)] + cases("tests/p/test_slow.py", 10))
    seconds = {name: 3.0 for name in together}
    seconds.update({"tests/test_arch.py": 1.0, "tests/p/test_plain.py": 3.0, "tests/p/test_slow.py": 6.0})
    for recorded in (seconds, None):  # timed, and a fresh clone's guesses
        ordered = list(items)
        schedule.order(ordered, recorded)
        run = next(run for run in runs_of(ordered, 3) if "tests/test_arch.py::test_0" in map(repr, run))
        names = [schedule.module_of(item.nodeid) for item in run]
        assert set(together) <= set(names), names
        assert names.index("tests/test_arch.py") < min(names.index(name) for name in together), names
    for name in together:  # named as they are: a rename would silently undo this
        assert (schedule.TESTS / name.removeprefix("tests/")).is_file(), name


def test_every_worker_is_handed_the_seconds_read_once():
    """The controller reads the recorded seconds once for all its workers: read per worker,
    a run that ended meanwhile (writing the cache) gave two workers different orders, and
    xdist stopped the run with "Different tests were collected between gw0 and gw1"."""
    from tests import conftest

    class Cache:  # another run writes its seconds after every read
        def __init__(self) -> None:
            self.runs = 0

        def get(self, key: str, default: dict) -> dict:
            self.runs += 1
            return {"tests/a.py": float(self.runs)}

    config = types.SimpleNamespace(cache=Cache())
    nodes = [types.SimpleNamespace(config=config, workerinput={}) for _ in range(3)]
    for node in nodes:
        conftest.pytest_configure_node(node)
    handed = [node.workerinput[schedule.WORKER_INPUT_KEY] for node in nodes]
    assert handed[0] == handed[1] == handed[2], handed


def test_collecting_the_tests_imports_no_mcp_sdk():
    """Every xdist worker collects every module: one that imports the MCP SDK at its top costs
    each worker ~0.9 s of CPU, where only the worker running the MCP cases needs it (import it
    in the cases or fixtures that use it)."""
    assert schedule.AT_COLLECTION == [], "a test module imports the MCP SDK at its top"
