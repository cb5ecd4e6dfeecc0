"""Turn what a terminal showed into plain text a model may read.

Terminal output is bytes meant for a screen: colours, cursor moves, title
changes, carriage-return progress bars, sometimes binary garbage.  The model
gets what stayed on the screen (``screen.render``: what was written over, erased,
cleared or drawn in a full-screen program's alternate screen is gone), binary
output is named instead of sent, and long output keeps its head and tail
(errors are usually at the end, the command's first complaint at the start).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from aish.context.screen import render

_ESCAPES = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
                      r"|\x1b[ -/]*[0-~]?")
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
FULLSCREEN_NOTE = "it ran full screen and left nothing on the screen"


@dataclass
class Clean:
    """Sanitised output: ``text`` to send, ``lines`` it had before the cap, ``note`` if not sent."""

    text: str
    lines: int
    cut: bool = False
    note: str = ""  # why nothing is sent ("binary output", FULLSCREEN_NOTE)


def is_binary(data: bytes) -> bool:
    """NUL bytes, or mostly bytes that are neither text nor UTF-8."""
    if not data:
        return False
    sample = data[:4096]
    if b"\x00" in sample:
        return True
    text = sample.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") + len(_CONTROLS.findall(_ESCAPES.sub("", text)))
    return bad > max(8, len(text) // 10)


def cap(text: str, max_lines: int, max_bytes: int) -> tuple[str, bool]:
    """Keep the head and the tail within both limits, with a marker where lines were left out."""
    lines = text.split("\n")
    if len(lines) <= max_lines and len(text.encode("utf-8")) <= max_bytes:
        return text, False
    head_n = max(1, max_lines // 4)
    tail_n = max(1, max_lines - head_n)
    head, tail = lines[:head_n], lines[-tail_n:] if len(lines) > head_n else []
    budget = max_bytes // 2

    def fit(chosen: list, from_end: bool) -> list:
        kept: list[str] = []
        used = 0
        for line in (reversed(chosen) if from_end else chosen):
            size = len(line.encode("utf-8")) + 1
            if used + size > budget:
                if not kept:  # one huge line: keep a piece of it
                    piece = line.encode("utf-8")
                    piece = piece[-budget:] if from_end else piece[:budget]
                    kept.append(piece.decode("utf-8", errors="ignore"))
                break
            kept.append(line)
            used += size
        return list(reversed(kept)) if from_end else kept

    head, tail = fit(head, False), fit(tail, True)
    left_out = len(lines) - len(head) - len(tail)
    return "\n".join(head + [f"[... {left_out} lines left out ...]"] + tail), True


def clean(raw: bytes | str, max_lines: int = 200, max_bytes: int = 8192) -> Clean:
    """The whole pipeline: the binary check, what stayed on the screen, the cap."""
    data = raw.encode("utf-8", errors="surrogateescape") if isinstance(raw, str) else raw
    if is_binary(data):
        return Clean("", 0, note=f"binary output ({len(data):,} bytes)")
    shown = render(data)
    text = shown.text
    if not text.strip():
        return Clean("", 0, note=FULLSCREEN_NOTE if shown.fullscreen else "")
    total = text.count("\n") + 1
    text, cut = cap(text, max_lines, max_bytes)
    return Clean(text, total, cut)
