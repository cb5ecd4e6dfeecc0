"""Model servers as they really behave (the stub in their shapes), through the daemon's Service
in process: context windows and their overflows, empty replies, answer caps, refused tools,
servers that move.  What a user sees (exit status, stderr lines) and what the servers received.
A server that only sends keep-alive comments is tested with the CLI on the daemon's FIFOs
(tests/cli/test_cli_to_daemon.py)."""
from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.helpers import model_toml
from tests.mcp_servers import SdkHttpServer, free_port
from tests.stub_server import Reply, StubServer, prompt_tokens

ANSWER = "Use find with -size to pick the large files, then sort them.\nCMD: find . -size +10M\n" + "words " * 24


@pytest.fixture
def small(config_file):
    """llama-cpp-python with n_ctx = 1024: it tells no window, and a longer prompt gets a 200
    with an empty stream (a 400 naming the window when not streamed)."""
    with StubServer(tokenize="llama-cpp-python", owned_by="me", default=Reply(text=ANSWER)) as server:
        server.n_ctx, server.overflow = 1024, "llama-cpp-python"
        server.write = lambda extra="": config_file(model_toml("fast", server.url, "tiny") + extra)
        server.write()
        yield server


def question(n: int) -> str:
    return f"question {n}: how do I find the largest files here and in every folder below " + "please " * 40


def test_a_conversation_that_outgrows_the_window_answers_every_ask(small, service):
    """Once stuck for good: every ask after the window filled failed with 'stream ... was cut
    short (no text arrived)'."""
    for n in range(16):
        result = service.ask(question(n))
        assert result.returncode == 0 and result.stdout.startswith("Use find"), (n, result.stderr)
    folds = [r for r in small.requests if prompt_tokens(r["body"]["messages"]) >= 1024]
    assert len(folds) <= 1  # once the window is known, every prompt is fitted before it is sent
    assert all(r["body"]["max_tokens"] <= 1024 - prompt_tokens(r["body"]["messages"])
               for r in small.requests[-5:])


def test_an_overflow_is_folded_once_and_said_and_never_goes_to_the_paid_model(small, service):
    with StubServer(shape="openrouter") as cloud:
        small.write(model_toml("cloud", cloud.url, "paid", "local = false\n")
                    + "[routing]\nfallback = true\nfallback_model = \"cloud\"\n")
        said = ""
        for n in range(16):
            result = service.ask(question(n))
            assert result.returncode == 0, (n, result.stderr)
            said += result.stderr
        assert cloud.requests == []
    assert "did not fit fast's 1,024-token window" in said and "asking again" in said


def test_a_server_with_no_room_left_for_the_answer_is_folded_for_not_cut(small, service):
    """llama-cpp-python's context can hold fewer tokens than its n_ctx (llama.cpp's KV cache,
    fragmented by prefix reuse): a prompt that fits on paper fails the decode of the first token
    after it, and the stream just ends.  Asked why for one token (sampled from the prompt, never
    decoded), the server answered, and the ask failed as "stream ... was cut short (no text
    arrived)" (the 30-ask conversation against the real server, one run in four to eight)."""
    small.room = 700
    said = ""
    for n in range(16):
        result = service.ask(question(n))
        assert result.returncode == 0 and result.stdout.startswith("Use find"), (n, result.stderr)
        said += result.stderr
    assert said.count("asking again") == 1 and "did not fit fast's" in said  # its room learned, then fitted
    assert max(prompt_tokens(r["body"]["messages"]) for r in small.requests[-5:]) < 700


def test_a_window_the_server_tells_is_never_overflowed(config_file, service):
    """llama.cpp tells n_ctx (/props); its overflow is a 400 that once ended the conversation."""
    with StubServer(owned_by="llamacpp", default=Reply(text=ANSWER)) as server:
        server.n_ctx = 1024
        config_file(model_toml("fast", server.url, "tiny"))
        for n in range(12):
            result = service.ask(question(n))
            assert result.returncode == 0, (n, result.stderr)
        assert max(prompt_tokens(r["body"]["messages"]) for r in server.requests) < 1024


def test_an_empty_answer_is_never_a_silent_success(small, service):
    """Behind a LiteLLM proxy the overflow came back as an empty answer and exit 0."""
    small.n_ctx = None
    small.queue(Reply(text=""))
    result = service.ask("hello")
    assert result.returncode != 0 and "fast sent an empty answer" in result.stderr, result


def test_a_local_model_gets_a_default_answer_cap(small, service):
    """No max_tokens was sent: a local model generated for minutes after aish gave up."""
    small.n_ctx = None
    service.ok("ask", "hello")
    assert small.requests[-1]["body"]["max_tokens"] == 1024


@pytest.fixture(scope="module")
def notes():
    server = SdkHttpServer()
    yield server
    server.stop()


@pytest.mark.parametrize("refusal", ["llama.cpp", "vLLM"])
def test_a_server_that_refuses_tools_is_asked_again_without_them(small, notes, refusal, service):
    """Once an MCP server was connected, every ask failed (vLLM's 400) or fell back to the
    cloud (llama.cpp's 500 looks like a server that is down)."""
    small.n_ctx = None
    small.refuse_tools = refusal
    with StubServer(shape="openrouter") as cloud:
        small.write(model_toml("cloud", cloud.url, "paid", "local = false\n")
                    + "[routing]\nfallback = true\nfallback_model = \"cloud\"\n"
                    + f'[mcp.servers.notes]\nurl = "{notes.url}"\n')
        first = service.ask("hello")
        second = service.ask("again")
        assert cloud.requests == []
    assert first.returncode == 0 and first.stdout.startswith("Use find"), first.stderr
    assert "refused the tools offered" in first.stderr and "answering without them" in first.stderr
    assert second.returncode == 0 and "tools" not in second.stderr
    assert [bool(r["body"].get("tools")) for r in small.requests] == [True, False, False]


def test_a_detected_server_that_moved_is_found_again(monkeypatch, config_file, service):
    """The daemon kept the first server it found: moved from :8000 to :8080, every ask failed
    while `aish doctor` found the new one."""
    config_file("")  # no models: they are detected
    first_port, second_port = free_port(), free_port()
    monkeypatch.setenv("AISH_DETECT_PORTS", f"llama.cpp:{second_port},vLLM:{first_port}")
    with StubServer(port=first_port, owned_by="me", models=["tiny.gguf"]) as first:
        service.ok("ask", "hello")
        assert len(first.requests) == 1
    with StubServer(port=second_port, owned_by="llamacpp", models=["tiny.gguf"]) as second:
        result = service.ask("hello again")
        assert result.returncode == 0, result.stderr
        assert len(second.requests) == 1
        assert f"llama.cpp at http://127.0.0.1:{urlparse(second.url).port}" in result.stderr


def test_a_cost_cap_refuses_before_sending_and_cost_raise_lifts_it(config_file, service):
    """The openrouter-shaped stub reports $0.000001 per token; the cap allows about one call."""
    with StubServer(shape="openrouter") as cloud:
        priced = "local = false\nprice_in = 1.0\nprice_out = 1.0\nmax_tokens = 100\n"
        config_file(model_toml("fast", cloud.url, "paid", priced) + "[cost]\ncap_at_dollars = 0.0007\n")
        service.ok("ask", "hello " * 200)
        refused = service.ask("hello " * 200)
        assert refused.returncode == 12 and len(cloud.requests) == 1  # nothing was sent
        assert "past cap_at_dollars = $0.000700" in refused.stderr and "? :cost raise" in refused.stderr
        raised = service.ok("cost", "raise")
        assert "this conversation may spend $0.000700 more" in raised.stdout
        service.restart()  # the raise is in the session log
        service.ok("ask", "hello " * 200)
        assert len(cloud.requests) == 2
        assert service.verb("cost", "raise", "nope").returncode != 0


def test_behind_a_gateway_the_first_overflow_teaches_the_count_and_the_rest_fit(config_file, service):
    """A LiteLLM proxy (no tokenizer to ask, its own usage counts in another tokenizer) in front of
    llama-cpp-python: its overflow's words name the real count, and after the first fold every
    prompt is fitted before it is sent (by hand it folded on nearly every ask)."""
    with StubServer(tokenize=None, default=Reply(text=ANSWER, usage={"prompt_tokens": 12, "completion_tokens": 3,
                                                                     "total_tokens": 15})) as proxy:
        proxy.n_ctx, proxy.overflow, proxy.gateway = 1024, "llama-cpp-python", True
        config_file(model_toml("fast", proxy.url, "local"))
        said = ""
        for n in range(16):
            result = service.ask(question(n).replace("please", "pls"))
            assert result.returncode == 0, (n, result.stderr)
            said += result.stderr
    assert said.count("asking again") == 1, said


def test_an_overflow_folds_questions_weighed_by_bounds_by_their_counts(config_file, service):
    """Far from every known limit a question stays weighed by its upper bound (about four times
    its count here).  A context-length error that names no number is folded by counts: the
    conversation's weight said is the one the server refused, not four times it, and the
    conversation asked again fits."""
    import re

    from aish.llm import limits as limits_mod

    with StubServer(owned_by="me", default=Reply(text=ANSWER)) as server:
        server.n_ctx, server.overflow = 1024, "in words"
        config_file(model_toml("fast", server.url, "tiny"))
        for n in range(limits_mod.CALIBRATE_FIRST + 1):  # the calibration's first samples, counted
            assert service.ask(f"hello {n}", conv="calibrated").returncode == 0
        said = ""
        for n in range(12):
            result = service.ask(question(n))
            assert result.returncode == 0, (n, result.stderr)
            said += result.stderr
            if "asking again" in said:
                break
        weighed = re.search(r"the conversation \(~([\d,]+) tokens\) did not fit fast's context window", said)
        assert weighed, said
        refused = max(prompt_tokens(r["body"]["messages"]) for r in server.requests)
        assert refused >= 1024 and int(weighed[1].replace(",", "")) < refused * 1.2, (said, refused)
        assert prompt_tokens(server.requests[-1]["body"]["messages"]) < 1024  # the fold fitted
