"""Why one MCP server failed, as one line a user can act on, with the fix as its hint.

Why its own module: a server fails in many places (the handshake, a call, a session that
ends) and over two kinds of transport, and each failure arrives as the SDK's exception
groups, an HTTP status caught by aish's guard, or a process that exited.  Reading those
into one ``ToolError`` is one concern; the connection only says when it failed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from aish.errors import ToolError
from aish.mcp.exceptions import leaves as _leaves
from aish.mcp.http_transport import Guard, display_url
from aish.mcp.spec import HANDSHAKE_FLOOR, ServerSpec
from aish.mcp.stdio import StdioProcess

ENDED_WAIT = 6.0  # how long a failed call waits to hear that its server's process exited


class SessionGone(ToolError):
    """The server forgot our session (a restart, an idle time-out): initialize again."""


@dataclass
class Failures:
    """The failures of one server (``child`` for a stdio one, ``guard`` for a remote one)."""

    spec: ServerSpec
    child: Optional[StdioProcess]
    guard: Optional[Guard]
    max_bytes: int

    @property
    def shown(self) -> str:
        return self.spec.target if self.spec.kind == "stdio" else display_url(str(self.spec.url))

    @property
    def handshake(self) -> float:
        return max(self.spec.timeout, HANDSHAKE_FLOOR)

    async def of_call(self, err: MCPError, ended: Optional[anyio.Event]) -> ToolError:
        """A request that failed (``ended`` is set once the session's end was reported)."""
        failure = self.guard.failure if self.guard is not None else None
        if failure is not None and failure.session_rejected:
            return SessionGone(f"{self.spec.alias}: the server forgot our session")
        if failure is not None and failure.too_large:
            return ToolError(f"{self.spec.alias}: the server's answer was larger than "
                             f"{self.max_bytes / 1048576:g} MB; not read",
                             hint="raise mcp.max_message_mb to accept it")
        if err.error.code == types.CONNECTION_CLOSED and self.child is not None:
            if ended is not None:  # the manager hears of the exit before the caller
                with anyio.move_on_after(ENDED_WAIT):
                    await ended.wait()
            return ToolError(await self.child.exit_text(self.spec.alias))
        if err.error.code == types.CONNECTION_CLOSED:
            return ToolError(f"{self.shown}: the connection closed before the answer")
        return ToolError(f"{self.spec.alias}: {err.error.message}")

    async def of_loss(self, exc: Optional[BaseException]) -> ToolError:
        """A connected session that ended without being closed."""
        if self.child is not None:
            return ToolError(await self.child.exit_text(self.spec.alias))
        leaf = next(iter(_leaves(exc)), None) if exc is not None else None
        return ToolError(f"{self.shown}: connection lost" + (f" ({type(leaf).__name__})" if leaf else ""))

    async def of_opening(self, exc: BaseException) -> ToolError:
        """A handshake (or the first tool listing) that failed."""
        leaves = list(_leaves(exc))
        for leaf in leaves:
            if isinstance(leaf, ToolError):
                return leaf
        if self.child is not None:
            if any(isinstance(e, (TimeoutError, anyio.EndOfStream)) for e in leaves) \
                    and self.child.returncode is None and not self.child.ended.is_set():
                return ToolError(f"{self.child.name} did not answer the handshake within "
                                 f"{self.handshake:g}s",
                                 hint=f"raise [mcp.servers.{self.spec.alias}] timeout")
            return ToolError(await self.child.exit_text())
        return http_failure(leaves, self.shown, self.spec, self.guard, self.handshake)


def http_failure(leaves: list, shown: str, spec: ServerSpec, guard: Optional[Guard],
                  handshake: float) -> ToolError:
    import httpx2

    status = guard.failure.status if guard is not None else 0
    for leaf in leaves:
        if isinstance(leaf, httpx2.HTTPStatusError):
            status = status or leaf.response.status_code
    if status in (401, 403):
        hint = "check auth_token / auth_env of this server"
        if status == 401 and not spec.headers and guard is not None and guard.failure.oauth:
            return ToolError(f"{shown} needs you to sign in (OAuth)", hint=f"aish mcp login {spec.alias}")
        return ToolError(f"{shown} refused the credentials (HTTP {status})", hint=hint)
    if status == 404:
        return ToolError(f"{shown}: no MCP endpoint there (HTTP 404)", hint="check the URL's path (often /mcp or /sse)")
    if status == 405 and spec.kind == "http":
        return ToolError(f"{shown} does not take Streamable HTTP (HTTP 405)",
                         hint="an older server? set transport = \"sse\"")
    for leaf in leaves:
        if isinstance(leaf, httpx2.ConnectTimeout):
            return ToolError(f"no connection to {shown} within {handshake:g}s")
        if isinstance(leaf, httpx2.ConnectError):
            text = str(leaf).lower()
            if "name or service" in text or "nodename" in text or "resolution" in text:
                return ToolError(f"cannot resolve the host of {shown}", hint="check the URL")
            if "ssl" in text or "certificate" in text:
                return ToolError(f"TLS error with {shown}: {leaf}",
                                 hint="check the server's certificate or REQUESTS_CA_BUNDLE")
            return ToolError(f"cannot connect to {shown}", hint="is the server running?")
        if isinstance(leaf, TimeoutError):
            return ToolError(f"{shown} did not answer the handshake within {handshake:g}s",
                             hint=f"raise [mcp.servers.{spec.alias}] timeout")
    if status:
        return ToolError(f"{shown}: HTTP {status}")
    for leaf in leaves:
        if isinstance(leaf, MCPError):
            return ToolError(f"{shown}: {leaf.error.message}")
        if isinstance(leaf, RuntimeError) and "protocol version" in str(leaf):
            return ToolError(f"{shown}: {leaf}", hint="the server speaks a protocol version aish does not")
    first = leaves[0] if leaves else None
    return ToolError(f"{shown}: connection failed ({type(first).__name__ if first else 'unknown'})")
