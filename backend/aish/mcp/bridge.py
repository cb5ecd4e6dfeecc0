"""One tool call of the model: resolve the name, check the arguments, ask, run, report.

The error split decides what the model sees: a tool that reports
``isError`` is answered (the model can read the error and re-plan), while a
JSON-RPC or transport failure, malformed arguments or an unknown tool produce
no tool turn at all, only a line for the user.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional

from aish.mcp import approval
from aish.ipc.cancel import CancelToken
from aish.config.schema import McpConfig
from aish.errors import ToolError
from aish.llm.events import ToolCall
from aish.mcp import content
from aish.ipc.reply import Reply

DENIED = "The user denied this tool call."


@dataclass
class ToolOutcome:
    call_id: str
    user_name: str
    content: Optional[str]  # None: no tool turn (JSON-RPC error, malformed arguments, unknown tool)
    denied: bool = False
    is_error: bool = False


def run_tool_call(call: ToolCall, manager: Any, reply: Reply, cfg: McpConfig, always: set[str],
                  cancel: Optional[CancelToken] = None) -> ToolOutcome:
    tool = manager.resolve(call.name)
    if tool is None:
        reply.warning(f"the model asked for an unknown tool '{call.name[:80]}'; call skipped")
        return ToolOutcome(call.id, call.name, None)
    user_name = tool.user_name
    arguments = _parse_arguments(call.arguments)
    if arguments is None:
        reply.warning(f"malformed arguments for {user_name}; call skipped")
        return ToolOutcome(call.id, user_name, None)

    if approval.needs_approval(user_name, tool, cfg, always):
        answer = approval.interpret(reply.ask(approval.question(user_name, arguments, tool.annotations),
                                              cfg.approval_timeout))
        if answer == "no":
            reply.warning(f"denied: {user_name}")
            return ToolOutcome(call.id, user_name, DENIED, denied=True)
        if answer == "always":
            always.add(user_name)

    reply.status(f"tool {user_name}")
    try:
        result = manager.call(tool, arguments, cancel)
    except ToolError as err:  # JSON-RPC error, time-out, server gone: the user hears, the model not
        reply.status(f"mcp: {user_name}: {err.one_line(prefix=False)}")
        return ToolOutcome(call.id, user_name, None)
    if not isinstance(result, dict):
        reply.status(f"mcp: {user_name}: the server sent a result that is not an object")
        return ToolOutcome(call.id, user_name, None)

    text = content.result_text(result)
    is_error = result.get("isError") is True
    if is_error:
        first = text.strip().splitlines()[0][:120] if text.strip() else "no details"
        reply.status(f"tool {user_name} reported an error: {first}")
        text = text if text.strip() else "The tool reported an error without details."
    elif not text.strip():
        text = "(the tool returned no content)"
    text, dropped = content.cut(text, cfg.max_result_chars)
    if dropped:
        reply.status(f"tool {user_name}: result cut to {cfg.max_result_chars:,} characters")
    return ToolOutcome(call.id, user_name, text, is_error=is_error)


def _parse_arguments(raw: str) -> Optional[dict]:
    """The argument object, ``{}`` for an empty string, None when it is not a JSON object."""
    if raw is None or not str(raw).strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
