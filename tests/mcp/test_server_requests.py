"""What a server asks or says while its tool runs, against the SDK's server over stdio:
questions for the user (elicitation), completions (sampling), roots, progress, a changed
tool list; and what it offers besides tools (instructions, resources, prompts)."""
from __future__ import annotations

import json
import time

import pytest

from aish.config.schema import McpConfig, McpServerConfig
from aish.errors import AishError
from aish.llm.events import ToolCall
from aish.mcp import asks, bridge, catalog
from aish.mcp.asks import ShellSide
from aish.mcp.manager import McpManager
from tests.doubles import RecordingReply
from tests.mcp_servers import stdio_argv


@pytest.fixture(scope="module")
def manager():
    made = McpManager(McpConfig(servers={"notes": McpServerConfig(alias="notes", command=stdio_argv())},
                                auto_approve=["notes.*"]))
    assert made.connect_configured() == []
    yield made
    made.close_all()


def run(manager, tool, arguments, reply, sampler=None):
    call = ToolCall(id="c1", name=manager.wire_name(f"notes.{tool}"), arguments=json.dumps(arguments))
    side = ShellSide(reply, timeout=5, sampler=sampler)
    return bridge.run_tool_call(call, manager, reply, manager.cfg, set(), side=side)


def test_a_servers_question_is_asked_field_by_field_and_sent_after_a_last_yes(manager):
    reply = RecordingReply(answers=["y", "y"], texts=["todo", "x", "3"])
    outcome = run(manager, "ask_user", {}, reply)
    assert outcome.content == "accepted todo x3 ok=True"
    assert "notes asks: Which note, how many copies?" in reply.statuses
    assert [p.split(":")[1].strip().split()[0] for p in reply.prompts] == ["Name", "Count", "Count"]
    assert "a whole number, please" in reply.statuses  # "x" was asked again
    assert reply.questions[0] == "notes: Ok? [y/N]"
    assert reply.questions[1].startswith('send {"name": "todo", "count": 3, "ok": true} to notes?')


def test_nobody_to_ask_or_a_no_declines(manager):
    assert run(manager, "ask_user", {}, RecordingReply()).content == "cancel"
    reply = RecordingReply(answers=["n", "n"], texts=["todo", "2"])
    assert run(manager, "ask_user", {}, reply).content == "decline"


def test_sampling_asks_first_then_runs_aishs_model(manager):
    asked = []

    def sampler(alias, request):
        asked.append((alias, request))
        return "milk and eggs", "small-model"

    reply = RecordingReply(answers=["y"])
    outcome = run(manager, "summarize_with_model", {"text": "buy milk, buy eggs"}, reply, sampler)
    assert outcome.content == "model small-model said: milk and eggs"
    [(alias, request)] = asked
    assert alias == "notes" and request["maxTokens"] == 64
    assert reply.questions[0].startswith('notes asks the model (1 message, up to 64 tokens): "Summarize: buy milk')


def test_sampling_declined_is_an_error_for_the_server_not_a_model_call(manager):
    asked = []
    reply = RecordingReply(answers=["n"])
    outcome = run(manager, "summarize_with_model", {"text": "x"}, reply,
                  lambda alias, request: asked.append(1) or ("no", "m"))
    assert asked == [] and outcome.content is None
    assert any("declined the sampling request" in line for line in reply.statuses), reply.statuses
    assert any("denied: notes's request for the model" in w for w in reply.warnings)


def test_roots_are_what_the_question_set(manager, tmp_path):
    manager.set_roots([str(tmp_path)])
    outcome = run(manager, "my_roots", {}, RecordingReply())
    assert outcome.content == tmp_path.as_uri()


def test_progress_becomes_status_lines(manager, tmp_path, monkeypatch):
    """Progress every 0.04 s for 0.2 s, shown at most every 0.15 s (a second in use): 5 reports
    make at most 3 lines."""
    monkeypatch.setattr(asks, "PROGRESS_EVERY", 0.15)
    reply = RecordingReply()
    run(manager, "wait_for_cancel", {"seconds": 0.2, "every": 0.04, "marker": str(tmp_path / "m")}, reply)
    lines = [s for s in reply.statuses if s.startswith("tool notes.wait_for_cancel: ")]
    assert 1 <= len(lines) <= 3, reply.statuses  # at most one every PROGRESS_EVERY
    assert "waiting" in lines[0] and "/5" in lines[0]


def test_a_changed_tool_list_is_fetched_again(manager):
    assert manager.resolve("notes.extra_one") is None
    run(manager, "add_tool", {"name": "extra_one"}, RecordingReply())
    deadline = time.monotonic() + 10
    while manager.resolve("notes.extra_one") is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert manager.resolve("notes.extra_one") is not None


def test_instructions_resources_and_prompts(manager):
    assert manager.instructions() == "[notes] Notes are short; read one before changing it."
    entries, problems = catalog.resources(manager)
    assert problems == [] and [(e.alias, e.name) for e in entries] == [("notes", "notes://todo")]
    assert catalog.read_resource(manager, "notes://todo") == ("notes", "buy milk")
    listed, _ = catalog.prompts(manager)
    assert [(e.name, e.arguments) for e in listed] == [("review", (("name", True),))]
    assert "review the note named todo: buy milk" in catalog.get_prompt(manager, "review", {"name": "todo"})
    with pytest.raises(AishError) as info:
        catalog.get_prompt(manager, "review", {})
    assert "needs name" in str(info.value)


def test_a_formatted_string_field_is_asked_again_until_it_fits():
    """The spec's string formats (email, uri, date, date-time) and lengths are checked as
    typed, with a line saying what fits; a value that never fits cancels the question."""
    from tests.doubles import RecordingReply

    schema = {"type": "object", "required": ["email"], "properties": {
        "email": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"},
        "born": {"type": "string", "format": "date"},
        "at": {"type": "string", "format": "date-time"},
        "nick": {"type": "string", "minLength": 2, "maxLength": 4}}}
    typed = ["https://example.test", "ada@example.test",
             "1815-12-10", "https://example.test/ada",
             "7", "1815-12-10",
             "tomorrow", "2026-11-24T22:00:00Z",
             "a", "adalovelace", "ada"]
    reply = RecordingReply(answers=["y"], texts=typed)
    action, values = ShellSide(reply, timeout=5).elicit("ev", {"message": "who?", "requestedSchema": schema})
    assert (action, values) == ("accept", {"email": "ada@example.test", "site": "https://example.test/ada",
                                           "born": "1815-12-10", "at": "2026-11-24T22:00:00Z", "nick": "ada"})
    assert reply.statuses[1:] == ["an email address, please (name@example.com)",
                                  "an address with its scheme, please (https://...)",
                                  "a date, please (YYYY-MM-DD)",
                                  "a date and time, please (YYYY-MM-DDTHH:MM:SS, with its offset)",
                                  "at least 2 characters, please", "at most 4 characters, please"], reply.statuses


def test_roots_false_keeps_a_server_scoped_to_what_its_command_says(tmp_path):
    """A server started on a directory of its own (the reference filesystem server replaces
    its directories with the client's roots) can be kept there: ``roots = false`` offers it
    no roots at all, whatever the shell's directory."""
    made = McpManager(McpConfig(servers={"notes": McpServerConfig(alias="notes", command=stdio_argv(),
                                                                  roots=False)},
                                auto_approve=["notes.*"]))
    try:
        assert made.connect_configured() == []
        made.set_roots([str(tmp_path)])
        reply = RecordingReply()
        outcome = run(made, "my_roots", {}, reply)
        assert outcome.content is None, outcome.content  # its roots/list is refused: the call fails
        assert any(line.startswith("mcp: notes.my_roots: ") for line in reply.statuses), reply.statuses
    finally:
        made.close_all()
