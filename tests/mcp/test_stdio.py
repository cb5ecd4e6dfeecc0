"""stdio servers through the manager, against the official SDK server run as a child process:
big results, the byte cap, the environment and working directory a server gets, crashes."""
from __future__ import annotations

import json
import os
import shlex
import stat
import sys

import pytest

from aish.config.schema import McpConfig, McpServerConfig
from aish.errors import ToolError
from aish.mcp import results
from aish.mcp.manager import McpManager
from tests.mcp_servers import SDK_SERVER, server_argv, stdio_argv


def call(manager, name, arguments=None):
    tool = manager.resolve(name)
    assert tool is not None, f"{name} not offered: {[t.user_name for t in manager.tools()]}"
    return results.result_text(manager.call(tool, arguments or {}))


@pytest.fixture
def open_manager():
    made = []

    def make(servers: dict, **mcp) -> McpManager:
        cfg = McpConfig(servers={alias: McpServerConfig(alias=alias, **kw) for alias, kw in servers.items()})
        for key, value in mcp.items():
            setattr(cfg, key, value)
        manager = McpManager(cfg)
        made.append(manager)
        assert manager.connect_configured() == []
        return manager

    yield make
    for manager in made:
        manager.close_all()


def test_a_big_result_is_read_in_linear_time(open_manager):
    """8 MB (a 16 MB message: the SDK's server sends the text twice, as content and as
    structured content) arrive within a 10 s time-out: about 0.7 s here when the machine is
    idle, where one byte per read took ~0.75 s a megabyte of message, ~12 s (the SDK's own reader,
    quadratic, 12 s for 20 MB, ~2 s).  The size and the time-out are a third of what they
    were (24 MB in 30 s): the same margins, a third of the CPU."""
    manager = open_manager({"notes": {"command": stdio_argv(), "timeout": 10}}, max_message_mb=64)
    assert len(call(manager, "notes.big_mb", {"mb": 8})) == 8 * 1024 * 1024


def test_a_result_over_the_byte_cap_is_refused_without_reading_it_whole(open_manager):
    manager = open_manager({"notes": {"command": stdio_argv(), "timeout": 20}}, max_message_mb=1)
    with pytest.raises(ToolError) as info:
        call(manager, "notes.big_mb", {"mb": 3})
    assert "larger than 1 MB" in str(info.value) and "max_message_mb" in str(info.value)
    assert call(manager, "notes.echo", {"text": "still here"}) == "still here"


def test_a_stdio_server_gets_a_safe_environment_plus_its_own_env_and_cwd(open_manager, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-daemon-only-secret")
    monkeypatch.setenv("AISH_SOMETHING", "daemon-internal")
    manager = open_manager({"notes": {"command": stdio_argv(), "env": {"NOTES_DIR": "/srv/notes"}}})
    manager.cfg.servers["notes"].cwd = str(tmp_path)
    manager.close_all()
    assert manager.connect("notes").startswith("mcp: connected notes")
    seen = json.loads(call(manager, "notes.env_and_cwd"))
    assert "OPENAI_API_KEY" not in seen["env"] and "AISH_SOMETHING" not in seen["env"]
    assert seen["env"]["NOTES_DIR"] == "/srv/notes" and seen["env"]["PATH"] == os.environ["PATH"]
    assert os.path.realpath(seen["cwd"]) == os.path.realpath(tmp_path)


def test_tilde_in_a_configured_command_is_the_home_directory(open_manager, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "bin").mkdir()
    script = tmp_path / "bin" / "notes-server"
    script.write_text(f"#!/bin/sh\nexec {shlex.join(server_argv(SDK_SERVER))} \"$@\"\n")  # forked: quick
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    manager = open_manager({"notes": {"command": ["~/bin/notes-server", "stdio", "--root", "~/notes"],
                                      "cwd": "~"}})
    seen = json.loads(call(manager, "notes.env_and_cwd"))
    assert seen["argv"][-1] == str(tmp_path / "notes")
    assert os.path.realpath(seen["cwd"]) == os.path.realpath(tmp_path)


def test_a_crashed_server_is_restarted_once_visibly_then_marked_dead(open_manager):
    manager = open_manager({"notes": {"command": stdio_argv(), "timeout": 10}})
    with pytest.raises(ToolError):
        call(manager, "notes.exit_now", {"code": 3})
    assert manager.settle(20)
    notices = manager.notices()
    assert any("notes exited (status 3" in line and "restarted" in line for line in notices), notices
    assert {s.alias: s.state for s in manager.servers()} == {"notes": "connected"}
    assert call(manager, "notes.echo", {"text": "back"}) == "back"

    with pytest.raises(ToolError):
        call(manager, "notes.exit_now", {"code": 4})
    assert manager.settle(20)
    status = manager.servers()[0]
    assert status.state == "failed" and "exited" in status.error
    assert manager.resolve("notes.echo") is None and not manager.has_tools()
    assert any("aish mcp connect notes" in line for line in manager.notices())
    assert manager.connect("notes").startswith("mcp: connected notes")


def test_a_dead_runtime_server_can_be_retried_by_its_alias():
    manager = McpManager(McpConfig())
    try:
        assert manager.connect(stdio_argv(), "scratch").startswith("mcp: connected scratch")
        manager.close_all()
        assert manager.connect("scratch").startswith("mcp: connected scratch")
        assert call(manager, "scratch.echo", {"text": "again"}) == "again"
    finally:
        manager.close_all()


def test_command_not_found_and_a_server_dying_at_start_say_why(open_manager):
    manager = McpManager(McpConfig())
    try:
        line = manager.connect(["aish-no-such-mcp-server-xyz"], "nope")
        assert "command not found: aish-no-such-mcp-server-xyz" in line
        argv = [sys.executable, "-c", "import sys; sys.stderr.write('missing API key FOO\\n'); sys.exit(3)"]
        line = manager.connect(argv, "dies")
        assert "exited" in line and "missing API key FOO" in line
        assert manager.servers() == [], "a runtime connection that never worked is not listed"
    finally:
        manager.close_all()


def test_a_server_killed_by_a_signal_is_said_so():
    """`exited (status -9)` read like an exit code; the line names the signal."""
    import anyio
    from types import SimpleNamespace

    from aish.mcp.stdio import StdioProcess

    child = StdioProcess(["/usr/bin/notes-server"], process=SimpleNamespace(returncode=-9))
    child.stderr.append("Starting default (STDIO) server...")
    text = anyio.run(child.exit_text, "notes")
    assert text == "notes was killed (SIGKILL): Starting default (STDIO) server...", text
