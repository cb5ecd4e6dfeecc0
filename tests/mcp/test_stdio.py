"""stdio transport against the official SDK server run as a child process."""
from __future__ import annotations

import sys
import threading
import time

import pytest

from aish.ipc.cancel import CancelToken
from aish.errors import Cancelled, ToolError
from aish.mcp.session import McpSession
from aish.mcp.stdio import StdioTransport
from tests.mcp_servers import stdio_argv


@pytest.fixture(scope="module")
def session():
    s = McpSession("notes", StdioTransport(stdio_argv()), timeout=10).open()
    yield s
    s.close()


def _text(result: dict) -> str:
    return "".join(b.get("text", "") for b in result.get("content", []))


def test_handshake_and_tools(session):
    assert session.protocol_version == "2025-11-25"
    assert session.server_info.get("name") == "notes-test"
    names = {t.name for t in session.tools}
    assert {"read_note", "delete_note", "echo", "slow"} <= names
    read = next(t for t in session.tools if t.name == "read_note")
    assert read.read_only and read.user_name == "notes.read_note"


def test_call_and_is_error(session):
    assert _text(session.call_tool("read_note", {"name": "ideas"})) == "write tests first"
    result = session.call_tool("fail", {"reason": "quota"})
    assert result["isError"] is True and "quota" in _text(result)


def test_concurrent_calls_get_their_own_answers(session):
    out: dict = {}

    def call(i: int) -> None:
        out[i] = _text(session.call_tool("echo", {"text": f"n{i}"}))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert out == {i: f"n{i}" for i in range(6)}


def test_cancel_returns_at_once(session):
    token = CancelToken()
    threading.Timer(0.2, token.cancel).start()
    start = time.monotonic()
    with pytest.raises(Cancelled):
        session.call_tool("slow", {"seconds": 1}, cancel=token)
    assert time.monotonic() - start < 0.9


def test_timeout(session):
    session.timeout = 0.3
    try:
        with pytest.raises(ToolError) as info:
            session.call_tool("slow", {"seconds": 1})
        assert "did not answer tools/call within 0.3s" in str(info.value)
    finally:
        session.timeout = 10


def test_close_ends_the_process():
    transport = StdioTransport(stdio_argv())
    McpSession("x", transport, timeout=10).open()
    assert transport.alive
    transport.close()
    assert not transport.alive


def test_command_not_found():
    with pytest.raises(ToolError) as info:
        StdioTransport(["aish-no-such-mcp-server-xyz"])
    assert "command not found: aish-no-such-mcp-server-xyz" in str(info.value)


def test_server_that_dies_reports_its_last_stderr_line():
    argv = [sys.executable, "-c", "import sys; sys.stderr.write('missing API key FOO\\n'); sys.exit(3)"]
    with pytest.raises(ToolError) as info:
        McpSession("dead", StdioTransport(argv), timeout=5).open()
    assert "exited" in str(info.value) and "missing API key FOO" in str(info.value)
