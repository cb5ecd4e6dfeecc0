"""The SDK's callbacks of one session: what its server asks of aish, routed to the call in
progress, with that call's clock stopped while a person answers.

Why its own module: a server asks (a question for the user, a model completion, its
roots) on the session's task, not on the thread of the tool call it belongs to, so each
request is matched to the innermost call running on that session (the last ``running``) and
handed to that call's ``UserSide`` (``asks``) on a worker thread.  The connection owns the
session; this is everything the session calls back.
"""
from __future__ import annotations

import asyncio
import logging
import math
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Coroutine, Iterator, Optional

import anyio
import mcp_types as types

from aish.errors import AishError
from aish.mcp.asks import UserSide


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
class Call:
    side: Optional[UserSide]
    budget: Budget
    tool: str


class ServerRequests:
    """The callbacks handed to one ``ClientSession`` (``alias`` names its server)."""

    def __init__(self, alias: str, roots: Callable[[], list], relist: Callable[[], Coroutine[Any, Any, None]],
                 log: logging.Logger) -> None:
        self.alias = alias
        self.roots = roots  # the directories servers may work in, read at each request
        self.relist = relist  # the server said its tools changed: list them again
        self.log = log
        self._calls: list[Call] = []

    @contextmanager
    def running(self, call: Call) -> Iterator[Call]:
        """``call`` is in progress: the server's requests meanwhile are its own."""
        self._calls.append(call)
        try:
            yield call
        finally:
            self._calls.remove(call)

    def progress(self, call: Call) -> Any:
        async def report(progress: float, total: Optional[float], message: Optional[str]) -> None:
            if call.side is not None:
                try:
                    call.side.progress(self.alias, call.tool, progress, total, message)
                except Exception:
                    self.log.exception("mcp: progress report failed")
        return report

    def _current(self) -> Optional[Call]:
        return self._calls[-1] if self._calls else None

    async def _on_user_side(self, call: Call, answer: Callable[[str, dict], Any], params: Any) -> Any:
        """``answer`` (the call's side: a question, a completion) on a worker thread, the
        call's clock stopped meanwhile."""
        data = params.model_dump(by_alias=True, mode="json", exclude_none=True)
        call.budget.pause()
        try:
            return await anyio.to_thread.run_sync(answer, self.alias, data, abandon_on_cancel=True)
        finally:
            call.budget.resume()

    async def elicit(self, context: Any, params: Any) -> Any:
        call = self._current()
        if call is None or call.side is None:
            return types.ErrorData(code=types.INVALID_REQUEST,
                                   message="aish asks its user only while one of your tools runs")
        action, content = await self._on_user_side(call, call.side.elicit, params)
        return types.ElicitResult.model_validate({"action": action,
                                                  "content": content if action == "accept" else None})

    async def sample(self, context: Any, params: Any) -> Any:
        call = self._current()
        if call is None or call.side is None:
            return types.ErrorData(code=types.INVALID_REQUEST,
                                   message="aish samples only while one of your tools runs")
        try:
            answer = await self._on_user_side(call, call.side.sample, params)
        except AishError as err:
            return types.ErrorData(code=types.INVALID_REQUEST, message=err.one_line(prefix=False))
        return types.CreateMessageResult.model_validate(answer)

    async def list_roots(self, context: Any) -> Any:
        roots = [{"uri": Path(path).as_uri(), "name": Path(path).name or path} for path in self.roots()]
        return types.ListRootsResult.model_validate({"roots": roots})

    async def log_message(self, params: Any) -> None:
        self.log.info("mcp: %s says (%s): %s", self.alias, params.level, str(params.data)[:500])

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            asyncio.ensure_future(self.relist())
        elif isinstance(message, Exception):
            self.log.info("mcp: %s: %s", self.alias, message)
