"""An agent, as the tests drive one: the official MCP SDK's ``ClientSession`` over its
``stdio_client``, spawning ``aish mcp-server`` the way Claude Code or Codex would.

The session lives in a thread with its own event loop, so a test can call a tool and wait
(``call``), start one and do something in the shell meanwhile (``start``, then
``result``), or withdraw one (``withdraw``: the task is cancelled, and the SDK sends
``notifications/cancelled``, as an agent does when its user interrupts it).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import os
import sys
import threading
from typing import Any, Optional

NAME = "test-agent"


class AgentClient:
    def __init__(self, env: Optional[dict] = None, name: str = NAME) -> None:
        self.env = dict(env or os.environ)
        self.name = name
        self.progress: list[str] = []  # the progress messages the server sent
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._session: Any = None
        self._ready = threading.Event()
        self._stop: Optional[asyncio.Event] = None
        self._error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._run, name="agent", daemon=True)

    def __enter__(self) -> "AgentClient":
        self._thread.start()
        if not self._ready.wait(60) or self._error is not None:
            raise AssertionError(f"the MCP session did not start: {self._error!r}")
        return self

    def __exit__(self, *exc) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as err:  # reported by __enter__ or the next call
            self._error = err
            self._ready.set()

    async def _main(self) -> None:
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp_types import Implementation

        params = StdioServerParameters(command=sys.executable, args=["-m", "aish", "mcp-server"],
                                       env=self.env)
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, client_info=Implementation(name=self.name, version="1")) as session:
                await session.initialize()
                self._session = session
                self._ready.set()
                await self._stop.wait()

    # ------------------------------------------------------------ tools
    async def _call(self, name: str, arguments: dict) -> Any:
        async def progress(value: float, total: Optional[float], message: Optional[str]) -> None:
            if message:
                self.progress.append(message)

        return await self._session.call_tool(name, arguments, progress_callback=progress)

    def start(self, name: str, **arguments: Any) -> concurrent.futures.Future:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(self._call(name, arguments), self._loop)

    def call(self, name: str, timeout: float = 60.0, **arguments: Any) -> Any:
        return self.start(name, **arguments).result(timeout)

    def tools(self) -> list[str]:
        assert self._loop is not None
        listed = asyncio.run_coroutine_threadsafe(self._session.list_tools(), self._loop).result(30)
        return [tool.name for tool in listed.tools]

    @staticmethod
    def withdraw(call: concurrent.futures.Future) -> None:
        """Cancel a running call: the SDK tells the server (``notifications/cancelled``)."""
        call.cancel()


def text(result: Any) -> str:
    """The text content of a tool result."""
    return "".join(getattr(block, "text", "") for block in result.content)
