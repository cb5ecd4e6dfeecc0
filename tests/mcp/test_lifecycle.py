"""What happens to connected servers over the daemon's life: config edits reach them,
a hung server never holds a question up, failures are listed only while they mean something."""
from __future__ import annotations

import copy
import json
import socket
import sys
import threading
import time

import pytest

from aish.config.schema import McpConfig, McpServerConfig
from aish.llm.events import ToolCall
from aish.mcp import bridge, results
from aish.mcp.manager import McpManager
from tests.doubles import RecordingReply
from tests.mcp_servers import stdio_argv


def _cfg(**servers) -> McpConfig:
    return McpConfig(servers={alias: McpServerConfig(alias=alias, **kw) for alias, kw in servers.items()})


def _run(manager, name, arguments, cfg, answers=()):
    reply = RecordingReply(answers=list(answers))
    call = ToolCall(id="c1", name=manager.wire_name(name) or name, arguments=json.dumps(arguments))
    return bridge.run_tool_call(call, manager, reply, cfg, set()), reply


@pytest.fixture
def manager():
    made = McpManager(_cfg(notes=dict(command=stdio_argv(), trusted=True, env={"NOTES_MODE": "one"})))
    made.cfg.auto_approve_read_only_trusted = True
    assert made.connect_configured() == []
    yield made
    made.close_all()


def test_removing_trusted_from_the_config_takes_effect_at_once(manager):
    outcome, reply = _run(manager, "notes.read_note", {"name": "todo"}, manager.cfg)
    assert reply.questions == [] and outcome.content == "buy milk"
    edited = copy.deepcopy(manager.cfg)
    edited.servers["notes"].trusted = False
    manager.update_config(edited)
    outcome, reply = _run(manager, "notes.read_note", {"name": "todo"}, edited)
    assert len(reply.questions) == 1 and outcome.denied


def test_a_deleted_server_is_disconnected_and_its_tools_withdrawn(manager):
    assert manager.resolve("notes.echo") is not None
    manager.update_config(McpConfig())
    assert manager.settle(10)
    assert manager.resolve("notes.echo") is None and not manager.has_tools()
    assert manager.servers() == []


def test_a_changed_command_or_env_restarts_the_server(manager):
    edited = copy.deepcopy(manager.cfg)
    edited.servers["notes"].env = {"NOTES_MODE": "two"}
    manager.update_config(edited)
    assert manager.settle(20)
    seen = json.loads(results.result_text(manager.call(manager.resolve("notes.env_and_cwd"), {})))
    assert seen["env"]["NOTES_MODE"] == "two"


def test_a_hung_server_does_not_hold_up_the_others_or_a_question():
    """A server that accepts the connection and never answers: start() returns at once,
    the others' tools are there, and it stays 'connecting' until its time-out."""
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(8)
    try:
        url = f"http://127.0.0.1:{hung.getsockname()[1]}/mcp"
        manager = McpManager(_cfg(hung=dict(url=url, timeout=30), notes=dict(command=stdio_argv())))
        try:
            start = time.monotonic()
            manager.start()
            assert time.monotonic() - start < 0.5
            assert not manager.settle(0.2) or manager.resolve("notes.echo") is not None
            deadline = time.monotonic() + 15
            while manager.resolve("notes.echo") is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert manager.resolve("notes.echo") is not None
            states = {s.alias: s.state for s in manager.servers()}
            assert states == {"hung": "connecting", "notes": "connected"}
        finally:
            start = time.monotonic()
            manager.close_all()
            assert time.monotonic() - start < 5, "closing waits for no hung handshake"
    finally:
        hung.close()


def test_a_failed_runtime_connection_is_not_listed_and_disconnect_of_nothing_says_so():
    manager = McpManager(McpConfig())
    line = manager.connect(["aish-no-such-mcp-server-xyz"], "nope")
    assert "command not found" in line
    assert manager.servers() == []
    assert "no server named 'nope'" in manager.disconnect("nope")


def test_tool_filters_apply_at_once_and_too_many_tools_are_said_once():
    from tests.mcp_servers.plain_json_server import PlainServer

    server = PlainServer(extra_tools=130)
    try:
        manager = McpManager(_cfg(big=dict(url=server.url)))
        try:
            notices = manager.connect_configured()
            assert len(manager.tools()) == 133
            assert any("133 tools are offered" in line and "128" in line and "disabled_tools" in line
                       for line in notices), notices
            edited = copy.deepcopy(manager.cfg)
            edited.servers["big"].disabled_tools = ["tool_*"]
            manager.update_config(edited)
            assert [t.name for t in manager.tools()] == ["echo", "fail", "sleep"]
            edited = copy.deepcopy(edited)
            edited.servers["big"].disabled_tools = []
            edited.servers["big"].enabled_tools = ["tool_00*", "echo"]
            manager.update_config(edited)
            assert len(manager.tools()) == 11 and manager.resolve("big.sleep") is None
            assert manager.notices() == [], "the warning is said once per crossing, and no restart"
        finally:
            manager.close_all()
    finally:
        server.stop()


def test_connect_wait_zero_never_waits_not_even_for_the_sdks_import():
    """``connect_wait = 0``: a question goes on at once while the MCP loop is still busy
    (here blocked until the question has gone on, as the SDK's import blocks it on a cold
    daemon)."""
    from aish.mcp import loop

    release = threading.Event()
    blocked = loop.submit(_block_the_loop(release))
    made = McpManager(_cfg(notes=dict(command=stdio_argv())))
    try:
        made.start()
        start = time.monotonic()
        late = made.wait_for_question(0)
        assert time.monotonic() - start < 1.0 and late == ["notes"]
        assert not blocked.done(), "the loop was still blocked while the question went on"
    finally:
        release.set()
        blocked.result(10)
        made.close_all()


def test_closing_during_a_stdio_servers_start_is_prompt(monkeypatch):
    """The daemon stops (or the config changes) while a server is still starting: closing
    does not wait a second for an exit status to explain a start that was cut short.  Watched,
    not timed: a server that never answers the handshake, closed once its process runs (timed,
    the case failed under load, and passed without reaching the start it is about)."""
    from aish.mcp.connection import CLOSE_WAIT
    from aish.mcp.stdio import StdioProcess

    explained: list = []
    real_exit_text = StdioProcess.exit_text

    async def exit_text(self, *args, **kwargs):
        explained.append(self.name)
        return await real_exit_text(self, *args, **kwargs)

    monkeypatch.setattr(StdioProcess, "exit_text", exit_text)
    silent = [sys.executable, "-c", "import sys; sys.stdin.read()"]  # never answers the handshake
    made = McpManager(_cfg(notes=dict(command=silent)))
    try:
        made.start()
        deadline = time.monotonic() + 60
        while not _started(made, "notes"):
            assert time.monotonic() < deadline, "the server's process never started"
            time.sleep(0.01)
    finally:
        start = time.monotonic()
        made.close_all()
        took = time.monotonic() - start
    assert explained == [], "closing waited for the exit status of a start it cut short"
    assert took < CLOSE_WAIT, f"closing took {took:.2f}s"  # (no close ran out its bound)
    assert made.servers() == [] and made.resolve("notes.echo") is None


def _started(manager: McpManager, alias: str) -> bool:
    entry = manager._entries.get(alias)
    conn = entry.conn if entry is not None else None
    return conn is not None and conn.child is not None and conn.child.process is not None


async def _block_the_loop(release: threading.Event) -> None:
    release.wait(10)  # a synchronous import holds the loop's thread just so
