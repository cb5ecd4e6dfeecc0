"""Meta verbs: ``aish <verb>`` on the command line and ``? :verb`` in the shell.

Each verb module exposes ``run(args, ctx) -> list[str]`` (lines to print) and
raises ``AishError`` subclasses for bad usage.  They run inside the daemon, so
runtime toggles (``route on``) apply to the running daemon.  No click here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional


@dataclass
class VerbContext:
    """What a verb may read or change; built by ``service.py`` for each verb request."""

    config: Any  # aish.config.Config (effective, with runtime overrides applied)
    overrides: dict  # daemon-wide runtime toggles: {"auto": bool, "fallback": bool}
    conversation: Any = None  # aish.chat.conversation.Conversation of the asking client
    usage: Any = None  # aish.cost.usage.UsageTotals of that conversation
    ledger: Any = None  # aish.cost.ledger.Ledger (cross-session)
    mcp: Any = None  # aish.mcp.manager.McpManager
    buffer: str = ""  # the shell's current buffer (for `:explain`)
    json: bool = False  # `--json`: verbs that support it return one JSON line
    extra: dict = field(default_factory=dict)
    ask: Optional[Callable[..., Any]] = None  # run an ask (for `:explain`)


HELP = [
    "aish verbs (also as '? :verb' in the shell):",
    "  reset                      start the conversation afresh (usage totals are kept)",
    "  route on|off|classes|check TEXT   model routing by task",
    "  fallback on|off            retry once on the fallback model when the local one fails",
    "  cost [detail|reset] [--today|--week|--all] [--json]   tokens and money",
    "  mcp list|tools|tool NAME|connect URL [ALIAS]|disconnect ALIAS   MCP tool servers",
    "  explain                    explain the command on the prompt line",
    "  status                     what the daemon is using",
]


def dispatch(service: Any, request: Any, reply: Any) -> tuple[list, Optional[dict]]:
    """Run one verb request inside the daemon; returns (lines, json-able data or None)."""
    from aish.errors import AishError

    argv = [a for a in request.argv if a != ""]
    if not argv or argv[0] in ("help", "-h", "--help"):
        return list(HELP), None
    verb, args = argv[0].lstrip(":"), argv[1:]
    if verb == "reset":
        conv = service.conversation(request.conv)
        conv.reset()
        return ["[aish] conversation reset (usage totals kept; 'aish cost reset' clears them)"], None
    if verb == "status":
        cfg = service.config()
        lines = [f"[aish] default model: {cfg.default_model}"
                 + (f" ({cfg.detected})" if cfg.detected else f" (config {cfg.source})")]
        for name, model in cfg.models.items():
            lines.append(f"  {name}: {model.model} at {model.endpoint}"
                         + (" (local)" if model.is_local else ""))
        lines.append(f"  routing auto={'on' if cfg.routing.auto else 'off'}, "
                     f"fallback={'on' if cfg.routing.fallback else 'off'}")
        return lines, None
    ctx = VerbContext(config=service.config(), overrides=service.overrides, buffer=request.buffer,
                      json="--json" in args)
    if verb in ("route", "fallback"):
        from aish.app.verbs import route

        return route.run([verb, *args], ctx), None
    if verb == "cost":
        from aish.app.verbs import cost

        conv = service.conversation(request.conv)
        ctx.conversation, ctx.usage, ctx.ledger = conv, conv.usage, service.ledger()
        lines = cost.run(args, ctx)
        if args[:1] == ["reset"] and conv.log:
            conv.log.append({"type": "cost_reset"})
        return lines, None
    if verb == "mcp":
        from aish.app.verbs import mcp

        ctx.mcp = service.mcp()
        ctx.conversation = service.conversation(request.conv)
        return mcp.run(args, ctx), None
    raise AishError(f"unknown verb '{verb}'", hint="'aish help' lists them")
