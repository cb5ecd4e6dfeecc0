"""End to end with a real MCP server (official SDK, Streamable HTTP): the model stub asks
for a tool, the user approves on `aish ask`'s terminal (a real pty), the result reaches
the model, the answer arrives.  Without a terminal the call is denied, visibly."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time

import pytest

from tests import warm_aish
from tests.mcp_servers import SdkHttpServer
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
    _aish("daemon", "stop", timeout=30)


def tool_call_then_answer(stub):
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": '{"name": "todo"}'}]),
               Reply(text="Your todo says to buy milk.\nCMD: echo 'buy milk'\n"))


def run_on_a_terminal(args, answer, timeout: float = 30, prompt: bytes = b"[y/N/a]") -> str:
    """Run `aish` with a pty as its controlling terminal; type `answer` at the question
    (a list: one answer per time `prompt` shows)."""
    answers = list(answer) if isinstance(answer, list) else [answer]
    master, slave = pty.openpty()

    def make_controlling_tty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    # forked warm (tests/warm_aish.py), the SDK's client imported: its own session, the pty
    # its controlling terminal, as the preexec_fn below makes a fresh interpreter's
    proc = warm_aish.spawn(args, env=dict(os.environ), cwd=None, fds=(slave, slave, slave),
                           session="tty", flavor="mcp")
    if proc is None:
        proc = subprocess.Popen([sys.executable, "-m", "aish", *args], stdin=slave, stdout=slave,
                                stderr=slave, preexec_fn=make_controlling_tty, close_fds=True)
    os.close(slave)
    seen, answered = b"", 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
                if answered < len(answers) and seen.count(prompt) > answered:
                    os.write(master, answers[answered] + b"\n")
                    answered += 1
            elif proc.poll() is not None:
                break
        proc.wait(timeout=5)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return seen.decode(errors="replace")


def tool_messages(stub):
    return [m for r in stub.requests for m in r["body"]["messages"] if m["role"] == "tool"]


def test_tool_call_approved_on_the_terminal_reaches_the_model(stub):
    tool_call_then_answer(stub)
    screen = run_on_a_terminal(["ask", "what is on my todo note?"], b"y")
    assert 'call notes.read_note {"name": "todo"} (read-only)? [y/N/a]' in screen
    assert "Your todo says to buy milk." in screen and "echo 'buy milk'" in screen
    assert [m["content"] for m in tool_messages(stub)] == ["buy milk"]
    first = stub.requests[0]["body"]
    assert any(t["function"]["name"] == "notes__read_note" for t in first["tools"])


def test_s_on_the_terminal_shows_the_whole_call_then_y_runs_it(stub):
    long_name = "todo" + "-" * 300 + "end"
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": f'{{"name": "{long_name}"}}'}]),
               Reply(text="Nothing there.\n"))
    screen = run_on_a_terminal(["ask", "read my long note"], [b"s", b"y"], prompt=b"[y/N/a/s]")
    assert screen.count("[y/N/a/s]") == 2 and "---end" in screen.replace("\r\n", "")
    assert [m["content"] for m in tool_messages(stub)] == [f"no note named {long_name}"]


def test_tool_call_refused_on_the_terminal_tells_the_model(stub):
    tool_call_then_answer(stub)
    screen = run_on_a_terminal(["ask", "what is on my todo note?"], b"n")
    assert "denied: notes.read_note" in screen
    assert [m["content"] for m in tool_messages(stub)] == ["The user denied this tool call."]


def test_nobody_to_ask_means_denied_and_the_user_sees_it(stub):
    tool_call_then_answer(stub)
    result = _aish("ask", "--json", "read my todo")  # a session of its own: no terminal at all
    data = json.loads(result.stdout)
    assert data["tool_calls"] == [{"name": "notes.read_note", "denied": True, "is_error": False,
                                   "answered": True}]
    assert [m["content"] for m in tool_messages(stub)] == ["The user denied this tool call."]
    assert data["commands"] == ["echo 'buy milk'"]


def test_auto_approve_needs_no_question(stub, config_file, notes):
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                f'[mcp]\nauto_approve = ["notes.*"]\n[mcp.servers.notes]\nurl = "{notes.url}"\n')
    tool_call_then_answer(stub)
    result = _aish("ask", "--json", "read my todo")
    data = json.loads(result.stdout)
    assert data["tool_calls"][0]["denied"] is False
    assert [m["content"] for m in tool_messages(stub)] == ["buy milk"]


def test_norris_planner_calls_an_auto_approved_tool_and_plans_with_its_result(stub, config_file, notes):
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                f'[mcp]\nauto_approve = ["notes.read_note"]\n[mcp.servers.notes]\nurl = "{notes.url}"\n')
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": '{"name": "todo"}'}]),
               Reply(text="CMD: echo 'buy milk'\n"))
    result = _aish("norris", "do what my todo says", new_session=False)
    assert result.returncode == 0, result.stderr
    assert "echo 'buy milk'" in result.stdout
    first, second = (r["body"] for r in stub.wait_requests(2))
    assert any(t["function"]["name"] == "notes__read_note" for t in first["tools"])
    assert "[NORRIS MODE]" in first["messages"][0]["content"]
    tool_turns = [m["content"] for m in second["messages"] if m["role"] == "tool"]
    # the result reaches the planner marked as the task's data (app/norris_autorun.py)
    assert len(tool_turns) == 1 and re.fullmatch(r"\[task data (\w{8}): the result of tool notes__read_note\]\n"
                                                  r"buy milk\n\[end of task data \1\]", tool_turns[0]), tool_turns
    assert second["messages"][0] == first["messages"][0]  # the task's system message holds


# ---------------------------------------------------------------- run-time connects, from the CLI
def _aish(*args, cwd=None, env=None, timeout=60, new_session=True):
    """`python -m aish ARGS` without a terminal (a session of its own), forked warm with the
    SDK's client imported (tests/warm_aish.py)."""
    return warm_aish.run(list(args), env={**os.environ, **(env or {})}, cwd=cwd, timeout=timeout,
                         stdin=subprocess.DEVNULL, new_session=new_session, flavor="mcp")


@pytest.fixture
def bare_daemon(config_file):
    """A model stub, no MCP server configured; the daemon started before the test's calls,
    so it holds its own cwd and environment, not the caller's."""
    with StubServer() as server:
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n'
                    '[mcp]\nauto_approve = ["rel.*"]\n')
        assert _aish("daemon", "start", cwd="/").returncode == 0
        yield server
    _aish("daemon", "stop", timeout=30)


def test_a_runtime_stdio_connect_runs_in_the_callers_directory(bare_daemon, tmp_path):
    from tests.mcp_servers import SDK_SERVER

    script = tmp_path / "notes-server.sh"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {SDK_SERVER} stdio\n")
    script.chmod(0o755)
    result = _aish("mcp", "connect", "--stdio", "rel", "--", "./notes-server.sh", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "connected rel" in result.stdout
    bare_daemon.queue(Reply(tool_calls=[{"name": "rel__env_and_cwd", "arguments": "{}"}]), Reply(text="ok"))
    asked = _aish("ask", "--json", "where do you run?", cwd="/")
    assert asked.returncode == 0, asked.stderr
    [tool] = tool_messages(bare_daemon)
    assert os.path.realpath(json.loads(tool["content"])["cwd"]) == os.path.realpath(tmp_path)


def test_auth_env_is_read_from_the_callers_environment(bare_daemon):
    from tests.mcp_servers.plain_json_server import PlainServer

    server = PlainServer(token="tok-from-the-shell")
    try:
        result = _aish("mcp", "connect", "--auth-env", "PLAIN_MCP_TOKEN", server.url, "p",
                       env={"PLAIN_MCP_TOKEN": "tok-from-the-shell"})
        assert result.returncode == 0, result.stderr
        assert "connected p" in result.stdout
    finally:
        server.stop()


def test_disconnect_of_an_unknown_alias_fails_and_says_so(bare_daemon):
    result = _aish("mcp", "disconnect", "nosuch")
    assert result.returncode != 0
    assert "no server named 'nosuch'" in result.stderr


def test_a_hung_configured_server_does_not_delay_the_first_answer(config_file):
    import socket

    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(8)
    try:
        with StubServer() as server:
            config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n'
                        f'[mcp.servers.hung]\nurl = "http://127.0.0.1:{hung.getsockname()[1]}/mcp"\n'
                        'timeout = 30\n')
            server.queue(Reply(text="fine"))
            start = time.monotonic()
            result = _aish("ask", "hello", timeout=90)
            elapsed = time.monotonic() - start
            assert result.returncode == 0, result.stderr
            assert result.stdout.strip() == "fine"
            assert elapsed < 15, f"the first answer waited {elapsed:.1f}s for a hung server"
            assert "hung" in result.stderr and "connecting" in result.stderr
            _aish("daemon", "stop", timeout=30)
    finally:
        hung.close()
