"""Soak: 50 concurrent asks over 5 conversations, slow and long answers, the daemon
killed (SIGKILL) and restarted twice during the run.

Every ask must either answer completely and uncrossed (its own marker at both ends,
every word there) or fail with one clear line within 2 s of the kill; afterwards no
request or reply FIFO files are left, every session log parses and the ledger passes
``PRAGMA integrity_check``.  Prints throughput and p50/p95 latency of the answered
asks, against a baseline run of the same load without kills (same script, same
machine).  Exits 1 when a promise is broken.

Run: python3 bench/bench_soak.py [--asks 50] [--convs 5] [--runs 1]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.stub_server importable

from tests import stub_server  # noqa: E402
from tests.stub_server import Reply, StubServer  # noqa: E402

LONG_WORDS = 1500


def _echo_chat(self, body: dict) -> None:
    """The stub answers each question with its own marker: a crossed answer shows."""
    users = [m.get("content", "") for m in body.get("messages") or [] if m.get("role") == "user"]
    if not users:  # a request cut off by the kill arrives empty
        self._json(400, {"error": {"code": 400, "message": "no messages"}})
        return
    question = users[-1]
    tag = question.split()[0]
    if tag.startswith("long"):
        reply = Reply(text=f"<{tag}> " + "w " * LONG_WORDS + f"</{tag}>", chunk_size=48, delay=0.002)
    else:
        reply = Reply(text=f"<{tag}> slow answer </{tag}>", chunk_size=4, first_byte_delay=0.4,
                      delay=0.05)
    try:
        self._stream(body, reply)
    except stub_server._Gone:
        self.close_connection = True


def _expected(tag: str) -> str:
    if tag.startswith("long"):
        return f"<{tag}> " + "w " * LONG_WORDS + f"</{tag}>"
    return f"<{tag}> slow answer </{tag}>"


def one_run(asks: int, convs: int, kills: int, seed: int) -> dict:
    from aish.daemon.client import Client
    from aish.daemon import runtime, spawn
    from aish.errors import AishError
    from aish.ipc.protocol import Request

    rng = random.Random(seed)
    base = Path(tempfile.mkdtemp(prefix="aish-soak-"))
    (base / "run").mkdir(mode=0o700)
    os.environ.update(AISH_STATE_DIR=str(base / "state"), AISH_RUNTIME_DIR=str(base / "run"),
                      AISH_CONFIG=str(base / "config.toml"), AISH_DETECT_PORTS="")
    results: list = [None] * asks
    kill_times: list = []
    stub_server._Handler._chat = _echo_chat
    with StubServer() as stub:
        (base / "config.toml").write_text(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                                          '[context]\nmax_turns = 4\n')
        spawn.start()
        span = 6.0  # asks start spread over this many seconds
        starts = sorted(rng.uniform(0, span) for _ in range(asks))
        t0 = time.monotonic()

        def ask(i: int) -> None:
            time.sleep(max(0.0, t0 + starts[i] - time.monotonic()))
            tag = f"{'long' if i % 2 else 'slow'}{i}"
            text: list = []
            began = time.monotonic()
            try:
                with Client() as client:
                    client.request(Request(conv=f"soak-{i % convs}", text=f"{tag} please"),
                                   on_frame=lambda f: f.tag == "T" and text.append(f.fields[0]))
                got = "".join(text)
                ok = got.strip() == _expected(tag).strip()
                results[i] = {"ok": ok, "crossed": not ok, "t": time.monotonic() - began,
                              "end": time.monotonic()}
            except AishError as err:
                line = str(err)
                results[i] = {"ok": False, "error": line, "one_line": "\n" not in line,
                              "end": time.monotonic(), "t": time.monotonic() - began}

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(asks)]
        for t in threads:
            t.start()
        for n in range(kills):
            time.sleep(max(0.0, t0 + span * (n + 1) / (kills + 1) - time.monotonic()))
            pid = runtime.is_running()
            if pid:
                os.kill(pid, signal.SIGKILL)
                kill_times.append(time.monotonic())
                while runtime.is_running() == pid:
                    time.sleep(0.005)
                spawn.start()
        for t in threads:
            t.join(300)
        wall = time.monotonic() - t0
        runtime.stop()
    leftovers = sorted(p.name for p in (base / "run").iterdir()
                       if p.suffix in (".req", ".fifo") and p.name != "daemon.fifo")
    logs_ok = True
    for log in (base / "state" / "sessions").glob("*.jsonl"):
        for line in log.read_text().splitlines():
            try:
                json.loads(line)
            except ValueError:
                logs_ok = False
    conn = sqlite3.connect(base / "state" / "ledger.sqlite3")
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    conn.close()
    failed = [r for r in results if r and not r["ok"]]
    late = []
    for r in failed:
        if "error" not in r:
            continue
        before = [k for k in kill_times if k <= r["end"]]
        if not before or r["end"] - before[-1] > 2.0:
            late.append(r)
    answered = [r["t"] for r in results if r and r["ok"]]
    return {"answered": len(answered), "failed": len([r for r in failed if "error" in r]),
            "crossed": len([r for r in failed if r.get("crossed")]), "missing": results.count(None),
            "late": len(late), "multi_line": len([r for r in failed if r.get("one_line") is False]),
            "leftovers": leftovers, "logs_ok": logs_ok, "integrity": integrity,
            "wall": wall, "throughput": len(answered) / wall,
            "p50": statistics.median(answered) if answered else float("nan"),
            "p95": statistics.quantiles(answered, n=20)[18] if len(answered) >= 20 else float("nan"),
            "errors": sorted({re.sub(r"\d+", "N", r["error"].split(" (see")[0]) for r in failed
                              if "error" in r}),
            "notice": max((r["end"] - max(k for k in kill_times if k <= r["end"]) for r in failed
                           if "error" in r and any(k <= r["end"] for k in kill_times)), default=0.0)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--asks", type=int, default=50)
    parser.add_argument("--convs", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    broken = False
    base_tp, soak_tp, base_p50, soak_p50, base_p95, soak_p95 = [], [], [], [], [], []
    for run in range(args.runs):
        base = one_run(args.asks, args.convs, 0, seed=run)
        soak = one_run(args.asks, args.convs, 2, seed=run)
        for name, r in (("baseline", base), ("soak", soak)):
            print(f"run {run + 1} {name:8}: answered {r['answered']}/{args.asks}, failed {r['failed']} "
                  f"(late {r['late']}, multi-line {r['multi_line']}), crossed {r['crossed']}, "
                  f"missing {r['missing']}; {r['throughput']:.2f} answers/s, p50 {r['p50']:.2f}s, "
                  f"p95 {r['p95']:.2f}s; leftovers {r['leftovers'] or 'none'}, logs "
                  f"{'parse' if r['logs_ok'] else 'BROKEN'}, ledger {r['integrity']}")
            if r["errors"]:
                print(f"   failure lines (slowest {r['notice']:.2f}s after its kill):",
                      "; ".join(r["errors"]))
            broken |= bool(r["crossed"] or r["missing"] or r["late"] or r["multi_line"] or r["leftovers"]
                           or not r["logs_ok"] or r["integrity"] != "ok")
        broken |= base["failed"] > 0
        base_tp.append(base["throughput"])
        soak_tp.append(soak["throughput"])
        base_p50.append(base["p50"])
        soak_p50.append(soak["p50"])
        base_p95.append(base["p95"])
        soak_p95.append(soak["p95"])
    print(f"median over {args.runs} run(s): throughput soak/baseline "
          f"{statistics.median(soak_tp) / statistics.median(base_tp):.2f}x, "
          f"p50 {statistics.median(soak_p50) / statistics.median(base_p50):.2f}x, "
          f"p95 {statistics.median(soak_p95) / statistics.median(base_p95):.2f}x")
    print("PROMISES BROKEN" if broken else "all promises kept")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
