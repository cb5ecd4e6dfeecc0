"""Prompt-cache friendliness of the prompt layout: the new layout against the old one, same run.

1. Prefix share: a 12-ask conversation replayed through the real ask path
   (``run_ask`` with a recording fake model).  Per ask it prints the share of the
   previous request's messages that the next request repeats unchanged as a
   prefix (and the same in characters).  The old layout (shell context in the
   system message, bare questions stored) is rebuilt from the same turns with
   the same ``Conversation``.  Target: >= 90% except right after an eviction.
2. Time to first token on the 12th ask against a real llama.cpp-compatible
   server with its prompt cache on (llama-cpp-python's server, a tiny
   random-weight GGUF made here): each layout replays its 12 requests
   (``max_tokens=1``, so the request time is prompt processing + one token),
   alternating layouts, ``--repeats`` times; medians and the old/new ratio.
   Skipped with one line when llama-cpp-python is not installed
   (``pip install -e '.[llama]'``).

Run: python3 bench/bench_prompt_cache.py [--repeats 3] [--no-server]
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: bench/ and backend/ importable from a checkout
sys.path.insert(0, str(ROOT / "backend"))

from aish.app.ask import AskEnv, run_ask  # noqa: E402
from aish.chat import prompts  # noqa: E402
from aish.chat.conversation import Conversation  # noqa: E402
from aish.config.load import from_dict  # noqa: E402
from aish.ipc.protocol import HistoryEntry, Request  # noqa: E402
from tests.doubles import RecordingReply  # noqa: E402
from aish.llm.events import Finish, TextDelta  # noqa: E402

ASKS = 12
MODELS = {"fast": {"endpoint": "http://127.0.0.1:9", "model": "tiny"}}
ANSWER = ("You can sort by size with ls; -S sorts largest first and -h prints human sizes. "
          "If you only want directories, du summarises each one.\nCMD: ls -lSh\nCMD: du -sh -- * | sort -h\n")


class Tokens:
    def count(self, model, text):
        return len(text or "") // 4

    def count_messages(self, model, messages):
        return sum(self.count(model, m.get("content") or "") for m in messages)


def shell_session():
    """The requests of a 12-ask session: a few commands, a cwd change, a failure between asks."""
    history: list[HistoryEntry] = []
    for n in range(ASKS):
        history.append(HistoryEntry(f"make -C src step{n}", n % 3 == 1 and 2 or 0, 800 + 13 * n))
        history.append(HistoryEntry(f"git status --short # {n}", 0, 9))
        if n % 4 == 3:
            history.append(HistoryEntry(f"cd /srv/project/module{n}", 0, 1))
        yield Request(id=f"r{n}", text=f"question {n}: why did step{n} of the build take so long?",
                      shell="zsh", cwd=f"/srv/project/module{n // 4}", status=history[-1].exit,
                      history=list(history[-20:]))


def new_layout_requests(raw: dict) -> tuple[list[list[dict]], list[bool]]:
    sent: list[list[dict]] = []

    def stream(model, messages, tools=None, cancel=None, **_):
        sent.append(copy.deepcopy(messages))
        yield TextDelta(ANSWER)
        yield Finish("stop")

    env = AskEnv(config=from_dict({"models": MODELS, **raw}), tokens=Tokens(), stream=stream,
                 complete=lambda model, messages, **_: (f"summary of {len(sent)} asks", None))
    conv = Conversation("bench")
    evicted = []
    for req in shell_session():
        reply = RecordingReply()
        run_ask(env, conv, req, reply)
        evicted.append(any("context:" in s for s in reply.statuses))
    return sent, evicted


def _old_system(req: Request) -> str:
    """The previous layout: cwd, status and the whole recent history in the system message."""
    base = prompts.system_prompt(shell=req.shell, tools=False)
    context = prompts.shell_context(cwd=req.cwd, status=req.status, history=req.history)
    return f"{base}\n\n{context}"


def old_layout_requests(raw: dict) -> list[list[dict]]:
    cfg = from_dict({"models": MODELS, **raw})
    conv = Conversation("bench-old")
    sent = []
    for n, req in enumerate(shell_session()):
        system = _old_system(req)
        conv.add_user(req.text)
        conv.enforce_budget(max_turns=cfg.context.max_turns, budget_tokens=cfg.context.budget_tokens,
                            count=lambda t: len(t) // 4, system_prompt=system,
                            summarize=(lambda s, p, n=n: f"summary of {n + 1} asks")
                            if cfg.context.summarize_on_evict else None)
        sent.append(conv.to_messages(system))
        conv.add_assistant(ANSWER)
    return sent


def prefix_share(before: list[dict], after: list[dict]) -> tuple[float, float]:
    """Share of ``before`` repeated unchanged at the head of ``after``: (messages, characters)."""
    same = 0
    while same < min(len(before), len(after)) and before[same] == after[same]:
        same += 1
    a, b = json.dumps(before), json.dumps(after)
    chars = 0
    while chars < min(len(a), len(b)) and a[chars] == b[chars]:
        chars += 1
    return same / len(before), chars / len(a)


def report_prefix(title: str, raw: dict) -> None:
    new, evicted = new_layout_requests(raw)
    old = old_layout_requests(raw)
    print(f"\n{title}: share of the previous request repeated as a prefix (messages / chars)")
    print(f"{'ask':>4} {'new layout':>18} {'old layout':>18}  note")
    for i in range(1, ASKS):
        nm, nc = prefix_share(new[i - 1], new[i])
        om, oc = prefix_share(old[i - 1], old[i])
        note = "eviction" if evicted[i] else ""
        print(f"{i + 1:>4} {nm:>8.0%} / {nc:>6.1%} {om:>8.0%} / {oc:>6.1%}  {note}")


# ------------------------------------------------------------------ real server
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(model_path: Path, port: int, log) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", "16384", "--n_threads", "2", "--verbose", "true"]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("llama_cpp.server did not start within 120 s")


def post(port: int, messages: list[dict]) -> float:
    body = json.dumps({"messages": messages, "max_tokens": 1, "temperature": 0}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", data=body,
                                     headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    urllib.request.urlopen(request, timeout=600).read()
    return time.perf_counter() - start


def report_ttft(repeats: int) -> None:
    try:
        import llama_cpp  # noqa: F401
        import gguf  # noqa: F401
    except ImportError:
        print("\ntime to first token: skipped (pip install -e '.[llama]' for llama-cpp-python + gguf)")
        return
    from bench.tiny_gguf import make_tiny_gguf

    new, _ = new_layout_requests({})
    old = old_layout_requests({})
    with tempfile.TemporaryDirectory() as tmp:
        model = make_tiny_gguf(Path(tmp) / "tiny.gguf")
        port = _free_port()
        with open(Path(tmp) / "server.log", "wb") as log:
            proc = start_server(model, port, log)
            try:
                times: dict[str, list[float]] = {"new": [], "old": []}
                evals: dict[str, list[tuple[int, int]]] = {"new": [], "old": []}
                for _ in range(repeats):
                    for name, requests in (("old", old), ("new", new)):
                        for messages in requests[:-1]:
                            post(port, messages)
                        times[name].append(post(port, requests[-1]))
                        log.flush()
                        evals[name].append(_last_prefix_hit(Path(tmp) / "server.log"))
            finally:
                proc.terminate()
                proc.wait(timeout=30)
        hits = (Path(tmp) / "server.log").read_text(errors="replace").count("prefix-match hit")
    med = {k: statistics.median(v) for k, v in times.items()}
    chars = len(json.dumps(new[-1]))
    print(f"\ntime to first token, 12th ask (~{chars} prompt bytes = tokens), llama-cpp-python, "
          f"prompt cache on, median of {repeats}:")
    print(f"  old layout / new layout = {med['old'] / med['new']:.1f}x "
          f"(new layout takes {med['new'] / med['old']:.0%} of the old time; "
          f"{hits} prefix-match hits logged)")
    print(f"  raw medians (machine-dependent): old {med['old']:.3f}s, new {med['new']:.3f}s")
    for name in ("old", "new"):
        hit, remaining = evals[name][-1]
        print(f"  server log, 12th ask, {name} layout: {hit} prefix-match hit, "
              f"remaining {remaining} prompt tokens to eval")


def _last_prefix_hit(log_path: Path) -> tuple[int, int]:
    """llama-cpp-python's own account of the last request: (tokens reused, tokens evaluated)."""
    import re

    found = re.findall(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens to eval",
                       log_path.read_text(errors="replace"))
    return (int(found[-1][0]), int(found[-1][1])) if found else (0, -1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-server", action="store_true")
    args = parser.parse_args()
    report_prefix("default context settings", {})
    report_prefix("max_turns = 8 with summaries (evictions; new: evict_slack 0.25, old: one at a time)",
                  {"context": {"max_turns": 8, "summarize_on_evict": True, "summarizer_model": "fast"}})
    if not args.no_server:
        report_ttft(args.repeats)


if __name__ == "__main__":
    os.environ.setdefault("AISH_NO_DAEMON", "1")
    main()
