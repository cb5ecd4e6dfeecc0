"""stdio transport: the server is a child process speaking JSON-RPC, one message per line.

Why not the SDK's ``stdio_client``: it joins each chunk to the unfinished
line before splitting (``(buffer + chunk).split``), so a message of n bytes
costs O(n²): 20 MB took 12 s and 40 MB 47 s here.  This reader keeps one
growing buffer and looks for the newline only in the new chunk (linear), and
a message longer than the cap is skipped as it streams by, never held: its
request is answered at once with an error that names the cap.  Everything
else follows the SDK: the same stream pair for ``ClientSession``, the SDK's
safe default environment, its own process group, and the spec's shutdown
(close stdin, wait, SIGTERM to the group, SIGKILL).

The last lines of stderr are kept: a crashing server says why there.
"""
from __future__ import annotations

import collections
import os
import re
import signal
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import AsyncIterator, Optional, Union

import anyio
import mcp_types as types
from anyio.abc import Process

from mcp.shared.message import SessionMessage

from aish.errors import ToolError

STDERR_LINES = 20
_EDGE = 512  # bytes kept of each end of a skipped message, where its id is
_ID_HEAD = re.compile(rb'^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"[^"\\]{0,200}")')
_ID_TAIL = re.compile(rb'"id"\s*:\s*(-?\d+|"[^"\\]{0,200}")\s*\}\s*$')
CLOSE_GRACE = 2.0  # seconds between closing stdin and SIGTERM, and SIGTERM and SIGKILL


@dataclass
class StdioProcess:
    """What the connection may know about the child: its exit and its last words."""

    argv: list
    process: Optional[Process] = None
    stderr: collections.deque = field(default_factory=lambda: collections.deque(maxlen=STDERR_LINES))
    ended: anyio.Event = field(default_factory=anyio.Event)  # stdout reached its end

    @property
    def name(self) -> str:
        return os.path.basename(str(self.argv[0]))

    @property
    def returncode(self) -> Optional[int]:
        return self.process.returncode if self.process is not None else None

    def last_words(self) -> str:
        return next((line for line in reversed(self.stderr) if line.strip()), "")

    async def exit_text(self, who: str = "", wait: float = 1.0) -> str:
        """``who exited (status N): last stderr line``, or ``who was killed (SIGKILL): ...``
        (waits a moment for the status); ``who`` defaults to the program's name."""
        with anyio.move_on_after(wait):
            while self.returncode is None:
                await anyio.sleep(0.02)
        code = self.returncode
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            text = f"{who or self.name} was killed ({name})"
        else:
            text = f"{who or self.name} exited" + (f" (status {code})" if code is not None else "")
        last = self.last_words()
        return text + (f": {last[:200]}" if last else "")


@asynccontextmanager
async def stdio_transport(argv: list, env: dict, cwd: Optional[str], max_bytes: int,
                          child: StdioProcess) -> AsyncIterator[tuple]:
    """Start ``argv`` and yield ``(read_stream, write_stream)`` for ``ClientSession``."""
    try:
        process = await anyio.open_process([str(a) for a in argv], env=env, cwd=cwd,
                                           start_new_session=True)
    except FileNotFoundError as exc:
        missing = exc.filename if exc.filename and exc.filename != cwd else argv[0]
        if cwd and not os.path.isdir(cwd):
            raise ToolError(f"no such directory: {cwd}", hint="fix the server's cwd") from None
        raise ToolError(f"command not found: {missing}", hint="install it or fix the server's command") from None
    except PermissionError:
        raise ToolError(f"cannot run {argv[0]}: permission denied",
                        hint="make it executable, or fix the server's command") from None
    except OSError as exc:
        raise ToolError(f"cannot start {argv[0]}: {exc.strerror or exc}") from None
    child.process = process
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](16)

    async def read_stdout() -> None:
        assert process.stdout is not None
        lines = _Lines(max_bytes)
        try:
            async with read_writer:
                async for chunk in process.stdout:
                    for item in lines.feed(chunk):
                        await read_writer.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError):
            pass
        finally:
            child.ended.set()

    async def read_stderr() -> None:
        assert process.stderr is not None
        pending = b""
        try:
            async for chunk in process.stderr:
                pending += chunk
                *done, pending = pending.split(b"\n")
                for raw in done:
                    child.stderr.append(raw[:1000].decode("utf-8", "replace").rstrip())
                pending = pending[-4096:]
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass

    async def write_stdin() -> None:
        assert process.stdin is not None
        try:
            async with write_reader:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await process.stdin.send(data.encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()  # the session hears the end instead of waiting forever

    async with anyio.create_task_group() as tg:
        tg.start_soon(read_stdout)
        tg.start_soon(read_stderr)
        tg.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await write_stream.aclose()
                await _stop(process)
            tg.cancel_scope.cancel()


class _Lines:
    """Bytes in, JSON-RPC messages out; linear in the input, at most ``max_bytes`` held."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.buffer = bytearray()
        self.skipped = 0  # > 0 while a message over the cap streams by
        self.head = b""
        self.tail = b""

    def feed(self, chunk: bytes) -> list:
        out: list = []
        start = 0
        while True:
            newline = chunk.find(b"\n", start)
            piece = chunk[start:] if newline < 0 else chunk[start:newline]
            self._add(piece)
            if newline < 0:
                return out
            item = self._finish()
            if item is not None:
                out.append(item)
            start = newline + 1

    def _add(self, piece: bytes) -> None:
        if self.skipped:
            self.skipped += len(piece)
            self.tail = (self.tail + piece)[-_EDGE:]
            return
        self.buffer += piece
        if len(self.buffer) > self.max_bytes:
            self.skipped = len(self.buffer)
            self.head, self.tail = bytes(self.buffer[:_EDGE]), bytes(self.buffer[-_EDGE:])
            self.buffer = bytearray()

    def _finish(self) -> Optional[object]:
        if self.skipped:
            size, self.skipped = self.skipped, 0
            return _too_large(self.head, self.tail, size, self.max_bytes)
        line, self.buffer = bytes(self.buffer), bytearray()
        if not line.strip():
            return None
        try:
            return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
        except ValueError as exc:  # the session logs it; a server's stray print is not fatal
            return exc


def _too_large(head: bytes, tail: bytes, size: int, max_bytes: int) -> object:
    """An error answer for the request the skipped message answered (its id is at one end)."""
    match = _ID_HEAD.match(head) or _ID_TAIL.search(tail)
    message = (f"the server's answer was larger than {max_bytes / 1048576:g} MB "
               f"({size / 1048576:.1f} MB); not read (raise mcp.max_message_mb to accept it)")
    if match is None:
        return ValueError(message)
    raw = match.group(1).decode("utf-8", "replace")
    request_id: Union[int, str] = int(raw) if not raw.startswith('"') else raw[1:-1]
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id,
                               error=types.ErrorData(code=types.INTERNAL_ERROR, message=message))
    return SessionMessage(error)


async def _stop(process: Process) -> None:
    """Close stdin, wait; SIGTERM to the group, wait; SIGKILL (MCP lifecycle, shutdown)."""
    if process.stdin is not None:
        try:
            await process.stdin.aclose()
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            pass
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None and process.returncode is None:
            try:
                os.killpg(process.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        with anyio.move_on_after(CLOSE_GRACE):
            while process.returncode is None:
                await anyio.sleep(0.02)
        if process.returncode is not None:
            break
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            try:
                await stream.aclose()
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass
