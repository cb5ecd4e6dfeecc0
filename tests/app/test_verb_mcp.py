"""``aish mcp ...`` verbs: output formats over a real manager, and through the daemon's
Service (here, with the other cases that load the MCP SDK: one worker imports it)."""
from __future__ import annotations

import pytest

from aish.app.verbs.context import VerbContext
from aish.app.verbs import mcp as verbs
from aish.config.schema import Config, McpConfig, McpServerConfig
from aish.errors import AishError
from aish.mcp.manager import McpManager
from tests.helpers import closed_port_url
from tests.mcp_servers import free_port, stdio_argv
from tests.mcp_servers.plain_json_server import PlainServer


@pytest.fixture(scope="module")
def plain():
    server = PlainServer(names=("fs.read",))
    yield server
    server.stop()


@pytest.fixture
def ctx(plain):
    dead = f"http://127.0.0.1:{free_port()}/mcp"
    cfg = McpConfig(servers={"dead": McpServerConfig(alias="dead", url=dead, timeout=1)})
    manager = McpManager(cfg)
    manager.connect_configured()
    yield VerbContext(config=Config(mcp=cfg), overrides={}, mcp=manager)
    manager.close_all()


def test_empty_list_and_tools():
    c = VerbContext(config=Config(), overrides={}, mcp=McpManager(McpConfig()))
    assert verbs.run(["list"], c)[0].startswith("[aish] no MCP servers")
    assert verbs.run(["tools"], c)[0].startswith("[aish] no MCP tools")


def test_connect_list_tools_tool_disconnect(ctx, plain):
    assert verbs.run(["connect", plain.url, "plain"], ctx) == ["[aish] mcp: connected plain (4 tools)"]
    lines = verbs.run(["list"], ctx)
    assert lines[0].startswith("dead   http   http://127.0.0.1:") and "failed: cannot connect" in lines[0]
    assert lines[1] == f"plain  http   {plain.url}  4 tools, connected (MCP 2025-03-26)"
    tools = verbs.run(["tools"], ctx)
    assert tools == ["plain.echo — Echo the text back.", "plain.fail — Fails with isError.",
                     "plain.fs.read (read-only) — Tool fs.read.", "plain.sleep — Sleep, then answer."]
    detail = verbs.run(["tool", "plain.fs.read"], ctx)
    assert detail[0].startswith("plain.fs.read  (on the wire: plain__fs_read_")
    assert "input schema:" in detail and '  "type": "object"' in detail
    assert any("untrusted" in line for line in detail)
    assert verbs.run(["disconnect", "plain"], ctx) == ["[aish] mcp: disconnected plain"]


def test_connect_stdio(ctx):
    line = verbs.run(["connect", "--stdio", "notes", "--", *stdio_argv()], ctx)
    assert line[0].startswith("[aish] mcp: connected notes (")
    assert any(t.startswith("notes.read_note (read-only)") for t in verbs.run(["tools"], ctx))


def test_retry_configured_alias(ctx):
    """A failed connect is an error (the command exits non-zero), naming the retry."""
    with pytest.raises(AishError) as info:
        verbs.run(["connect", "dead"], ctx)
    line = str(info.value)
    assert line.startswith("mcp: dead: cannot connect") and line.endswith("aish mcp connect dead")


def test_usage_errors(ctx):
    for argv in (["tool"], ["disconnect"], ["frobnicate"], ["connect"], ["connect", "--stdio", "x"],
                 ["tool", "nope.nothing"]):
        with pytest.raises(AishError):
            verbs.run(argv, ctx)


def test_mcp_connect_to_a_dead_server_exits_non_zero(stub, service):
    result = service.verb("mcp", "connect", f"{closed_port_url()}/mcp", "dead")
    assert result.returncode == 1 and "dead" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
