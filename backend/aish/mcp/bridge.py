"""One tool call of the model: resolve the name, check the arguments, ask, run, report.

The error split decides what the model sees: a tool that reports
``isError`` is answered (the model can read the error and re-plan), while a
protocol or transport failure, malformed arguments or an unknown tool produce
no tool turn at all, only a line for the user.

Secrets: the model only ever saw placeholders (``<secret:1>``).  A call that
carries one is asked about with that said, and the real value is put back
only after the user approved, just before the call leaves.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Optional

from aish.config.schema import McpConfig
from aish.errors import ToolError
from aish.ipc.cancel import CancelToken
from aish.ipc.reply import Reply
from aish.llm.events import ToolCall
from aish.mcp import approval, results
from aish.mcp.asks import UserSide

DENIED = "The user denied this tool call."
MAX_SHOWS = 3  # `s` answers to one question before it counts as "no"


@dataclass
class ToolOutcome:
    call_id: str
    user_name: str
    content: Optional[str]  # None: no tool turn (protocol error, malformed arguments, unknown tool)
    denied: bool = False
    is_error: bool = False


def run_tool_call(call: ToolCall, manager: Any, reply: Reply, cfg: McpConfig, always: set[str],
                  cancel: Optional[CancelToken] = None, *, restore: Optional[Callable[[str], str]] = None,
                  side: Optional[UserSide] = None) -> ToolOutcome:
    tool = manager.resolve(call.name)
    if tool is None:
        reply.warning(f"the model asked for an unknown tool '{call.name[:80]}'; call skipped")
        return ToolOutcome(call.id, call.name, None)
    user_name = tool.user_name
    arguments = _parse_arguments(call.arguments)
    if arguments is None:
        reply.warning(f"malformed arguments for {user_name}; call skipped")
        return ToolOutcome(call.id, user_name, None)

    secrets = tuple(p for p in approval.placeholders(arguments) if restore is not None and restore(p) != p)
    if secrets or approval.needs_approval(user_name, tool, cfg, always):
        answer = _ask(reply, user_name, arguments, tool.annotations, secrets, cfg.approval_timeout)
        if answer == "no":
            reply.warning(f"denied: {user_name}")
            return ToolOutcome(call.id, user_name, DENIED, denied=True)
        if answer == "always":
            always.add(user_name)
    if secrets and restore is not None:
        arguments = approval.restored(arguments, restore)

    reply.status(f"tool {user_name}")
    try:
        result = manager.call(tool, arguments, cancel, side=side)
    except ToolError as err:  # protocol error, time-out, server gone: the user hears, the model not
        reply.status(f"mcp: {user_name}: {_without_alias(err.one_line(prefix=False), tool.alias)}")
        return ToolOutcome(call.id, user_name, None)
    if not isinstance(result, dict):
        reply.status(f"mcp: {user_name}: the server sent a result that is not an object")
        return ToolOutcome(call.id, user_name, None)

    text = results.result_text(result)
    is_error = result.get("isError") is True
    if is_error:
        first = text.strip().splitlines()[0][:120] if text.strip() else "no details"
        reply.status(f"tool {user_name} reported an error: {first}")
        text = text if text.strip() else "The tool reported an error without details."
    elif not text.strip():
        text = "(the tool returned no content)"
    text, dropped = results.cut(text, cfg.max_result_chars)
    if dropped:
        reply.status(f"tool {user_name}: result cut to {cfg.max_result_chars:,} characters")
    return ToolOutcome(call.id, user_name, text, is_error=is_error)


def _ask(reply: Reply, user_name: str, arguments: dict, annotations: Optional[dict],
         secrets: tuple, timeout: float) -> str:
    """'yes', 'always' or 'no'; an ``s`` shows the whole call and asks again."""
    text = approval.question(user_name, arguments, annotations, secrets)
    for _ in range(MAX_SHOWS + 1):
        answer = approval.interpret(reply.ask(text, timeout))
        if answer != "show":
            return answer
        reply.text(approval.whole_call(user_name, arguments))
    return "no"


def _without_alias(message: str, alias: str) -> str:
    """``notes: the store is locked`` -> ``the store is locked`` (the line names the tool)."""
    return message[len(alias) + 2:] if message.startswith(f"{alias}: ") else message


def _parse_arguments(raw: str) -> Optional[dict]:
    """The argument object, ``{}`` for an empty string, None when it is not a JSON object."""
    if raw is None or not str(raw).strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
