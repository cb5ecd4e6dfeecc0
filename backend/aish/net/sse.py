"""Server-sent events: the data of each event in a stream of body bytes.

The chat stream only reads each event's ``data`` (comments such as ``: ping``, ``event:``,
``id:`` and ``retry:`` lines change nothing it does), so this yields that and nothing else:
no object per event and no work per line beyond finding it, which ``sseclient`` spent
several times over on every token of every answer.  Lines end in CRLF, LF or a lone CR
(the specification's three), split anywhere across chunks; an event ends at a blank line;
several ``data:`` lines join with newlines; one space after the colon is dropped; an event
without data is not dispatched.  A half event where the body ended is yielded too, so the
caller can tell a cut from garbage.

``EventParser`` is the same parse, pushed: the events each piece of bytes completes, as a
list, so a reader knows which events arrived together (the chat stream hands their text on
as one delta, and the daemon writes it to the shell as one frame).
"""
from __future__ import annotations

from typing import Iterable, Iterator, Optional


def data_events(source: Iterable[bytes]) -> Iterator[str]:
    parser = EventParser()
    for chunk in source:
        yield from parser.feed(chunk)
    yield from parser.end()


class EventParser:
    """``feed`` the body's bytes as they arrive; each call returns the data of the events they
    completed; ``end`` the half event where the body ended (if it has data)."""

    __slots__ = ("_buffer",)

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, chunk: bytes) -> list[str]:
        buffer = self._buffer + chunk if self._buffer else chunk
        if b"\r" in buffer:
            held = buffer.endswith(b"\r")  # may be the first half of a CRLF
            buffer = buffer[:-1] if held else buffer
            buffer = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n") + (b"\r" if held else b"")
        events = []
        start = 0
        while True:
            end = buffer.find(b"\n\n", start)
            if end < 0:
                break
            data = _data(buffer[start:end])
            start = end + 2
            if data is not None:
                events.append(data)
        self._buffer = buffer[start:]
        return events

    def end(self) -> list[str]:
        buffer, self._buffer = self._buffer, b""
        if buffer.strip():
            data = _data(buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n").rstrip(b"\n"))
            if data is not None:
                return [data]
        return []


def _data(block: bytes) -> Optional[str]:
    """The event's data (None: no ``data`` field), from its lines joined by LF."""
    if block.startswith(b"data: ") and b"\n" not in block:  # the usual shape: one data line
        return block[6:].decode("utf-8", "replace")
    lines = [line[5:] for line in block.split(b"\n") if line.startswith(b"data:") or line == b"data"]
    if not lines:
        return None
    return b"\n".join(line[1:] if line.startswith(b" ") else line for line in lines).decode("utf-8", "replace")
