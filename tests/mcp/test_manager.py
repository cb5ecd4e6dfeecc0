"""The manager: configured servers in parallel (best effort), runtime connects,
retries, disconnects, and the tools field with wire-safe names."""
from __future__ import annotations

import pytest

from aish.config.schema import McpConfig, McpServerConfig
from aish.mcp import names
from aish.mcp.manager import McpManager
from tests.mcp_servers import free_port, stdio_argv
from tests.mcp_servers.plain_json_server import PlainServer


@pytest.fixture(scope="module")
def plain():
    server = PlainServer(token="tok-123", names=("fs.read.file", "x" * 70))
    yield server
    server.stop()


def test_configured_servers_connect_failures_reported_once_and_retried(plain, monkeypatch):
    monkeypatch.delenv("PLAIN_TOKEN", raising=False)
    dead = f"http://127.0.0.1:{free_port()}/mcp"
    cfg = McpConfig(servers={
        "plain": McpServerConfig(alias="plain", url=plain.url, auth_env="PLAIN_TOKEN"),
        "dead": McpServerConfig(alias="dead", url=dead, timeout=2),
        "lit": McpServerConfig(alias="lit", url=plain.url, auth_token="tok-123"),
        "notes": McpServerConfig(alias="notes", command=stdio_argv()),
    })
    manager = McpManager(cfg)
    try:
        failures = manager.connect_configured()
        assert len(failures) == 2
        assert f"mcp: dead: cannot connect to {dead} (is the server running?); " \
               "retry: aish mcp connect dead" in failures  # the hint formatted as everywhere
        assert any(line.startswith("mcp: plain:") and "HTTP 401" in line for line in failures)
        assert manager.connect_configured() == [], "failures are reported once"
        states = {s.alias: s.state for s in manager.servers()}
        assert states == {"dead": "failed", "lit": "connected", "notes": "connected", "plain": "failed"}

        monkeypatch.setenv("PLAIN_TOKEN", "tok-123")
        assert manager.connect("plain") == "mcp: connected plain (5 tools)"
        assert {s.alias: s.state for s in manager.servers()}["plain"] == "connected"
        assert manager.resolve("notes__read_note").user_name == "notes.read_note"
    finally:
        manager.close_all()
    assert not manager.has_tools() and manager.openai_tools() == []


def test_runtime_connect_disconnect_and_tools_field(plain):
    manager = McpManager(McpConfig())
    try:
        assert not manager.has_tools() and manager.openai_tools() == []
        line = manager.connect(plain.url, "p")  # no token given
        assert line.startswith("mcp: p: ") and "HTTP 401" in line and line.endswith("aish mcp connect p")
        assert "neither a URL" in manager.connect("nothing")
        assert manager.servers() == [], "a run-time connection that never worked is not listed"
    finally:
        manager.close_all()


def test_tools_field_names_map_both_ways(plain, monkeypatch):
    monkeypatch.setenv("PLAIN_TOKEN", "tok-123")
    manager = McpManager(McpConfig())
    try:
        assert manager.connect(plain.url, "p", auth_env="PLAIN_TOKEN") == "mcp: connected p (5 tools)"
        tools = manager.openai_tools()
        wire = [t["function"]["name"] for t in tools]
        assert all(names.is_valid(w) for w in wire) and len(set(wire)) == 5
        assert "p__echo" in wire
        for entry in tools:
            tool = manager.resolve(entry["function"]["name"])
            assert manager.wire_name(tool.user_name) == entry["function"]["name"]
            assert entry["function"]["parameters"]["type"] == "object"
        assert manager.resolve("p.fs.read.file").name == "fs.read.file"
        assert manager.resolve("p.echo").name == "echo"
        assert manager.resolve("nope__x") is None
    finally:
        manager.close_all()


def test_alias_conflict_and_disconnect(plain):
    manager = McpManager(McpConfig(servers={}))
    try:
        other = PlainServer()
        try:
            assert manager.connect(other.url, "a").startswith("mcp: connected a")
            line = manager.connect(plain.url, "a")
            assert "already connected" in line
            assert manager.connect(other.url, "a").startswith("mcp: connected a"), "same target reconnects"
            assert manager.disconnect("a") == "mcp: disconnected a"
            assert other.methods().count("initialize") == 2
            assert "no server named 'a'" in manager.disconnect("a")
        finally:
            other.stop()
    finally:
        manager.close_all()


def test_default_alias_is_a_url_hash_and_dotted_alias_refused(plain):
    manager = McpManager(McpConfig())
    try:
        other = PlainServer()
        try:
            line = manager.connect(other.url)
            assert line.startswith("mcp: connected mcp_") and "(3 tools)" in line
            assert "not usable" in manager.connect(other.url, "a.b")
        finally:
            other.stop()
    finally:
        manager.close_all()


def test_stdio_runtime_connect():
    manager = McpManager(McpConfig())
    try:
        line = manager.connect(stdio_argv(), "notes")
        assert line.startswith("mcp: connected notes (")
        status = manager.servers()[0]
        assert status.kind == "stdio" and status.state == "connected"
    finally:
        manager.close_all()


def test_a_token_on_a_stdio_command_line_is_masked_in_the_listing():
    manager = McpManager(McpConfig())
    try:
        manager.connect(stdio_argv() + ["--token", "tok_a1b2c3d4e5f6g7h8"], "notes")
        status = manager.servers()[0]
        assert "tok_a1b2c3d4e5f6g7h8" not in status.target and "--token ***" in status.target
    finally:
        manager.close_all()


def test_the_documented_config_example_loads():
    import re
    from pathlib import Path

    from aish.config.load import from_dict, tomllib  # tomllib, or tomli on 3.10

    doc = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text()
    block = re.search(r"```toml\n(.*?)```", doc, re.S).group(1)
    cfg = from_dict(tomllib.loads(block))
    assert set(cfg.mcp.servers) == {"notes", "wiki", "files"}
    assert cfg.mcp.servers["files"].command[0] == "files-mcp-server" and cfg.mcp.servers["files"].trusted
    assert cfg.mcp.auto_approve == ["notes.read_note", "wiki.*"]
