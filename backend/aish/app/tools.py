"""A model's tool calls, run in order, each through the MCP approval policy.

Shared by an ask's tool rounds and the norris planner's: the same approval,
the same caps, the same record of what ran.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from aish.errors import Cancelled
from aish.ipc.reply import Reply
from aish.llm.events import ToolCall

if TYPE_CHECKING:
    from aish.app.env import AskEnv
    from aish.chat.conversation import Conversation


def run_tool_calls(env: "AskEnv", conv: "Conversation", calls: tuple[ToolCall, ...], reply: Reply,
                   record: Optional[list] = None) -> tuple[list, list]:
    """Run ``calls`` in order; returns the answered ``(call, content)`` pairs and their wire
    form for the assistant turn.  ``record`` collects one entry per call (the ask's JSON)."""
    from aish.mcp import bridge

    answered = []
    for tool_call in calls:
        if reply.cancel.cancelled:
            raise Cancelled()
        outcome = bridge.run_tool_call(tool_call, env.mcp, reply, env.config.mcp,
                                       conv.always_approved, reply.cancel)
        if reply.cancel.cancelled:   # Ctrl-C at the approval is no denial: the ask is cancelled
            raise Cancelled()
        if record is not None:
            record.append({"name": outcome.user_name, "denied": outcome.denied,
                           "is_error": outcome.is_error, "answered": outcome.content is not None})
        if outcome.content is not None:
            answered.append((tool_call, outcome.content))
    wire = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c, _ in answered]
    return answered, wire
