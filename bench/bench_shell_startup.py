"""What sourcing the integration adds to an interactive shell's start-up.

Runs `zsh -i -c exit` and `bash -i -c exit` with an rc that sources shell/aish.<shell> and
with the same rc without it, alternating the two so drift (CPU frequency, cache) hits both
alike; prints medians and the difference.  Target: at most 3 ms added (median).

Wall-clock figures swing with a busy host (steal time); when valgrind is installed the
benchmark also counts the instructions each start-up executes (callgrind), which do not:
the added instructions and their ratio are the figure to compare across days.

Run: python3 bench/bench_shell_startup.py [--runs 60]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 3.0


def command(shell: str, home: Path, with_aish: bool) -> tuple[list[str], dict]:
    rcdir = home / ("with" if with_aish else "without")
    rcdir.mkdir(parents=True, exist_ok=True)
    script = ROOT / "shell" / f"aish.{shell}"
    lines = ["PS1='$ '", f"source '{script}'" if with_aish else ":"]
    env = dict(os.environ, HOME=str(home), HISTFILE=str(home / "hist"))
    if shell == "zsh":
        (rcdir / ".zshrc").write_text("\n".join(lines) + "\n")
        env["ZDOTDIR"] = str(rcdir)
        return ["zsh", "--no-globalrcs", "-i", "-c", "exit"], env
    (rcdir / "rc").write_text("\n".join(lines) + "\n")
    return ["bash", "--noprofile", "--rcfile", str(rcdir / "rc"), "-i", "-c", "exit"], env


def one(cmd: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) * 1000


def bench(shell: str, runs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        base = command(shell, home, False)
        aish = command(shell, home, True)
        for _ in range(5):  # warm the page cache
            one(*base), one(*aish)
        without, with_ = [], []
        for _ in range(runs):
            without.append(one(*base))
            with_.append(one(*aish))
        counts = (instructions(*base), instructions(*aish)) if shutil.which("valgrind") else None
    m0, m1 = statistics.median(without), statistics.median(with_)
    diff = m1 - m0
    verdict = "ok" if diff <= TARGET_MS else "OVER TARGET"
    print(f"{shell:4}: without {m0:6.2f} ms  with {m1:6.2f} ms  added {diff:+5.2f} ms "
          f"(ratio {m1 / m0:4.2f}; target <= {TARGET_MS} ms: {verdict})")
    if counts and all(counts):
        i0, i1 = counts
        print(f"      instructions: without {i0 / 1e6:.2f} M  with {i1 / 1e6:.2f} M  "
              f"added {(i1 - i0) / 1e6:+.2f} M (ratio {i1 / i0:.2f})")
    return diff


def instructions(cmd: list[str], env: dict) -> int:
    """Instructions one start-up executes, counted by callgrind (0 when it cannot)."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                         env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    return int(found.group(1)) if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    for shell in ("zsh", "bash"):
        if shutil.which(shell):
            bench(shell, args.runs)
        else:
            print(f"{shell}: not installed, skipped")


if __name__ == "__main__":
    main()
