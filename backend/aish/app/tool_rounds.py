"""A model's tool calls, run in order, each through the MCP approval policy.

Shared by an ask's tool rounds and the norris planner's: the same approval,
the same caps, the same record of what ran.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from aish.errors import Cancelled
from aish.ipc.reply import Reply
from aish.llm.events import ToolCall

if TYPE_CHECKING:
    from aish.app.env import AskEnv
    from aish.app.sessions import Session


def run_tool_calls(env: "AskEnv", session: "Session", calls: tuple[ToolCall, ...], reply: Reply,
                   record: Optional[list] = None) -> tuple[list, list]:
    """Run ``calls`` in order; returns the answered ``(call, content)`` pairs and their wire
    form for the assistant turn.  ``record`` collects one entry per call (the ask's JSON)."""
    from aish.mcp import bridge

    redactor = session.redactor if env.config.secrets.redact else None
    restore = redactor.restore if redactor is not None else None
    answered = []
    for tool_call in calls:
        if reply.cancel.cancelled:
            raise Cancelled()
        outcome = bridge.run_tool_call(tool_call, env.mcp, reply, env.config.mcp,
                                       session.always_approved, reply.cancel, restore=restore,
                                       side=user_side(env, session, reply))
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


def user_side(env: "AskEnv", session: "Session", reply: Reply) -> Any:
    """Where a server's questions go while its tool runs: this shell; its completions run
    on the default model, costed as ``mcp_sampling`` in this conversation."""
    from aish.app.model_call import Caller
    from aish.mcp.asks import ShellSide, sampling_messages

    def sample(alias: str, request: dict) -> tuple:
        response = Caller(env, session).call(sampling_messages(request), category="mcp_sampling",
                                          reply=reply, show=False, fallback=True,
                                          max_tokens=int(request.get("maxTokens") or 1024))
        return response.text, response.model.model

    return ShellSide(reply, timeout=env.config.mcp.approval_timeout, sampler=sample)


def offered_tools(env: "AskEnv", cwd: str = "") -> list:
    """The ``tools`` field of this question ([] when none), after telling the servers the
    roots they may work in: the trusted project root around ``cwd``, else ``cwd`` itself."""
    if env.mcp is None or not env.mcp.has_tools():
        return []
    if cwd:
        root = env.project.trusted_root(cwd) if env.project is not None else None
        env.mcp.set_roots([str(root or cwd)])
    return env.mcp.openai_tools()


def schemas_text(tools: list) -> str:
    """What the tools field costs in the context, as text the token counter can count."""
    import json

    return ("\n" + json.dumps(tools, ensure_ascii=False, separators=(",", ":"))) if tools else ""
