"""Fold a conversation until it fits a number of tokens.

The oldest exchanges go into the rolling summary (or, with no summarizer, are dropped with
a status line), newest kept; when even the newest exchange alone is larger than the room
(a long paste, a big command output), the middle of its question is cut, marked, and the
user told.  A function of the conversation alone (the count, the summarizer and the room
are handed in): the fold after a context-length error and a fold done in the background
after an answer are one and the same.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from aish.chat.conversation import Conversation, SummarizeFn

CUT_MARK = "\n[... {n:,} characters cut here to fit the model's context window ...]\n"
UNLIMITED_TURNS = 1 << 30


@dataclass
class Folded:
    """What one fold did."""

    turns: int = 0  # turns folded into the summary (or dropped)
    cut: int = 0  # characters cut from the newest question
    tokens: int = 0  # the conversation's weight afterwards (system message included)

    def __bool__(self) -> bool:
        return bool(self.turns or self.cut)


def weight(conv: Conversation, count: Callable[[str], int], system_prompt: str) -> int:
    """Tokens of the messages the conversation would send (``count`` weighs one message)."""
    fixed = count(system_prompt) + (count(conv.summary) if conv.summary else 0)
    return fixed + sum(count(t.content) + (count(str(t.tool_calls)) if t.tool_calls else 0)
                       for t in conv.turns)


def fold(conv: Conversation, *, room: int, count: Callable[[str], int], system_prompt: str = "",
         summarize: Optional[SummarizeFn] = None, max_summary_chars: int = 2000,
         status: Callable[[str], None] = lambda line: None) -> Folded:
    """Make ``conv`` weigh at most ``room`` tokens (as ``count`` weighs a message)."""
    for turn in conv.turns:  # weights may have been taken with another model's count
        turn.tokens = None
    conv.forget_sent()
    folded = Folded()
    folded.turns = conv.enforce_budget(max_turns=UNLIMITED_TURNS, budget_tokens=room, count=count,
                                       system_prompt=system_prompt, summarize=summarize,
                                       max_summary_chars=max_summary_chars, status=status)
    total = weight(conv, count, system_prompt)
    if total > room:
        folded.cut = _cut_newest_question(conv, over=total - room, count=count)
        if folded.cut:
            status(f"context: cut {folded.cut:,} characters from the middle of the question to fit")
            total = weight(conv, count, system_prompt)
    folded.tokens = total
    return folded


def _cut_newest_question(conv: Conversation, *, over: int, count: Callable[[str], int]) -> int:
    """Cut the middle of the newest user turn by about ``over`` tokens; the characters cut."""
    turn = next((t for t in reversed(conv.turns) if t.role == "user"), None)
    if turn is None or not turn.content:
        return 0
    text = turn.content
    tokens = max(1, count(text))
    keep_share = max(0.0, (tokens - over) / tokens) * 0.95  # tokens per character vary
    keep = int(len(text) * keep_share) - len(CUT_MARK) - 8
    if keep <= 0:
        head, tail = text[: len(text) // 8], ""
    else:
        head, tail = text[: keep // 2], text[len(text) - keep // 2:]
    removed = len(text) - len(head) - len(tail)
    if removed <= 0:
        return 0
    conv.edit(turn, head + CUT_MARK.format(n=removed) + tail)
    return removed
