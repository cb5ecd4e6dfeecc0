"""A cold daemon's work up to its first answer's first text, in instructions: steady under load.

``bench_cli.py`` times the cold ``aish ask`` as a user sees it, but on a shared host its wall
time (and the daemon's CPU, in 10 ms ticks) moves with everyone else's work.  This counts what
the daemon itself executes instead, with valgrind's callgrind (the same count whatever the
load), for this tree and a baseline tree (``--against DIR``, e.g. ``git archive REV | tar -x -C
DIR``), and their ratio.

Each measured process is what the forked daemon is: an interpreter that has the CLI's modules
loaded (``aish.cli.quick``, ``aish.daemon.spawn``, ``aish.daemon.client``), then builds the
daemon's lazy service (``LazyService``, as ``daemon/__main__.py`` does, with the kept dataclass
methods when the tree has them) and asks one question of the loopback stub (another process,
not counted), and exits at the first text chunk.  A second process exits before the daemon's
part: its count (the interpreter's own start) is subtracted.  Each tree has its state dir, and
one unmeasured ask first (the server learned, the token counts and the kept methods written),
as a user's daemon has after its first start.  No FIFO, no frames: those cost the same in both.

``--cpu N``: also N alternating runs of each without valgrind, median CPU milliseconds (quick,
noisy).  Needs valgrind for the counts (``apt-get install valgrind``).

Run: python3 bench/bench_cold_ask.py --against DIR [--cpu 9]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STUB = r'''
import sys, time
sys.path.insert(0, sys.argv[1])
from tests.stub_server import Reply, StubServer
with StubServer(default=Reply(text="ok\nCMD: true\n", chunk_size=64)) as stub:
    print(stub.url, flush=True)
    time.sleep(3600)
'''

# argv: mode (warm | measure | start), the tree's root
DAEMON = r'''
import logging, os, sys, time
import aish.cli.quick, aish.daemon.spawn, aish.daemon.client  # what the forked CLI had loaded
mode = sys.argv[1]
if mode == "start":
    os._exit(0)
cpu = time.process_time()
try:
    from aish.daemon import method_cache
except ImportError:  # a tree before the kept methods
    method_cache = None
else:
    from pathlib import Path
    method_cache.install(Path(os.environ["AISH_STATE_DIR"]))
import aish.daemon.__main__ as daemon_main
from aish.ipc.protocol import Request
daemon_main.setup_logging()
if mode == "measure":
    daemon_main.WARM_UP_AFTER = 1e6  # under valgrind 2 s pass before the first text: no warm-up yet


class FirstText:
    """The reply: exits at the first text chunk when measuring."""

    def __init__(self):
        from aish.ipc.cancel import CancelToken
        self.cancel = CancelToken()

    def text(self, chunk):
        if mode == "measure":
            print(f"cpu {1000 * (time.process_time() - cpu):.1f}", flush=True)
            os._exit(0)

    def __getattr__(self, name):  # status, warning, command...: nothing to show
        return lambda *args, **kwargs: None


service = daemon_main.LazyService(logging.getLogger("aish"))
service.handle(Request(id="bench", kind="ask", conv="bench", text="hi", cwd="/", env={}), FirstText())
time.sleep(0.5)  # (the warm-up after the first answer)
if method_cache is not None:
    method_cache.save()
service.close()
'''


def run(tree: Path, state: Path, url: str, mode: str, valgrind: bool) -> dict:
    (state / "run").mkdir(parents=True, exist_ok=True, mode=0o700)
    (state / "config.toml").write_text(f'[models.fast]\nendpoint = "{url}"\nmodel = "m"\n')
    env = {**os.environ, "PYTHONPATH": str(tree / "backend"), "AISH_STATE_DIR": str(state / "state"),
           "AISH_RUNTIME_DIR": str(state / "run"), "AISH_CONFIG": str(state / "config.toml"),
           "AISH_DETECT_PORTS": ""}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    argv = [sys.executable, "-c", DAEMON, mode]
    if valgrind:
        argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv
    out = subprocess.run(argv, capture_output=True, text=True, env=env, cwd="/", timeout=900,
                         stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        raise RuntimeError(f"{mode} on {tree} failed: {out.stderr[-2000:]}")
    result: dict = {}
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found:
        result["instructions"] = int(found.group(1))
    cpu = re.search(r"^cpu (\S+)", out.stdout, re.M)
    if cpu:
        result["cpu_ms"] = float(cpu.group(1))
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, required=True, help="a baseline source tree")
    parser.add_argument("--cpu", type=int, default=0, help="also this many CPU-time runs of each")
    args = parser.parse_args()
    trees = {"this": ROOT, "against": args.against.resolve()}
    for tree in trees.values():  # measured as installed: bytecode cached
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "backend")],
                       stdout=subprocess.DEVNULL, check=False,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    tmp = Path(tempfile.mkdtemp(prefix="aish-cold-"))
    stub = subprocess.Popen([sys.executable, "-c", STUB, str(ROOT)], stdout=subprocess.PIPE, text=True)
    try:
        url = stub.stdout.readline().strip()
        figures: dict = {}
        for name, tree in trees.items():
            state = tmp / name
            run(tree, state, url, "warm", False)
            if shutil.which("valgrind"):
                whole = run(tree, state, url, "measure", True)["instructions"]
                start = run(tree, state, url, "start", True)["instructions"]
                figures[name] = {"instructions": whole, "start": start, "daemon": whole - start}
        cpu: dict = {name: [] for name in trees}
        for _ in range(args.cpu):
            for name, tree in trees.items():
                cpu[name].append(run(tree, tmp / name, url, "measure", False)["cpu_ms"])
    finally:
        stub.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    if figures:
        this, against = figures["this"]["daemon"], figures["against"]["daemon"]
        print("instructions to the first text (callgrind), the interpreter's start subtracted:")
        for name, tree in trees.items():
            f = figures[name]
            print(f"  {name:8s} {f['daemon'] / 1e6:8.1f} M  (whole process {f['instructions'] / 1e6:.1f} M, "
                  f"start {f['start'] / 1e6:.1f} M)  {tree}")
        print(f"  this / against: {this / against:.2f}x")
    if args.cpu:
        print(f"CPU to the first text, median of {args.cpu} alternating runs (load {os.getloadavg()[0]:.1f}):")
        for name in trees:
            runs = ", ".join(f"{c:.0f}" for c in cpu[name])
            print(f"  {name:8s} {statistics.median(cpu[name]):6.1f} ms  (runs {runs})")
        print(f"  this / against: {statistics.median(cpu['this']) / statistics.median(cpu['against']):.2f}x")
    print(json.dumps({"daemon_instructions": {k: v["daemon"] for k, v in figures.items()},
                      "cpu_ms": {k: statistics.median(v) for k, v in cpu.items() if v},
                      "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
