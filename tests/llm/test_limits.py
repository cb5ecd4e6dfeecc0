"""llm/limits.py: counting a request as the server will, the window, the answer cap, refusals.

The stub counts a prompt as a chat template does: each message's tokens plus 4 around it;
its tokenizer (``/tokenize``) counts only the contents, as every real one does."""
from __future__ import annotations

import pytest

from aish.config.schema import ModelConfig, TokenizeConfig
from aish.llm.events import Usage
from aish.llm.limits import LOCAL_ANSWER_CAP, PAID_ANSWER_CAP, Limits
from aish.llm.servers import ServerInfo
from aish.llm.tokens import TokenCounter
from tests.doubles import CharTokens
from tests.stub_server import StubServer, prompt_tokens

CONVERSATION = [{"role": "system", "content": "You are aish, a shell assistant."}] + [
    {"role": "user" if n % 2 == 0 else "assistant", "content": f"short turn number {n}"} for n in range(12)]


@pytest.fixture
def stub():
    with StubServer(shape="llamacpp", owned_by="llamacpp") as server:
        yield server


def at(server, **kw) -> ModelConfig:
    return ModelConfig(**{"name": "fast", "endpoint": server.url, "model": "m", **kw})


def test_a_request_is_counted_as_the_server_counts_it_within_5_percent(stub):
    """Token counts once fell ~40 % short of what the server received (the chat template's
    tokens around each message were never counted), even with the server's tokenizer."""
    model = at(stub)
    tokens = TokenCounter(TokenizeConfig(use_endpoint=True))
    limits = Limits(tokens)
    served = prompt_tokens(CONVERSATION)
    assert tokens.count_messages(model, CONVERSATION) < served * 0.7  # contents alone: far short
    estimate = limits.count(model, CONVERSATION)
    assert abs(estimate - served) <= served * 0.05, (estimate, served)
    assert len(stub.plain_requests) == 2  # measured once per model: two one-token requests
    limits.count(model, CONVERSATION[:3])
    assert len(stub.plain_requests) == 2 and stub.requests == []


def test_local_servers_tokenizer_is_used_by_default_and_never_a_clouds():
    tokens = TokenCounter(TokenizeConfig())
    assert tokens._key(ModelConfig(name="f", endpoint="http://127.0.0.1:8080", model="m")) is not None
    assert tokens._key(ModelConfig(name="c", endpoint="https://api.example", model="m")) is None
    assert TokenCounter(TokenizeConfig(use_endpoint=False))._key(
        ModelConfig(name="f", endpoint="http://127.0.0.1:8080", model="m")) is None




def fixed(info: ServerInfo):
    return lambda endpoint, model, **kw: info


def test_window_from_config_wins_then_server_then_its_error():
    cloud = ModelConfig(name="c", endpoint="https://api.example", model="m")
    limits = Limits(CharTokens(), identify=fixed(ServerInfo(kind="vLLM", window=8192)))
    assert limits.of(cloud).window == 8192 and limits.of(cloud).window_from == "vLLM"
    limits.learn_window(cloud, 4096)
    assert limits.of(cloud).window == 4096
    configured = ModelConfig(name="c", endpoint="https://api.example", model="m", context_window=2048)
    assert limits.of(configured).window == 2048
    unknown = Limits(CharTokens(), identify=fixed(ServerInfo()))
    assert unknown.of(cloud).window is None and unknown.prompt_room(cloud) is None


def test_answer_cap_local_default_window_share_and_paid_only_when_bounded():
    local = ModelConfig(name="f", endpoint="http://127.0.0.1:8080", model="m")
    cloud = ModelConfig(name="c", endpoint="https://api.example", model="m")
    limits = Limits(CharTokens(), identify=fixed(ServerInfo(window=1024)))
    assert limits.answer_cap(local) == LOCAL_ANSWER_CAP and limits.answer_cap(cloud) is None
    assert limits.answer_cap(cloud, bounded=True) == PAID_ANSWER_CAP
    assert limits.answer_cap(ModelConfig(name="f", endpoint="http://127.0.0.1:1", model="m", max_tokens=77)) == 77
    room = limits.prompt_room(local)
    assert room is not None and room <= 1024 - 1024 // 4 - 30  # a quarter kept for the answer
    plan = limits.plan(local, [{"role": "user", "content": "x" * 3000}])  # 750 + template
    assert plan.fits and plan.answer_tokens <= 1024 - plan.prompt_tokens
    assert not limits.plan(local, [{"role": "user", "content": "x" * 4100}]).fits


def test_a_gateway_on_loopback_is_not_given_a_local_cap():
    proxy = ModelConfig(name="p", endpoint="http://127.0.0.1:4000", model="gpt")
    limits = Limits(CharTokens(), identify=fixed(ServerInfo(kind="LiteLLM", gateway=True)))
    assert limits.answer_cap(proxy) is None


def test_reported_usage_corrects_the_scale_of_estimates():
    cloud = ModelConfig(name="c", endpoint="https://api.example", model="m")
    limits = Limits(CharTokens(), identify=fixed(ServerInfo()))
    messages = [{"role": "user", "content": "x" * 400}]
    first = limits.count(cloud, messages)
    limits.observe(cloud, first, first * 2)
    assert limits.count(cloud, messages) == pytest.approx(first * 2, rel=0.05)


def test_an_unreachable_server_is_asked_again_only_after_a_while(monkeypatch):
    calls = []

    def identify(endpoint, model, **kw):
        calls.append(endpoint)
        raise OSError("refused")

    limits = Limits(CharTokens(), identify=identify)
    model = ModelConfig(name="f", endpoint="http://127.0.0.1:9", model="m")
    for _ in range(3):
        assert limits.of(model).window is None
    assert len(calls) == 1


def test_ask_why_learns_the_window_a_plain_request_names():
    from aish.errors import ContextOverflow

    def probe(model, messages, **kw):
        raise ContextOverflow("HTTP 400: too long", window=1024, prompt_tokens=1500)

    limits = Limits(CharTokens(), identify=fixed(ServerInfo()), probe=probe)
    model = ModelConfig(name="f", endpoint="http://127.0.0.1:9", model="m")
    assert isinstance(limits.ask_why(model, [{"role": "user", "content": "q"}]), ContextOverflow)
    assert limits.of(model).window == 1024 and limits.of(model).window_from == "its error"


def test_measuring_that_fails_leaves_the_default_template_guess():
    def probe(model, messages, **kw):
        return "", Usage()  # a server that reports no usage

    class Exact(CharTokens):
        def supported(self, model):
            return True

    limits = Limits(Exact(), identify=fixed(ServerInfo()), probe=probe)
    model = ModelConfig(name="f", endpoint="http://127.0.0.1:9", model="m")
    assert limits.count(model, [{"role": "user", "content": ""}]) == 4 + 3
    assert limits.of(model).measured is False


class Bounded(CharTokens):
    """A question weighed by its bound (its characters) until settled (then characters / 4)."""

    def __init__(self) -> None:
        self.settled = False

    def count(self, model, text):
        return len(text or "") // (4 if self.settled else 1)

    def guessed(self, model, messages):
        return not self.settled

    def settle(self, model, texts, *, count=True, sent=False):
        self.settled = True


def test_a_bound_plans_only_far_from_the_window_and_the_real_weight_follows():
    local = ModelConfig(name="f", endpoint="http://127.0.0.1:8080", model="m")
    far = Limits(Bounded(), identify=fixed(ServerInfo(window=8192)))
    plan = far.plan(local, [{"role": "user", "content": "x" * 400}])
    assert not far.tokens.settled and plan.prompt_tokens >= 400  # the bound planned it: nothing asked
    assert plan.exact_prompt_tokens() < 120 and far.tokens.settled  # the real weight, for the calibration
    near = Limits(Bounded(), identify=fixed(ServerInfo(window=1024)))
    plan = near.plan(local, [{"role": "user", "content": "x" * 3000}])  # the bound would not fit
    assert near.tokens.settled and plan.fits and plan.prompt_tokens < 800 and plan.settle is None


class Looked(list):
    """A request's messages that count how many of them were looked at: ``seen`` either way,
    ``back`` from the newest."""

    def __init__(self, items) -> None:
        super().__init__(items)
        self.seen = self.back = 0

    def __iter__(self):
        for item in super().__iter__():
            self.seen += 1
            yield item

    def __reversed__(self):
        for item in super().__reversed__():
            self.seen += 1
            self.back += 1
            yield item


def test_a_deferred_question_is_found_without_looking_at_every_message():
    """The question weighed by a bound is the newest message: ``guessed`` and ``settle`` look
    from the end and stop once they found what is deferred (they looked at every message of a
    long conversation's request on every ask)."""
    from aish.llm.tokens import TokenCounter

    counter = TokenCounter()
    key = ("http://127.0.0.1:1", "m")
    counter._key = lambda model: key  # one server, its tokenizer found
    counter._deferred[(key, "the newest question")] = 23
    counter.count = lambda model, text: 5
    messages = Looked([{"role": "user", "content": f"turn {i}"} for i in range(500)]
                      + [{"role": "user", "content": "the newest question"}])
    assert counter.guessed(None, messages)
    counter.settle(None, (m.get("content") for m in reversed(messages)))
    assert not counter._deferred
    assert messages.seen <= 4, messages.seen


def test_other_shells_waiting_questions_do_not_make_an_ask_look_at_its_whole_conversation():
    """Fifty shells ask at once: each one's question is weighed by its bound until its answer.
    ``settle`` stopped once it had found as many deferred texts as the server had, so with other
    shells' questions pending it walked back through every message of this request (every kept
    turn of a long conversation, on every ask); the request's own can only be from its newest
    user message on."""
    from aish.llm.tokens import TokenCounter

    counter = TokenCounter()
    key = ("http://127.0.0.1:1", "m")
    counter._key = lambda model: key  # one server, its tokenizer found
    counter.tokenizers.settled = lambda k: True
    counted: list = []
    counter.tokenizers.count = lambda k, model, text, redact=True: counted.append(text) or 5
    for n in range(3):  # other shells' questions, in flight
        counter._deferred[(key, f"another shell's question {n}")] = 40
    counter._deferred[(key, "the newest question")] = 23
    messages = Looked([{"role": "system", "content": "be brief"}]
                      + [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}"} for i in range(400)]
                      + [{"role": "user", "content": "the newest question"}])
    local = ModelConfig(name="f", endpoint="http://127.0.0.1:1", model="m")
    plan = Limits(counter, identify=fixed(ServerInfo(window=1_000_000))).plan(local, messages)
    assert plan.settle is not None  # far from the window: the bound planned it
    plan.exact_prompt_tokens()
    assert counted[-1] == "the newest question" and (key, "the newest question") not in counter._deferred
    assert len(counter._deferred) == 3  # the other shells' questions are theirs to settle
    assert messages.back <= 4, messages.back


def test_a_remembered_template_is_measured_again_when_the_server_tells_other_facts(tmp_path):
    """The measurement is kept per endpoint, model and what the server told of itself: a server
    that now lists another model (a new model file behind the same name) is measured again."""
    from aish.llm.events import Usage

    calls = []

    def probe(model, messages, **kw):
        calls.append(len(messages))
        return "", Usage(prompt_tokens=sum(len(m["content"]) + 5 for m in messages) + 2)

    class Exact(CharTokens):
        def supported(self, model):
            return True

    model = ModelConfig(name="f", endpoint="http://127.0.0.1:9", model="m")
    path = tmp_path / "templates"
    before = Limits(Exact(), identify=fixed(ServerInfo(kind="llama.cpp", models=["a.gguf"])), probe=probe)
    question = [{"role": "user", "content": "q"}]
    weighed = before.count(model, question)
    measured = (before.of(model).per_message, before.of(model).fixed)
    assert len(calls) == 2 and measured != (4.0, 3.0)  # not the guess
    before.save(path)
    same = Limits(Exact(), identify=fixed(ServerInfo(kind="llama.cpp", models=["a.gguf"])), probe=probe)
    same.load(path)
    assert same.count(model, question) == weighed
    assert len(calls) == 2 and (same.of(model).per_message, same.of(model).fixed) == measured
    other = Limits(Exact(), identify=fixed(ServerInfo(kind="llama.cpp", models=["b.gguf"])), probe=probe)
    other.load(path)
    other.count(model, question)
    assert len(calls) == 4


def test_a_torn_or_odd_templates_file_gives_what_it_can(tmp_path):
    import struct

    from aish.llm import template_file

    path = tmp_path / "templates"
    good = (template_file.digest("a"), 4.0, 3.0)
    template_file.write(path, [good, (template_file.digest("b"), float("nan"), 1.0)])
    path.write_bytes(path.read_bytes() + struct.pack("<16sd", b"x" * 16, 1.0))  # torn mid-record
    assert template_file.read(path) == [good]
    assert template_file.read(tmp_path / "missing") == []


def test_a_known_model_is_looked_up_without_making_its_limits_again(monkeypatch):
    """``of`` (about seven calls per ask) made a new ModelLimits and a lock on every call, and
    kept them only the first time."""
    from aish.llm import limits as limits_mod

    made: list = []
    real = limits_mod.ModelLimits
    monkeypatch.setattr(limits_mod, "ModelLimits", lambda: made.append(1) or real())
    limits = Limits(CharTokens(), identify=fixed(ServerInfo(kind="vLLM", window=8192)))
    model = ModelConfig(name="fast", endpoint="http://127.0.0.1:9/", model="m")
    states = {id(limits.of(model)) for _ in range(7)}
    assert len(states) == 1 and made == [1]
    assert limits.of(model).window == 8192
