"""Who may let a tool call run without asking, and the question asked otherwise.

Every call is asked about unless the user said otherwise: ``mcp.auto_approve``
entries (``alias.tool`` or ``alias.*``), an "a" answer earlier in this
conversation, or, opt-in, a read-only tool of a server the user marked
trusted.  Annotations are the server's own claims, so an untrusted server's
``readOnlyHint`` is shown to the user but never approves anything.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Optional

from aish.config.schema import McpConfig
from aish.mcp.session import read_only_hint

if TYPE_CHECKING:
    from aish.mcp.session import McpTool

MAX_ARGS_CHARS = 200


def needs_approval(user_name: str, tool: McpTool, cfg: McpConfig, always: set[str]) -> bool:
    if user_name in always:
        return False
    alias = user_name.split(".", 1)[0]
    for pattern in cfg.auto_approve:
        if pattern == user_name or pattern == f"{alias}.*":
            return False
    return not (cfg.auto_approve_read_only_trusted and tool.trusted and tool.read_only)


def question(user_name: str, arguments: dict, annotations: Optional[dict]) -> str:
    """``call notes.read_note {"name": "todo"} (read-only)? [y/N/a]``"""
    args = json.dumps(arguments, ensure_ascii=False, separators=(", ", ": "))
    args = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in args)
    if len(args) > MAX_ARGS_CHARS:
        args = args[:MAX_ARGS_CHARS] + f"... ({len(args) - MAX_ARGS_CHARS:,} more characters)"
    hint = hint_text(annotations)
    return f"call {user_name} {args}" + (f" ({hint})" if hint else "") + "? [y/N/a]"


def hint_text(annotations: Optional[dict]) -> str:
    """"read-only" or "destructive" from the tool's annotations; "" without annotations.

    The spec's default for ``destructiveHint`` is true, but saying
    "destructive" for every tool without annotations would teach users to
    ignore the word, so it is only shown when the server said so explicitly.
    """
    if not annotations:
        return ""
    if read_only_hint(annotations):
        return "read-only"
    if annotations.get("destructiveHint") is True:
        return "destructive"
    return ""


def interpret(answer: Optional[str]) -> str:
    """'yes', 'always' or 'no' from what ``Reply.ask`` returned (None = nobody answered)."""
    word = (answer or "").strip().lower()
    if word in ("a", "always"):
        return "always"
    if word in ("y", "yes"):
        return "yes"
    return "no"
