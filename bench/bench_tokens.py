"""Token budgeting cost: real tokenizer calls per new turn, and time vs. char/4.

Replays what every ask does (ask.py): add the user turn, enforce the
conversation budget (``Conversation.enforce_budget`` with the counter), count
the whole prompt for the ``~est`` figure (``count_messages``), add the answer.
Against the loopback stub's ``/tokenize``:

1. Calls: at most one tokenize request per new turn (+1 for the system
   prompt).  Asserted, and printed as calls/turns.
2. Time: the same replay with ``tokenize.use_endpoint = false`` (char/4, no
   network) in the same run; the ratio is printed.
3. For scale: the first 60 turns replayed with the per-text cache switched off.

Run: python3 bench/bench_tokens.py [--turns 200] [--flavour llamacpp|llama-cpp-python]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.stub_server importable

from tests.stub_server import StubServer  # noqa: E402

from aish.llm import tokens as tokens_mod  # noqa: E402
from aish.config.schema import ContextConfig, ModelConfig, TokenizeConfig  # noqa: E402
from aish.chat.conversation import Conversation  # noqa: E402
from aish.llm.tokens import TokenCounter  # noqa: E402

SYSTEM = "You are aish, a shell assistant. Answer briefly; put commands on CMD: lines."
SCALE_TURNS = 60  # the uncached replay grows quadratically; a prefix shows the point
WORDS = ("list files sort by size find grep recursive directory permission denied why does "
         "tar extract archive compress git rebase branch merge conflict docker container port "
         "the a of to in is it that how what").split()


def texts(turns: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(turns):
        n = rng.randint(20, 140)
        body = " ".join(rng.choice(WORDS) for _ in range(n))
        out.append(f"turn {i}: {body}." + ("\nCMD: ls -lS" if i % 2 else "?"))
    return out


def replay(counter: TokenCounter, model: ModelConfig, turns: list[str]) -> float:
    ctx = ContextConfig()
    conv = Conversation("bench")
    start = time.perf_counter()
    for i in range(0, len(turns), 2):
        conv.add_user(turns[i])
        conv.enforce_budget(max_turns=ctx.max_turns, budget_tokens=ctx.budget_tokens,
                            count=lambda text: counter.count(model, text), system_prompt=SYSTEM)
        counter.count_messages(model, conv.to_messages(SYSTEM))
        if i + 1 < len(turns):
            conv.add_assistant(turns[i + 1])
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--flavour", choices=("llamacpp", "llama-cpp-python"), default="llamacpp")
    args = parser.parse_args()
    turns = texts(args.turns)
    with StubServer(tokenize=args.flavour) as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        real = TokenCounter(TokenizeConfig(use_endpoint=True))
        real_time = replay(real, model, turns)
        served = stub.tokenize_calls
        base_time = replay(TokenCounter(TokenizeConfig(use_endpoint=False)), model, turns)

        saved, tokens_mod.CACHE_SIZE = tokens_mod.CACHE_SIZE, 0
        try:
            before = stub.tokenize_calls
            uncached = TokenCounter(TokenizeConfig(use_endpoint=True))
            uncached_time = replay(uncached, model, turns[:SCALE_TURNS])
            uncached_calls = stub.tokenize_calls - before
        finally:
            tokens_mod.CACHE_SIZE = saved

    allowed = args.turns + 1  # every turn once, plus the system prompt
    print(f"turns: {args.turns} ({args.flavour} tokenizer on the loopback stub)")
    print(f"tokenize calls served: {served} (client requests incl. probe: {real.calls}); "
          f"calls/turns = {served / args.turns:.3f} (limit {allowed}/{args.turns})")
    print(f"time with /tokenize: {real_time * 1000:.1f} ms; char/4 baseline: {base_time * 1000:.1f} ms; "
          f"ratio {real_time / base_time:.1f}x")
    print(f"for scale, without the per-text cache: {uncached_calls} calls for the first "
          f"{min(SCALE_TURNS, args.turns)} turns, {uncached_time * 1000:.1f} ms")
    assert served <= allowed, f"{served} tokenize calls for {args.turns} turns (limit {allowed})"
    assert real.calls <= allowed + 1, f"{real.calls} client requests (limit {allowed + 1} incl. probe)"
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
