"""One server on the MCP loop: the SDK's ``ClientSession`` over its transport, its life
(open, close, lost) and its requests (tools, resources, prompts) with their time-outs.
What the server asks back is ``server_requests``; why it failed, in one line, ``failures``.

Why a task owns the session: the SDK's transports and sessions are async context
managers built on task groups, which must be entered and left by the same task.
``open()`` starts that task and waits until the handshake and the tool listing are
done (or failed); ``close()`` asks it to leave and waits, bounded.
"""
from __future__ import annotations

import asyncio
import logging
import warnings
from contextlib import AsyncExitStack
from typing import Any, Callable, Optional

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError

from aish.errors import AishError, ToolError
from aish.mcp import oauth, tools as tools_mod
from aish.mcp.asks import UserSide
from aish.mcp.failures import Failures
from aish.mcp.http_transport import Guard, http_transport
from aish.mcp.server_requests import Budget, Call, ServerRequests
from aish.mcp.spec import ServerSpec
from aish.mcp.stdio import StdioProcess, stdio_transport
from aish.version import __version__

MAX_PAGES = 100  # list pages; a server whose cursors never end must not hang us
CLOSE_WAIT = 6.0


class Connection:
    """A connected (or connecting) server; every coroutine here runs on the MCP loop."""

    def __init__(self, spec: ServerSpec, *, max_bytes: int, roots: Callable[[], list],
                 on_event: Callable[["Connection", str], None], log: logging.Logger) -> None:
        self.spec = spec
        self.max_bytes = max_bytes
        self.roots = roots
        self.on_event = on_event  # (self, "tools" | "lost"), called on the loop
        self.log = log
        self.state = "connecting"  # connecting, connected, failed, lost, closed
        self.error: Optional[AishError] = None
        self.tools: list[tools_mod.McpTool] = []
        self.instructions = ""
        self.protocol_version: Optional[str] = None
        self.server_name = ""
        self.capabilities: Any = None
        self.session: Optional[ClientSession] = None
        self.child = StdioProcess(list(spec.argv)) if spec.kind == "stdio" else None
        self.guard = Guard(str(spec.url), max_bytes) if spec.kind != "stdio" else None
        self.requests = ServerRequests(spec.alias, roots, self._relist, log)
        self.failures = Failures(spec, self.child, self.guard, max_bytes)
        self._task: Optional[asyncio.Task] = None
        self._ready: Optional[anyio.Event] = None
        self._stop: Optional[anyio.Event] = None
        self._ended_event: Optional[anyio.Event] = None  # the owner task has reported its end
        self._closing = False

    # ------------------------------------------------------------ life
    async def open(self) -> None:
        """Handshake and list the tools; raises ``ToolError`` saying why it failed."""
        self._ready, self._stop, self._ended_event = anyio.Event(), anyio.Event(), anyio.Event()
        self._task = asyncio.ensure_future(self._own())
        await self._ready.wait()
        if self.error is not None:
            await self.close()
            raise self.error

    async def close(self) -> None:
        """Leave the session (DELETE / stop the process), bounded; never raises."""
        self._closing = True
        task = self._task
        if task is None or task.done():
            self.state = "closed" if self.state != "failed" else self.state
            return
        if self._stop is not None:
            self._stop.set()
        with anyio.CancelScope(shield=True):
            if self._ready is not None and self._ready.is_set():  # connected: leave politely
                with anyio.move_on_after(CLOSE_WAIT):
                    await asyncio.wait([task])
            if not task.done():  # a handshake that hangs: leave it
                task.cancel()
                with anyio.move_on_after(CLOSE_WAIT):
                    await asyncio.wait([task])
        if self.state != "failed":
            self.state = "closed"

    async def _own(self) -> None:
        assert self._ready is not None and self._stop is not None
        try:
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(self._transport())
                session = ClientSession(
                    read, write, sampling_callback=self.requests.sample,
                    elicitation_callback=self.requests.elicit,
                    list_roots_callback=self.requests.list_roots if self.spec.roots else None,
                    logging_callback=self.requests.log_message,
                    message_handler=self.requests.on_message,
                    client_info=types.Implementation(name="aish", version=__version__))
                await stack.enter_async_context(session)
                with anyio.fail_after(self.failures.handshake):
                    init = await session.initialize()
                    self.tools = await self._list_tools(session)
                self.session = session
                self.protocol_version = session.protocol_version
                self.instructions = (init.instructions or "").strip()
                self.server_name = init.server_info.name if init.server_info else ""
                self.capabilities = init.capabilities
                self.state = "connected"
                self._ready.set()
                await self._wait_for_end()
        except BaseException as exc:  # every way out is reported; a foreign cancel goes on
            with anyio.CancelScope(shield=True):
                await self._ended(exc)
            if not isinstance(exc, Exception) and not (self._closing and isinstance(exc, asyncio.CancelledError)):
                raise
        else:
            with anyio.CancelScope(shield=True):
                await self._ended(None)

    async def _ended(self, exc: Optional[BaseException]) -> None:
        assert self._ready is not None
        self.session = None
        if not self._ready.is_set():
            if exc is None or self._closing:  # cut short by us: no cause to wait for and explain
                self.error = ToolError(f"{self.spec.alias}: closed while starting" if exc else "closed")
            else:
                self.error = await self.failures.of_opening(exc)
            self.state = "failed"
            self._ready.set()
        elif not self._closing:
            self.error = await self.failures.of_loss(exc)
            self.state = "lost"
            self.on_event(self, "lost")
        if self._ended_event is not None:
            self._ended_event.set()

    def _transport(self) -> Any:
        spec = self.spec
        if spec.kind == "stdio":
            assert self.child is not None
            return stdio_transport(list(spec.argv), dict(spec.env), spec.cwd, self.max_bytes, self.child)
        assert self.guard is not None
        auth = None if spec.headers else oauth.daemon_auth(spec.alias, str(spec.url))
        return http_transport(str(spec.url), spec.kind, dict(spec.headers), spec.timeout, self.guard, auth)

    async def _wait_for_end(self) -> None:
        """Until close() or, for a stdio server, the end of its output (it exited)."""
        assert self._stop is not None
        async with anyio.create_task_group() as tg:
            async def stop_on(event: anyio.Event) -> None:
                await event.wait()
                tg.cancel_scope.cancel()

            tg.start_soon(stop_on, self._stop)
            if self.child is not None:
                tg.start_soon(stop_on, self.child.ended)

    async def check_alive(self, bound: float) -> None:
        """Ping a remote server, so that one which died since its last request is seen lost.

        Why: a stdio server's end is seen at once (its output closes), but a remote one is
        only found gone when something is sent to it; until then ``aish mcp list`` would
        say it is connected.  Any answer, even "method not found" from a server without
        ``ping``, means it is alive; a closed connection ends the session, which the
        owner task reports as lost (the manager then restarts it once, visibly).
        """
        session = self.session
        if session is None or self.state != "connected" or self.child is not None:
            return
        try:
            with anyio.move_on_after(bound):
                await session.send_ping()
            return  # an answer, or none in time (slow is not dead)
        except MCPError as err:
            if err.error.code != types.CONNECTION_CLOSED:
                return
        except Exception:  # noqa: BLE001 - the transport's own failure: the session is ending
            pass
        if self._ended_event is not None:
            with anyio.move_on_after(bound):
                await self._ended_event.wait()

    # ------------------------------------------------------------ requests
    async def _list_tools(self, session: ClientSession) -> list:
        out: list = []
        seen: set = set()
        cursor: Optional[str] = None
        for _ in range(MAX_PAGES):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            result = await session.list_tools(params=params)
            for raw in result.tools:
                tool = tools_mod.from_sdk(self.spec.alias, raw)
                if tool is not None and tool.name not in seen:
                    seen.add(tool.name)
                    out.append(tool)
            cursor = result.next_cursor
            if not cursor:
                return out
        self.log.warning("mcp: %s: tools/list still paginating after %d pages", self.spec.alias, MAX_PAGES)
        return out

    async def call_tool(self, name: str, arguments: dict, side: Optional[UserSide] = None) -> dict:
        """The raw ``CallToolResult`` as JSON; protocol errors and time-outs raise ``ToolError``."""
        session = self.session
        if session is None or self.state != "connected":
            raise self.error or ToolError(f"{self.spec.alias} is not connected",
                                          hint=f"aish mcp connect {self.spec.alias}")
        if self.guard is not None:
            self.guard.failure.__init__()  # type: ignore[misc]
        try:
            with self.requests.running(Call(side, Budget(self.spec.timeout), name)) as call, call.budget.scope:
                result = await session.call_tool(name, arguments,
                                                 progress_callback=self.requests.progress(call))
            if call.budget.scope.cancelled_caught:
                raise ToolError(f"{self.spec.alias}: no answer within {self.spec.timeout:g}s "
                                "(the server was told to stop)",
                                hint=f"raise [mcp.servers.{self.spec.alias}] timeout")
        except MCPError as err:
            raise await self.failures.of_call(err, self._ended_event) from None
        except RuntimeError as err:  # the SDK's checks of the result (output schema, shapes)
            raise ToolError(f"{self.spec.alias}: {err}") from None
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)

    async def request(self, method: str, **kwargs: Any) -> dict:
        """resources/list, resources/read, prompts/list, prompts/get: the result as JSON."""
        session = self.session
        if session is None or self.state != "connected":
            raise self.error or ToolError(f"{self.spec.alias} is not connected")
        budget = Budget(self.spec.timeout)
        try:
            with budget.scope:
                result = await getattr(session, method)(**kwargs)
            if budget.scope.cancelled_caught:
                raise ToolError(f"{self.spec.alias}: no answer within {self.spec.timeout:g}s")
        except MCPError as err:
            raise await self.failures.of_call(err, self._ended_event) from None
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)

    async def notify_roots_changed(self) -> None:
        session = self.session
        if session is None or not self._wants_roots():
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                with anyio.move_on_after(5):
                    await session.send_roots_list_changed()
            except Exception:
                self.log.info("mcp: %s: roots/list_changed not sent", self.spec.alias)

    def _wants_roots(self) -> bool:
        return self.spec.roots  # servers ask with roots/list; telling one that never asks costs nothing

    async def _relist(self) -> None:
        session = self.session
        if session is None:
            return
        try:
            with anyio.fail_after(self.spec.timeout):
                self.tools = await self._list_tools(session)
        except (MCPError, TimeoutError) as err:
            self.log.warning("mcp: %s: listing the changed tools failed: %s", self.spec.alias, err)
            return
        self.on_event(self, "tools")

