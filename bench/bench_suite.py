"""How long the test suite takes: the default suite (the README's `python3 -m pytest`) and its
unit part (`-m "not e2e and not shell"`: all but the cases on the real wire and in real
shells), this checkout against a git revision.

Each run starts the suite in a fresh process with PYTHONPATH pointing at the tree under test,
so the revision's own `aish` and tests run (both on this interpreter and its installed test
dependencies); the revision is checked out in a temporary worktree.  Runs alternate revision /
checkout so a busy spell of the machine hits both; the figures are medians and their ratio.

The suite waits more than it computes (daemons start, shells draw, stubs stream), so its wall
time depends on how busy the machine is.  Where a cgroup v1 cpuacct hierarchy is writable (as
root), each run also goes into a cgroup of its own and the CPU time of every process it
started is read from it (daemons and tmux servers included): that figure barely moves with
the load, and CPU / cores is the fastest the suite can run on an idle machine.  Each run prints
the load average at its start, and each pair its ratio: a pair's runs are minutes apart at most.

``--against`` takes a revision or the path of another checkout (used as it is: its bytecode and
recorded timings too).  ``--warm-up N`` runs each tree N times unmeasured first, so both start
with compiled bytecode and the module timings a reused checkout has (tests/schedule.py).
``--max-load L`` waits before each run (up to ``--max-wait`` seconds) until the one-minute load
average is at most L: on a shared host the quiet spells are when wall times mean something.

Run: python3 bench/bench_suite.py [--against REV|DIR] [--runs 3] [--warm-up 0] [--part default|unit|both]
                                   [--max-load L] [--max-wait 600] [-- PYTEST ARGS]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
PARTS = {"default": [], "unit": ["-m", "not e2e and not shell"]}


class Cgroup:
    """A cpuacct cgroup the measured suite runs in, or nothing where none can be made."""

    def __init__(self) -> None:
        self.path: Optional[Path] = CPUACCT / f"aish-bench-suite-{os.getpid()}"
        try:
            self.path.mkdir()
        except OSError:
            self.path = None

    def usage(self) -> Optional[float]:
        if self.path is None:
            return None
        return int((self.path / "cpuacct.usage").read_text()) / 1e9

    def enter_command(self, argv: list[str]) -> list[str]:
        """``argv`` run from a shell that first moves itself into the cgroup."""
        if self.path is None:
            return argv
        return ["sh", "-c", f'echo $$ > "{self.path}/cgroup.procs" && exec "$@"', "sh", *argv]

    def close(self) -> None:
        if self.path is not None:
            time.sleep(1)  # the last daemons of a run exit
            try:
                self.path.rmdir()
            except OSError:
                pass


def run_suite(tree: Path, part: str, cgroup: Cgroup, extra: list[str]) -> tuple[float, Optional[float], str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(tree / "backend"),
                                                                  os.environ.get("PYTHONPATH")])))
    argv = cgroup.enter_command([sys.executable, "-m", "pytest", "-q", *PARTS[part], *extra])
    cpu0, start = cgroup.usage(), time.monotonic()
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    cpu1 = cgroup.usage()
    summary = next((line for line in reversed(done.stdout.splitlines()) if " in " in line), "?")
    cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    return wall, cpu, summary


def wait_for_quiet(max_load: Optional[float], max_wait: float) -> float:
    """The one-minute load average once it is at most ``max_load`` (or ``max_wait`` s passed)."""
    deadline = time.monotonic() + max_wait
    load = os.getloadavg()[0]
    while max_load is not None and load > max_load and time.monotonic() < deadline:
        time.sleep(5)
        load = os.getloadavg()[0]
    return load


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="HEAD~1", help="git revision or checkout to compare with")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm-up", type=int, default=0, help="unmeasured runs of each tree first")
    parser.add_argument("--part", choices=["default", "unit", "both"], default="both")
    parser.add_argument("--max-load", type=float, help="wait for a load average at most this before each run")
    parser.add_argument("--max-wait", type=float, default=600.0, help="seconds to wait for it at most")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest (a subset)")
    args = parser.parse_args()
    parts = ["default", "unit"] if args.part == "both" else [args.part]
    cgroup = Cgroup()
    with tempfile.TemporaryDirectory(prefix="aish-bench-suite-") as tmp:
        given = Path(args.against)
        other = given if given.is_dir() else Path(tmp) / "rev"
        if other != given:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(other),
                            args.against], check=True)
        try:
            trees = {args.against: other, "this checkout": ROOT}
            for part in parts:
                for _ in range(args.warm_up):
                    for tree in trees.values():
                        run_suite(tree, part, cgroup, args.pytest_args)
                results: dict[str, list] = {name: [] for name in trees}
                for n in range(args.runs):
                    for name, tree in trees.items():
                        load = wait_for_quiet(args.max_load, args.max_wait)
                        wall, cpu, summary = run_suite(tree, part, cgroup, args.pytest_args)
                        results[name].append((wall, cpu))
                        cpu_text = f", CPU {cpu:6.1f} s" if cpu is not None else ""
                        print(f"{part:7s} run {n + 1} {name:14s} load {load:5.2f} {wall:6.1f} s{cpu_text}"
                              f"  ({summary})", flush=True)
                    (base_wall, _), (wall, _) = (results[name][-1] for name in trees)
                    print(f"{part:7s} pair {n + 1} wall ratio {wall / base_wall:.2f}x", flush=True)
                medians = {}
                for name, rows in results.items():
                    wall = statistics.median(r[0] for r in rows)
                    cpus = [r[1] for r in rows if r[1] is not None]
                    medians[name] = (wall, statistics.median(cpus) if cpus else None)
                    cpu_text = f", CPU {medians[name][1]:.1f} s" if medians[name][1] is not None else ""
                    print(f"{part:7s} median {name:14s} {wall:6.1f} s{cpu_text}")
                (base_wall, base_cpu), (wall, cpu) = medians[args.against], medians["this checkout"]
                ratio = f"wall {wall / base_wall:.2f}x"
                if cpu is not None and base_cpu:
                    ratio += f", CPU {cpu / base_cpu:.2f}x"
                pairs = [mine[0] / base[0] for base, mine in zip(results[args.against], results["this checkout"])]
                ratio += f", median of the pairs' wall ratios {statistics.median(pairs):.2f}x"
                print(f"{part:7s} this checkout / {args.against}: {ratio}\n")
        finally:
            if other != given:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)])
            cgroup.close()


if __name__ == "__main__":
    main()
