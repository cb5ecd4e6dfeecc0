"""Daemon latency and memory, each against a baseline measured in the same run.

1. Warm: time to the first text byte through a warm daemon (Python client ->
   FIFO -> daemon -> stub) vs. a direct streaming HTTP request to the same
   loopback stub.  Target: median difference <= 3 ms.
2. Cold: `aish ask` with no daemon running (spawns it) to the first stdout
   byte vs. the direct request.  Target: <= 400 ms over direct.
3. Memory: daemon resident set after 100 asks.  Target: <= 60 MB.

Run: python3 bench/bench_daemon.py [--runs 40]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.stub_server importable

import requests  # noqa: E402

from tests.stub_server import Reply, StubServer  # noqa: E402


def direct_ttfb(session: requests.Session, url: str) -> float:
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    start = time.perf_counter()
    with session.post(url + "/v1/chat/completions", json=body, stream=True, timeout=10) as resp:
        for line in resp.iter_lines():
            if line.startswith(b"data: ") and b'"content"' in line:
                return time.perf_counter() - start
    raise RuntimeError("no text from the stub")


def daemon_ttfb(client, Request) -> float:
    first = []
    start = time.perf_counter()

    def on_frame(frame):
        if frame.tag == "T" and not first:
            first.append(time.perf_counter() - start)

    client.request(Request(id="", kind="ask", reply="", conv="bench", shell="cli", text="hi"),
                   on_frame=on_frame)
    return first[0]


def cold_ttfb() -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "aish", "ask", "hi"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    proc.stdout.read(1)
    elapsed = time.perf_counter() - start
    proc.wait(timeout=30)
    return elapsed


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--asks", type=int, default=100)
    args = parser.parse_args()

    # Measure aish as installed: pip compiles bytecode at install time, so do the same here
    # (an editable checkout under PYTHONDONTWRITEBYTECODE would recompile on every start).
    import aish

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(aish.__file__).parent)],
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                   stdout=subprocess.DEVNULL, check=False)
    tmp = Path(tempfile.mkdtemp(prefix="aish-bench-"))
    (tmp / "run").mkdir(mode=0o700)
    os.environ.update(AISH_STATE_DIR=str(tmp / "state"), AISH_RUNTIME_DIR=str(tmp / "run"),
                      AISH_CONFIG=str(tmp / "config.toml"), AISH_CONV="bench")
    from aish.daemon.client import Client
    from aish.daemon import runtime
    from aish.ipc.protocol import Request

    with StubServer(default=Reply(text="ok\nCMD: true\n", chunk_size=64)) as stub:
        (tmp / "config.toml").write_text(
            f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n[context]\nmax_turns = 2\n')
        session = requests.Session()
        client = Client()
        daemon_ttfb(client, Request)  # warm: daemon started, connections open
        direct_ttfb(session, stub.url)
        direct, via = [], []
        for _ in range(args.runs):  # alternate so drift hits both alike
            direct.append(direct_ttfb(session, stub.url))
            via.append(daemon_ttfb(client, Request))
        d_med, v_med = statistics.median(direct), statistics.median(via)
        print(f"warm  direct median {d_med * 1000:.2f} ms | via daemon {v_med * 1000:.2f} ms | "
              f"difference {(v_med - d_med) * 1000:+.2f} ms (target <= 3 ms) | ratio {v_med / d_med:.2f}x")

        pid = runtime.is_running()
        for _ in range(args.asks):
            daemon_ttfb(client, Request)
        rss = rss_mb(pid)
        print(f"memory daemon RSS after {args.asks + args.runs + 1} asks: {rss:.1f} MB (target <= 60 MB)")

        cold = []
        for _ in range(args.cold_runs):
            runtime.stop()
            cold.append(cold_ttfb())
        c_med = statistics.median(cold)
        print(f"cold  aish ask, no daemon, median {c_med * 1000:.1f} ms | direct {d_med * 1000:.2f} ms | "
              f"over direct {(c_med - d_med) * 1000:+.1f} ms (target <= 400 ms) | ratio {c_med / d_med:.0f}x")
        runtime.stop()
        print(json.dumps({"warm_direct_ms": round(d_med * 1000, 3), "warm_daemon_ms": round(v_med * 1000, 3),
                          "cold_ms": round(c_med * 1000, 1), "rss_mb": round(rss, 1)}))


if __name__ == "__main__":
    main()
