"""Asks and verbs with a real MCP server (the official SDK's, Streamable HTTP or stdio), through
the daemon's Service in this process: what the user is asked and answers, what the tool
gets, what reaches the model, and run-time connects made from the caller's directory and
environment.

The question answered on a real terminal through a real daemon is
tests/e2e/test_mcp_terminal.py; here the answers are the reply's script (``answers=``), as
the daemon hands the CLI's.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import socket
import time

import pytest

from tests.mcp_servers import SDK_SERVER, SdkHttpServer, server_argv
from tests.stub_server import Reply, StubServer


@pytest.fixture(scope="module")
def notes():
    server = SdkHttpServer()
    yield server
    server.stop()


@pytest.fixture
def stub(config_file, notes):
    with StubServer() as server:
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n'
                    f'[mcp.servers.notes]\nurl = "{notes.url}"\n')
        yield server


def tool_call_then_answer(stub):
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": '{"name": "todo"}'}]),
               Reply(text="Your todo says to buy milk.\nCMD: echo 'buy milk'\n"))


def tool_messages(stub):
    return [m for r in stub.requests for m in r["body"]["messages"] if m["role"] == "tool"]


# ------------------------------------------------------------------ the approval question
def test_s_shows_the_whole_call_then_y_runs_it(stub, service):
    long_name = "todo" + "-" * 300 + "end"
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": f'{{"name": "{long_name}"}}'}]),
               Reply(text="Nothing there.\n"))
    outcome = service.ask("read my long note", answers=["s", "y"])
    assert outcome.returncode == 0, outcome.stderr
    assert len(outcome.reply.questions) == 2 and all(q.endswith("[y/N/a/s]") for q in outcome.reply.questions)
    assert long_name not in outcome.reply.questions[0]  # cut short until `s` asks for the whole call
    assert "---end" in outcome.text  # the whole call, shown between the two questions
    assert [m["content"] for m in tool_messages(stub)] == [f"no note named {long_name}"]


def test_a_refused_tool_call_tells_the_model_and_the_user(stub, service):
    tool_call_then_answer(stub)
    outcome = service.ask("what is on my todo note?", answers=["n"])
    assert outcome.reply.questions == ['call notes.read_note {"name": "todo"} (read-only)? [y/N/a]']
    assert "denied: notes.read_note" in outcome.stderr
    assert [m["content"] for m in tool_messages(stub)] == ["The user denied this tool call."]


def test_nobody_to_ask_means_denied_and_the_user_sees_it(stub, service):
    tool_call_then_answer(stub)
    outcome = service.ask("read my todo")  # `aish ask --json` with no terminal: no answer comes
    data = outcome.json()
    assert data["tool_calls"] == [{"name": "notes.read_note", "denied": True, "is_error": False,
                                   "answered": True}]
    assert [m["content"] for m in tool_messages(stub)] == ["The user denied this tool call."]
    assert data["commands"] == ["echo 'buy milk'"]


def test_auto_approve_needs_no_question(stub, config_file, notes, service):
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                f'[mcp]\nauto_approve = ["notes.*"]\n[mcp.servers.notes]\nurl = "{notes.url}"\n')
    tool_call_then_answer(stub)
    outcome = service.ask("read my todo")
    assert outcome.reply.questions == []
    assert outcome.json()["tool_calls"][0]["denied"] is False
    assert [m["content"] for m in tool_messages(stub)] == ["buy milk"]


def test_norris_planner_calls_an_auto_approved_tool_and_plans_with_its_result(stub, config_file, notes, service):
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                f'[mcp]\nauto_approve = ["notes.read_note"]\n[mcp.servers.notes]\nurl = "{notes.url}"\n')
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": '{"name": "todo"}'}]),
               Reply(text="CMD: echo 'buy milk'\n"))
    outcome = service.verb("norris", "do what my todo says")
    assert outcome.returncode == 0, outcome.stderr
    assert "echo 'buy milk'" in outcome.stdout
    first, second = (r["body"] for r in stub.wait_requests(2))
    assert any(t["function"]["name"] == "notes__read_note" for t in first["tools"])
    assert "[NORRIS MODE]" in first["messages"][0]["content"]
    tool_turns = [m["content"] for m in second["messages"] if m["role"] == "tool"]
    # the result reaches the planner marked as the task's data (app/norris_autorun.py)
    assert len(tool_turns) == 1 and re.fullmatch(r"\[task data (\w{8}): the result of tool notes__read_note\]\n"
                                                  r"buy milk\n\[end of task data \1\]", tool_turns[0]), tool_turns
    assert second["messages"][0] == first["messages"][0]  # the task's system message holds


# ------------------------------------------------------------------ run-time connects
@pytest.fixture
def bare(config_file):
    """A model stub, no MCP server configured."""
    with StubServer() as server:
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n'
                    '[mcp]\nauto_approve = ["rel.*"]\n')
        yield server


def test_a_runtime_stdio_connect_runs_in_the_callers_directory(bare, service, tmp_path):
    """The request's directory, not the daemon's (this process's, which is not ``tmp_path``)."""
    assert os.path.realpath(os.getcwd()) != os.path.realpath(tmp_path)
    script = tmp_path / "notes-server.sh"
    script.write_text(f"#!/bin/sh\nexec {shlex.join(server_argv(SDK_SERVER, 'stdio'))}\n")  # forked: quick
    script.chmod(0o755)
    connected = service.verb("mcp", "connect", "--stdio", "rel", "--", "./notes-server.sh", cwd=tmp_path)
    assert connected.returncode == 0, connected.stderr
    assert "connected rel" in connected.stdout
    bare.queue(Reply(tool_calls=[{"name": "rel__env_and_cwd", "arguments": "{}"}]), Reply(text="ok"))
    asked = service.ask("where do you run?", cwd="/")
    assert asked.returncode == 0, asked.stderr
    [tool] = tool_messages(bare)
    assert os.path.realpath(json.loads(tool["content"])["cwd"]) == os.path.realpath(tmp_path)


def test_auth_env_is_read_from_the_callers_environment(bare, service):
    """The token is in the request's environment (the shell's), not the daemon's; the CLI sends
    a variable the command names even when its name looks secret (withheld otherwise)."""
    from aish.cli.printer import _request_env
    from tests.mcp_servers.plain_json_server import PlainServer

    assert "PLAIN_MCP_TOKEN" not in os.environ
    server = PlainServer(token="tok-from-the-shell")
    try:
        argv = ["mcp", "connect", "--auth-env", "PLAIN_MCP_TOKEN", server.url, "p"]
        os.environ["PLAIN_MCP_TOKEN"] = "tok-from-the-shell"
        try:
            env = _request_env(argv)
        finally:
            del os.environ["PLAIN_MCP_TOKEN"]
        assert env["PLAIN_MCP_TOKEN"] == "tok-from-the-shell"
        result = service.verb(*argv, env=env)
        assert result.returncode == 0, result.stderr
        assert "connected p" in result.stdout
    finally:
        server.stop()


def test_disconnect_of_an_unknown_alias_fails_and_says_so(bare, service):
    result = service.verb("mcp", "disconnect", "nosuch")
    assert result.returncode != 0
    assert "no server named 'nosuch'" in result.stderr


def test_a_hung_configured_server_does_not_delay_the_first_answer(config_file, service):
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(8)
    try:
        with StubServer() as server:
            # (a question waits connect_wait for servers still connecting, 5 s by default: the
            # hung one never answers, so any wait ends the same way)
            config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n[mcp]\nconnect_wait = 0.1\n'
                        f'[mcp.servers.hung]\nurl = "http://127.0.0.1:{hung.getsockname()[1]}/mcp"\n'
                        'timeout = 30\n')
            server.queue(Reply(text="fine"))
            start = time.monotonic()
            result = service.ask("hello")
            elapsed = time.monotonic() - start
            assert result.returncode == 0, result.stderr
            assert result.stdout.strip() == "fine"
            assert elapsed < 15, f"the first answer waited {elapsed:.1f}s for a hung server"
            assert "hung" in result.stderr and "connecting" in result.stderr
    finally:
        hung.close()
