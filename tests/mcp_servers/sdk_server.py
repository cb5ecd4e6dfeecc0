"""A tool server built with the official MCP SDK, for the client tests.

    python sdk_server.py http PORT [--json] [--stateless]   Streamable HTTP on 127.0.0.1
    python sdk_server.py stdio                                stdio

``--json --stateless`` is the SDK's plain mode (JSON answers, no sessions);
without flags it answers with SSE streams and keeps sessions.
"""
from __future__ import annotations

import sys
import time

from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import ToolAnnotations

server = MCPServer("notes-test")
NOTES = {"todo": "buy milk", "ideas": "write tests first"}


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def read_note(name: str) -> str:
    """Read a note by name."""
    return NOTES[name] if name in NOTES else f"no note named {name}"


@server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def delete_note(name: str) -> str:
    """Delete a note."""
    NOTES.pop(name, None)
    return f"deleted {name}"


@server.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@server.tool()
def fail(reason: str = "broken on purpose") -> str:
    """Always fails (the result carries isError)."""
    raise ToolError(reason)


@server.tool()
def protocol_error() -> str:
    """Fails with a JSON-RPC error instead of an isError result."""
    raise MCPError(-32602, "the notes store is locked")


@server.tool()
def slow(seconds: float) -> str:
    """Sleep, then answer."""
    time.sleep(seconds)
    return f"slept {seconds}"


@server.tool()
def big(chars: int) -> str:
    """A long text result."""
    return "x" * chars


@server.tool()
def picture() -> list:
    """A text block and an image block."""
    return ["a red dot:", Image(data=b"\x89PNG" + b"\0" * 2044, format="png")]


@server.tool()
def whoami(ctx: Context) -> str:
    """The session and protocol headers this request arrived with."""
    headers = ctx.headers or {}
    return f"session={headers.get('mcp-session-id', '-')} version={headers.get('mcp-protocol-version', '-')}"


def main(argv: list[str]) -> None:
    if argv[:1] == ["stdio"]:
        server.run("stdio")
        return
    port = int(argv[1])
    server.settings.log_level = "WARNING"
    server.run("streamable-http", host="127.0.0.1", port=port,
               json_response="--json" in argv, stateless_http="--stateless" in argv)


if __name__ == "__main__":
    main(sys.argv[1:])
