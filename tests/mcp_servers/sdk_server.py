"""A tool server built with the official MCP SDK, for the client tests.

    python sdk_server.py http PORT [--json] [--stateless]   Streamable HTTP on 127.0.0.1
    python sdk_server.py stdio                                stdio
    python sdk_server.py sse PORT                             legacy HTTP+SSE (GET /sse, POST /messages/)

``--json --stateless`` is the SDK's plain mode (JSON answers, no sessions);
without flags it answers with SSE streams and keeps sessions.
"""
from __future__ import annotations

import json
import os
import sys
import time

import anyio
from pydantic import BaseModel

from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import SamplingMessage, TextContent, ToolAnnotations

server = MCPServer("notes-test", instructions="Notes are short; read one before changing it.")
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


@server.tool()
def big_mb(mb: float) -> str:
    """A text result of this many megabytes."""
    return "x" * int(mb * 1024 * 1024)


@server.tool()
def env_and_cwd() -> str:
    """The server's working directory and environment (what the client gave it)."""
    return json.dumps({"cwd": os.getcwd(), "env": dict(os.environ), "argv": sys.argv})


@server.tool()
async def wait_for_cancel(seconds: float, marker: str, ctx: Context, every: float = 0.1,
                          pause: float = 0.0) -> str:
    """Keep the request alive with progress every ``every`` s; write 'cancelled' to marker when
    cancelled (``pause``: seconds between making the file and writing it, a slow host)."""
    try:
        steps = round(seconds / every)
        for step in range(steps):
            await ctx.report_progress(step, steps, "waiting")
            await anyio.sleep(every)
        return "waited"
    except anyio.get_cancelled_exc_class():
        with open(marker + ".part", "w") as out:  # renamed whole: a test waiting for the file
            time.sleep(pause)                     # reads it whole (it read it empty, once)
            out.write("cancelled")
        os.replace(marker + ".part", marker)
        raise


@server.tool()
def exit_now(code: int = 3) -> str:
    """The server process exits at once (a crash)."""
    sys.stderr.write(f"exiting with {code} on request\n")
    sys.stderr.flush()
    os._exit(code)


class Confirm(BaseModel):
    name: str
    count: int
    ok: bool


@server.tool()
async def ask_user(ctx: Context) -> str:
    """Ask the user a form (a string, an integer, a boolean) while the tool runs."""
    result = await ctx.elicit("Which note, how many copies?", Confirm)
    if result.action == "accept" and result.data is not None:
        return f"accepted {result.data.name} x{result.data.count} ok={result.data.ok}"
    return result.action


@server.tool()
async def summarize_with_model(text: str, ctx: Context) -> str:
    """Ask the client's model for a completion (sampling)."""
    answer = await ctx.session.create_message(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Summarize: {text}"))],
        max_tokens=64, related_request_id=ctx.request_id)
    return f"model {answer.model} said: {answer.content.text}"


@server.tool()
async def my_roots(ctx: Context) -> str:
    """The roots the client gives this server."""
    listed = await ctx.session.list_roots()
    return " ".join(str(root.uri) for root in listed.roots)


@server.tool()
async def add_tool(name: str, ctx: Context) -> str:
    """Register a new tool and tell the client the list changed."""
    def extra() -> str:
        return f"I am {name}"

    server.add_tool(extra, name=name, description=f"Added at run time: {name}")
    await ctx.session.send_tool_list_changed()
    return f"added {name}"


@server.resource("notes://todo", name="todo", description="The todo note")
def todo_resource() -> str:
    return NOTES.get("todo", "")


@server.prompt(description="Review a note")
def review(name: str) -> str:
    return f"Please review the note named {name}: {NOTES.get(name, '?')}"


def main(argv: list[str]) -> None:
    if argv[:1] == ["stdio"]:
        server.run("stdio")
        return
    port = int(argv[1])
    server.settings.log_level = "WARNING"
    if argv[0] == "sse":
        server.run("sse", host="127.0.0.1", port=port)
        return
    server.run("streamable-http", host="127.0.0.1", port=port,
               json_response="--json" in argv, stateless_http="--stateless" in argv)


if __name__ == "__main__":
    main(sys.argv[1:])
