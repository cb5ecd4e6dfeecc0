"""One asyncio loop, in one daemon thread, for every MCP server of the process.

Why one loop: the SDK's sessions are asyncio objects, and the daemon serves
each request on its own thread.  Every session lives on this loop; a request
thread hands it a coroutine and waits.  A wait ends three ways: the result,
the caller's cancel (Ctrl-C: the task is cancelled, which makes the SDK tell
the server with ``notifications/cancelled``), or the caller's own bound (the
task is cancelled too, so nothing keeps running behind a time-out).

The loop starts on first use, so a daemon without MCP servers never has it.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import Any, Coroutine, Optional, TypeVar

from aish.errors import Cancelled
from aish.ipc.cancel import CancelToken

T = TypeVar("T")

_lock = threading.Lock()
_loop: Optional[asyncio.AbstractEventLoop] = None


def get() -> asyncio.AbstractEventLoop:
    """The shared loop, started on first use."""
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def serve() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            threading.Thread(target=serve, name="aish-mcp-loop", daemon=True).start()
            ready.wait()
            _loop = loop
        return _loop


def submit(coro: Coroutine[Any, Any, T]) -> "concurrent.futures.Future[T]":
    """Schedule ``coro`` on the loop; the future's ``cancel()`` cancels the task."""
    return asyncio.run_coroutine_threadsafe(coro, get())


def run(coro: Coroutine[Any, Any, T], timeout: Optional[float] = None,
        cancel: Optional[CancelToken] = None) -> T:
    """Run ``coro`` on the loop and wait for it.

    Raises ``Cancelled`` when ``cancel`` fires and ``TimeoutError`` after
    ``timeout`` seconds; either way the task is cancelled before we return.
    """
    future = submit(coro)
    finished = threading.Event()
    future.add_done_callback(lambda _: finished.set())
    unregister = cancel.on_cancel(finished.set) if cancel is not None else (lambda: None)
    try:
        finished.wait(timeout)
    finally:
        unregister()
    if future.done() and not future.cancelled():
        return future.result()
    future.cancel()
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
    raise TimeoutError(f"no result within {timeout}s")


def in_loop() -> bool:
    """True on the loop's own thread (where a blocking ``run`` would deadlock)."""
    try:
        return asyncio.get_running_loop() is _loop
    except RuntimeError:
        return False
