"""The ask orchestrator with a scripted model (one script per model call)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from aish.app.ask import RETRACTED, AskEnv, run_ask
from aish.app.sessions import Session
from aish.chat.summarize import _ROLE as SUMMARIZER_ROLE
from aish.config.load import from_dict
from aish.errors import (AishError, Cancelled, ConnectRefused, DnsFailure, HttpStatusError, StreamCut,
                         TransportError)
from aish.llm.events import Finish, TextDelta, TextWasReasoning, ToolCall, Usage
from aish.ipc.protocol import HistoryEntry, Request
from tests.doubles import CharTokens, RecordingReply
from aish.safety.secrets import Redactor
from aish.cost.usage import UsageTotals

MODELS = {
    "fast": {"endpoint": "http://127.0.0.1:9", "model": "small"},
    "deep": {"endpoint": "http://127.0.0.1:9", "model": "big"},
    "cloud": {"endpoint": "https://cloud.example", "model": "c"},
}


Tokens = CharTokens


def side_call(messages) -> bool:
    """A summarizer's request: answered by ``complete``, not by the scripted answers."""
    return bool(messages) and str(messages[0].get("content", "")).startswith(SUMMARIZER_ROLE)


def warm_up(messages, kw) -> bool:
    """The folded conversation sent to a local server for one token (app/after_answer.py)."""
    return kw.get("max_tokens") == 1 and bool(messages) and messages[-1].get("role") == "assistant"


class Script:
    """A fake broker: each call pops the next list of events (an exception raises); side
    calls (the summarizer; any call to a model named in ``side_models``) go to ``complete``;
    warm-ups after a fold are noted in ``warmed`` and answered one token."""

    def __init__(self, *calls, side_models=()):
        self.calls = list(calls)
        self.seen = []  # (model name, messages, tools)
        self.warmed = []  # the messages of each warm-up
        self.side_models = set(side_models)

    def stream(self, model, messages, tools=None, cancel=None, **kw):
        if warm_up(messages, kw):
            self.warmed.append(messages)
            yield TextDelta("x")
            yield Finish("length")
            return
        if side_call(messages) or model.name in self.side_models:
            answer, usage = self.complete(model, messages, cancel=cancel, **kw)
            yield TextDelta(answer)
            if usage is not None:
                yield usage
            yield Finish("stop")
            return
        self.seen.append((model.name, messages, tools))
        for item in self.calls.pop(0):
            if isinstance(item, BaseException):
                raise item
            yield item

    def complete(self, model, messages, **_):
        return "summary", None


def text(s, usage=None):
    events = [TextDelta(c) for c in [s[i:i + 5] for i in range(0, len(s), 5)]]
    if usage:
        events.append(usage)
    return events + [Finish("stop")]


def make(script, raw=None, mcp=None):
    cfg = from_dict({"models": MODELS, **(raw or {})})
    env = AskEnv(config=cfg, tokens=Tokens(), stream=script.stream, mcp=mcp)
    session = Session("t", usage=UsageTotals(), redactor=Redactor())
    return env, session


def req(text="how do I list files by size", **kw):
    return Request(id="r1", kind="ask", reply="", text=text, shell="zsh", cwd="/tmp",
                   status=1, history=[HistoryEntry("ls", 0, 12)], **kw)


def test_streams_text_extracts_commands_and_records_turns():
    script = Script(text("Use ls.\nCMD: ls -lS\nCMD: rm -rf /\n"))
    env, session = make(script)
    reply = RecordingReply()
    result = run_ask(env, session, req(), reply)
    assert reply.full_text == "Use ls.\nCMD: ls -lS\nCMD: rm -rf /\n"
    assert result.commands == ["ls -lS", "rm -rf /"]
    assert reply.commands[0] == ("ls -lS", None, None)
    assert reply.commands[1][1] == "high" and reply.commands[1][2]
    assert [t.role for t in session.conversation.turns] == ["user", "assistant"]
    system = script.seen[0][1][0]["content"]
    assert "zsh" in system and "CMD: " in system
    newest = script.seen[0][1][-1]["content"]  # the volatile context travels with the question
    assert "cwd: /tmp" in newest and "[0 12ms] ls" in newest and "last exit status: 1" in newest
    assert "cwd:" not in system and "12ms" not in system
    assert script.seen[0][2] is None  # no tools -> no tools field


def test_reasoning_taken_back_is_neither_answer_nor_command_nor_history():
    events = text("plan: CMD: rm -rf /")
    events = events[:-1] + [TextWasReasoning("plan: CMD: rm -rf /")] + text("Use ls.\nCMD: ls -lS\n")
    env, session = make(Script(events))
    reply = RecordingReply()
    result = run_ask(env, session, req(), reply)
    assert result.commands == ["ls -lS"] and result.text == "Use ls.\nCMD: ls -lS\n"
    assert RETRACTED in reply.statuses
    assert session.conversation.turns[-1].content == "Use ls.\nCMD: ls -lS\n"


def test_usage_is_estimated_when_the_server_sends_none_and_counted_when_it_does():
    script = Script(text("hello there"), text("again", Usage(10, 2, 12, cost=0.5)))
    env, session = make(script, {"default_model": "cloud"})
    first = run_ask(env, session, req(), RecordingReply())
    assert first.usage["estimated"] is True and first.usage["completion_tokens"] == len("hello there") // 4
    second = run_ask(env, session, req("more"), RecordingReply())
    assert second.usage["prompt_tokens"] == 10 and second.usage["cost"] == 0.5
    assert session.usage.total_tokens()[0] >= 10 and session.usage.total_cost() == 0.5


def test_a_cost_a_local_model_reports_is_kept():
    env, session = make(Script(text("x", Usage(10, 2, 12, cost=0.5))))
    assert run_ask(env, session, req(), RecordingReply()).usage["cost"] == 0.5


def test_routing_fires_once_per_ask_and_the_default_comes_back():
    script = Script(text("fix it"), text("plain"))
    env, session = make(script, {"routing": {"auto": True}})
    reply = RecordingReply()
    result = run_ask(env, session, req("Traceback (most recent call last):\n  File \"a.py\""), reply)
    assert script.seen[0][0] == "deep" and "routed to deep" in reply.statuses
    assert result.model == "deep" and result.routed == "code"
    run_ask(env, session, req("list files"), RecordingReply())
    assert script.seen[1][0] == "fast"


def test_fallback_retries_once_before_any_text_with_the_seed_status_line():
    refused = ConnectRefused("Connection refused (http://127.0.0.1:9)")
    script = Script([refused], text("from the cloud\nCMD: true"))
    env, session = make(script, {"routing": {"fallback": True, "fallback_model": "cloud"}})
    reply = RecordingReply()
    result = run_ask(env, session, req(), reply)
    assert [s[0] for s in script.seen] == ["fast", "cloud"]
    assert any(s.startswith("local fast failed (") and s.endswith("retrying via cloud") for s in reply.statuses)
    assert result.fallback == "cloud" and result.model == "cloud" and result.commands == ["true"]


def test_no_fallback_after_text_streamed_and_partial_text_is_kept():
    cut = StreamCut("stream cut short", partial_text="half an ans")
    script = Script([TextDelta("half an ans"), cut])
    env, session = make(script, {"routing": {"fallback": True, "fallback_model": "cloud"}})
    with pytest.raises(TransportError):
        run_ask(env, session, req(), RecordingReply())
    assert len(script.seen) == 1
    last = session.conversation.turns[-1]
    assert last.role == "assistant" and last.content.startswith("half an ans")


def test_both_failures_are_reported():
    err1 = HttpStatusError("HTTP 503: loading", status=503)
    err2 = DnsFailure("Couldn't resolve host cloud.example")
    env, session = make(Script([err1], [err2]), {"routing": {"fallback": True}})
    with pytest.raises(AishError) as info:
        run_ask(env, session, req(), RecordingReply())
    assert "503" in str(info.value) and "resolve" in str(info.value)


def test_cancel_keeps_partial_answer_and_suggests_nothing():
    script = Script([TextDelta("CMD: ls"), Cancelled()])
    env, session = make(script)
    reply = RecordingReply()
    result = run_ask(env, session, req(), reply)
    assert result.cancelled and reply.commands == []
    assert "cancelled" in session.conversation.turns[-1].content


def test_secrets_are_redacted_before_sending_and_restored_in_commands():
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    script = Script([])  # filled below once we know the placeholder

    def stream(model, messages, tools=None, cancel=None, **_):
        script.seen.append((model.name, messages, tools))
        sent = messages[-1]["content"]
        assert secret not in sent
        placeholder = sent.split("GITHUB_TOKEN=")[1].split()[0]
        yield TextDelta(f"CMD: gh auth login --with-token <<< {placeholder}")
        yield Finish("stop")

    env, session = make(script)
    env.stream = stream
    result = run_ask(env, session, req(f"why does GITHUB_TOKEN={secret} fail"), RecordingReply())
    assert result.commands == [f"gh auth login --with-token <<< {secret}"]


def test_tool_loop_appends_turns_and_reissues_until_text(monkeypatch):
    from aish.mcp import bridge

    call = ToolCall(id="c1", name="notes__read_note", arguments='{"name": "todo"}')
    script = Script([Finish("tool_calls", (call,))], text("Your todo: milk\nCMD: echo milk"))
    mcp = SimpleNamespace(openai_tools=lambda: [{"type": "function", "function": {"name": "notes__read_note"}}],
                          has_tools=lambda: True, set_roots=lambda paths: None, instructions=lambda: "")
    monkeypatch.setattr(bridge, "run_tool_call", lambda c, *a, **k: bridge.ToolOutcome(
        call_id=c.id, user_name="notes.read_note", content="milk"))
    env, session = make(script, mcp=mcp)
    result = run_ask(env, session, req("what is on my todo"), RecordingReply())
    assert [t.role for t in session.conversation.turns] == ["user", "assistant", "tool", "assistant"]
    second_messages = script.seen[1][1]
    assert second_messages[-1] == {"role": "tool", "content": "milk", "tool_call_id": "c1"}
    assert second_messages[-2]["tool_calls"][0]["function"]["name"] == "notes__read_note"
    assert script.seen[0][2] and result.commands == ["echo milk"]


def test_tool_depth_limit_stops_the_loop(monkeypatch):
    from aish.mcp import bridge

    call = ToolCall(id="c", name="n__t", arguments="{}")
    script = Script(*[[Finish("tool_calls", (call,))] for _ in range(3)])
    mcp = SimpleNamespace(openai_tools=lambda: [{"x": 1}], has_tools=lambda: True, set_roots=lambda paths: None,
                          instructions=lambda: "")
    monkeypatch.setattr(bridge, "run_tool_call", lambda c, *a, **k: bridge.ToolOutcome(
        call_id=c.id, user_name="n.t", content="again"))
    env, session = make(script, {"mcp": {"max_tool_depth": 2}}, mcp=mcp)
    reply = RecordingReply()
    run_ask(env, session, req(), reply)
    assert len(script.seen) == 2 and "tool-call depth limit reached" in reply.statuses


def test_explain_mode_leaves_the_conversation_alone():
    script = Script(text("tar: archive tool. -x extract."))
    env, session = make(script)
    reply = RecordingReply()
    result = run_ask(env, session, Request(id="r", kind="ask", reply="", mode="explain",
                                        buffer="tar -xzf a.tgz"), reply)
    assert session.conversation.turns == [] and result.commands == [] and "extract" in reply.full_text
    assert "tar -xzf a.tgz" in str(script.seen[0][1])


def test_explain_streams_as_an_ask_does_no_empty_chunks_and_a_cut_keeps_the_text():
    script = Script([TextDelta(""), TextDelta("tar: archive"), AishError("transport: stream cut")])
    env, session = make(script)
    reply = RecordingReply()
    with pytest.raises(AishError) as caught:
        run_ask(env, session, Request(id="r", kind="ask", reply="", mode="explain", buffer="tar x"), reply)
    assert reply.texts == ["tar: archive"]
    assert caught.value.partial_text == "tar: archive"


def test_no_model_configured_names_the_fix():
    env = AskEnv(config=from_dict({}), tokens=Tokens(), stream=lambda *a, **k: iter(()))
    with pytest.raises(AishError, match="no model configured"):
        run_ask(env, Session("t"), req(), RecordingReply())


def test_regression_config_without_routing_or_summarize_behaves_as_before():
    """No [routing], no summarize_on_evict: no routing, no fallback, silent eviction only."""
    refused = ConnectRefused("Connection refused (http://127.0.0.1:9)")
    summarized = []
    script = Script(*[text(f"answer {i}") for i in range(3)], [refused])
    script.complete = lambda *a, **k: summarized.append(a) or ("summary", None)
    env, session = make(script, {"context": {"max_turns": 2}})
    assert env.config.routing.auto is False and env.config.context.summarize_on_evict is False
    replies = [RecordingReply() for _ in range(3)]
    run_ask(env, session, req("Traceback (most recent call last): explain why"), replies[0])
    run_ask(env, session, req("second"), replies[1])
    run_ask(env, session, req("third"), replies[2])
    assert [s[0] for s in script.seen] == ["fast", "fast", "fast"]
    assert not any("routed" in s for r in replies for s in r.statuses)
    assert any("evicted 2 oldest turns" in s for s in replies[2].statuses)
    assert session.conversation.summary is None and summarized == []
    assert "[earlier conversation summary]" not in script.seen[-1][1][0]["content"]
    with pytest.raises(TransportError):
        run_ask(env, session, req("fourth"), RecordingReply())
    assert len(script.seen) == 4  # no retry on another model
