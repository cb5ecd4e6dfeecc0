"""Split ``<think>...</think>`` spans out of streamed answer text.

Why a state machine: reasoning models served without a reasoning parser put
their chain of thought inline in ``content``, and the tags arrive cut at
arbitrary chunk boundaries (``"<thi"`` + ``"nk>"``).  Reasoning must never be
shown or parsed as answer text (a ``CMD:`` line inside a thought is not a
suggestion), so a possible tag prefix at the end of a chunk is held back until
the next chunk decides what it is.

Some chat templates open the thought in the prompt, so the output starts inside
it and only ``</think>`` shows.  Until that tag arrives the text looks like an
answer; when it does, ``TextWasReasoning`` tells the consumer to drop what it
took as answer text so far.  Only before any ``<think>``: after a real thought, a
``</think>`` is just text.
"""
from __future__ import annotations

from typing import Iterator, Optional, Union

from aish.llm.events import ReasoningDelta, TextDelta, TextWasReasoning

_OPEN = "<think>"
_CLOSE = "</think>"

Piece = Union[TextDelta, ReasoningDelta, TextWasReasoning]


class ThinkSplitter:
    """Feed content pieces; get TextDelta / ReasoningDelta (/ TextWasReasoning) in order."""

    __slots__ = ("in_think", "_pending", "_strip", "_opened", "_shown")

    def __init__(self) -> None:
        self.in_think = False
        self._pending = ""
        self._strip = False  # the blank lines between a thought and the answer are dropped
        self._opened = False  # a thought has opened (by tag, or implicitly)
        self._shown: list[str] = []  # text given out before any thought opened

    def plain(self, text: str) -> Optional[TextDelta]:
        """``feed``'s commonest case at once: answer text with no tag in it, none held back, no
        thought open and no blank lines to drop after one (None: ``feed`` it)."""
        if self._pending or self.in_think or self._strip or "<" in text:
            return None
        if not self._opened:
            self._shown.append(text)
        return TextDelta(text)

    def feed(self, text: str) -> Iterator[Piece]:
        if not self._pending and "<" not in text:  # the common case: plain answer text
            yield from self._emit(text)
            return
        buf = self._pending + text
        self._pending = ""
        while buf:
            if self.in_think:
                tag, at = _CLOSE, buf.find(_CLOSE)
            else:
                tag, at = _OPEN, buf.find(_OPEN)
                if not self._opened:
                    close = buf.find(_CLOSE)
                    if close >= 0 and (at < 0 or close < at):
                        yield from self._implicit_close(buf[:close])
                        buf = buf[close + len(_CLOSE):]
                        continue
            if at >= 0:
                if at:
                    yield from self._emit(buf[:at])
                buf = buf[at + len(tag):]
                self.in_think = not self.in_think
                self._opened = True
                self._strip = not self.in_think
                continue
            keep = _partial_tag_suffix(buf, tag)
            if not self.in_think and not self._opened:
                keep = max(keep, _partial_tag_suffix(buf, _CLOSE))
            if keep:
                self._pending = buf[-keep:]
                buf = buf[:-keep]
            if buf:
                yield from self._emit(buf)
            break

    def flush(self) -> Iterator[Piece]:
        """End of stream: a held-back tag prefix was just text after all."""
        if self._pending:
            pending, self._pending = self._pending, ""
            yield from self._emit(pending)

    def _implicit_close(self, before: str) -> Iterator[Piece]:
        self._opened = True
        self._strip = True
        shown, self._shown = "".join(self._shown), []
        if shown:
            yield TextWasReasoning(shown)
        if before:
            yield ReasoningDelta(before)

    def _emit(self, text: str) -> Iterator[Piece]:
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
        if not self._opened:
            self._shown.append(text)
        yield TextDelta(text)


def _partial_tag_suffix(buf: str, tag: str) -> int:
    """Length of the longest end of ``buf`` that could begin ``tag``."""
    start = buf.rfind("<", max(0, len(buf) - len(tag) + 1))
    if start < 0:
        return 0
    tail = buf[start:]
    return len(tail) if tag.startswith(tail) else 0
