"""``aish mcp list | tools | tool | connect | disconnect | resources | resource | prompts | prompt``
(also ``? :mcp ...``).

connect takes
    URL [ALIAS]                       a Streamable HTTP (or, at a path ending in /sse, HTTP+SSE) server
    ALIAS                             (re)connect a configured or earlier run-time server
    --stdio ALIAS [--] CMD [ARGS...]  a stdio server, started in the caller's directory
options before those: ``--auth-env VAR`` (send ``Bearer $VAR`` from the caller's environment),
``--env NAME`` or ``--env NAME=VALUE`` (a variable for a stdio server), ``--sse`` / ``--http``.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Optional, Union

from aish.app.verbs.context import AskFor, VerbContext
from aish.errors import AishError, NotFound, UsageError
from aish.ipc.verbs import BY_NAME

if TYPE_CHECKING:
    from aish.mcp.manager import McpManager

USAGE = f"usage: {BY_NAME['mcp'].synopsis}"


def run(args: list[str], ctx: VerbContext) -> Union[list[str], AskFor]:
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
        line = _connect(manager, rest, ctx)
        if not line.startswith("mcp: connected "):  # the exit status must tell (scripts)
            raise AishError(line)
        return [_status(line)]
    if sub == "disconnect":
        if len(rest) != 1:
            raise AishError("usage: aish mcp disconnect ALIAS", hint="'aish mcp list' shows the aliases")
        line = manager.disconnect(rest[0])
        if not line.startswith("mcp: disconnected "):
            raise NotFound(line.removeprefix("mcp: "), hint="'aish mcp list' shows the aliases")
        return [_status(line)]
    if sub == "login":  # the sign-in needs a terminal and maybe a browser: the CLI runs it
        alias = rest[0] if rest else "ALIAS"
        raise UsageError("signing in runs in a terminal", hint=f"run: aish mcp login {alias}")
    if sub == "resources":
        return _resources(manager)
    if sub == "resource":
        return _resource(manager, rest, ctx)
    if sub == "prompts":
        return _prompts(manager)
    if sub == "prompt":
        return _prompt(manager, rest)
    raise UsageError(f"unknown mcp command '{sub}'", hint=USAGE)


def _status(line: str) -> str:
    return f"[aish] {line}"


def _connect(manager: McpManager, rest: list[str], ctx: VerbContext) -> str:
    auth_env: Optional[str] = None
    env: dict[str, Optional[str]] = {}  # --env NAME=VALUE, or NAME: the caller's value
    transport = "auto"
    stdio_alias: Optional[str] = None
    while rest and rest[0].startswith("--") and rest[0] != "--":
        flag = rest.pop(0)
        if flag in ("--auth-env", "--env", "--stdio") and not rest:
            raise AishError(f"{flag} needs a value", hint=USAGE)
        if flag == "--auth-env":
            auth_env = rest.pop(0)
        elif flag == "--env":
            name, eq, given = rest.pop(0).partition("=")
            env[name] = given if eq else None
        elif flag in ("--sse", "--http"):
            transport = flag[2:]
        elif flag == "--stdio":
            stdio_alias = rest.pop(0)
        else:
            raise AishError(f"unknown option {flag}", hint=USAGE)
    if rest[:1] == ["--"]:
        rest = rest[1:]
    environ = _callers_environment(ctx) if (stdio_alias or auth_env or env) else None
    if stdio_alias is not None:
        if not rest:
            raise AishError("usage: aish mcp connect --stdio ALIAS -- CMD [ARGS...]",
                            hint="e.g. aish mcp connect --stdio notes -- notes-mcp-server --read-only")
        named = {}
        for name, value in env.items():
            if value is None:
                value = (environ or {}).get(name)
                if value is None:
                    raise AishError(f"--env {name}: not set (or withheld) where you ran the command",
                                    hint=f"--env {name}=VALUE gives the value itself")
            named[name] = value
        return manager.connect(rest, stdio_alias, cwd=ctx.cwd or None, environ=environ, env=named)
    if not rest or len(rest) > 2:
        raise AishError(USAGE)
    target, alias = rest[0], (rest[1] if len(rest) == 2 else None)
    return manager.connect(target, alias, auth_env=auth_env, environ=environ, transport=transport)


def _callers_environment(ctx: VerbContext) -> Optional[dict]:
    """The CLI's exported variables (sent with the request), else the asking shell's
    (fetched now); None when neither can be had (then the daemon's own apply)."""
    if ctx.environ:
        return dict(ctx.environ)
    if ctx.variables is not None:
        return ctx.variables()
    return None


def _list(manager: McpManager) -> list[str]:
    manager.check_remote()
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
        elif s.state == "connecting":
            state = "connecting"
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
    tool = manager.resolve(name)
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


def _resources(manager: McpManager) -> list[str]:
    from aish.mcp import catalog

    entries, problems = catalog.resources(manager)
    lines = [f"{e.alias}  {e.name}" + (f"  {e.title}" if e.title else "")
             + (f" — {e.description[:80]}" if e.description else "") for e in entries]
    lines += [_status(f"mcp: {p}") for p in problems]
    return lines or ["[aish] no MCP resources ('? :mcp resource URI' attaches one to the next question)"]


def _resource(manager: McpManager, rest: list[str], ctx: VerbContext) -> list[str]:
    """Attach a resource to this shell's next question (as ``? :tree`` does)."""
    from aish.mcp import catalog

    if len(rest) != 1:
        raise AishError("usage: aish mcp resource URI", hint="'aish mcp resources' lists them")
    alias, uri = None, rest[0]
    head, sep, tail = uri.partition(":")
    if sep and head in {s.alias for s in manager.servers()} and not tail.startswith("//"):
        alias, uri = head, tail
    owner, text = catalog.read_resource(manager, uri, alias)
    limit = ctx.config.mcp.max_result_chars
    from aish.mcp import results

    body, dropped = results.cut(text, limit)
    if ctx.session is not None:
        ctx.session.attachments.append(f"[resource {uri} from {owner}]\n{body}")
    cut = f", cut to {limit:,} characters" if dropped else ""
    return [_status(f"{uri} ({len(text):,} characters{cut}) goes with your next question")]


def _prompts(manager: McpManager) -> list[str]:
    from aish.mcp import catalog

    entries, problems = catalog.prompts(manager)
    lines = []
    for e in entries:
        args = " ".join(f"{name}=..." if required else f"[{name}=...]" for name, required in e.arguments)
        lines.append(f"{e.alias}.{e.name}" + (f" {args}" if args else "")
                     + (f" — {e.description[:80]}" if e.description else ""))
    lines += [_status(f"mcp: {p}") for p in problems]
    return lines or ["[aish] no MCP prompts"]


def _prompt(manager: McpManager, rest: list[str]) -> AskFor:
    """Ask the model with a server's prompt (its messages become the question)."""
    from aish.mcp import catalog

    if not rest:
        raise AishError("usage: aish mcp prompt NAME [ARG=VALUE...]", hint="'aish mcp prompts' lists them")
    arguments = {}
    for item in rest[1:]:
        name, eq, value = item.partition("=")
        if not eq:
            raise AishError(f"'{item}' is not ARG=VALUE", hint="aish mcp prompt NAME ARG=VALUE ...")
        arguments[name] = value
    text = catalog.get_prompt(manager, rest[0], arguments)
    if not text.strip():
        raise AishError(f"the prompt {rest[0]} is empty")
    return AskFor("question", "", text)
