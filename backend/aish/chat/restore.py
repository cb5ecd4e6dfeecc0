"""A conversation rebuilt from its session log, and the log rewritten as the conversation.

Why apart from ``conversation``: the transcript's rules (alternation, whole exchanges, the
budget) are one concern; reading back what a daemon before this one wrote (turns, failed
asks, evictions, edits, resets, usage and a Norris task, each replayed without being logged
again) and compacting the log to a snapshot are another, used at a restart and after long
conversations (app/sessions.py, app/after_answer.py).
"""
from __future__ import annotations

from typing import Callable, Optional

from aish.chat.conversation import Conversation, Turn


def replay(conv: Conversation, on_usage: Optional[Callable[[dict], None]] = None,
           on_cost_reset: Optional[Callable[[], None]] = None,
           on_usage_totals: Optional[Callable[[dict], None]] = None,
           on_cost_raise: Optional[Callable[[float], None]] = None,
           on_task: Optional[Callable[[Optional[dict]], None]] = None) -> int:
    """Rebuild from the session log after a daemon restart (without re-logging).

    Returns how many entries were read, so the caller can decide to compact.
    """
    if not conv.log:
        return 0
    log, conv.log = conv.log, None
    count = 0
    try:
        for entry in log.entries():
            count += 1
            kind = entry.get("type")
            if kind == "turn" and entry.get("role") in ("user", "assistant", "tool"):
                if entry["role"] == "user":
                    _drop_dangling(conv)  # its daemon died before any answer
                conv.turns.append(Turn(entry["role"], str(entry.get("content") or ""),
                                       tool_calls=entry.get("tool_calls"),
                                       tool_call_id=entry.get("tool_call_id"),
                                       usage=entry.get("usage")))
            elif kind == "failed":
                if conv.turns and conv.turns[-1].role == "user":
                    conv.turns.pop()
            elif kind == "evict":
                del conv.turns[:int(entry.get("n") or 0)]
            elif kind == "edit":  # a kept turn's text changed (``edit``): counted from the newest
                back = entry.get("back")
                if isinstance(back, int) and 0 <= back < len(conv.turns):
                    conv.turns[-1 - back].content = str(entry.get("content") or "")
            elif kind == "summary":
                conv.summary = entry.get("text") or None
            elif kind == "reset":
                conv.turns.clear()
                conv.summary = None
            elif kind == "task" and on_task:  # a norris task's state (the session's)
                on_task(entry.get("task") or None)
            elif kind == "usage" and on_usage:
                on_usage(entry)
            elif kind == "cost_reset" and on_cost_reset:
                on_cost_reset()
            elif kind == "usage_totals" and on_usage_totals:
                on_usage_totals(entry.get("totals") or {})
            elif kind == "cost_raise" and on_cost_raise and isinstance(entry.get("dollars"), (int, float)):
                on_cost_raise(float(entry["dollars"]))
    finally:
        conv.log = log
    return count

def _drop_dangling(conv: Conversation) -> None:
    """A user turn followed by another in the log: the daemon was killed during that
    ask.  It is dropped, as a failed ask's is, so the next question goes alone."""
    if conv.turns and conv.turns[-1].role == "user":
        conv.turns.pop()

def compact(conv: Conversation, usage_totals: Optional[dict] = None, task: Optional[dict] = None) -> None:
    """Rewrite the log as the current state (a long-lived CLI conversation would
    otherwise replay every turn it ever had on each daemon start)."""
    if not conv.log:
        return
    entries: list[dict] = []
    if usage_totals is not None:
        entries.append({"type": "usage_totals", "totals": usage_totals})
    if conv.summary:
        entries.append({"type": "summary", "text": conv.summary})
    if task:
        entries.append({"type": "task", "task": task})
    for turn in list(conv.turns):
        entry = turn.to_log()
        if conv.redact is not None:  # as add() logs it: the log on disk never holds a secret in clear
            entry["content"] = conv.redact(entry["content"])
        entries.append(entry)
    conv.log.rewrite(entries)
