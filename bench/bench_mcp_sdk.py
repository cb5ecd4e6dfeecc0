"""What the MCP SDK costs the daemon, each figure against a baseline taken in the same run.

1. Import: seconds to import what a connection needs (``aish.mcp.connection``: the SDK,
   pydantic models, anyio, httpx) in a fresh interpreter, against importing the daemon's
   own service (``aish.daemon.server``), which every daemon pays.
2. Cold first answer: ``aish ask`` with no daemon running, to the first stdout byte,
   with no MCP server configured vs. one stdio server configured: by default the question
   waits for its handshake (``connect_wait``, after the SDK's import) so that it has the
   tools; with ``connect_wait = 0`` it goes at once, without them.
3. Memory: the daemon's resident set after its first answer with no server configured,
   and with one once that server is connected (the SDK imported, one session open).

Run: python3 bench/bench_mcp_sdk.py [--runs 5]
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
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.* importable

from bench.bench_daemon import rss_mb  # noqa: E402
from tests.mcp_servers import stdio_argv  # noqa: E402
from tests.stub_server import Reply, StubServer  # noqa: E402


def import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def cold_ask() -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "aish", "ask", "hi"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    proc.stdout.read(1)
    elapsed = time.perf_counter() - start
    proc.communicate(timeout=60)
    return elapsed


def wait_connected(limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        out = subprocess.run([sys.executable, "-m", "aish", "mcp", "list"], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL).stdout
        if "connected" in out and "connecting" not in out:
            return
        time.sleep(0.2)
    raise RuntimeError("the MCP server did not connect")


def one_run(config: Path, stub_url: str, with_server: bool, wait: float = 5.0) -> tuple[float, float]:
    from aish.daemon import runtime

    text = f'[models.fast]\nendpoint = "{stub_url}"\nmodel = "m"\n'
    if with_server:
        text += f"[mcp]\nconnect_wait = {wait}\n"
        text += "[mcp.servers.notes]\ncommand = [" + ", ".join(json.dumps(a) for a in stdio_argv()) + "]\n"
    config.write_text(text)
    runtime.stop()
    first = cold_ask()
    if with_server:
        wait_connected()
    pid = runtime.is_running()
    assert pid, "no daemon running after the ask"
    rss = rss_mb(pid)
    runtime.stop()
    return first, rss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    import aish

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(aish.__file__).parent)],
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                   stdout=subprocess.DEVNULL, check=False)
    base_imports, sdk_imports = [], []
    for _ in range(args.runs):  # alternate so drift hits both alike
        base_imports.append(import_seconds("aish.daemon.server"))
        sdk_imports.append(import_seconds("aish.mcp.connection"))
    b_imp, s_imp = statistics.median(base_imports), statistics.median(sdk_imports)
    print(f"import  aish.daemon.server median {b_imp * 1000:.0f} ms | aish.mcp.connection (the SDK) "
          f"{s_imp * 1000:.0f} ms | ratio {s_imp / b_imp:.2f}x")

    tmp = Path(tempfile.mkdtemp(prefix="aish-bench-mcp-"))
    (tmp / "run").mkdir(mode=0o700)
    os.environ.update(AISH_STATE_DIR=str(tmp / "state"), AISH_RUNTIME_DIR=str(tmp / "run"),
                      AISH_CONFIG=str(tmp / "config.toml"), AISH_CONV="bench")
    with StubServer(default=Reply(text="ok\n")) as stub:
        plain: list = []
        served: list = []
        at_once: list = []
        for _ in range(args.runs):
            plain.append(one_run(tmp / "config.toml", stub.url, False))
            served.append(one_run(tmp / "config.toml", stub.url, True))
            at_once.append(one_run(tmp / "config.toml", stub.url, True, wait=0))
    p_first = statistics.median(f for f, _ in plain)
    s_first = statistics.median(f for f, _ in served)
    z_first = statistics.median(f for f, _ in at_once)
    p_rss = statistics.median(r for _, r in plain)
    s_rss = statistics.median(r for _, r in served)
    print(f"cold    first byte, no server median {p_first * 1000:.0f} ms | one stdio server "
          f"{s_first * 1000:.0f} ms (ratio {s_first / p_first:.2f}x) | with connect_wait = 0 "
          f"{z_first * 1000:.0f} ms (ratio {z_first / p_first:.2f}x)")
    print(f"memory  daemon RSS, no server median {p_rss:.1f} MB | one server connected {s_rss:.1f} MB | "
          f"+{s_rss - p_rss:.1f} MB")
    print(json.dumps({"import_base_ms": round(b_imp * 1000), "import_sdk_ms": round(s_imp * 1000),
                      "cold_plain_ms": round(p_first * 1000), "cold_server_ms": round(s_first * 1000),
                      "cold_no_wait_ms": round(z_first * 1000),
                      "rss_plain_mb": round(p_rss, 1), "rss_server_mb": round(s_rss, 1)}))


if __name__ == "__main__":
    main()
