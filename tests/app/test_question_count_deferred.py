"""An ask's question is weighed by the server's tokenizer after the first byte, not before
(issue 26, many shells at once: each ask made a /tokenize round trip for its new question
before its chat request went out, one more request to the same server on the first byte's
path), and far from the limits not at all (after the answer it was still a second request to
the server per ask).  Far from the limits an upper bound of its count decides the same as the
count: the exact one comes for a sample of the scale's calibration, or once the bounds would
decide otherwise (near the budget or the window, a fold); near a limit it is asked first, as
before."""
from __future__ import annotations

from aish.app import after_answer
from tests.in_process import InProcessDaemon
from tests.stub_server import Reply, _warm_up, count_tokens, prompt_tokens


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
    assert stub.tokenize_calls == before + 1  # the question, once, after the answer (a sample of the calibration)

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


def _usage_bucket(daemon, conv: str):
    meter = daemon.service.sessions.get(conv).usage
    return next(iter(meter._buckets.values()))


def test_far_from_the_window_a_question_is_never_tokenized(stub, monkeypatch):
    """Once the template's calibration has its first samples, an ask far from every limit makes
    no request to the tokenizer at all: its question stays weighed by its bound (a second
    request to the same server per ask was 13% of the request thread at 50 shells), and the
    usage keeps no estimate made of bounds (``~est`` would show them)."""
    from aish.llm import limits as limits_mod

    monkeypatch.setattr(after_answer, "in_background", _at_once)
    stub.default = Reply(text="Use lsof.\nCMD: lsof -ti tcp:8080\n")
    daemon = InProcessDaemon("lazy")
    for n in range(limits_mod.CALIBRATE_FIRST + 1):  # the probe, the template, the first samples
        daemon.ok("ask", f"which process holds port {8000 + n}?")
    before = stub.tokenize_calls
    for n in range(3):
        daemon.ok("ask", f"and how do I free port {9000 + n} without killing my editor?")
    assert stub.tokenize_calls == before  # nothing asked of the tokenizer, before or after

    svc = daemon.service
    model = svc.config().model("fast")
    question = svc.sessions.get("lazy").conversation.turns[-2]
    assert question.role == "user" and "free port 9002" in question.content
    exact = len(count_tokens(question.content))
    assert question.tokens is not None and question.tokens > exact  # its bound weighs it
    assert svc.tokens().settle(model, [question.content]) == 1  # counted when a decision needs it
    assert svc.tokens().count(model, question.content) == exact
    bucket = _usage_bucket(daemon, "lazy")
    assert bucket.est_shown() is None  # the estimate shown is of exact counts only
    assert bucket.calls == limits_mod.CALIBRATE_FIRST + 4 and bucket.est_actual < bucket.prompt


def test_questions_weighed_by_bounds_fold_as_their_counts_would(stub, config_file, monkeypatch):
    """Questions stay weighed by their bounds from ask to ask; where the bounds alone would fold
    the conversation, the work after the answer counts them first (nobody waits for that), so a
    conversation folds when its counts outgrow the budget, not its bounds, and no request sent
    is over the budget."""
    from aish.llm import limits as limits_mod
    from aish.llm.tokens import upper_bound

    monkeypatch.setattr(after_answer, "in_background", _at_once)
    budget = 1500
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n[context]\nbudget_tokens = {budget}\n')
    stub.default = Reply(text="Yes.")
    daemon = InProcessDaemon("bounds")
    for n in range(limits_mod.CALIBRATE_FIRST + 1):  # the calibration's first samples, counted
        daemon.ok("ask", f"hello {n}", conv="calibrated")
    said: list = []
    question = "question {} is " + "a " * 60
    for n in range(5):
        said.append(daemon.ok("ask", question.format(n)).stderr)
    conv = daemon.service.sessions.get("bounds").conversation
    questions = [t.content for t in conv.turns if t.role == "user"]
    assert len(conv.turns) == 10 and not conv.summary and not any("context:" in err for err in said)  # nothing folded
    assert sum(upper_bound(text) for text in questions) > budget  # as the bounds would have
    for n in range(5, 17):  # on until the counts outgrow it
        said.append(daemon.ok("ask", question.format(n)).stderr)
    assert len(conv.turns) < 34  # folded (the oldest turns left out)
    chats = [r["body"]["messages"] for r in stub.requests if r["body"].get("stream") is not False
             and not _warm_up(r["body"])]
    assert max(prompt_tokens(messages) for messages in chats) <= budget


def test_a_restarted_daemon_weighs_a_conversation_by_bounds_not_by_a_request_per_question(stub, monkeypatch):
    """The questions a daemon left weighed by their bounds are not in the counts it kept: the
    restarted daemon weighs them by their bounds too, not one tokenize request each before the
    first byte of the conversation's next ask."""
    from aish.llm import limits as limits_mod

    monkeypatch.setattr(after_answer, "in_background", _at_once)
    stub.default = Reply(text="Use lsof.")
    daemon = InProcessDaemon("restarted")
    for n in range(limits_mod.CALIBRATE_FIRST + 6):
        daemon.ok("ask", f"which process holds port {8000 + n}?")
    daemon.restart()
    seen = _tokenize_calls_at_each_chat(stub, monkeypatch)
    before = stub.tokenize_calls
    daemon.ok("ask", "and port 9090?")  # the restarted daemon's first ask: it finds the tokenizer
    assert seen == [before + 1]  # with the new question's count; the others are weighed by bounds


def test_a_conversation_folded_by_its_number_of_turns_is_not_counted_for_it(stub, monkeypatch):
    """``max_turns`` folds a conversation of short questions every few asks: the bounds fold it
    exactly as the counts would (they only add weight, and no weight decided), so its questions
    are not counted for the fold (they were, one tokenize request each, at every fold)."""
    from aish.llm import limits as limits_mod

    monkeypatch.setattr(after_answer, "in_background", _at_once)
    stub.default = Reply(text="ok\nCMD: true\n")
    daemon = InProcessDaemon("turns")
    for n in range(limits_mod.CALIBRATE_FIRST + 1):  # the calibration's first samples, counted
        daemon.ok("ask", f"hello {n}", conv="calibrated")
    before = stub.tokenize_calls
    for n in range(30):
        daemon.ok("ask", f"question {n}")
    conv = daemon.service.sessions.get("turns").conversation
    assert len(conv.turns) < 40  # folded by max_turns (20 exchanges)
    assert stub.tokenize_calls == before


def test_an_ask_whose_turns_alone_leave_the_oldest_out_counts_no_question_first():
    """A fold put off by the asks before (a local summary stopped twice) leaves the next ask over
    ``max_turns``: the number of turns alone leaves the oldest out of its request, as counts
    would, so nothing is counted before its first byte (every question weighed by a bound was,
    one tokenize request each)."""
    from aish.chat.conversation import Conversation

    conv = Conversation("turns")
    for n in range(24):
        conv.add_user(f"question {n}")
        conv.add_assistant("ok")
    conv.add_user("the newest question")
    settled: list = []
    since = after_answer.first_sent(conv, max_turns=20, budget_tokens=1_000_000, count=lambda text: 400,
                                    system_prompt="be brief", status=lambda line: None,
                                    settle=lambda: settled.append(True))
    assert since is not None and since.content == "question 5"  # 20 exchanges sent, with the newest
    assert settled == []
