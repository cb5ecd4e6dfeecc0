"""The receipt of what left the machine: ``aish sent`` / ``? :sent`` shows the last ask's requests.

Every model call goes through ``model_call.Caller``, which hands this module the
messages exactly as they went to the server, after redaction (``record``); the
status lines that said what was attached to the question (command output, a cut
paste) are kept beside them (``note``).  So the receipt, the status lines and the
request body cannot disagree: they are the same objects.

It belongs to the asking shell's session (today the ``Conversation``; the object is
reached only through ``begin``/``record``/``note``/``last`` so it can move).  Memory
only: nothing here is written to disk.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Optional


_ROLES = {"system": "system (aish's instructions, memory, project notes)",
          "user": "user", "assistant": "assistant", "tool": "tool result"}


@dataclass
class Call:
    """One request to a model, as it left: which model, why, the messages, the tools offered."""

    category: str  # main, summarize, explain, second_opinion, delegate, planner...
    model: str
    endpoint: str
    messages: list
    tools: list = field(default_factory=list)
    at: float = field(default_factory=time.time)


@dataclass
class Receipt:
    """The requests of the last ask (or task step) of one shell, and what was said about them."""

    calls: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # the status lines about attachments and cuts


def begin(session: Any) -> Receipt:
    """A new ask starts: its receipt replaces the last one."""
    session.receipt = Receipt()
    return session.receipt


def adopt(session: Any, other: Optional[Receipt]) -> None:
    """The answer shown now was prepared elsewhere (a fix drafted in the background): its
    receipt is this ask's."""
    session.receipt = other if other is not None else Receipt()


def last(session: Any) -> Optional[Receipt]:
    return getattr(session, "receipt", None)


def record(session: Any, category: str, model: Any, messages: list, tools: Optional[list]) -> None:
    """The messages of one call, exactly as sent (a session without a receipt keeps none)."""
    receipt = last(session)
    if receipt is None:
        return
    names = [t.get("function", {}).get("name", "?") for t in tools or [] if isinstance(t, dict)]
    receipt.calls.append(Call(category, getattr(model, "model", "") or getattr(model, "name", ""),
                              getattr(model, "endpoint", ""), list(messages), names))


def note(session: Any, line: str) -> None:
    receipt = last(session)
    if receipt is not None and line:
        receipt.notes.append(line)


def to_json(receipt: Optional[Receipt]) -> dict:
    if receipt is None:
        return {"calls": [], "notes": []}
    return {"notes": list(receipt.notes),
            "calls": [{"category": c.category, "model": c.model, "endpoint": c.endpoint,
                       "tools": c.tools, "at": c.at, "messages": c.messages} for c in receipt.calls]}


def lines(receipt: Optional[Receipt], full: bool = False) -> list[str]:
    """The receipt as the user reads it: each call, its messages after redaction.

    Earlier turns of the conversation (sent before, unchanged) are one line each unless
    ``full``; the system message and everything from the newest question on are shown whole.
    """
    from aish.context.output import plural  # (only `aish sent` reads a receipt: not on an ask's path)

    if receipt is None or not receipt.calls:
        return ["[aish] nothing was sent to a model from this shell yet"]
    out = [f"[aish] the last ask sent {plural(len(receipt.calls), 'request')} "
           "(after redaction, exactly as they left):"]
    out += [f"[aish] {line}" for line in receipt.notes]
    for call in receipt.calls:
        stamp = time.strftime("%H:%M:%S", time.localtime(call.at))
        size = sum(len(str(m.get("content") or "")) for m in call.messages)
        out.append(f"=== {call.category} request to {call.model} at {call.endpoint}, {stamp}: "
                   f"{plural(len(call.messages), 'message')}, {size:,} characters"
                   + (f"; tools offered: {', '.join(call.tools)}" if call.tools else ""))
        newest = max((i for i, m in enumerate(call.messages) if m.get("role") == "user"), default=0)
        for i, message in enumerate(call.messages):
            role = str(message.get("role"))
            content = str(message.get("content") or "")
            calls = message.get("tool_calls")
            if 0 < i < newest and not full:
                out.append(f"--- {role} (earlier turn, {len(content):,} characters; "
                           "'sent --all' shows it)")
                continue
            out.append(f"--- {_ROLES.get(role, role)}")
            out.extend(content.split("\n"))
            if calls:
                out.append("tool calls: " + json.dumps(calls, ensure_ascii=False))
    return out

