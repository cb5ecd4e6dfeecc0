"""End to end with a real MCP server (official SDK, Streamable HTTP): the model stub asks
for a tool, the user approves on `aish ask`'s terminal (a real pty), the result reaches
the model, the answer arrives.  The rest of the approval (`s`, `n`, nobody to ask,
auto-approval, Norris, run-time connects) is tests/app/test_service_mcp.py's, in process."""
from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time

import pytest

from tests import warm_aish
from tests.helpers import stop_daemon
from tests.app import test_service_mcp as in_process
from tests.stub_server import Reply


# the notes server and the model stub that uses it (fixtures), the model's script: as the
# in-process cases have them; a daemon the case started is stopped after it
notes, stub = in_process.notes, in_process.stub
tool_call_then_answer, tool_messages = in_process.tool_call_then_answer, in_process.tool_messages


@pytest.fixture(autouse=True)
def daemon_stopped():
    yield
    stop_daemon()


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


def test_tool_calls_answered_on_the_terminal_reach_the_model(stub):
    tool_call_then_answer(stub)
    screen = run_on_a_terminal(["ask", "what is on my todo note?"], b"y")
    assert 'call notes.read_note {"name": "todo"} (read-only)? [y/N/a]' in screen
    assert "Your todo says to buy milk." in screen and "echo 'buy milk'" in screen
    assert [m["content"] for m in tool_messages(stub)] == ["buy milk"]
    first = stub.requests[0]["body"]
    assert any(t["function"]["name"] == "notes__read_note" for t in first["tools"])

    # `s` typed at the question travels back as `s` (the CLI and the client pass it on): the
    # whole call is shown and the question asked again (the rest: tests/app/test_service_mcp.py)
    long_name = "todo" + "-" * 300 + "end"
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": f'{{"name": "{long_name}"}}'}]),
               Reply(text="Nothing there.\n"))
    screen = run_on_a_terminal(["ask", "read my long note"], [b"s", b"y"], prompt=b"[y/N/a/s]")
    assert screen.count("[y/N/a/s]") == 2 and "---end" in screen.replace("\r\n", ""), screen
    assert tool_messages(stub)[-1]["content"] == f"no note named {long_name}"
