"""Redaction and safety-check speed, each against a baseline measured in the same run.

1. ``Redactor.redact`` over 100 KB of text (no secrets: the common case, every
   literal scanned to the end) vs. one plain ``str.replace`` pass over the same
   text.  Target: well under 10 ms per 100 KB.
2. ``safety.assess`` per suggested command vs. ``shlex.split`` of the same
   command.  Target: < 1 ms per command.

Run: python3 bench/bench_secrets.py [--runs 50]
"""
from __future__ import annotations

import argparse
import glob
import shlex
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))

from aish.safety.assess import assess  # noqa: E402
from aish.safety.secrets import Redactor  # noqa: E402


def timed(fn, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def corpus(name: str) -> list[str]:
    path = ROOT / "tests" / "corpus" / name
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    runs = parser.parse_args().runs

    texts = {
        "shell lines": "\n".join(corpus("everyday.txt") + corpus("secrets_negative.txt")),
        "python source": "".join(Path(p).read_text(encoding="utf-8")
                                 for p in sorted(glob.glob(str(ROOT / "backend/aish/**/*.py"), recursive=True))),
    }
    for label, text in texts.items():
        text = (text * (100_000 // len(text) + 1))[:100_000]
        redactor = Redactor()
        ours = timed(lambda redactor=redactor, text=text: redactor.redact(text), runs)
        base = timed(lambda text=text: text.replace("password", "x"), runs)
        print(f"redact 100 KB {label:14s} {ours * 1000:6.2f} ms   str.replace {base * 1000:6.3f} ms   "
              f"ratio {ours / base:6.1f}x")

    commands = [line.split("] ", 1)[-1] for line in corpus("destructive.txt")] + corpus("everyday.txt")
    ours = timed(lambda: [assess(c) for c in commands], runs) / len(commands)
    base = timed(lambda: [shlex.split(c, posix=True) if c.count("'") % 2 == 0 and c.count('"') % 2 == 0
                          else None for c in commands], runs) / len(commands)
    print(f"assess per command          {ours * 1e6:6.1f} us   shlex.split {base * 1e6:6.1f} us   "
          f"ratio {ours / base:6.1f}x")


if __name__ == "__main__":
    main()
