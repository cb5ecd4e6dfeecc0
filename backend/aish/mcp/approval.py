"""Who may let a tool call run without asking, and the question asked otherwise.

Every call is asked about unless the user said otherwise: ``mcp.auto_approve``
entries (``alias.tool`` or ``alias.*``), an "a" answer earlier in this
conversation, or, opt-in, a read-only tool of a server the user marked
trusted.  Annotations are the server's own claims, so an untrusted server's
``readOnlyHint`` is shown to the user but never approves anything.  A call
that carries one of the user's secrets is always asked about.

The question shows every argument: long values are cut one by one (so a
short ``path`` is never hidden behind a long ``content``), and ``s`` at the
question shows the whole call before it is asked again.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

from aish.config.schema import McpConfig
from aish.mcp.tools import read_only_hint

if TYPE_CHECKING:
    from aish.mcp.tools import McpTool

VALUE_CHARS = 80  # a longer argument value is cut to this in the question
MAX_ARGS_CHARS = 800  # all arguments together


def needs_approval(user_name: str, tool: McpTool, cfg: McpConfig, always: set[str]) -> bool:
    if user_name in always:
        return False
    alias = user_name.split(".", 1)[0]
    for pattern in cfg.auto_approve:
        if pattern == user_name or pattern == f"{alias}.*":
            return False
    return not (cfg.auto_approve_read_only_trusted and tool.trusted and tool.read_only)


def question(user_name: str, arguments: dict, annotations: Optional[dict],
             secrets: tuple = ()) -> str:
    """``call notes.read_note {"name": "todo"} (read-only)? [y/N/a]``; ``[y/N/a/s]`` when
    something was cut (``s`` shows it all)."""
    args, cut = render(arguments)
    notes = [hint_text(annotations)]
    if secrets:
        notes.append(f"carries a secret: {', '.join(secrets)}")
    note = "; ".join(n for n in notes if n)
    return f"call {user_name} {args}" + (f" ({note})" if note else "") + ("? [y/N/a/s]" if cut else "? [y/N/a]")


def render(arguments: dict) -> tuple[str, bool]:
    """The arguments on one line, each long value cut on its own; (text, whether anything was cut)."""
    parts: list[str] = []
    cut, used = False, 0
    items = list(arguments.items())
    for index, (key, value) in enumerate(items):
        shown = _printable(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))
        if len(shown) > VALUE_CHARS:
            size = len(value) if isinstance(value, str) else len(shown)
            unit = "characters" if isinstance(value, str) else "characters of JSON"
            shown = f"{shown[:VALUE_CHARS // 2]}... ({size:,} {unit})"
            cut = True
        part = f"{_printable(json.dumps(str(key), ensure_ascii=False))}: {shown}"
        if used + len(part) > MAX_ARGS_CHARS and parts:
            parts.append(f"... ({len(items) - index} more arguments)")
            cut = True
            break
        parts.append(part)
        used += len(part) + 2
    return "{" + ", ".join(parts) + "}", cut


def whole_call(user_name: str, arguments: dict) -> str:
    """The call as the model sent it, every argument whole (for ``s`` at the question)."""
    body = json.dumps(arguments, ensure_ascii=False, indent=2)
    lines = [_printable(line) for line in body.splitlines()]
    return f"call {user_name}\n" + "\n".join(lines) + "\n"


def _printable(text: str) -> str:
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)


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
    """'yes', 'always', 'show' or 'no' from what ``Reply.ask`` returned (None = nobody answered)."""
    word = (answer or "").strip().lower()
    if word in ("a", "always"):
        return "always"
    if word in ("y", "yes"):
        return "yes"
    if word in ("s", "show"):
        return "show"
    return "no"


def placeholders(value: Any, found: Optional[list] = None) -> list:
    """Every ``<secret:N>`` in the (nested) argument strings, in order, once each."""
    from aish.safety.secrets import PLACEHOLDER

    found = [] if found is None else found
    if isinstance(value, str):
        for match in PLACEHOLDER.finditer(value):
            if match.group(0) not in found:
                found.append(match.group(0))
    elif isinstance(value, dict):
        for key, item in value.items():
            placeholders(key, found)
            placeholders(item, found)
    elif isinstance(value, list):
        for item in value:
            placeholders(item, found)
    return found


def restored(value: Any, restore: Any) -> Any:
    """``value`` with every string passed through ``restore`` (placeholders -> secrets)."""
    if isinstance(value, str):
        return restore(value)
    if isinstance(value, dict):
        return {restore(k) if isinstance(k, str) else k: restored(v, restore) for k, v in value.items()}
    if isinstance(value, list):
        return [restored(v, restore) for v in value]
    return value
