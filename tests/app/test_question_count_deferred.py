"""An ask's question is weighed by the server's tokenizer after the first byte, not before
(issue 26, many shells at once: each ask made a /tokenize round trip for its new question
before its chat request went out, one more request to the same server on the first byte's
path).  Far from the limits an upper bound of its count decides the same as the count: the
exact one comes after the answer, for the conversation's budget and the scale's calibration;
near a limit it is asked first, as before."""
from __future__ import annotations

from aish.app import after_answer
from tests.in_process import InProcessDaemon
from tests.stub_server import Reply, _warm_up, count_tokens


def _at_once(job, session, log, defer=None) -> None:
    """The work after an answer, done before the ask returns (the daemon: after its D frame)."""
    job(lambda line: None)


def _tokenize_calls_at_each_chat(stub, monkeypatch) -> list:
    seen: list = []
    record = stub._record

    def recording(entry: dict) -> None:
        if entry["body"].get("stream") is not False and not _warm_up(entry["body"]):  # an answer's request
            seen.append(stub.tokenize_calls)
        record(entry)

    monkeypatch.setattr(stub, "_record", recording)
    return seen


def test_the_question_is_not_tokenized_before_its_chat_request(stub, monkeypatch):
    monkeypatch.setattr(after_answer, "in_background", _at_once)
    stub.default = Reply(text="Use lsof.\nCMD: lsof -ti tcp:8080\n")
    daemon = InProcessDaemon("deferred")
    daemon.ok("ask", "which process holds port 8080?")  # probes the tokenizer, measures the template
    seen = _tokenize_calls_at_each_chat(stub, monkeypatch)
    before = stub.tokenize_calls
    daemon.ok("ask", "and how do I free port 9090 without killing my editor?")
    assert seen == [before]  # nothing tokenized before the chat request went out
    assert stub.tokenize_calls == before + 1  # the question, once, after the answer

    svc = daemon.service
    model = svc.config().model("fast")
    question = svc.sessions.get("deferred").conversation.turns[-2]
    assert question.role == "user" and "free port 9090" in question.content
    calls = svc.tokens().calls
    exact = svc.limits().turn_counter(model)(question.content)
    assert svc.tokens().calls == calls  # known exactly by now: no request
    assert question.tokens == exact  # the conversation keeps the count, not the bound
    assert svc.tokens().count(model, question.content) == len(count_tokens(question.content))


def test_near_the_budget_the_question_is_counted_before_sending(stub, config_file, monkeypatch):
    """The bound would be over the budget: the real count decides, before the request."""
    monkeypatch.setattr(after_answer, "in_background", _at_once)
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n[context]\nbudget_tokens = 450\n')
    stub.default = Reply(text="Yes.")
    daemon = InProcessDaemon("near")
    daemon.ok("ask", "hello")
    seen = _tokenize_calls_at_each_chat(stub, monkeypatch)
    before = stub.tokenize_calls
    question = "a " * 200  # ~375 tokens with the rest, under the budget of 450; its bound (its bytes) is not
    outcome = daemon.ok("ask", question)
    assert seen == [before + 1]  # counted first
    assert "context:" not in outcome.stderr  # and nothing evicted or said: the real count fits
    assert len(stub.requests[-1]["body"]["messages"]) == 4  # system, hello, its answer, the question


def test_a_question_with_a_secret_reaches_the_tokenizer_redacted(stub, monkeypatch):
    """Counted after the answer as the chat request sent it: never in clear."""
    import tests.stub_server as stub_server

    monkeypatch.setattr(after_answer, "in_background", _at_once)
    tokenized: list = []
    counter = stub_server.count_tokens

    def recording(text: str) -> list:
        tokenized.append(text)
        return counter(text)

    monkeypatch.setattr(stub_server, "count_tokens", recording)
    stub.default = Reply(text="Check the remote's URL.")
    daemon = InProcessDaemon("secret")
    daemon.ok("ask", "hello")
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    daemon.ok("ask", f"git push fails with GH_TOKEN={secret}, why?")
    assert "git push fails" in stub.requests[-1]["body"]["messages"][-1]["content"]
    assert any("git push fails" in text for text in tokenized)  # the question was counted
    assert not any(secret in text for text in tokenized)
    assert not any(secret in str(request["body"]) for request in stub.requests)
