"""Keystroke latency through aish's pty recorder, against the same program on a direct pty.

A key press travels: terminal -> pty -> program -> pty -> terminal (the echo).
Baseline: `cat` in raw mode on a pty we hold the master of; we write one byte
and time until it comes back.  Recorder: the same `cat` under `aish record`,
so each byte crosses the relay twice (key in, echo out), as typing does.
Target: median added latency < 1 ms.

Run: python3 bench/bench_recorder.py [--presses 400] [--rounds 5]
"""
from __future__ import annotations

import argparse
import os
import pty
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAT = ["sh", "-c", "stty raw -echo; echo ready; exec cat"]


def spawn(argv: list, env: dict) -> tuple:
    pid, master = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    buf = b""
    deadline = time.monotonic() + 20
    while b"ready" not in buf:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{argv} did not start: {buf!r}")
        if select.select([master], [], [], 0.5)[0]:
            buf += os.read(master, 4096)
    time.sleep(0.2)
    while select.select([master], [], [], 0.05)[0]:
        os.read(master, 4096)
    return pid, master


def presses(master: int, count: int) -> list:
    times = []
    for i in range(count):
        key = bytes([97 + i % 26])
        start = time.perf_counter()
        os.write(master, key)
        got = b""
        while key not in got:
            select.select([master], [], [], 2)
            got += os.read(master, 64)
        times.append(time.perf_counter() - start)
    return times


def stop(pid: int, master: int) -> None:
    os.write(master, b"\x04")
    os.close(master)
    os.kill(pid, 9)
    os.waitpid(pid, 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--presses", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "backend"),
               AISH_RUNTIME_DIR=tempfile.mkdtemp(prefix="aish-bench-"))
    recorded = [sys.executable, "-m", "aish", "record", "--", *CAT]
    direct_med, relay_med = [], []
    for _ in range(args.rounds):  # interleaved, so load on the host hits both alike
        for argv, out in ((CAT, direct_med), (recorded, relay_med)):
            pid, master = spawn(argv, env)
            out.append(statistics.median(presses(master, args.presses)) * 1e6)
            stop(pid, master)
    direct, relay = statistics.median(direct_med), statistics.median(relay_med)
    print(f"direct pty   : median {direct:7.1f} us per key (round medians {', '.join(f'{m:.0f}' for m in direct_med)})")
    print(f"aish recorder: median {relay:7.1f} us per key (round medians {', '.join(f'{m:.0f}' for m in relay_med)})")
    print(f"added: {relay - direct:.1f} us per key (target < 1000 us); ratio {relay / direct:.2f}x")


if __name__ == "__main__":
    main()
