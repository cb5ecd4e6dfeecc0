"""What fitting every call to its server costs an ask: the same conversation asked in process
(``run_ask`` against the loopback stub, its tokenizer, a 32,768-token window told by ``/props``),
with the daemon's ``Limits`` (count as the server counts, plan, answer cap) and without them
(the conversation budget counted by the tokenizer alone, as before), in the same run.

Prints the medians per ask over ``--repeats`` runs of ``--asks`` asks each, and the ratio; and
once, the first ask's extra time (identifying the server and measuring its chat template).

Run: python3 bench/bench_fit.py [--asks 30] [--repeats 5]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.stub_server importable

from tests.doubles import RecordingReply  # noqa: E402
from tests.stub_server import Reply, StubServer  # noqa: E402

from aish.app.ask import run_ask  # noqa: E402
from aish.app.env import AskEnv  # noqa: E402
from aish.chat.conversation import Conversation  # noqa: E402
from aish.config.load import from_dict  # noqa: E402
from aish.cost.usage import UsageTotals  # noqa: E402
from aish.ipc.protocol import Request  # noqa: E402
from aish.llm.limits import Limits  # noqa: E402
from aish.llm.tokens import TokenCounter  # noqa: E402
from aish.safety.secrets import Redactor  # noqa: E402

ANSWER = "Use find with -size, then sort.\nCMD: find . -size +10M -exec ls -lh {} +\n"


def session(url: str, with_limits: bool) -> tuple[AskEnv, Conversation]:
    cfg = from_dict({"models": {"fast": {"endpoint": url, "model": "m"}}})
    tokens = TokenCounter(cfg.tokenize)
    env = AskEnv(config=cfg, tokens=tokens, limits=Limits(tokens) if with_limits else None)
    conv = Conversation("bench")
    conv.usage, conv.redactor = UsageTotals(), Redactor()
    return env, conv


def ask(env: AskEnv, conv: Conversation, n: int) -> float:
    req = Request(id=f"r{n}", kind="ask", reply="", text=f"question {n}: how do I find the largest files "
                  "below this directory and sort them by size?", shell="zsh", cwd="/tmp", status=0)
    start = time.perf_counter()
    run_ask(env, conv, req, RecordingReply())
    return time.perf_counter() - start


def run(url: str, with_limits: bool, asks: int) -> tuple[float, float]:
    """(first ask, median of the later asks) in seconds."""
    env, conv = session(url, with_limits)
    times = [ask(env, conv, n) for n in range(asks)]
    return times[0], statistics.median(times[1:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with StubServer(owned_by="llamacpp", default=Reply(text=ANSWER, chunk_size=64)) as stub:
        stub.n_ctx = 32768  # wider than the budget: both runs keep the same turns
        fitted, plain, first_fitted, first_plain = [], [], [], []
        for _ in range(args.repeats):  # interleaved: the machine's load hits both alike
            first, later = run(stub.url, True, args.asks)
            first_fitted.append(first)
            fitted.append(later)
            first, later = run(stub.url, False, args.asks)
            first_plain.append(first)
            plain.append(later)
    per_fitted, per_plain = statistics.median(fitted), statistics.median(plain)
    print(f"{args.asks} asks x {args.repeats} runs, in process against the loopback stub")
    print(f"per ask, fitted: {per_fitted * 1000:.2f} ms; as before (no limits): {per_plain * 1000:.2f} ms; "
          f"ratio {per_fitted / per_plain:.2f}x")
    print(f"first ask (identify the server, measure its template): "
          f"{statistics.median(first_fitted) * 1000:.1f} ms vs {statistics.median(first_plain) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
