"""Long conversations: folding, kept turns, reloading (issue 26).

Three measurements, each against a baseline in the same run, medians of repeats:

1. **fold**: a conversation at its limit (``max_turns`` 4, summaries on) on the loopback stub
   whose summaries take ``--summary-s`` seconds (3, what a real llama.cpp server took in the
   issue), or with ``--fold`` on a real ``llama_cpp.server`` on a tiny local model that talks
   (``bench/tiny_gguf.py``'s ``make_talking_gguf``: every answer and summary is text, so the
   conversation grows and folds as a real one does).  Every ask's first byte; the folding
   asks (the first whose request follows a fold: the old daemon folded before this answer,
   the new one after the previous answer) against the others; the first ask, on a cold
   server, is left out.  The next ask comes when the user has read the answer (``--think``
   seconds later, default 4); ``--think 0`` shows asks that arrive while the fold still runs.
   The daemon's log is read for the folds it made (summaries, folds that gave way to an ask,
   evictions without a summary); with ``--fold`` the server's own log gives the prompt
   tokens it evaluated per request (what its prompt cache did not hold).
2. **kept turns**: the daemon's CPU per ask (user + system, /proc) in a conversation of
   ``--turns`` kept turns (400, growing by a batch of exchanges each time) against one of 1
   turn (reset before each of its batches, so it never holds more than a batch), the same
   daemon, alternating batches; the history holds a secret in one turn of seven.  Target:
   flat (±10%).  The stub runs in this process, on the same cores: counting a 1,000-turn
   prompt's tokens for its usage is ~10 ms of Python per ask there, against nothing for 1 turn,
   and that alone raised the daemon's CPU per ask by as much as the conversation's length did
   (caches and the other hyperthread are shared), so a third series asks the 1-turn
   conversation while the stub counts the long prompt's tokens too (``equal stub work``): the
   daemon's own difference.  ``--instructions`` runs the daemon under callgrind and counts the
   instructions of each batch instead (slow, ~3 min; no cache or neighbour changes those).
3. **reload**: a conversation of ``--asks`` asks (5,000) run through the daemon; then, after
   each of ``--restarts`` daemon restarts (and one ask elsewhere, which loads what any first
   ask loads, then 1.5 s for what a daemon loads after its first answer), the first ask's
   first byte on it against the first ask of a fresh conversation (alternating which goes
   first).  Target: <= 1.5x.  ``--cpu``: also each of those asks' CPU
   in the daemon's request thread up to its first text (the first byte's wall time moves with
   the host's other work; this moves far less).

``--before REV`` runs the same measurements on the daemon of an earlier commit (its backend
extracted to a temporary dir), for the before/after figures in docs/performance.md.

Run: python3 bench/bench_conversations.py [--only fold|turns|reload] [--fold] [--instructions] [--cpu] [--before REV]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.stub_server importable
sys.path.insert(0, str(ROOT / "bench"))

from bench_shells import TIMED_DAEMON  # noqa: E402 - request threads' CPU to their first text
from tests.stub_server import Reply, StubServer, prompt_tokens  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
SECRET = "ghp_" + "k3Jx9QmZ2vT8rW4yL6nB1cD5fH7gA0sE2uI9"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Daemon:
    """``python -m aish.daemon`` in the foreground of a child process, from ``backend`` (this
    checkout's, or an earlier commit's), in its own runtime and state dirs."""

    def __init__(self, tmp: Path, config: str, backend: Path) -> None:
        self.tmp, self.backend = tmp, backend
        self.rundir = tmp / "run"
        self.rundir.mkdir(mode=0o700, exist_ok=True)
        (tmp / "config.toml").write_text(config)
        self.env = dict(os.environ, AISH_STATE_DIR=str(tmp / "state"), AISH_RUNTIME_DIR=str(self.rundir),
                        AISH_CONFIG=str(tmp / "config.toml"), AISH_DETECT_PORTS="",
                        PYTHONPATH=str(backend))
        self.proc: subprocess.Popen | None = None

    prefix: list = []  # e.g. valgrind's command line (``Callgrind``)
    timings: Path | None = None  # run as bench_shells' TIMED_DAEMON, writing there (``cpu_firsts``)

    def start(self) -> None:
        from aish.daemon import runtime

        main = ["-c", TIMED_DAEMON, str(self.timings)] if self.timings else ["-m", "aish.daemon"]
        self.proc = subprocess.Popen([*self.prefix, sys.executable, *main], env=self.env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while not runtime.is_running(self.rundir):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the daemon did not start")
            time.sleep(0.02)
        if self.timings:  # TIMED_DAEMON times from this signal on (its handler is set before it serves)
            self.proc.send_signal(signal.SIGUSR1)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(30)
            self.proc = None

    def ask(self, conv: str, text: str, timeout: float = 300) -> float:
        """The ask's first text byte, in seconds."""
        from aish.daemon.client import Client
        from aish.ipc.protocol import HistoryEntry, Request

        first: list = []
        start = time.perf_counter()

        def on_frame(frame) -> None:
            if frame.tag == "T" and not first:
                first.append(time.perf_counter() - start)
            elif frame.tag == "E":
                raise RuntimeError(f"the ask failed: {frame.fields}")

        request = Request(kind="ask", conv=conv, shell="zsh", cwd=str(self.tmp), status=0, text=text,
                          history=[HistoryEntry("git status", 0, 12)])
        with Client(rundir=self.rundir, autostart=False) as client:
            client.request(request, on_frame=on_frame, timeout=timeout)
        return first[0] if first else time.perf_counter() - start

    def cpu_firsts(self) -> list:
        """After ``stop``, the timed daemon's requests' CPU to their first text, in order."""
        if not (self.timings and self.timings.exists()):
            return []
        return [first for first, _ in json.loads(self.timings.read_text())]

    def reset(self, conv: str) -> None:
        """``aish reset`` in that conversation (its turns forgotten)."""
        from aish.daemon.client import Client
        from aish.ipc.protocol import Request

        with Client(rundir=self.rundir, autostart=False) as client:
            client.request(Request(kind="verb", conv=conv, argv=["reset"], cwd=str(self.tmp)),
                           on_frame=lambda frame: None, timeout=60)

    def log_entries(self, conv: str) -> list:
        path = self.tmp / "state" / "sessions" / f"{conv}.jsonl"
        try:
            return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        except FileNotFoundError:
            return []


def backend_of(rev: str | None, tmp: Path) -> Path:
    if rev is None:
        return ROOT / "backend"
    dest = tmp / f"src-{rev}"
    dest.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "backend"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(dest / "backend")], check=False,
                   stdout=subprocess.DEVNULL)
    return dest / "backend"


def med(values: list) -> float:
    return statistics.median(values) * 1000


# ------------------------------------------------------------------ 1. folding
class SlowSummaries(StubServer):
    """The loopback stub, answering a summary request ``summary_s`` seconds late (the time a
    real local server took for one: 3.1-3.6 s, issue 26) and every other request at once."""

    summary_s = 3.0

    def _next_reply(self) -> Reply:
        with self._cond:
            last = self.requests[-1]["body"]["messages"] if self.requests else []
        if last and str(last[0].get("content", "")).startswith("You keep the running memory"):
            return Reply(text="The user asked about ports and processes.", first_byte_delay=self.summary_s)
        return super()._next_reply()


def bench_fold_stub(tmp: Path, backend: Path, asks: int, think: float, summary_s: float) -> dict:
    SlowSummaries.summary_s = summary_s
    with SlowSummaries(default=Reply(text="Use ss -ltnp.\nCMD: ss -ltnp\n", chunk_size=16)) as stub:
        return _fold_run(tmp, backend, asks, think, stub.url, "m")


def bench_fold(tmp: Path, backend: Path, asks: int, think: float) -> dict:
    """The fold against a real ``llama_cpp.server`` on the talking tiny model (it answers text,
    so the conversation grows and folds; the random one answers nothing)."""
    from tiny_gguf import LlamaServer, make_talking_gguf, prompt_evals

    # half the tiny model's width and depth: a token costs ~1/8 of its time, so that on a
    # loaded 2-core host a summary (a whole prompt and 200 tokens) ends while the user reads
    model = make_talking_gguf(tmp / "talking.gguf", n_embd=128, n_layer=2, n_ff=256, n_ctx=4096)
    with LlamaServer(model, 4096, tmp / "llama.log") as url:
        result = _fold_run(tmp, backend, asks, think, url, "tiny")
    result["server_prompt_eval"] = prompt_evals(tmp / "llama.log")
    return result


def _fold_run(tmp: Path, backend: Path, asks: int, think: float, url: str, model: str) -> dict:
    (tmp / "fold").mkdir()
    daemon = Daemon(tmp / "fold", f'[models.fast]\nendpoint = "{url}"\nmodel = "{model}"\nmax_tokens = 24\n'
                    '[context]\nmax_turns = 4\nsummarize_on_evict = true\nsummarizer_model = "fast"\n'
                    'summarizer_max_tokens = 200\n', backend)
    daemon.start()
    folded, normal = [], []

    def folds() -> tuple:  # (evictions so far, summaries so far): a fold logs both
        entries = daemon.log_entries("fold")
        return (sum(1 for e in entries if e.get("type") == "evict"),
                sum(1 for e in entries if e.get("type") == "summary"))

    summaries = 0
    try:
        last = folds()
        for i in range(asks):
            ttfb = daemon.ask("fold", f"question {i}: how do I find which process holds port {8000 + i}?")
            # The folding ask: the first whose request follows a fold, i.e. a fold logged since
            # the previous ask's end.  The old shape folds before this answer (logged during
            # this ask); the new one after the previous answer (logged while the user read it,
            # or during this ask when it came before the fold ended).  The look is taken at
            # once, before the user "reads": a fold after this answer counts for the next ask.
            now = folds()
            if i == 0:  # the warm-up: the daemon's first request, the server's cache empty
                pass
            elif now != last:
                folded.append(ttfb)
            else:
                normal.append(ttfb)
            summaries += now[1] - last[1]
            last = now
            time.sleep(think)
    finally:
        daemon.stop()
    said = (daemon.tmp / "state" / "daemon.log").read_text(errors="replace")
    return {"folding_ms": med(folded) if folded else None, "normal_ms": med(normal),
            "daemon_log": {"summarized": said.count("context: summarized"), "gave_way": said.count("gave way"),
                           "evicted_without_summary": said.count("without a summary")},
            "folds": len(folded), "summaries": summaries, "asks": asks - 1,
            "folding_runs_ms": [round(x * 1000) for x in folded],
            "normal_runs_ms": [round(x * 1000) for x in normal]}


# ------------------------------------------------------------------ 2. kept turns
class EqualWork(StubServer):
    """The loopback stub; with ``equal`` on, a request shorter than the longest prompt it was
    sent has that prompt's tokens counted as well (what its usage costs the stub for the long
    conversation): the stub's own work, on the cores the daemon shares, the same for both."""

    equal = False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.longest: list = []

    def _next_reply(self) -> Reply:
        with self._cond:
            messages = self.requests[-1]["body"].get("messages") or [] if self.requests else []
        if len(messages) >= len(self.longest):
            self.longest = messages
        elif self.equal:
            prompt_tokens(self.longest)
        return super()._next_reply()


class Callgrind:
    """The daemon under callgrind, instrumenting only between ``start`` and the end: the
    instructions of everything it ran between two ``mark``s (every thread's)."""

    def __init__(self, daemon: Daemon, out: Path) -> None:
        self.daemon, self.out = daemon, out
        daemon.prefix = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}.%p"]

    def _control(self, *args: str) -> None:
        assert self.daemon.proc is not None
        subprocess.run(["callgrind_control", *args, str(self.daemon.proc.pid)], capture_output=True, check=True)

    def begin(self) -> None:
        self._control("-i", "on")

    def mark(self) -> int:
        """Instructions since the last mark."""
        assert self.daemon.proc is not None
        before = set(self.out.parent.glob(f"{self.out.name}.{self.daemon.proc.pid}.*"))
        self._control("-d")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            new = set(self.out.parent.glob(f"{self.out.name}.{self.daemon.proc.pid}.*")) - before
            for path in new:
                for line in path.read_text(errors="replace").splitlines():
                    if line.startswith("totals:"):
                        return int(line.split()[1])
            time.sleep(0.05)
        raise RuntimeError("callgrind wrote no dump")


def seed_log(path: Path, turns: int) -> None:
    """A conversation of ``turns`` kept turns as the daemon logs them (one secret in seven)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(turns):
        role = "user" if i % 2 == 0 else "assistant"
        body = (f"[shell context]\ncwd: /srv/app{i % 9}\n[question]\nwhy does the deploy of build {i} fail "
                f"with token {SECRET} in the env?" if i % 7 == 0 else
                f"turn {i}: " + "the service restarts, then the health check times out after 30 s; " * 4)
        lines.append(json.dumps({"ts": 0, "type": "turn", "role": role, "content": body}))
    path.write_text("\n".join(lines) + "\n")


def bench_turns(tmp: Path, backend: Path, turns: int, repeats: int, batch: int,
                instructions: bool = False) -> dict:
    """Per series, the daemon's CPU (or instructions) per ask, median of its batches: ``long``
    (``turns`` kept turns, growing), ``short`` (1 turn), ``short_equal`` (1 turn, the stub doing
    the long prompt's counting too; not with ``instructions``, which no neighbour changes)."""
    with EqualWork(default=Reply(text="Check the unit's log.\nCMD: journalctl -u app -n 50\n", chunk_size=16)) as stub:
        d = tmp / "turns"
        d.mkdir()
        daemon = Daemon(d, f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                        f'[context]\nmax_turns = {turns * 4}\nbudget_tokens = 10000000\n', backend)
        grind = Callgrind(daemon, d / "callgrind.out") if instructions else None
        series = ("long", "short") if instructions else ("long", "short", "short_equal")
        seed_log(d / "state" / "sessions" / "long.jsonl", turns)
        for conv in series[1:]:
            seed_log(d / "state" / "sessions" / f"{conv}.jsonl", 1)
        daemon.start()
        try:
            for conv in series:  # loaded, warm (the first asks count and redact what was loaded)
                for _ in range(3):
                    daemon.ask(conv, "warm up")
            if grind is not None:
                grind.begin()
            per_ask: dict = {conv: [] for conv in series}
            for i in range(repeats):  # batches: /proc counts CPU in clock ticks (10 ms)
                for conv in series[i % len(series):] + series[:i % len(series)]:
                    stub.equal = conv == "short_equal"
                    if conv != "long":  # it stays short: at most one batch of exchanges
                        daemon.reset(conv)
                    with stub._cond:
                        stub.requests.clear()  # what the stub keeps does not grow over the run
                    before = grind.mark() if grind is not None else cpu_seconds(daemon.proc.pid)
                    for j in range(batch):
                        daemon.ask(conv, f"and now, step {i}.{j}?")
                    spent = grind.mark() if grind is not None else cpu_seconds(daemon.proc.pid) - before
                    per_ask[conv].append(spent / batch)
            kept = sum(1 for e in daemon.log_entries("long") if e.get("type") == "turn")
        finally:
            daemon.stop()
    scale = 1e-6 if instructions else 1000  # millions of instructions, or ms
    out = {f"{conv}_{'minstr' if instructions else 'ms'}": statistics.median(values) * scale
           for conv, values in per_ask.items()}
    return {**out, "turns": turns, "long_log_turns": kept}


# ------------------------------------------------------------------ 3. reload
SETTLE_S = 1.5  # after a restarted daemon's first answer: the imports it does then (``LATER``)
# ran beside the measured asks, whichever came first (a first byte 2-3x its CPU at load 13)


def bench_reload(tmp: Path, backend: Path, asks: int, restarts: int, cpu: bool = False) -> dict:
    with StubServer(default=Reply(text="ok\nCMD: true\n", chunk_size=64)) as stub:
        d = tmp / "reload"
        d.mkdir()
        daemon = Daemon(d, f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n', backend)
        daemon.start()
        try:
            start = time.monotonic()
            for i in range(asks):
                daemon.ask("old", f"question {i}")
            filled = time.monotonic() - start
            time.sleep(1)  # the last fold/compaction
            lines = len(daemon.log_entries("old"))
            first: dict = {"old": [], "fresh": [], "old_again": []}
            cpu_first: dict = {"old": [], "fresh": [], "old_again": []}
            daemon.timings = d / "timings.json" if cpu else None
            for i in range(restarts):
                daemon.stop()
                daemon.start()
                daemon.ask(f"warm-{i}", "hello")  # the daemon's own first-ask work, apart
                time.sleep(SETTLE_S)  # and what it loads after its first answer (safety, the ledger)
                order = ("old", "fresh") if i % 2 == 0 else ("fresh", "old")
                for conv in order:
                    name = "old" if conv == "old" else f"fresh-{i}"
                    first[conv].append(daemon.ask(name, "what next?"))
                # the same conversation's next ask: the same prompt's size without the reload,
                # so the reload's own cost shows apart from a long prompt's (the server's share)
                first["old_again"].append(daemon.ask("old", "what next?"))
                if cpu:
                    daemon.stop()
                    timed = daemon.cpu_firsts()  # (warm,) the two in ``order``, old again
                    if len(timed) >= 3:
                        for conv, seconds in zip((*order, "old_again"), timed[-3:]):
                            cpu_first[conv].append(seconds)
        finally:
            daemon.stop()
    out = {"old_ms": med(first["old"]), "fresh_ms": med(first["fresh"]),
           "old_again_ms": med(first["old_again"]), "asks": asks,
           "log_lines": lines, "fill_s": round(filled, 1)}
    if cpu and cpu_first["old"]:
        out.update({f"cpu_{conv}_ms": med(values) for conv, values in cpu_first.items()})
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fold", action="store_true", help="the folding measurement on a real llama_cpp.server "
                        "(llama-cpp-python, pip install -e '.[llama]') on a tiny local model that talks")
    parser.add_argument("--summary-s", type=float, default=3.0, help="without --fold: the stub's summary time")
    parser.add_argument("--fold-asks", type=int, default=16)
    parser.add_argument("--think", type=float, default=4.0)
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=9, help="batches of asks per conversation")
    parser.add_argument("--batch", type=int, default=20, help="asks per batch")
    parser.add_argument("--asks", type=int, default=5000)
    parser.add_argument("--restarts", type=int, default=7)
    parser.add_argument("--only", choices=("fold", "turns", "reload"))
    parser.add_argument("--cpu", action="store_true",
                        help="reload: also the request thread's CPU to the first text (a timed daemon)")
    parser.add_argument("--instructions", action="store_true",
                        help="kept turns: count the daemon's instructions under callgrind (valgrind)")
    parser.add_argument("--before", metavar="REV", help="measure the daemon of an earlier commit")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary dir (the daemon's and the server's logs)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="aish-conv-"))
    backend = backend_of(args.before, tmp)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(backend)], check=False, stdout=subprocess.DEVNULL)
    label = args.before or "this checkout"
    out: dict = {"daemon": label}
    try:
        if args.only in (None, "fold"):
            if args.fold:
                r = bench_fold(tmp, backend, args.fold_asks, args.think)
                server = "llama-cpp-python's server, talking tiny model"
            else:
                r = bench_fold_stub(tmp, backend, args.fold_asks, args.think, args.summary_s)
                server = f"loopback stub, a summary takes {args.summary_s:g} s"
            out["fold"] = r
            ratio = r["folding_ms"] / r["normal_ms"] if r["folding_ms"] else float("nan")
            said = r["daemon_log"]
            print(f"fold ({label}, {server}, think {args.think:g} s): first byte of the {r['folds']} "
                  f"asks after a fold ({r['summaries']} summaries written) {r['folding_ms'] or 0:.0f} ms "
                  f"(runs {r['folding_runs_ms']}) | "
                  f"the other {r['asks'] - r['folds']} asks {r['normal_ms']:.0f} ms | ratio {ratio:.2f}x "
                  f"(target <= 1.2x) | daemon log: {said['summarized']} folds summarized, {said['gave_way']} "
                  f"gave way to an ask, {said['evicted_without_summary']} evicted without a summary", flush=True)
        if args.only in (None, "turns"):
            r = bench_turns(tmp, backend, args.turns, args.repeats, args.batch, args.instructions)
            out["turns"] = r
            how = f"median of {args.repeats} batches of {args.batch} asks each, alternating"
            if args.instructions:
                print(f"kept turns ({label}): daemon instructions per ask, {r['turns']} kept turns (growing to "
                      f"{r['long_log_turns']}) {r['long_minstr']:.2f} M | 1 turn {r['short_minstr']:.2f} M | ratio "
                      f"{r['long_minstr'] / r['short_minstr']:.3f}x (target 0.9-1.1x; {how})", flush=True)
            else:
                print(f"kept turns ({label}): daemon CPU per ask, {r['turns']} kept turns (growing to "
                      f"{r['long_log_turns']}) {r['long_ms']:.2f} ms | 1 turn {r['short_ms']:.2f} ms | ratio "
                      f"{r['long_ms'] / r['short_ms']:.2f}x (target 0.9-1.1x; {how}) | 1 turn with equal stub work "
                      f"{r['short_equal_ms']:.2f} ms: ratio {r['long_ms'] / r['short_equal_ms']:.2f}x", flush=True)
        if args.only in (None, "reload"):
            r = bench_reload(tmp, backend, args.asks, args.restarts, args.cpu)
            out["reload"] = r
            print(f"reload ({label}): {r['asks']} asks ({r['fill_s']} s), log {r['log_lines']} lines; first ask "
                  f"after a restart: that conversation {r['old_ms']:.1f} ms | a fresh one {r['fresh_ms']:.1f} ms "
                  f"| ratio {r['old_ms'] / r['fresh_ms']:.2f}x (target <= 1.5x; median of {args.restarts}) | "
                  f"its next ask {r['old_again_ms']:.1f} ms: the reload's own share "
                  f"{r['old_ms'] / r['old_again_ms']:.2f}x", flush=True)
            if "cpu_old_ms" in r:
                print(f"reload ({label}), the request thread's CPU to the first text: that conversation "
                      f"{r['cpu_old_ms']:.2f} ms | a fresh one {r['cpu_fresh_ms']:.2f} ms | ratio "
                      f"{r['cpu_old_ms'] / r['cpu_fresh_ms']:.2f}x | its next ask {r['cpu_old_again_ms']:.2f} ms",
                      flush=True)
    finally:
        if args.keep:
            print(f"kept: {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
