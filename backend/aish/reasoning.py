"""Split ``<think>...</think>`` spans out of streamed answer text.

Why a state machine: reasoning models served without a reasoning parser put
their chain of thought inline in ``content``, and the tags arrive cut at
arbitrary chunk boundaries (``"<thi"`` + ``"nk>"``).  Reasoning must never be
shown or parsed as answer text (a ``CMD:`` line inside a thought is not a
suggestion), so a possible tag prefix at the end of a chunk is held back until
the next chunk decides what it is.
"""
from __future__ import annotations

from typing import Iterator, Union

from aish.events import ReasoningDelta, TextDelta

_OPEN = "<think>"
_CLOSE = "</think>"


class ThinkSplitter:
    """Feed content pieces; get TextDelta / ReasoningDelta in order."""

    __slots__ = ("in_think", "_pending", "_strip")

    def __init__(self) -> None:
        self.in_think = False
        self._pending = ""
        self._strip = False  # the blank lines between a thought and the answer are dropped

    def feed(self, text: str) -> Iterator[Union[TextDelta, ReasoningDelta]]:
        if not self._pending and "<" not in text:  # the common case: plain answer text
            if self.in_think:
                yield ReasoningDelta(text)
            else:
                yield from self._text(text)
            return
        buf = self._pending + text
        self._pending = ""
        while buf:
            tag = _CLOSE if self.in_think else _OPEN
            at = buf.find(tag)
            if at >= 0:
                if at:
                    yield from self._emit(buf[:at])
                buf = buf[at + len(tag):]
                self.in_think = not self.in_think
                self._strip = not self.in_think
                continue
            keep = _partial_tag_suffix(buf, tag)
            if keep:
                self._pending = buf[-keep:]
                buf = buf[:-keep]
            if buf:
                yield from self._emit(buf)
            break

    def flush(self) -> Iterator[Union[TextDelta, ReasoningDelta]]:
        """End of stream: a held-back tag prefix was just text after all."""
        if self._pending:
            pending, self._pending = self._pending, ""
            yield from self._emit(pending)

    def _emit(self, text: str) -> Iterator[Union[TextDelta, ReasoningDelta]]:
        if self.in_think:
            yield ReasoningDelta(text)
        else:
            yield from self._text(text)

    def _text(self, text: str) -> Iterator[TextDelta]:
        if self._strip:
            text = text.lstrip("\r\n")
            if not text:
                return
            self._strip = False
        yield TextDelta(text)


def _partial_tag_suffix(buf: str, tag: str) -> int:
    """Length of the longest end of ``buf`` that could begin ``tag``."""
    start = buf.rfind("<", max(0, len(buf) - len(tag) + 1))
    if start < 0:
        return 0
    tail = buf[start:]
    return len(tail) if tag.startswith(tail) else 0
