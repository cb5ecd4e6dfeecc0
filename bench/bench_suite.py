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
the load, and CPU / cores is the fastest the suite can run on an idle machine.

Run: python3 bench/bench_suite.py [--against REV] [--runs 3] [--part default|unit|both] [-- PYTEST ARGS]
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="HEAD~1", help="git revision to compare with")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--part", choices=["default", "unit", "both"], default="both")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest (a subset)")
    args = parser.parse_args()
    parts = ["default", "unit"] if args.part == "both" else [args.part]
    cgroup = Cgroup()
    with tempfile.TemporaryDirectory(prefix="aish-bench-suite-") as tmp:
        other = Path(tmp) / "rev"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(other),
                        args.against], check=True)
        try:
            trees = {args.against: other, "this checkout": ROOT}
            for part in parts:
                results: dict[str, list] = {name: [] for name in trees}
                for n in range(args.runs):
                    for name, tree in trees.items():
                        wall, cpu, summary = run_suite(tree, part, cgroup, args.pytest_args)
                        results[name].append((wall, cpu))
                        cpu_text = f", CPU {cpu:6.1f} s" if cpu is not None else ""
                        print(f"{part:7s} run {n + 1} {name:14s} {wall:6.1f} s{cpu_text}  ({summary})",
                              flush=True)
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
                print(f"{part:7s} this checkout / {args.against}: {ratio}\n")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)])
            cgroup.close()


if __name__ == "__main__":
    main()
