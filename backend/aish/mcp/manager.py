"""Every MCP server of the daemon: connect, list, map tool names, dispatch, close.

Why one object: the daemon serves many shells at once, and they share the
servers (one session each, not one per shell); the wire-name map must cover
all tools so a name the model sends resolves to exactly one server.
Configured servers connect in parallel when the daemon starts, best effort: a
server that fails is reported once and kept in the list as failed until
``aish mcp connect ALIAS`` retries it.
"""
from __future__ import annotations

import hashlib
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Optional, Union

from aish.ipc.cancel import CancelToken
from aish.config.schema import McpConfig, McpServerConfig
from aish.errors import AishError, ToolError
from aish.mcp import names
from aish.mcp.session import McpSession, McpTool

_ALIAS = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


@dataclass
class ServerStatus:
    alias: str
    target: str  # URL (without user info or query) or the command line
    kind: str  # "http" or "stdio"
    state: str  # "connected" or "failed"
    tools: int = 0
    error: str = ""
    protocol_version: Optional[str] = None


class McpManager:
    def __init__(self, cfg: McpConfig, log: Optional[logging.Logger] = None) -> None:
        self.cfg = cfg
        self.log = log or logging.getLogger("aish.mcp")
        self._lock = threading.Lock()
        self._sessions: dict[str, McpSession] = {}
        self._servers: dict[str, McpServerConfig] = {}  # every alias we tried, configured or not
        self._failed: dict[str, str] = {}
        self._wire: dict[str, McpTool] = {}
        self._user: dict[str, str] = {}  # user name -> wire name

    def update_config(self, cfg: McpConfig) -> None:
        """Take an edited config; sessions stay as they are.

        A newly configured alias is connected by the next ``connect_configured``
        (it only tries aliases it never tried) or by ``aish mcp connect ALIAS``.
        """
        self.cfg = cfg

    # ---------------------------------------------------------------- connecting
    def connect_configured(self) -> list[str]:
        """Connect every configured server in parallel; one status line per failure."""
        with self._lock:  # once: a failed server waits for 'aish mcp connect ALIAS'
            servers = [s for s in self.cfg.servers.values() if s.alias not in self._servers]
        if not servers:
            return []
        with ThreadPoolExecutor(max_workers=min(8, len(servers)), thread_name_prefix="aish-mcp") as pool:
            results = list(pool.map(self._try_open, servers))
        return [line for ok, line in results if not ok]

    def connect(self, target: Union[str, list], alias: Optional[str] = None, *,
                auth_env: Optional[str] = None) -> str:
        """Connect a URL or a stdio argv (or retry a configured alias); returns a status line."""
        if isinstance(target, str) and alias is None and target in self.cfg.servers:
            server = self.cfg.servers[target]
        elif isinstance(target, str):
            if "://" not in target:
                known = ", ".join(self.cfg.servers) or "none"
                return (f"mcp: '{target}' is neither a URL nor a configured server "
                        f"(configured: {known})")
            alias = alias or _default_alias(target)
            configured = self.cfg.servers.get(alias)
            if configured is not None and configured.url == target:
                server = configured
            else:
                server = McpServerConfig(alias=alias, url=target, auth_env=auth_env)
        else:
            argv = [str(a) for a in target]
            if not argv:
                return "mcp: a stdio server needs a command"
            alias = alias or _default_alias(" ".join(argv))
            server = McpServerConfig(alias=alias, command=argv)
        with self._lock:
            current = self._servers.get(server.alias)
            if server.alias in self._sessions and current is not None and (current.command, current.url) != (server.command, server.url):
                return (f"mcp: '{server.alias}' is already connected to {_target(current)} "
                        f"(disconnect it first, or choose another alias)")
        self._drop(server.alias)
        ok, line = self._try_open(server)
        return line

    def disconnect(self, alias: str) -> str:
        with self._lock:
            known = alias in self._sessions or alias in self._failed
        if not known:
            names_ = ", ".join(sorted(self._sessions)) or "none"
            return f"mcp: no server named '{alias}' (connected: {names_})"
        self._drop(alias)
        with self._lock:
            self._failed.pop(alias, None)
        return f"mcp: disconnected {alias}"

    def close_all(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
            self._rebuild()
        for session in sessions:
            _close(session, self.log)

    # ---------------------------------------------------------------- tools
    def openai_tools(self) -> list[dict]:
        """The ``tools`` field of a chat request ([] when there are none: omit the field)."""
        with self._lock:
            items = sorted(self._wire.items())
        out = []
        for wire, tool in items:
            params = dict(tool.input_schema)
            params.setdefault("type", "object")
            if params.get("type") == "object":
                params.setdefault("properties", {})
            function = {"name": wire, "description": tool.description or tool.user_name,
                        "parameters": params}
            out.append({"type": "function", "function": function})
        return out

    def has_tools(self) -> bool:
        with self._lock:
            return bool(self._wire)

    def resolve(self, name: str) -> Optional[McpTool]:
        """The tool behind a wire name; a dotted user name is accepted too (models echo them)."""
        with self._lock:
            tool = self._wire.get(name)
            if tool is None and name in self._user:
                tool = self._wire.get(self._user[name])
            return tool

    def wire_name(self, user_name: str) -> Optional[str]:
        with self._lock:
            return self._user.get(user_name)

    def tools(self) -> list[McpTool]:
        with self._lock:
            return sorted(self._wire.values(), key=lambda t: t.user_name)

    def tool(self, user_name: str) -> Optional[McpTool]:
        return self.resolve(user_name)

    def call(self, tool: McpTool, arguments: dict, cancel: Optional[CancelToken] = None) -> dict:
        with self._lock:
            session = self._sessions.get(tool.alias)
        if session is None:
            raise ToolError(f"{tool.alias} is not connected", hint=f"aish mcp connect {tool.alias}")
        return session.call_tool(tool.name, arguments, cancel)

    def timeout(self, alias: str) -> float:
        with self._lock:
            server = self._servers.get(alias)
        return server.timeout if server else 30.0

    def servers(self) -> list[ServerStatus]:
        """Connected and failed servers, by alias (for ``aish mcp list``)."""
        with self._lock:
            out = []
            for alias in sorted(set(self._sessions) | set(self._failed)):
                server = self._servers[alias]
                kind = "stdio" if server.command else "http"
                session = self._sessions.get(alias)
                if session is not None:
                    out.append(ServerStatus(alias, _target(server), kind, "connected", len(session.tools),
                                            protocol_version=session.protocol_version))
                else:
                    out.append(ServerStatus(alias, _target(server), kind, "failed",
                                            error=self._failed[alias]))
            return out

    # ---------------------------------------------------------------- details
    def _try_open(self, server: McpServerConfig) -> tuple[bool, str]:
        alias = server.alias
        with self._lock:
            self._servers[alias] = server
        try:
            session = self._open(server)
        except AishError as err:
            message = err.one_line(prefix=False)
            with self._lock:
                self._failed[alias] = message
            self.log.warning("mcp: %s: %s", alias, message)
            return False, f"mcp: {alias}: {message}; retry: aish mcp connect {alias}"
        except Exception as exc:  # a server must never take the daemon down
            self.log.exception("mcp: %s: unexpected failure", alias)
            with self._lock:
                self._failed[alias] = type(exc).__name__
            return False, f"mcp: {alias}: failed ({type(exc).__name__}; see the daemon log)"
        with self._lock:
            self._failed.pop(alias, None)
            self._sessions[alias] = session
            self._rebuild()
        count = len(session.tools)
        return True, f"mcp: connected {alias} ({count} tool{'s' if count != 1 else ''})"

    def _open(self, server: McpServerConfig) -> McpSession:
        if not _ALIAS.match(server.alias or ""):
            raise ToolError(f"alias '{server.alias}' is not usable",
                            hint="use letters, digits, '_' or '-' (no dots), at most 32 characters")
        if server.command:
            from aish.mcp.stdio import StdioTransport

            transport = StdioTransport(list(server.command), env=server.env, log=self.log)
        else:
            from aish.mcp.http import HttpTransport

            transport = HttpTransport(str(server.url), bearer=server.bearer(), log=self.log)
        session = McpSession(server.alias, transport, timeout=server.timeout,
                             trusted=server.trusted, log=self.log)
        try:
            return session.open()
        except BaseException:
            _close(session, self.log)
            raise

    def _drop(self, alias: str) -> None:
        with self._lock:
            session = self._sessions.pop(alias, None)
            self._rebuild()
        if session is not None:
            _close(session, self.log)

    def _rebuild(self) -> None:
        """Recompute the wire names (caller holds the lock)."""
        tools = {t.user_name: t for s in self._sessions.values() for t in s.tools}
        mapping = names.build(tools)
        self._user = mapping
        self._wire = {wire: tools[user] for user, wire in mapping.items()}


def _default_alias(target: str) -> str:
    """No alias given: a short hash of the URL or command."""
    return "mcp_" + hashlib.sha256(target.encode("utf-8")).hexdigest()[:6]


def _target(server: McpServerConfig) -> str:
    """What ``aish mcp list`` shows: a token on a stdio command line is masked."""
    if server.command:
        import shlex

        from aish.safety.secrets import mask

        return mask(" ".join(shlex.quote(str(a)) for a in server.command))
    from aish.mcp.http import display_url

    return display_url(str(server.url))


def _close(session: McpSession, log: logging.Logger) -> None:
    try:
        session.close()
    except Exception:
        log.exception("mcp: closing %s failed", session.alias)
