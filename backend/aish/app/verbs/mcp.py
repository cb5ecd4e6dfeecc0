"""``aish mcp list | tools | tool NAME | connect ... | disconnect ALIAS`` (also ``? :mcp ...``).

connect takes
    URL [ALIAS]                       a Streamable HTTP or plain-JSON server
    ALIAS                             retry a configured server (e.g. after it failed at start)
    --stdio ALIAS [--] CMD [ARGS...]  a stdio server (the daemon starts CMD)
``--auth-env VAR`` before the URL sends ``Bearer $VAR`` to a runtime URL.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from aish.app.verbs.context import VerbContext
from aish.errors import AishError, NotFound
from aish.ipc.verbs import BY_NAME

if TYPE_CHECKING:
    from aish.mcp.manager import McpManager


USAGE = f"usage: {BY_NAME['mcp'].synopsis}"


def run(args: list[str], ctx: VerbContext) -> list[str]:
    manager = ctx.mcp
    if manager is None:
        raise AishError("MCP is not available in this daemon",
                        hint="restart the daemon: aish daemon stop; aish daemon start")
    sub, rest = (args[0], args[1:]) if args else ("list", [])
    if sub == "list":
        return _list(manager)
    if sub == "tools":
        return _tools(manager)
    if sub == "tool":
        if len(rest) != 1:
            raise AishError("usage: aish mcp tool ALIAS.NAME", hint="'aish mcp tools' lists the names")
        return _tool(manager, rest[0])
    if sub == "connect":
        line = _connect(manager, rest)
        if not line.startswith("mcp: connected "):  # the exit status must tell (scripts)
            raise AishError(line)
        return [_status(line)]
    if sub == "disconnect":
        if len(rest) != 1:
            raise AishError("usage: aish mcp disconnect ALIAS", hint="'aish mcp list' shows the aliases")
        return [_status(manager.disconnect(rest[0]))]
    raise AishError(f"unknown mcp command '{sub}'", hint=USAGE)


def _status(line: str) -> str:
    return f"[aish] {line}"


def _connect(manager: McpManager, rest: list[str]) -> str:
    auth_env = None
    if rest[:1] == ["--auth-env"]:
        if len(rest) < 2:
            raise AishError("--auth-env needs the name of an environment variable")
        auth_env, rest = rest[1], rest[2:]
    if rest[:1] == ["--stdio"]:
        rest = rest[1:]
        if not rest or rest[0] == "--":
            raise AishError("usage: aish mcp connect --stdio ALIAS -- CMD [ARGS...]")
        alias, argv = rest[0], rest[1:]
        if argv[:1] == ["--"]:
            argv = argv[1:]
        if not argv:
            raise AishError("usage: aish mcp connect --stdio ALIAS -- CMD [ARGS...]",
                            hint="e.g. aish mcp connect --stdio notes -- notes-mcp-server --read-only")
        return manager.connect(argv, alias)
    if not rest or len(rest) > 2:
        raise AishError(USAGE)
    target, alias = rest[0], (rest[1] if len(rest) == 2 else None)
    if auth_env:
        return manager.connect(target, alias, auth_env=auth_env)
    return manager.connect(target, alias)


def _list(manager: McpManager) -> list[str]:
    servers = manager.servers()
    if not servers:
        return ["[aish] no MCP servers (configure [mcp.servers.ALIAS] or 'aish mcp connect URL [ALIAS]')"]
    width = max(len(s.alias) for s in servers)
    lines = []
    for s in servers:
        if s.state == "connected":
            state = f"{s.tools} tool{'s' if s.tools != 1 else ''}, connected"
            if s.protocol_version:
                state += f" (MCP {s.protocol_version})"
        else:
            state = f"failed: {s.error}"
        lines.append(f"{s.alias:<{width}}  {s.kind:<5}  {s.target}  {state}")
    return lines


def _tools(manager: McpManager) -> list[str]:
    tools = manager.tools()
    if not tools:
        return ["[aish] no MCP tools ('aish mcp list' shows the servers)"]
    lines = []
    for tool in tools:
        desc = (tool.description.strip().splitlines() or [""])[0]
        if len(desc) > 80:
            desc = desc[:77] + "..."
        hint = " (read-only)" if tool.read_only else ""
        lines.append(f"{tool.user_name}{hint}" + (f" — {desc}" if desc else ""))
    return lines


def _tool(manager: McpManager, name: str) -> list[str]:
    tool = manager.tool(name)
    if tool is None:
        raise NotFound(f"no MCP tool named '{name}'", hint="'aish mcp tools' lists them")
    lines = [f"{tool.user_name}  (on the wire: {manager.wire_name(tool.user_name)})"]
    if tool.description:
        lines.extend(tool.description.strip().splitlines())
    if tool.annotations:
        lines.append("annotations: " + json.dumps(tool.annotations, sort_keys=True)
                     + ("" if tool.trusted else "  (hints from an untrusted server)"))
    lines.append("input schema:")
    lines.extend(json.dumps(tool.input_schema, indent=2, sort_keys=True, ensure_ascii=False).splitlines())
    return lines
