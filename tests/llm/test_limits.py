"""llm/limits.py: counting a request as the server will, the window, the answer cap, refusals.

The stub counts a prompt as a chat template does: each message's tokens plus 4 around it;
its tokenizer (``/tokenize``) counts only the contents, as every real one does."""
from __future__ import annotations

import pytest

from aish.config.schema import ModelConfig, TokenizeConfig
from aish.llm.events import Usage
from aish.llm.limits import LOCAL_ANSWER_CAP, PAID_ANSWER_CAP, Limits
from aish.llm.servers import ServerInfo
from aish.llm.tokens import TokenCounter, upper_bound
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

    def weigh(self, model, messages):
        return self.count_messages(model, messages), not self.settled

    def settle(self, model, texts, *, count=True, sent=False):
        self.settled = True
        return 1


def test_a_bound_plans_only_far_from_the_window_and_the_real_weight_follows():
    local = ModelConfig(name="f", endpoint="http://127.0.0.1:8080", model="m")
    far = Limits(Bounded(), identify=fixed(ServerInfo(window=8192)))
    plan = far.plan(local, [{"role": "user", "content": "x" * 400}])
    assert not far.tokens.settled and plan.prompt_tokens >= 400 and plan.by_bounds  # nothing asked
    assert plan.exact_prompt_tokens() < 120 and far.tokens.settled  # the real weight, when wanted
    assert not plan.by_bounds
    near = Limits(Bounded(), identify=fixed(ServerInfo(window=1024)))
    plan = near.plan(local, [{"role": "user", "content": "x" * 3000}])  # the bound would not fit
    assert near.tokens.settled and plan.fits and plan.prompt_tokens < 800 and plan.settle is None


def _counter_of_one_server():
    counter = TokenCounter()
    key = ("http://127.0.0.1:1", "m")
    counter._key = lambda model: key  # one server, its tokenizer found
    counter.tokenizers.settled = lambda k: True
    counter.tokenizers.ready = lambda k: True
    return counter, key


def test_a_request_grown_from_the_last_weighs_only_its_new_messages_though_bounds_weigh_older_ones():
    """Questions stay weighed by their bounds from ask to ask (no tokenize request far from the
    limits), so a conversation's kept sum holds bounds: it is still reused, and only the new
    messages are looked at (the sum of 400 kept turns was made again on every ask); once a
    bound in it is settled, the sum is made again with the count."""
    from aish.llm.events import Outgoing

    counter, key = _counter_of_one_server()
    counted: list = []
    counter.tokenizers.count = lambda k, model, text, redact=True: counted.append(text) or 5
    turns = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}"} for i in range(400)]
    for turn in turns[::2]:
        assert counter.defer(None, turn["content"])  # the questions, weighed by their bounds
    first = Outgoing([{"role": "system", "content": "be brief"}] + turns)
    weight, by_bounds = counter.weigh(None, first)
    assert by_bounds and "turn 0" not in counted  # (the system message and the answers: counted)
    counted.clear()
    grown = Outgoing([{"role": "system", "content": "be brief"}, *first[1:],
                      {"role": "user", "content": "the newest question"}], base=first)
    assert counter.defer(None, "the newest question")
    summed: list = []
    real_sum = counter._sum
    counter._sum = lambda model, k, messages: summed.append(len(messages)) or real_sum(model, k, messages)
    assert counter.weigh(None, grown) == (weight + upper_bound("the newest question"), True)
    assert sum(summed) <= 2, summed  # the system message and the new one
    assert counter.settle(None, ["turn 0"]) == 1 and counted == ["turn 0"]
    again = Outgoing(list(grown), base=grown)
    assert counter.weigh(None, again) == (weight + upper_bound("the newest question") - upper_bound("turn 0") + 5,
                                          True)


def test_settling_a_request_counts_every_bound_in_it_and_no_other():
    """The calibration's sample (or a plan near the window) counts the request's every text weighed
    by a bound, whichever ask deferred it; other conversations' questions stay weighed by theirs."""
    counter, key = _counter_of_one_server()
    counted: list = []
    counter.tokenizers.count = lambda k, model, text, redact=True: counted.append(text) or 5
    for n in range(3):  # other shells' questions
        counter.defer(None, f"another shell's question {n}")
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "an older question"},
                {"role": "assistant", "content": "an answer"}, {"role": "user", "content": "the newest question"}]
    counter.defer(None, "an older question")
    counter.defer(None, "the newest question")
    local = ModelConfig(name="f", endpoint="http://127.0.0.1:1", model="m")
    plan = Limits(counter, identify=fixed(ServerInfo(window=1_000_000))).plan(local, messages)
    assert plan.by_bounds  # far from the window: the bounds planned it
    counted.clear()
    plan.exact_prompt_tokens()
    assert sorted(counted) == ["an older question", "the newest question"]
    assert sorted(text for _, text in counter._deferred) == [f"another shell's question {n}" for n in range(3)]


def test_the_calibration_counts_a_sample_of_the_requests_weighed_by_bounds(monkeypatch):
    """Each sample costs a tokenize request per bound: a model's first few requests, then one per
    ``CALIBRATE_EVERY`` seconds."""
    from aish.llm import limits as limits_mod

    now = [1000.0]
    monkeypatch.setattr(limits_mod, "_clock", lambda: now[0])
    local = ModelConfig(name="f", endpoint="http://127.0.0.1:1", model="m")
    limits = Limits(CharTokens(), identify=fixed(ServerInfo(window=8192)))
    taken = [limits.sample(local) for _ in range(limits_mod.CALIBRATE_FIRST + 5)]
    assert taken == [True] * limits_mod.CALIBRATE_FIRST + [False] * 5
    now[0] += limits_mod.CALIBRATE_EVERY
    assert limits.sample(local) and not limits.sample(local)


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
