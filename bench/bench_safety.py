"""Safety-check speed, this checkout against a git revision, measured in the same run.

0. A new process's first judgement (importing the judge, then the tables rules read on first use, the
   documented table among them): median ms of CPU time.
1. ``assess`` per command over the corpora (everyday, destructive, effects), after judging each once (what a
   first use costs, a pattern compiled or a table built, is the cold figure's): median µs of the process's CPU
   time (the host is shared: CPU time moves far less with other work than wall time).
2. Long inputs that used to be quadratic, after one short command of the same shape: a pipeline of
   2,000 ``x`` segments (4 KB), ``rm -rf`` with 2,000 arguments; and, for this checkout only, the
   19,999-character pipeline and ``rm -rf`` with 9,990 arguments (the old code took 100 s and 5 s on them).

Each side runs in its own Python process (two versions of ``aish`` cannot share one), the
two alternate, and each figure is the median of ``--runs`` repeats.

Run: python3 bench/bench_safety.py [--against REV] [--runs 5]
"""
from __future__ import annotations

import argparse
import json
import statistics
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BASELINE = "4e10337"  # main before the long-tail work

_CHILD = r'''
import json, re, sys, time
sys.path.insert(0, sys.argv[1])
which = sys.argv[3]
start = time.process_time()
from aish.safety.assess import assess
if which == "first":  # a new process's first judgement: imports, then the tables a rule reads on first use
    assess("winetricks list-installed")  # an unknown program's form: read down to the documented table
    print(json.dumps(time.process_time() - start))
    sys.exit()
corpus = json.loads(sys.argv[2])
def timed(fn):
    start = time.process_time(); fn(); return time.process_time() - start
if which == "corpus":
    for c in corpus:
        assess(c)  # warm up: every command once (patterns compiled on first use are compiled before the timing)
    total = timed(lambda: [assess(c) for c in corpus])
    print(json.dumps(total / len(corpus)))
else:
    cases = {"pipe-2000": "|".join(["x"] * 2000), "rm-2000": "rm -rf " + " ".join(f"d{i}" for i in range(2000)),
             "pipe-9999": "|".join(["x"] * 9999),
             "rm-9990": "rm -rf " + " ".join(chr(97 + i % 26) for i in range(9990))}
    assess("x|x" if which.startswith("pipe") else "rm -rf d0 d1")  # the same shape, short: first uses paid before
    print(json.dumps(timed(lambda: assess(cases[which]))))
'''


def corpus() -> list[str]:
    lines = []
    for path in [ROOT / "tests/corpus/everyday.txt", ROOT / "tests/corpus/destructive.txt",
                 *sorted((ROOT / "tests/corpus/effects").glob("*.txt"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                lines.append(line.split("] ", 1)[-1].replace("⏎", "\n") if line.startswith("[") else line)
    return lines


def backend_of(rev: str, dest: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "backend"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "backend"


def run(backend: Path, commands: list[str], which: str, bytecode: Path) -> float:
    # Both trees' bytecode is written to, and read from, one place of this run's own: with bytecode writes switched
    # off in the environment (PYTHONDONTWRITEBYTECODE) the baseline, extracted fresh, was compiled in every timed
    # run while this checkout read its old __pycache__, and the cold figure read 0.46x for no change.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    out = subprocess.run([sys.executable, "-c", _CHILD, str(backend), json.dumps(commands), which],
                         capture_output=True, text=True, check=True, timeout=600, env=env)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default=DEFAULT_BASELINE)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    commands = corpus()
    with tempfile.TemporaryDirectory() as tmp:
        old = backend_of(args.against, Path(tmp))
        new = ROOT / "backend"
        bytecode = Path(tmp) / "pycache"
        for backend in (new, old):  # compiled once, untimed: a cold start is one with bytecode, as installed
            run(backend, commands[:1], "first", bytecode)
        print(f"{len(commands)} corpus commands; baseline {args.against}; medians of {args.runs} runs")
        for which, label in (("first", "first judgement, cold"), ("corpus", "assess per command"),
                             ("pipe-2000", "pipeline, 2,000 segments"),
                             ("rm-2000", "rm -rf, 2,000 arguments")):
            ours, base = [], []
            for _ in range(args.runs):
                ours.append(run(new, commands, which, bytecode))
                base.append(run(old, commands, which, bytecode))
            o, b = statistics.median(ours), statistics.median(base)
            unit, scale = ("µs", 1e6) if which == "corpus" else ("ms", 1e3)
            pairs = " ".join(f"{x / y:.2f}" for x, y in zip(ours, base))
            print(f"{label:28s} new {o * scale:9.1f} {unit}   old {b * scale:9.1f} {unit}   ratio {o / b:5.2f}x"
                  f"   (pairs {pairs})")
        for which, label in (("pipe-9999", "pipeline, 19,997 characters"), ("rm-9990", "rm -rf, 9,990 arguments")):
            o = statistics.median(run(new, commands, which, bytecode) for _ in range(args.runs))
            print(f"{label:28s} new {o * 1e3:9.1f} ms   (old: 100 s and 5 s, not rerun)")


if __name__ == "__main__":
    main()
