"""An answer is weighed with the count its server reported (issue 26: each ask made a
tokenize call for its answer, weighed by the fold after it and by the next ask, though the
server had just counted those very tokens as it generated them)."""
from __future__ import annotations

from aish.app import after_answer
from tests.in_process import InProcessDaemon
from tests.stub_server import Reply, count_tokens


def test_an_answer_is_weighed_without_a_tokenize_call(stub, monkeypatch):
    monkeypatch.setattr(after_answer, "in_background", lambda *a, **k: None)  # no fold counting it first
    stub.default = Reply(text="Use lsof to find it.\nCMD: lsof -ti tcp:8080\n")
    daemon = InProcessDaemon("counts")
    answer = daemon.ok("ask", "which process holds port 8080?").text
    svc = daemon.service
    tokens, model = svc.tokens(), svc.config().model("fast")
    calls = tokens.calls
    assert tokens.count(model, answer) == len(count_tokens(answer))  # what its /tokenize says
    assert tokens.calls == calls


def test_a_reasoning_answer_is_counted_by_the_tokenizer(stub, monkeypatch):
    """Its completion tokens hold the reasoning too: not the answer text's count."""
    monkeypatch.setattr(after_answer, "in_background", lambda *a, **k: None)
    stub.default = Reply(text="Use ss -ltnp.", reasoning="The user wants the port's owner. " * 5)
    daemon = InProcessDaemon("reasoned")
    answer = daemon.ok("ask", "which process holds port 8080?").text
    svc = daemon.service
    tokens, model = svc.tokens(), svc.config().model("fast")
    calls = tokens.calls
    assert tokens.count(model, answer) == len(count_tokens(answer))
    assert tokens.calls == calls + 1
