"""A socket's bytes, buffered, with a look at what has already arrived.

``socket.makefile`` gives the lines and reads an HTTP reply is made of, but hides how much its
buffer holds: a reader cannot take every chunk one receive brought without risking a wait for
the next.  Taking them together is what lets the daemon write the text of a stream's events that
arrived together to the shell as one frame, not one per event (issue 26: a write, and a wake-up
of the shell and a hand-off of the GIL, per event, for each of 50 shells asking at once).
"""
from __future__ import annotations

from typing import Any

_READ = 65536


class SocketReader:
    """``readline`` and ``read1`` as a buffered reader's, and ``lookahead``: the bytes already
    here.  Each receive takes up to 64 KiB, whatever the socket holds."""

    __slots__ = ("_sock", "_buf", "_pos")

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._buf = b""
        self._pos = 0

    def _fill(self) -> bool:
        """One receive (blocking, under the socket's timeout or the kernel's: ``SO_RCVTIMEO``,
        whose expiry is EAGAIN on a blocking socket, raised as the ``TimeoutError`` a Python
        timeout gives); False at the end."""
        try:
            data = self._sock.recv(_READ)
        except BlockingIOError as err:
            raise timed_out(err) from None
        if not data:
            return False
        self._buf = self._buf[self._pos:] + data if self._pos < len(self._buf) else data
        self._pos = 0
        return True

    def readline(self, limit: int = -1) -> bytes:
        while True:
            buf, pos = self._buf, self._pos
            end = buf.find(b"\n", pos)
            if end >= 0 and (limit < 0 or end - pos < limit):
                self._pos = end + 1
                return buf[pos:end + 1]
            if 0 <= limit <= len(buf) - pos:
                self._pos = pos + limit
                return buf[pos:pos + limit]
            if not self._fill():
                self._pos = len(buf)
                return buf[pos:]

    def read1(self, n: int = _READ) -> bytes:
        """What is buffered, or else what one receive brings, up to ``n`` bytes."""
        if self._pos >= len(self._buf) and not self._fill():
            return b""
        pos = self._pos
        data = self._buf[pos:pos + n]
        self._pos = pos + len(data)
        return data

    def lookahead(self) -> tuple[bytes, int]:
        """The buffer and where its unread bytes start (no copy, no receive)."""
        return self._buf, self._pos

    def advance(self, count: int) -> None:
        """Count ``count`` bytes of the buffer as read (taken through ``lookahead``)."""
        self._pos = min(self._pos + count, len(self._buf))

    def close(self) -> None:
        self._buf, self._pos = b"", 0


def timed_out(err: BlockingIOError) -> TimeoutError:
    """A blocking socket's send or receive the kernel timed out fails with EAGAIN: the
    ``TimeoutError`` a Python timeout raises (``transport.failures`` maps it to a read timeout)."""
    return TimeoutError(err.errno, "timed out")
