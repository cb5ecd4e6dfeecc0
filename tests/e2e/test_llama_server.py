"""Against the real llama-cpp-python server (the `llama` extra) with a tiny random GGUF this test
writes: a 1,024-token window, which the server tells no client, and overflows in its real shapes
(an empty 200 stream, a 400 in words when not streamed).  Slow by nature: .ci/run installs the
extra and runs these after the default suite."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import model_toml
from tests.mcp_servers import free_port

pytestmark = pytest.mark.slow

WINDOW = 1024
BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    """``python -m llama_cpp.server`` on a tiny model, n_ctx = 1024, on loopback."""
    sys.path.insert(0, str(BENCH))
    try:
        from tiny_gguf import make_tiny_gguf
    finally:
        sys.path.remove(str(BENCH))
    model = make_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf")
    port = free_port()
    log = open(model.parent / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                             "--n_ctx", str(WINDOW), "--host", "127.0.0.1", "--port", str(port),
                             "--seed", "1"], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/v1/models", timeout=2).read()
            break
        except OSError:
            assert proc.poll() is None, (model.parent / "server.log").read_text(errors="replace")
            time.sleep(0.3)
    yield url
    proc.terminate()
    proc.wait(timeout=30)
    log.close()


def plain_prompt_tokens(url: str, messages: list) -> int:
    """What the server counts for ``messages`` (its streams report no usage)."""
    body = json.dumps({"model": "tiny", "messages": messages, "max_tokens": 1}).encode()
    request = urllib.request.Request(url + "/v1/chat/completions", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["usage"]["prompt_tokens"]


@pytest.mark.timeout(600)
def test_a_30_ask_conversation_in_a_1024_token_window_answers_every_ask(llama, config_file, service):
    # (short answers keep the case quick; the window is the prompt's concern)
    config_file(model_toml("fast", llama, "qwen2.5-coder-7b", "temperature = 0.0\nmax_tokens = 48\n"))
    said = ""
    for n in range(30):
        result = service.ask(f"question {n}: how do I find the largest files in this directory "
                             "and below, sorted by size?")
        assert result.returncode == 0 and result.text, (n, result.stderr)
        said += result.stderr
    # learned from its first overflow, said: the window its 400 names, or the room its context had
    # when the decode after a prompt that fits on paper found none (llama.cpp's cells, fragmented by
    # prefix reuse, can be fewer than n_ctx: then the stream just ends, as one run in four or eight)
    learned = re.findall(r"did not fit fast's ([\d,]+)-token window", said)
    assert len(learned) == 1 and 900 <= int(learned[0].replace(",", "")) <= WINDOW, said
    assert said.count("asking again") == 1  # and never again: every later prompt was fitted

    cfg = service.service.config()
    model = cfg.model("fast")
    session = service.service.session(service.conv)
    if session.fold is not None:  # the fold after the last answer runs in the background
        assert session.fold.done.wait(60)
    conv = session.conversation
    from aish.chat import prompts

    messages = conv.to_messages(prompts.system_prompt(shell="cli", tools=False))
    estimate = service.service.limits().count(model, messages)
    served = plain_prompt_tokens(llama, messages)
    assert abs(estimate - served) <= served * 0.05, (estimate, served)


def test_a_questions_upper_bound_holds_on_a_byte_fallback_vocabulary(llama):
    """The bound a question is weighed by until its real count comes (``TokenCounter.defer``)
    is never under that count, on the worst vocabulary there is: sentencepiece falling back
    to bytes, each space written as the 3-byte "▁" (the first bound, bytes + 2, was under it
    for every one of these)."""
    from aish.config.schema import ModelConfig, TokenizeConfig
    from aish.llm.tokens import TokenCounter, upper_bound

    model = ModelConfig(name="fast", endpoint=llama, model="tiny")
    counter = TokenCounter(TokenizeConfig())
    texts = ["a", " ", " leading and trailing ", "free port 8080", "héllo wörld ñ", "日本語のテキスト",
             "emoji 🎉🚀 done", "\ttabs\nand\nnewlines\n", "<s> </s> <unk> special-looking", "x" * 3000,
             "mixed ü 中 🎉 " * 50, "\u200b zero width", "  two  spaces  "]
    counts = {text: counter.count(model, text) for text in texts}
    assert counter.supported(model) is True  # real counts, from the server's tokenizer
    assert counts["free port 8080"] > len("free port 8080") + 2
    assert [text for text, n in counts.items() if n > upper_bound(text)] == []
