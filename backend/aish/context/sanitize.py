"""Turn what a terminal showed into plain text a model may read.

Terminal output is bytes meant for a screen: colours, cursor moves, title
changes, carriage-return progress bars, sometimes binary garbage.  The model
gets none of that: escape sequences and controls go, a line rewritten with
``\\r`` keeps only what stayed visible, binary output is named instead of sent,
and long output keeps its head and tail (errors are usually at the end, the
command's first complaint at the start).  Output of a full-screen program is
never sent: it is a picture of a screen, not a log.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P/X/^/_ ... ST),
# then any other two-byte escape.  8-bit C1 forms are included.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Entering the alternate screen (xterm 1049/1047/47): vim, less, htop, tmux itself.
ALT_SCREEN = re.compile(rb"\x1b\[\?(?:1049|1047|47)h")


@dataclass
class Clean:
    """Sanitised output: ``text`` to send, ``lines`` it had before the cap, ``note`` if not sent."""

    text: str
    lines: int
    cut: bool = False
    note: str = ""  # why nothing is sent ("binary output", "a full-screen program")


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


def strip_terminal(text: str) -> str:
    """Escapes and controls removed; per line, what a ``\\r`` overwrote is dropped."""
    text = _ESCAPES.sub("", text.replace("\r\n", "\n"))
    lines = []
    for line in text.split("\n"):
        if "\r" in line:
            line = _overwrite(line.split("\r"))
        if "\b" in line:
            line = _backspaced(line)
        lines.append(_CONTROLS.sub("", line).rstrip())
    return "\n".join(lines)


def _backspaced(line: str) -> str:
    """Each backspace takes back the character before it (man pages' bold, spinners)."""
    kept: list = []
    for char in line:
        if char == "\b":
            if kept:
                kept.pop()
        else:
            kept.append(char)
    return "".join(kept)


def _overwrite(parts: list) -> str:
    """What a terminal shows after each ``\\r``-separated part overwrote the one before."""
    shown = ""
    for part in parts:
        shown = part + shown[len(part):]
    return shown


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
        kept, used = [], 0
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
    """The whole pipeline: full-screen and binary checks, stripping, trimming, the cap."""
    data = raw.encode("utf-8", errors="surrogateescape") if isinstance(raw, str) else raw
    if ALT_SCREEN.search(data):
        return Clean("", 0, note="a full-screen program")
    if is_binary(data):
        return Clean("", 0, note=f"binary output ({len(data)} bytes)")
    text = strip_terminal(data.decode("utf-8", errors="replace")).strip("\n")
    if not text.strip():
        return Clean("", 0)
    total = text.count("\n") + 1
    text, cut = cap(text, max_lines, max_bytes)
    return Clean(text, total, cut)
