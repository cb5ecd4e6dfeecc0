"""Server-sent events: the data of each event in a stream of body bytes.

The chat stream only reads each event's ``data`` (comments such as ``: ping``, ``event:``,
``id:`` and ``retry:`` lines change nothing it does), so this yields that and nothing else:
no object per event and no work per line beyond finding it, which ``sseclient`` spent
several times over on every token of every answer.  Lines end in CRLF, LF or a lone CR
(the specification's three), split anywhere across chunks; an event ends at a blank line;
several ``data:`` lines join with newlines; one space after the colon is dropped; an event
without data is not dispatched.  A half event where the body ended is yielded too, so the
caller can tell a cut from garbage.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Optional


def data_events(source: Iterable[bytes]) -> Iterator[str]:
    buffer = b""
    for chunk in source:
        buffer = buffer + chunk if buffer else chunk
        if b"\r" in buffer:
            held = buffer.endswith(b"\r")  # may be the first half of a CRLF
            buffer = buffer[:-1] if held else buffer
            buffer = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n") + (b"\r" if held else b"")
        start = 0
        while True:
            end = buffer.find(b"\n\n", start)
            if end < 0:
                break
            data = _data(buffer[start:end])
            start = end + 2
            if data is not None:
                yield data
        buffer = buffer[start:]
    if buffer.strip():
        data = _data(buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n").rstrip(b"\n"))
        if data is not None:
            yield data


def _data(block: bytes) -> Optional[str]:
    """The event's data (None: no ``data`` field), from its lines joined by LF."""
    if block.startswith(b"data: ") and b"\n" not in block:  # the usual shape: one data line
        return block[6:].decode("utf-8", "replace")
    lines = [line[5:] for line in block.split(b"\n") if line.startswith(b"data:") or line == b"data"]
    if not lines:
        return None
    return b"\n".join(line[1:] if line.startswith(b" ") else line for line in lines).decode("utf-8", "replace")
