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
           on_task: Optional[Callable[[Optional[dict]], None]] = None,
           on_redacted: Optional[Callable[[Turn], None]] = None) -> int:
    """Rebuild from the session log after a daemon restart (without re-logging).

    ``on_redacted``: called, once the log is read, with each kept turn whose text was logged
    redacted under the rules ``conv.rules`` names now (``Conversation.logged``): the redactor
    need not scan it again.  Returns how many entries were read, so the caller can decide to
    compact.
    """
    if not conv.log:
        return 0
    log, conv.log = conv.log, None
    count = 0
    rules: Optional[str] = None  # the digest in force, asked for at the first tagged entry
    redacted: dict[int, Turn] = {}  # the turns logged under it, by id (kept alive: ids stay theirs)

    def under_these_rules(entry: dict) -> bool:
        nonlocal rules
        tag = entry.get("rules")
        if tag is None or conv.rules is None or on_redacted is None:
            return False
        if rules is None:
            rules = conv.rules() or ""
        return tag == rules

    try:
        for entry in log.entries():
            count += 1
            kind = entry.get("type")
            if kind == "turn" and entry.get("role") in ("user", "assistant", "tool"):
                if entry["role"] == "user":
                    _drop_dangling(conv)  # its daemon died before any answer
                turn = Turn(entry["role"], str(entry.get("content") or ""), tool_calls=entry.get("tool_calls"),
                            tool_call_id=entry.get("tool_call_id"), usage=entry.get("usage"))
                conv.turns.append(turn)
                if under_these_rules(entry):
                    redacted[id(turn)] = turn
            elif kind == "failed":
                if conv.turns and conv.turns[-1].role == "user":
                    conv.turns.pop()
            elif kind == "evict":
                del conv.turns[:int(entry.get("n") or 0)]
            elif kind == "edit":  # a kept turn's text changed (``edit``): counted from the newest
                back = entry.get("back")
                if isinstance(back, int) and 0 <= back < len(conv.turns):
                    edited = conv.turns[-1 - back]
                    edited.content = str(entry.get("content") or "")
                    if under_these_rules(entry):
                        redacted[id(edited)] = edited
                    else:
                        redacted.pop(id(edited), None)
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
    if on_redacted is not None and redacted:
        for turn in conv.turns:
            if redacted.get(id(turn)) is turn:
                on_redacted(turn)
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
        entries.append(conv.logged(turn.to_log()))  # as add() logs it: redacted, tagged
    conv.log.rewrite(entries)
