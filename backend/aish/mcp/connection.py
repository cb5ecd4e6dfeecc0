"""One server on the MCP loop: the SDK's ``ClientSession`` over its transport, and what
aish does around it (time-outs that pause while a person answers, errors as one line,
the server's own requests routed to whoever the current call runs for).

Why a task owns the session: the SDK's transports and sessions are async context
managers built on task groups, which must be entered and left by the same task.
``open()`` starts that task and waits until the handshake and the tool listing are
done (or failed); ``close()`` asks it to leave and waits, bounded.
"""
from __future__ import annotations

import asyncio
import logging
import math
import warnings
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError

from aish.errors import AishError, ToolError
from aish.mcp import oauth, tools as tools_mod
from aish.mcp.exceptions import leaves as _leaves
from aish.mcp.asks import UserSide
from aish.mcp.remote import Guard, display_url, http_transport
from aish.mcp.spec import HANDSHAKE_FLOOR, ServerSpec
from aish.mcp.stdio import StdioProcess, stdio_transport
from aish.version import __version__

MAX_PAGES = 100  # list pages; a server whose cursors never end must not hang us
CLOSE_WAIT = 6.0


class SessionGone(ToolError):
    """The server forgot our session (a restart, an idle time-out): initialize again."""


class Budget:
    """A call's time-out clock; it stops while a person answers the server's question."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.scope = anyio.CancelScope(deadline=anyio.current_time() + seconds)
        self._paused = 0
        self._left = seconds

    def pause(self) -> None:
        if not self._paused:
            self._left = max(0.0, self.scope.deadline - anyio.current_time())
            self.scope.deadline = math.inf
        self._paused += 1

    def resume(self) -> None:
        self._paused -= 1
        if not self._paused:
            self.scope.deadline = anyio.current_time() + self._left


@dataclass
class _Call:
    side: Optional[UserSide]
    budget: Budget
    tool: str


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
        self._calls: list[_Call] = []
        self._task: Optional[asyncio.Task] = None
        self._ready: Optional[anyio.Event] = None
        self._stop: Optional[anyio.Event] = None
        self._ended_event: Optional[anyio.Event] = None  # the owner task has reported its end
        self._closing = False

    @property
    def handshake_timeout(self) -> float:
        return max(self.spec.timeout, HANDSHAKE_FLOOR)

    @property
    def shown(self) -> str:
        return self.spec.target if self.spec.kind == "stdio" else display_url(str(self.spec.url))

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
                    read, write, sampling_callback=self._sample, elicitation_callback=self._elicit,
                    list_roots_callback=self._list_roots if self.spec.roots else None,
                    logging_callback=self._log_message,
                    message_handler=self._on_message,
                    client_info=types.Implementation(name="aish", version=__version__))
                await stack.enter_async_context(session)
                with anyio.fail_after(self.handshake_timeout):
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
            self.error = await self._open_failure(exc) if exc is not None else ToolError("closed")
            self.state = "failed"
            self._ready.set()
        elif not self._closing:
            self.error = await self._lost(exc)
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
        call = _Call(side, Budget(self.spec.timeout), name)
        self._calls.append(call)
        if self.guard is not None:
            self.guard.failure.__init__()  # type: ignore[misc]
        try:
            with call.budget.scope:
                result = await session.call_tool(name, arguments, progress_callback=self._progress(call))
            if call.budget.scope.cancelled_caught:
                raise ToolError(f"{self.spec.alias}: no answer within {self.spec.timeout:g}s "
                                "(the server was told to stop)",
                                hint=f"raise [mcp.servers.{self.spec.alias}] timeout")
        except MCPError as err:
            raise await self._call_failure(err) from None
        except RuntimeError as err:  # the SDK's checks of the result (output schema, shapes)
            raise ToolError(f"{self.spec.alias}: {err}") from None
        finally:
            self._calls.remove(call)
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
            raise await self._call_failure(err) from None
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)

    def _progress(self, call: _Call) -> Any:
        async def report(progress: float, total: Optional[float], message: Optional[str]) -> None:
            if call.side is not None:
                try:
                    call.side.progress(self.spec.alias, call.tool, progress, total, message)
                except Exception:
                    self.log.exception("mcp: progress report failed")
        return report

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

    # ------------------------------------------------------------ the server's requests
    def _current(self) -> Optional[_Call]:
        return self._calls[-1] if self._calls else None

    async def _elicit(self, context: Any, params: Any) -> Any:
        call = self._current()
        if call is None or call.side is None:
            return types.ErrorData(code=types.INVALID_REQUEST,
                                   message="aish asks its user only while one of your tools runs")
        data = params.model_dump(by_alias=True, mode="json", exclude_none=True)
        call.budget.pause()
        try:
            action, content = await anyio.to_thread.run_sync(call.side.elicit, self.spec.alias, data,
                                                             abandon_on_cancel=True)
        finally:
            call.budget.resume()
        return types.ElicitResult.model_validate({"action": action,
                                                  "content": content if action == "accept" else None})

    async def _sample(self, context: Any, params: Any) -> Any:
        call = self._current()
        if call is None or call.side is None:
            return types.ErrorData(code=types.INVALID_REQUEST,
                                   message="aish samples only while one of your tools runs")
        data = params.model_dump(by_alias=True, mode="json", exclude_none=True)
        call.budget.pause()
        try:
            answer = await anyio.to_thread.run_sync(call.side.sample, self.spec.alias, data,
                                                    abandon_on_cancel=True)
        except AishError as err:
            return types.ErrorData(code=types.INVALID_REQUEST, message=err.one_line(prefix=False))
        finally:
            call.budget.resume()
        return types.CreateMessageResult.model_validate(answer)

    async def _list_roots(self, context: Any) -> Any:
        roots = [{"uri": Path(path).as_uri(), "name": Path(path).name or path} for path in self.roots()]
        return types.ListRootsResult.model_validate({"roots": roots})

    async def _log_message(self, params: Any) -> None:
        self.log.info("mcp: %s says (%s): %s", self.spec.alias, params.level, str(params.data)[:500])

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            asyncio.ensure_future(self._relist())
        elif isinstance(message, Exception):
            self.log.info("mcp: %s: %s", self.spec.alias, message)

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

    # ------------------------------------------------------------ errors as one line
    async def _call_failure(self, err: MCPError) -> ToolError:
        failure = self.guard.failure if self.guard is not None else None
        if failure is not None and failure.session_rejected:
            return SessionGone(f"{self.spec.alias}: the server forgot our session")
        if failure is not None and failure.too_large:
            return ToolError(f"{self.spec.alias}: the server's answer was larger than "
                             f"{self.max_bytes / 1048576:g} MB; not read",
                             hint="raise mcp.max_message_mb to accept it")
        if err.error.code == types.CONNECTION_CLOSED and self.child is not None:
            if self._ended_event is not None:  # the manager hears of the exit before the caller
                with anyio.move_on_after(CLOSE_WAIT):
                    await self._ended_event.wait()
            return ToolError(await self.child.exit_text(self.spec.alias))
        if err.error.code == types.CONNECTION_CLOSED:
            return ToolError(f"{self.shown}: the connection closed before the answer")
        return ToolError(f"{self.spec.alias}: {err.error.message}")

    async def _lost(self, exc: Optional[BaseException]) -> ToolError:
        if self.child is not None:
            return ToolError(await self.child.exit_text(self.spec.alias))
        leaf = next(iter(_leaves(exc)), None) if exc is not None else None
        return ToolError(f"{self.shown}: connection lost" + (f" ({type(leaf).__name__})" if leaf else ""))

    async def _open_failure(self, exc: BaseException) -> ToolError:
        leaves = list(_leaves(exc))
        for leaf in leaves:
            if isinstance(leaf, ToolError):
                return leaf
        if self.child is not None:
            if any(isinstance(e, (TimeoutError, anyio.EndOfStream)) for e in leaves) \
                    and self.child.returncode is None and not self.child.ended.is_set():
                return ToolError(f"{self.child.name} did not answer the handshake within "
                                 f"{self.handshake_timeout:g}s",
                                 hint=f"raise [mcp.servers.{self.spec.alias}] timeout")
            return ToolError(await self.child.exit_text())
        return _http_failure(leaves, self.shown, self.spec, self.guard, self.handshake_timeout)


def _http_failure(leaves: list, shown: str, spec: ServerSpec, guard: Optional[Guard],
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
