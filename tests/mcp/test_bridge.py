"""One model tool call through approval and dispatch, against real servers."""
from __future__ import annotations

import json

import pytest

from aish.config.schema import McpConfig, McpServerConfig
from aish.llm.events import ToolCall
from aish.mcp import bridge
from aish.mcp.manager import McpManager
from tests.doubles import RecordingReply
from tests.mcp_servers import SdkHttpServer
from tests.mcp_servers.plain_json_server import PlainServer


@pytest.fixture(scope="module")
def plain():
    server = PlainServer(names=("fs.read",))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def sdk():
    server = SdkHttpServer("--json", "--stateless")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def manager(plain, sdk):
    cfg = McpConfig(servers={
        "plain": McpServerConfig(alias="plain", url=plain.url, timeout=0.5),
        "notes": McpServerConfig(alias="notes", url=sdk.url, trusted=True),
    })
    m = McpManager(cfg)
    assert m.connect_configured() == []
    yield m
    m.close_all()


def _call(manager, name, arguments, reply, cfg=None, always=None):
    wire = manager.wire_name(name) or name
    return bridge.run_tool_call(ToolCall(id="call_1", name=wire, arguments=arguments), manager, reply,
                                cfg or McpConfig(), always if always is not None else set())


def test_approved_call(manager):
    reply = RecordingReply(answers=["y"])
    out = _call(manager, "notes.read_note", '{"name": "todo"}', reply)
    assert reply.questions == ['call notes.read_note {"name": "todo"} (read-only)? [y/N/a]']
    assert out.content == "buy milk" and not out.denied and not out.is_error
    assert out.user_name == "notes.read_note" and out.call_id == "call_1"
    assert "tool notes.read_note" in reply.statuses


def test_always_answer_is_remembered_for_the_conversation(manager):
    always: set = set()
    reply = RecordingReply(answers=["a"])
    assert _call(manager, "plain.echo", '{"text": "one"}', reply, always=always).content == "one"
    assert always == {"plain.echo"}
    assert _call(manager, "plain.echo", '{"text": "two"}', reply, always=always).content == "two"
    assert len(reply.questions) == 1
    other = RecordingReply()
    _call(manager, "plain.fs.read", "{}", other, always=always)
    assert len(other.questions) == 1, "'a' covers that one tool only"


def test_nobody_to_ask_denies(manager, plain):
    plain.requests.clear()
    reply = RecordingReply()  # no scripted answers: ask returns None
    out = _call(manager, "plain.echo", '{"text": "x"}', reply)
    assert out.denied and out.content == "The user denied this tool call."
    assert reply.warnings == ["denied: plain.echo"]
    assert "tools/call" not in plain.methods()


def test_no_denies(manager):
    reply = RecordingReply(answers=["n"])
    out = _call(manager, "notes.delete_note", '{"name": "todo"}', reply)
    assert reply.questions == ['call notes.delete_note {"name": "todo"} (destructive)? [y/N/a]']
    assert out.denied and reply.warnings == ["denied: notes.delete_note"]


def test_auto_approve_patterns_and_read_only_trusted(manager):
    reply = RecordingReply()
    out = _call(manager, "plain.echo", '{"text": "hi"}', reply, McpConfig(auto_approve=["plain.*"]))
    assert out.content == "hi"
    out = _call(manager, "notes.read_note", '{"name": "ideas"}', reply,
                McpConfig(auto_approve_read_only_trusted=True))
    assert out.content == "write tests first"
    # plain is not trusted: its readOnlyHint does not approve
    out = _call(manager, "plain.fs.read", "{}", reply, McpConfig(auto_approve_read_only_trusted=True))
    assert out.denied
    assert reply.questions == ['call plain.fs.read {} (read-only)? [y/N/a]']


def test_malformed_arguments_skip_the_call(manager):
    reply = RecordingReply(answers=["y"])
    for bad in ('{"text": "x"', "[1, 2]", "nul"):
        out = _call(manager, "plain.echo", bad, reply)
        assert out.content is None and not out.denied
    assert reply.questions == []
    assert reply.warnings == ["malformed arguments for plain.echo; call skipped"] * 3


def test_empty_arguments_are_an_empty_object(manager):
    out = _call(manager, "notes.whoami", "", RecordingReply(answers=["y"]))
    assert out.content and out.content.startswith("session=")


def test_unknown_wire_name(manager):
    reply = RecordingReply(answers=["y"])
    out = _call(manager, "ghost__tool", "{}", reply)
    assert out.content is None and reply.questions == []
    assert "unknown tool 'ghost__tool'" in reply.warnings[0]


def test_is_error_goes_back_to_the_model(manager):
    reply = RecordingReply(answers=["y", "y"])
    out = _call(manager, "plain.fail", "{}", reply)
    assert out.is_error and out.content == "Error: disk on fire"
    out = _call(manager, "notes.fail", '{"reason": "quota"}', reply)
    assert out.is_error and "quota" in out.content
    assert any(s.startswith("tool plain.fail reported an error") for s in reply.statuses)


def test_jsonrpc_error_is_a_status_line_and_no_tool_turn(manager, plain):
    reply = RecordingReply(answers=["y", "y"])
    out = _call(manager, "notes.protocol_error", "{}", reply)
    assert out.content is None and not out.is_error
    assert "mcp: notes.protocol_error: the notes store is locked" in reply.statuses
    saved = plain.tools[:]
    plain.tools[:] = [t for t in plain.tools if t["name"] != "echo"]  # the server dropped a tool
    try:
        out = _call(manager, "plain.echo", '{"text": "x"}', reply)
    finally:
        plain.tools[:] = saved
    assert out.content is None
    assert "mcp: plain.echo: Unknown tool: echo" in reply.statuses


def test_timeout_is_a_status_line(plain):
    hasty = McpManager(McpConfig(servers={"plain": McpServerConfig(alias="plain", url=plain.url, timeout=0.2)}))
    try:
        assert hasty.connect_configured() == []
        reply = RecordingReply(answers=["y"])
        out = _call(hasty, "plain.sleep", '{"seconds": 2}', reply)  # ten times the time-out
    finally:
        hasty.close_all()
    assert out.content is None
    assert any(s.startswith("mcp: plain.sleep:") and "within 0.2s" in s for s in reply.statuses)


def test_long_results_are_cut(manager):
    reply = RecordingReply(answers=["y"])
    out = _call(manager, "notes.big", '{"chars": 9000}', reply, McpConfig(max_result_chars=1000))
    assert out.content == "x" * 1000 + "\n[... cut: 8,000 more characters]"
    assert "tool notes.big: result cut to 1,000 characters" in reply.statuses


def test_images_are_summarized(manager):
    out = _call(manager, "notes.picture", "{}", RecordingReply(answers=["y"]))
    assert out.content == "a red dot:\n[image/png, 2 KB]"


def test_dotted_tool_name_round_trip(manager):
    wire = manager.wire_name("plain.fs.read")
    assert "." not in wire
    out = _call(manager, "plain.fs.read", "{}", RecordingReply(answers=["y"]))
    assert out.user_name == "plain.fs.read" and out.content == "called fs.read"


def test_s_at_the_question_shows_the_whole_call_then_asks_again(manager):
    reply = RecordingReply(answers=["s", "y"])
    long_text = "line one\n" + "z" * 3000
    outcome = _call(manager, "notes.echo", f'{{"text": {json.dumps(long_text)}}}', reply)
    assert len(reply.questions) == 2 and reply.questions[0] == reply.questions[1]
    shown = reply.full_text
    assert "z" * 3000 in shown and "notes.echo" in shown
    assert outcome.content == long_text
