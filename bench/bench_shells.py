"""Many shells at once: 50 concurrent asks, daemon CPU per ask and first-byte latency.

Three ways to answer the same load, interleaved round by round so a busy spell of the
shared host hits all of them alike:

- **aish**: the real daemon (``python -m aish.daemon``), each shell its own conversation
  growing by one exchange a round, a cwd inside a git checkout and a few history entries
  per request, as shells send them;
- **relay**: ``bench/minimal_relay.py``, the same protocol (request file, control line,
  frames on the client's FIFO) relaying the question to the model server and nothing
  else: the baseline for CPU;
- **direct**: 50 clients streaming the same request from the model server themselves:
  the baseline for latency.

Per ask: the daemon's CPU time (user + system, from /proc, divided by the asks of the
rounds), the first text byte's latency at each client (p50, p95).  Targets (issue 26):
aish's CPU per ask <= 2x the relay's; p95 first byte <= 3x direct.

``--against DIR``: a fourth way, the daemon of another tree (``DIR/backend`` first on its
path, its own runtime and state dirs), interleaved round by round with this one: its CPU per
ask, and this tree's as a ratio of it, measured under the same moments of the host's load.

``--threads``: the daemon runs with its request threads timed (CPU time of the thread, from
the request read to its first text frame, and to its last work): what one ask costs on its
own thread, which the host's load moves much less than wall-clock figures.

``--instructions``: the daemons and the relay run under callgrind, and each one's instructions per
ask in the measured rounds are counted: what each does itself, which neither the host's load nor
the other processes change (the CPU figures at load 10-20 move by +-10% from run to run).

Run: python3 bench/bench_shells.py [--shells 50] [--rounds 6] [--against DIR] [--profile OUT.txt | --threads |
     --instructions]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.stub_server importable

from tests.stub_server import Reply, StubServer  # noqa: E402

ANSWER = "Use lsof to find it, then stop it.\nCMD: lsof -ti tcp:8080 | xargs kill\n"
TICK = os.sysconf("SC_CLK_TCK")
PROFILED_DAEMON = """
import signal, sys, yappi
yappi.set_clock_type("cpu")
signal.signal(signal.SIGUSR1, lambda *_: yappi.start())
from aish.daemon.__main__ import main
main([])
yappi.stop()
with open(sys.argv[1], "w") as out:
    yappi.get_func_stats().sort("ttot").print_all(out=out, columns={0: ("name", 90), 1: ("ncall", 8),
        2: ("tsub", 8), 3: ("ttot", 8), 4: ("tavg", 8)})
"""
TIMED_DAEMON = """
import json, signal, sys, time
from aish.daemon import frames, server
rounds = []  # per measured ask: thread CPU to the first text frame, then to the end of its work
on = [False]
signal.signal(signal.SIGUSR1, lambda *_: on.__setitem__(0, True))
serve, text = server.Server._serve, frames.FrameReply.text

def timed_serve(self, reply):
    reply.bench_start, reply.bench_first = time.thread_time(), None
    serve(self, reply)
    if on[0] and reply.bench_first is not None:
        rounds.append((reply.bench_first, time.thread_time() - reply.bench_start))

def timed_text(self, chunk):
    if getattr(self, "bench_start", None) is not None and self.bench_first is None:
        self.bench_first = time.thread_time() - self.bench_start
    return text(self, chunk)

server.Server._serve, frames.FrameReply.text = timed_serve, timed_text
import gc
collections = []  # per collection while measuring: generation, objects looked at, CPU and wall time
began = [0, 0.0, 0.0]

def on_gc(phase, info):
    if phase == "start":
        began[:] = [info["generation"], time.thread_time(), time.perf_counter()]
    elif on[0]:
        collections.append((began[0], info["collected"], time.thread_time() - began[1],
                            time.perf_counter() - began[2]))

gc.callbacks.append(on_gc)
from aish.daemon.__main__ import main
try:
    main([])
finally:
    with open(sys.argv[1], "w") as out:
        json.dump({"rounds": rounds, "gc": collections}, out)
"""


def against(tree: Path, rundir: Path, state: Path, prefix: tuple = ()) -> subprocess.Popen:
    """The daemon of another tree (its ``backend`` first on the path), serving ``rundir``;
    ``prefix``: what runs it (callgrind's command line, ``--instructions``)."""
    from aish.daemon import runtime

    rundir.mkdir(mode=0o700, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(tree.resolve() / "backend"), "AISH_RUNTIME_DIR": str(rundir),
           "AISH_STATE_DIR": str(state)}
    proc = subprocess.Popen([*prefix, sys.executable, "-m", "aish.daemon"], env=env, cwd="/",
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not runtime.is_running(rundir):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the daemon of {tree} did not start")
        time.sleep(0.02)
    return proc


def callgrind(out: Path) -> tuple:
    """Valgrind's callgrind, instrumenting nothing until told (``callgrind_control -i on``)."""
    return ("valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}.%p")


def instructions(pid: int, out: Path) -> int:
    """The instructions a process under ``callgrind(out)`` ran since it was told to count."""
    subprocess.run(["callgrind_control", "-d", str(pid)], capture_output=True, check=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for path in out.parent.glob(f"{out.name}.{pid}*"):
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith("totals:"):
                    return int(line.split()[1])
        time.sleep(0.1)
    raise RuntimeError(f"callgrind wrote no dump for {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system time of the whole process (its finished threads included), to the
    nanosecond: the process's CPU clock (Linux names another process's as ``~pid << 3 | 2``).
    /proc's figures count 10 ms ticks: 0.2 ms per ask in a round of 50, more than most changes
    to an ask's work; they are the fallback."""
    try:
        return time.clock_gettime((~pid << 3) | 2)
    except OSError:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK


def quantile(values: list, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Shells:
    """``n`` client threads that ask at once, round after round, through one rundir."""

    def __init__(self, rundir: Path, n: int, cwd: str) -> None:
        from aish.daemon.client import Client

        self.clients = [Client(rundir=rundir, autostart=False) for _ in range(n)]
        self.cwd = cwd

    def round(self, number: int) -> list:
        from aish.ipc.protocol import HistoryEntry, Request

        firsts: list = [None] * len(self.clients)
        barrier = threading.Barrier(len(self.clients))

        def one(i: int) -> None:
            request = Request(kind="ask", conv=f"shell-{i}", shell="zsh", cwd=self.cwd, status=0,
                              text=f"round {number}, shell {i}: free port 8080",
                              history=[HistoryEntry("git status", 0, 12), HistoryEntry("ls -la", 0, 3)])
            barrier.wait()
            start = time.perf_counter()

            def on_frame(frame) -> None:
                if frame.tag == "T" and firsts[i] is None:
                    firsts[i] = time.perf_counter() - start

            self.clients[i].request(request, on_frame=on_frame, timeout=120)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(self.clients))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return [f for f in firsts if f is not None]


def direct_round(url: str, conns: list) -> list:
    host, port = url.split("//")[1].split(":")
    body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "free port 8080"}]})
    firsts: list = [None] * len(conns)
    barrier = threading.Barrier(len(conns))

    def one(i: int) -> None:
        if conns[i] is None:
            conns[i] = http.client.HTTPConnection(host, int(port), timeout=60)
        barrier.wait()
        start = time.perf_counter()
        conns[i].request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
        resp = conns[i].getresponse()
        for line in resp:
            if firsts[i] is None and line.startswith(b"data: ") and b'"content"' in line:
                firsts[i] = time.perf_counter() - start
        resp.read()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(conns))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [f for f in firsts if f is not None]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shells", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--profile", metavar="OUT", help="run the aish daemon under yappi (CPU clock, all "
                        "threads; pip install yappi) and write its top functions to OUT")
    parser.add_argument("--threads", action="store_true", help="time the aish daemon's request threads "
                        "(thread CPU to the first text frame and to the end of each ask's work)")
    parser.add_argument("--against", metavar="DIR", help="also run the daemon of the tree at DIR (a git "
                        "worktree or an archive of another revision), interleaved with this one")
    parser.add_argument("--instructions", action="store_true", help="run the daemons and the relay under "
                        "callgrind (valgrind) and count the instructions each ran per ask in the measured "
                        "rounds: the host's load moves none of them (slow: use --shells 10)")
    args = parser.parse_args()
    if args.instructions and (args.profile or args.threads):
        parser.error("--instructions runs the daemon under callgrind: not with --profile or --threads")

    import aish

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(aish.__file__).parent)],
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                   stdout=subprocess.DEVNULL, check=False)
    tmp = Path(tempfile.mkdtemp(prefix="aish-shells-"))
    aish_run, relay_run, base_run = tmp / "run", tmp / "relay", tmp / "base"
    for d in (aish_run, relay_run, base_run):
        d.mkdir(mode=0o700)
    os.environ.update(AISH_STATE_DIR=str(tmp / "state"), AISH_RUNTIME_DIR=str(aish_run),
                      AISH_CONFIG=str(tmp / "config.toml"), AISH_DETECT_PORTS="")
    from aish.daemon import runtime, spawn

    cwd = str(ROOT / "backend" / "aish" / "app")  # a shell deep in a git checkout
    with StubServer(default=Reply(text=ANSWER, chunk_size=8)) as stub:
        (tmp / "config.toml").write_text(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        profiled = None
        timings = tmp / "threads.json"
        if args.profile or args.threads:
            code, out = (PROFILED_DAEMON, args.profile) if args.profile else (TIMED_DAEMON, str(timings))
            profiled = subprocess.Popen([sys.executable, "-c", code, out],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while not runtime.is_running(aish_run):
                time.sleep(0.02)
        grind = tmp / "callgrind.out"
        prefix = callgrind(grind) if args.instructions else ()
        if args.instructions:  # this tree's daemon as another's: a process of its own under callgrind
            profiled = against(ROOT, aish_run, tmp / "state", prefix)
        aish_pid = spawn.start(rundir=aish_run)
        relay = subprocess.Popen([*prefix, sys.executable, str(ROOT / "bench" / "minimal_relay.py"),
                                  str(relay_run), stub.url])
        while not runtime.is_running(relay_run):
            time.sleep(0.02)
        ways = [("aish", Shells(aish_run, args.shells, cwd), aish_pid), ("relay", Shells(relay_run, args.shells, cwd),
                                                                         relay.pid)]
        base = None
        if args.against:
            base = against(Path(args.against), base_run, tmp / "base-state", prefix)
            ways.insert(1, ("base", Shells(base_run, args.shells, cwd), base.pid))
        conns: list = [None] * args.shells
        for _, shells, _ in ways:
            shells.round(0)  # warm: sessions made, connections open, modules loaded
        direct_round(stub.url, conns)
        if args.instructions:  # the warm-up after the first answer (imports, the ledger) ends first
            for _, shells, _ in ways:
                shells.round(0)
            time.sleep(5)
            for _, _, pid in ways:
                subprocess.run(["callgrind_control", "-i", "on", str(pid)], capture_output=True, check=True)
        elif profiled is not None:
            os.kill(aish_pid, signal.SIGUSR1)  # measure the rounds, not the start and warm-up
        lat: dict = {name: [] for name, _, _ in ways}
        lat["direct"] = []
        cpu: dict = {name: 0.0 for name, _, _ in ways}
        per_round: dict = {name: [] for name, _, _ in ways}
        for number in range(1, args.rounds + 1):
            for name, shells, pid in ways if number % 2 else ways[::-1]:  # neither always first
                before = cpu_seconds(pid)
                lat[name] += shells.round(number)
                used = cpu_seconds(pid) - before
                cpu[name] += used
                per_round[name].append(used / args.shells)
            lat["direct"] += direct_round(stub.url, conns)
        counted = {name: instructions(pid, grind) for name, _, pid in ways} if args.instructions else {}
        relay.terminate()
        relay.wait()
        if base is not None:
            runtime.stop(rundir=base_run)
            base.wait(30)
        if profiled is not None:  # it writes its profile on the way out: no SIGKILL after 3 s
            profiled.terminate()
            profiled.wait(300)
        runtime.stop(rundir=aish_run)
    asks = args.shells * args.rounds
    if counted:
        per = {name: n / asks / 1e6 for name, n in counted.items()}
        print(f"instructions per ask (callgrind, {args.shells} shells x {args.rounds} rounds): aish "
              f"{per['aish']:.3f} M | minimal relay {per['relay']:.3f} M | ratio {per['aish'] / per['relay']:.2f}x"
              + (f" | {args.against} {per['base']:.3f} M, this tree / it: {per['aish'] / per['base']:.3f}x"
                 if 'base' in per else ""))
    a_cpu, r_cpu = cpu["aish"] / asks * 1000, cpu["relay"] / asks * 1000
    print(f"{args.shells} shells x {args.rounds} rounds, answer of {len(ANSWER)} characters in 8-character chunks")
    print(f"daemon CPU per ask: aish {a_cpu:.2f} ms | minimal relay {r_cpu:.2f} ms | ratio {a_cpu / r_cpu:.2f}x "
          f"(target <= 2x); per round, aish {', '.join(f'{x * 1000:.2f}' for x in per_round['aish'])}")
    if base is not None:
        b_cpu = cpu["base"] / asks * 1000
        print(f"against {args.against}: its daemon CPU per ask {b_cpu:.2f} ms ({b_cpu / r_cpu:.2f}x the relay); "
              f"this tree / it: {a_cpu / b_cpu:.2f}x")
    p = {name: (statistics.median(v) * 1000, quantile(v, 0.95) * 1000) for name, v in lat.items()}
    for name in lat:
        print(f"first byte {name:6}: p50 {p[name][0]:7.1f} ms | p95 {p[name][1]:7.1f} ms")
    print(f"p95 first byte aish / direct: {p['aish'][1] / p['direct'][1]:.2f}x (target <= 3x); "
          f"relay / direct {p['relay'][1] / p['direct'][1]:.2f}x")
    threads = {}
    if args.threads and timings.exists():
        timed = json.loads(timings.read_text())
        asked = timed["rounds"]
        threads = {"first_ms": round(statistics.median(a for a, _ in asked) * 1000, 3),
                   "all_ms": round(statistics.median(b for _, b in asked) * 1000, 3)}
        print(f"aish request thread CPU per ask (median of {len(asked)}): to the first text frame "
              f"{threads['first_ms']:.2f} ms, all its work {threads['all_ms']:.2f} ms")
        for gen in (0, 1, 2):
            runs = [c for c in timed["gc"] if c[0] == gen]
            if runs:
                print(f"garbage collections of generation {gen} while measured: {len(runs)}, CPU "
                      f"{sum(c[2] for c in runs) / asks * 1000:.3f} ms per ask, longest "
                      f"{max(c[3] for c in runs) * 1000:.1f} ms wall")
    print(json.dumps({"cpu_ms_aish": round(a_cpu, 3), "cpu_ms_relay": round(r_cpu, 3),
                      **({"cpu_ms_base": round(cpu["base"] / asks * 1000, 3)} if base is not None else {}),
                      "p95_ms": {k: round(v[1], 1) for k, v in p.items()},
                      "p50_ms": {k: round(v[0], 1) for k, v in p.items()},
                      **({"thread_cpu": threads} if threads else {})}))
    shutil.rmtree(tmp, ignore_errors=True)  # the state, the logs and the timings of this run


if __name__ == "__main__":
    main()
