"""Redaction and safety-check speed, each against a baseline measured in the same run.

1. ``Redactor.redact`` per 100 KB of ordinary text (shell lines, Python source, a compact
   JSON tool result, everyday outputs: no secret in them, every rule runs to the end) and of
   pathological text (a secret word or a command's name every few characters), against the
   redactor of a git revision (``--baseline``, default: the one before the format/context
   rewrite) and a plain ``str.replace`` pass over the same text.  The baseline is timed on
   a 10 KB slice when 100 KB would take it more than a few seconds (quadratic: the figure
   says so).
2. ``safety.assess`` per suggested command vs. ``shlex.split`` of the same command.

Medians of ``--runs`` repeats of the process's CPU time.
Run: python3 bench/bench_secrets.py [--runs 15] [--baseline REV]
"""
from __future__ import annotations

import argparse
import glob
import json
import shlex
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))
sys.path.insert(0, str(ROOT / "bench"))

from aish.safety.assess import assess  # noqa: E402
from aish.safety.secrets import Redactor  # noqa: E402
from secret_candidates import aish_at  # noqa: E402

SIZE = 100_000


def timed(fn, runs: int) -> float:
    """Median CPU time of the process (wall time on a shared host mostly measures the others)."""
    samples = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def corpus(name: str) -> list[str]:
    path = ROOT / "tests" / "corpus" / name
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


def sized(text: str, size: int = SIZE) -> str:
    return (text * (size // len(text) + 1))[:size]


def texts() -> dict[str, str]:
    outputs = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests/corpus/outputs").iterdir()))
    source = "".join(Path(p).read_text(encoding="utf-8")
                     for p in sorted(glob.glob(str(ROOT / "backend/aish/**/*.py"), recursive=True)))
    tool_result = json.dumps([{"cmd": f"curl -s https://api.example.com/v1/items/{i} | jq .name", "ok": True,
                               "note": "mysql -h db -u app shop < dump.sql", "n": i} for i in range(4000)])
    return {
        "shell lines": sized("\n".join(corpus("everyday.txt") + corpus("secrets_negative.txt"))),
        "python source": sized(source),
        "json tool result": sized(tool_result),
        "everyday outputs": sized(outputs),
        "'secret.' x": sized("secret."),
        "'curl ' x": sized("curl "),
        "'key: ' x": sized("key: "),
        "'mysql -p' x": sized("mysql -p"),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--baseline", default="4e10337", help="git revision of the redactor to compare with")
    args = parser.parse_args()
    runs = args.runs
    old = aish_at(args.baseline)

    print(f"{'redact per 100 KB':24s} {'this tree':>10s} {'baseline':>14s} {'ratio':>8s} {'str.replace':>12s}")
    for label, text in texts().items():
        ours = timed(lambda t=text: Redactor().redact(t), runs)
        start = time.process_time()
        old(text[:10_000])
        probe = time.process_time() - start
        if probe * 10 > 3:  # 100 KB would take the baseline far more than 3 s: time a 10 KB slice
            base = timed(lambda t=text[:10_000]: old(t), 3)
            base_label = f"{base * 1000:8.0f} ms*"
        else:
            base = timed(lambda t=text: old(t), runs)
            base_label = f"{base * 1000:9.1f} ms"
        replace = timed(lambda t=text: t.replace("password", "x"), runs)
        ratio = f"{ours / base:7.3g}x" if "*" not in base_label else "     n/a"
        print(f"{label:24s} {ours * 1000:7.1f} ms {base_label:>14s} {ratio:>8s} {replace * 1000:9.3f} ms")
    print("* baseline timed on 10 KB only: on 100 KB it is quadratic (seconds to minutes)")

    commands = [line.split("] ", 1)[-1] for line in corpus("destructive.txt")] + corpus("everyday.txt")
    ours = timed(lambda: [assess(c) for c in commands], runs) / len(commands)
    base = timed(lambda: [shlex.split(c, posix=True) if c.count("'") % 2 == 0 and c.count('"') % 2 == 0
                          else None for c in commands], runs) / len(commands)
    print(f"assess per command          {ours * 1e6:6.1f} us   shlex.split {base * 1e6:6.1f} us   "
          f"ratio {ours / base:6.1f}x")


if __name__ == "__main__":
    main()
