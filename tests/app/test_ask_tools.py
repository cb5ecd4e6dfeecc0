"""An ask whose model calls a real MCP tool (the SDK's stdio server): what the tool gets,
what the user is asked, what goes back to the model."""
from __future__ import annotations

import json

import pytest

from aish.app.ask import run_ask
from aish.config.schema import McpConfig, McpServerConfig
from aish.llm.events import Finish, ToolCall
from aish.mcp.manager import McpManager
from tests.app.test_ask import Script, make, req, text
from tests.doubles import RecordingReply
from tests.mcp_servers import stdio_argv

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@pytest.fixture(scope="module")
def manager():
    made = McpManager(McpConfig(servers={"notes": McpServerConfig(alias="notes", command=stdio_argv())}))
    assert made.connect_configured() == []
    yield made
    made.close_all()


def test_a_secret_placeholder_reaches_the_tool_restored_after_approval_and_the_user_is_told(manager):
    seen = []

    def stream(model, messages, tools=None, cancel=None, **_):
        seen.append(messages)
        if len(seen) == 1:
            placeholder = messages[-1]["content"].split("GITHUB_TOKEN=")[1].split()[0]
            assert placeholder.startswith("<secret:")
            args = json.dumps({"text": f"token {placeholder}"})
            yield Finish("tool_calls", (ToolCall(id="c1", name="notes__echo", arguments=args),))
        else:
            yield from text("Stored.")

    env, conv = make(Script(), mcp=manager)
    env.stream = stream
    reply = RecordingReply(answers=["y"])
    run_ask(env, conv, req(f"save GITHUB_TOKEN={SECRET} in my notes"), reply)
    [question] = reply.questions
    assert SECRET not in question and "<secret:" in question and "carries a secret" in question
    tool_turn = next(t for t in conv.conversation.turns if t.role == "tool")
    assert tool_turn.content == f"token {SECRET}", "the tool got the real value"
    assert all(SECRET not in json.dumps(m) for m in seen[1]), "the result is redacted again on the way out"


def test_instructions_and_schemas_go_with_the_tools_and_the_system_message_holds(manager, monkeypatch):
    """The servers' instructions are in the system message (the same bytes on the next ask),
    and the tools' schemas are counted against the budget with it."""
    from aish.chat.conversation import Conversation

    budgets = []
    real = Conversation.plan_eviction

    def spy(self, **kw):
        budgets.append(kw["system_prompt"])
        return real(self, **kw)

    monkeypatch.setattr(Conversation, "plan_eviction", spy)
    seen = []

    def stream(model, messages, tools=None, cancel=None, **_):
        seen.append(messages[0]["content"])
        yield from text("ok")

    env, conv = make(Script(), mcp=manager)
    env.stream = stream
    run_ask(env, conv, req("one"), RecordingReply())
    run_ask(env, conv, req("two"), RecordingReply())
    assert "[notes] Notes are short; read one before changing it." in seen[0]
    assert seen[0] == seen[1]
    assert '"notes__read_note"' in budgets[0] and budgets[0].startswith(seen[0])


def test_sampling_runs_on_the_default_model_and_is_costed_as_mcp_sampling(manager):
    calls = []

    def stream(model, messages, tools=None, cancel=None, **_):
        calls.append(messages)
        if len(calls) == 1:
            args = json.dumps({"text": "buy milk"})
            yield Finish("tool_calls", (ToolCall(id="c1", name="notes__summarize_with_model", arguments=args),))
        elif len(calls) == 2:  # the server's completion
            assert messages[-1]["content"] == "Summarize: buy milk"
            yield from text("milk")
        else:
            yield from text("Done.")

    env, conv = make(Script(), mcp=manager)
    env.stream = stream
    reply = RecordingReply(answers=["y", "y"])
    run_ask(env, conv, req("summarize my note"), reply)
    tool_turn = next(t for t in conv.conversation.turns if t.role == "tool")
    assert tool_turn.content == "model small said: milk"
    assert any(category == "mcp_sampling" for (_, category) in conv.usage._buckets)
