"""What one ask may carry: a question (typed, pasted or piped in) longer than the cap keeps
its head and tail, with a marker saying how much aish left out.

Without a cap a 200 KB paste went whole, far over any context budget, and the budget then
evicted the entire conversation to make room for a message the model could not take
anyway.  The user hears what was cut (one status line, also in the receipt).
"""
from __future__ import annotations

from typing import Optional

MARKER = "\n[... {n:,} characters left out by aish (context.max_question_chars) ...]\n"


def cap(text: str, max_chars: int) -> tuple[str, Optional[str]]:
    """``(text, None)`` when it fits; else the first and last halves of ``max_chars``, cut at
    line ends where one is near, and the status line that says so."""
    if len(text) <= max_chars:
        return text, None
    half = max_chars // 2
    head, tail = text[:half], text[len(text) - half:]
    newline = head.rfind("\n")
    if newline > half * 3 // 4:
        head = head[:newline + 1]
    newline = tail.find("\n")
    if 0 <= newline < half // 4:
        tail = tail[newline + 1:]
    left_out = len(text) - len(head) - len(tail)
    note = (f"question cut: {len(text):,} characters is over context.max_question_chars "
            f"({max_chars:,}): sent the first {len(head):,} and the last {len(tail):,}")
    return head.rstrip("\n") + MARKER.format(n=left_out) + tail, note
