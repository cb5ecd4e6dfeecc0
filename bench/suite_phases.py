"""Where a test run's wall and CPU time go, per process: the controller's and each xdist
worker's start, collection, first case, last case and exit, on the controller's clock, with the
process's CPU seconds at each; the spread of the workers' last cases (the idle tail); and the
longest cases that ended each worker's run.

Run: python3 bench/suite_phases.py [PYTEST ARGS]   (default: the unit part, -m "not e2e and not shell")

It loads itself into the run as a pytest plugin (``-p suite_phases``); every process writes its
timeline to a temporary directory at its exit, and the report reads them afterwards."""
from __future__ import annotations

import atexit
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT_ENV = "AISH_BENCH_PHASES_DIR"
_events: list[tuple[str, float, float]] = []
_cases: list[tuple[str, float, float, float]] = []


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _mark(name: str) -> None:
    _events.append((name, time.time(), _cpu()))


def _process_start() -> float:
    """When this process was made (the kernel's start time, in clock ticks since boot)."""
    ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
    boot = next(int(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                if line.startswith("btime"))
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def _write() -> None:
    _mark("exit")
    who = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    path = Path(os.environ[OUT_ENV]) / f"{who}.json"
    path.write_text(json.dumps({"who": who, "events": _events, "cases": _cases}))


# --- the plugin (in every process of the run) ---

def pytest_configure(config):
    _events.insert(0, ("start", _process_start(), 0.0))
    _mark("configured")
    atexit.register(_write)  # after the suite's own exit handlers were registered: runs first


def pytest_collection_finish(session):
    _mark("collected")


def pytest_runtest_logstart(nodeid, location):
    if not _cases and "first case" not in (event[0] for event in _events):
        _mark("first case")
    _cases.append((nodeid, time.time(), _cpu(), 0.0))


def pytest_runtest_logfinish(nodeid, location):
    if _cases and _cases[-1][0] == nodeid:
        name, began, cpu, _ = _cases[-1]
        _cases[-1] = (name, began, time.time() - began, _cpu() - cpu)


def pytest_sessionfinish(session):
    if _cases:
        name, began, wall, _cpu_used = _cases[-1]
        _events.append(("last case done", began + wall, _cpu()))
    _mark("session finished")


# --- the run and the report ---

def report(directory: Path) -> None:
    runs = {path.stem: json.loads(path.read_text()) for path in sorted(directory.glob("*.json"))}
    zero = runs["controller"]["events"][0][1]
    for who, run in runs.items():
        phases = "  ".join(f"{name} {at - zero:.2f}s/{cpu:.2f}" for name, at, cpu in run["events"])
        print(f"{who:>10} ({len(run['cases'])} cases): {phases}")
    ends = [run["cases"][-1][1] + run["cases"][-1][2] - zero for who, run in runs.items() if run["cases"]
            and who != "controller"]
    if ends:
        print(f"workers' last cases end within {max(ends) - min(ends):.2f} s of each other")
    for who, run in runs.items():
        if who == "controller":
            continue  # its cases interleave the workers'
        tail = sorted(run["cases"][-20:], key=lambda case: -case[2])[:2]
        for name, _began, wall, cpu in tail:
            print(f"{who:>10} near its end: {wall:.2f} s wall, {cpu:.2f} s CPU  {name}")


def main(argv: list[str]) -> int:
    args = argv or ["-m", "not e2e and not shell"]
    with tempfile.TemporaryDirectory(prefix="aish-phases-") as directory:
        env = dict(os.environ, **{OUT_ENV: directory})
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), env.get("PYTHONPATH")]))
        started = time.time()
        status = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "suite_phases", *args],
                                 cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        print(f"pytest exited {status} after {time.time() - started:.2f} s (load {os.getloadavg()[0]:.1f})")
        report(Path(directory))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
