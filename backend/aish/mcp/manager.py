"""Every MCP server of the daemon: follow the config, connect in the background, map tool
names, dispatch calls, say once what went wrong.

Why one object: the daemon serves many shells at once and they share the servers (one
session each, not one per shell); the wire-name map must cover all tools so a name the
model sends resolves to exactly one server.

Connecting never stands in front of a question: configured servers connect on the MCP
loop while the daemon answers; an ask waits at most ``mcp.connect_wait`` for those still
connecting and says which it went on without.  The config is followed at every use: a
server removed from it is disconnected, one whose command, URL, environment or token
changed is restarted, and trust or tool filters apply to the next question.  A stdio
server that exits is restarted once, visibly; the second time its tools are withdrawn and
the line names the retry.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Union

from aish.config.schema import McpConfig, McpServerConfig
from aish.errors import AishError, ToolError
from aish.ipc.cancel import CancelToken
from aish.mcp import loop, names, spec as specs
from aish.mcp.asks import UserSide
from aish.mcp.tools import McpTool, allowed

_ALIAS = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
PROVIDER_TOOL_LIMIT = 128  # OpenAI's limit on `tools`; others are near it
SETTLE_MARGIN = 15.0
IMPORT_WAIT = 30.0  # the longest a question waits for the SDK's import (local work, seconds)


@dataclass
class ServerStatus:
    alias: str
    target: str  # URL (without user info or query) or the command line
    kind: str  # "stdio", "http" or "sse"
    state: str  # "connected", "connecting" or "failed"
    tools: int = 0
    error: str = ""
    protocol_version: Optional[str] = None


@dataclass
class _Entry:
    spec: specs.ServerSpec
    state: str = "connecting"
    conn: Any = None  # Connection (connecting or connected)
    error: str = ""
    restarts: int = 0
    gen: int = 0
    started: float = 0.0  # when its handshake began (after the SDK was imported)


class McpManager:
    def __init__(self, cfg: McpConfig, log: Optional[logging.Logger] = None) -> None:
        self.cfg = cfg
        self.log = log or logging.getLogger("aish.mcp")
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._entries: dict[str, _Entry] = {}
        self._known: dict[str, specs.ServerSpec] = {}  # run-time servers, so `connect ALIAS` retries them
        self._notices: list[str] = []
        self._wire: dict[str, McpTool] = {}
        self._user: dict[str, str] = {}  # user name -> wire name
        self._gen = 0
        self._roots: list[str] = []
        self._over_limit = False
        self._started = False

    # ------------------------------------------------------------ following the config
    def start(self) -> None:
        """Connect every configured server in the background (returns at once)."""
        with self._lock:
            if self._started:
                return  # update_config follows every later change
            self._started = True
        self._reconcile()

    def update_config(self, cfg: McpConfig) -> None:
        """Take the current config: removed servers go, changed ones restart, new ones connect,
        trust and tool filters apply from now on."""
        with self._lock:
            self.cfg = cfg
            started = self._started
            self._rebuild()
        if started:
            self._reconcile()

    def _reconcile(self) -> None:
        with self._lock:
            configured = dict(self.cfg.servers)
            entries = dict(self._entries)
        for alias, server in configured.items():
            entry = entries.get(alias)
            try:
                wanted = self._spec_of(server)
            except AishError as err:
                if entry is None or entry.error != err.one_line(prefix=False):
                    self._fail_config(alias, server, err)
                continue
            if entry is None or entry.spec != wanted:
                self._begin(wanted)
        for alias, entry in entries.items():
            if entry.spec.origin == "config" and alias not in configured:
                self._drop(alias, wait=False)

    def _spec_of(self, server: McpServerConfig) -> specs.ServerSpec:
        if not _ALIAS.match(server.alias or ""):
            raise ToolError(f"alias '{server.alias}' is not usable",
                            hint="use letters, digits, '_' or '-' (no dots), at most 32 characters")
        return specs.from_config(server, server.transport)

    def _fail_config(self, alias: str, server: McpServerConfig, err: AishError) -> None:
        line = err.one_line(prefix=False)
        placeholder = specs.ServerSpec(alias=alias, kind="stdio" if server.command else "http",
                                       argv=tuple(map(str, server.command or ())), url=server.url)
        with self._lock:
            self._entries[alias] = _Entry(placeholder, state="failed", error=line)
            self._notices.append(f"mcp: {alias}: {line}")

    # ------------------------------------------------------------ connecting
    def connect_configured(self) -> list[str]:
        """Start, wait until every server connected or failed, and return the failure lines."""
        self.start()
        self.settle(_connect_bound(self._longest_timeout()))
        return self.notices()

    def settle(self, timeout: float) -> bool:
        """Wait until no server is connecting; False when some still are after ``timeout``."""
        with self._changed:
            return self._changed.wait_for(
                lambda: not any(e.state == "connecting" for e in self._entries.values()), timeout)

    def wait_for_question(self, wait: float) -> list[str]:
        """Wait for servers still connecting, each at most ``wait`` seconds after its handshake
        began (the SDK's import before it is local work every server shares); returns the
        aliases still connecting, which the question goes without.  ``wait`` 0: no wait at all."""
        if wait <= 0:
            return self.connecting()
        give_up = time.monotonic() + wait + IMPORT_WAIT
        with self._changed:
            while True:
                now = time.monotonic()
                pending = [e for e in self._entries.values() if e.state == "connecting"]
                waiting = [e.started + wait - now if e.started else 0.25 for e in pending]
                if not pending or now >= give_up or all(w <= 0 for w in waiting):
                    return sorted(e.spec.alias for e in pending)
                self._changed.wait(min(w for w in waiting if w > 0))

    def connecting(self) -> list[str]:
        with self._lock:
            return sorted(a for a, e in self._entries.items() if e.state == "connecting")

    def connect(self, target: Union[str, list], alias: Optional[str] = None, *,
                auth_env: Optional[str] = None, cwd: Optional[str] = None,
                environ: Optional[Mapping[str, Optional[str]]] = None,
                env: Optional[Mapping[str, str]] = None, transport: str = "auto") -> str:
        """Connect a URL or a stdio argv, or (re)connect a known alias; returns one status line.

        ``cwd`` and ``environ`` are the calling shell's: a run-time server starts in its
        directory, finds its command on its PATH and reads ``auth_env`` from it.
        """
        try:
            wanted = self._runtime_spec(target, alias, auth_env, cwd, environ, env or {}, transport)
        except AishError as err:
            return f"mcp: {err.one_line(prefix=False)}"
        with self._lock:
            entry = self._entries.get(wanted.alias)
            if entry is not None and entry.state == "connected" and entry.spec.origin == "runtime" \
                    and (entry.spec.argv, entry.spec.url) != (wanted.argv, wanted.url):
                return (f"mcp: '{wanted.alias}' is already connected to {entry.spec.target} "
                        f"(disconnect it first, or choose another alias)")
        future = self._begin(wanted, user=True)
        try:
            ok, line = future.result(_connect_bound(wanted.timeout))
        except Exception as exc:  # noqa: BLE001 - a time-out of the wait itself, or a bug: one line
            future.cancel()
            self._drop(wanted.alias, wait=True)
            return f"mcp: {wanted.alias}: connecting failed ({type(exc).__name__})"
        if ok and wanted.origin == "runtime":
            with self._lock:
                self._known[wanted.alias] = wanted
        return line

    def _runtime_spec(self, target: Union[str, list], alias: Optional[str], auth_env: Optional[str],
                      cwd: Optional[str], environ: Optional[Mapping[str, Optional[str]]],
                      env: Mapping[str, str], transport: str) -> specs.ServerSpec:
        environ = os.environ if environ is None else environ
        if isinstance(target, str) and alias is None and "://" not in target:
            if target in self.cfg.servers:
                return self._spec_of(self.cfg.servers[target])
            with self._lock:
                known = self._known.get(target)
            if known is not None:
                return known
            configured = ", ".join(sorted(self.cfg.servers)) or "none"
            raise ToolError(f"'{target}' is neither a URL nor a known server (configured: {configured})")
        if isinstance(target, str):
            if "://" not in target:
                raise ToolError(f"'{target}' is not a URL", hint="aish mcp connect URL [ALIAS]")
            alias = alias or default_alias(target)
            check_alias(alias)
            same = self.cfg.servers.get(alias)
            if same is not None and same.url == target and not auth_env:
                return self._spec_of(same)
            token = None
            if auth_env:
                token = environ.get(auth_env)
                if not token:
                    state = "withheld by the shell (its name looks secret)" if auth_env in environ \
                        else "not set"
                    raise ToolError(f"{auth_env} is {state} where you ran the command",
                                    hint=f"export {auth_env}, then run 'aish mcp connect' from that terminal")
            return specs.runtime_remote(alias, target, token, transport)
        argv = [str(a) for a in target]
        alias = alias or default_alias(" ".join(argv))
        check_alias(alias)
        return specs.runtime_stdio(alias, argv, cwd or os.getcwd(), environ, env)

    def _begin(self, wanted: specs.ServerSpec, *, user: bool = False, restarts: int = 0) -> Any:
        """Start connecting ``wanted`` (replacing whatever had its alias); a future of (ok, line)."""
        with self._lock:
            self._gen += 1
            old = self._entries.get(wanted.alias)
            entry = _Entry(wanted, gen=self._gen, restarts=restarts)
            self._entries[wanted.alias] = entry
            self._rebuild()
        return loop.submit(self._connect(entry, old.conn if old is not None else None, user))

    async def _connect(self, entry: _Entry, old: Any, user: bool) -> tuple:
        from aish.mcp.connection import Connection

        if old is not None:
            await old.close()
        alias = entry.spec.alias
        conn = Connection(entry.spec, max_bytes=self._max_bytes(), roots=self.roots,
                          on_event=self._on_event, log=self.log)
        with self._changed:
            if self._entries.get(alias) is not entry:
                return False, f"mcp: {alias}: replaced while connecting"
            entry.conn, entry.started = conn, time.monotonic()
            self._changed.notify_all()
        try:
            await conn.open()
        except AishError as err:
            return self._failed(entry, err.one_line(prefix=False), user)
        except Exception as exc:  # noqa: BLE001 - a server must never take the daemon down
            self.log.exception("mcp: %s: unexpected failure", alias)
            await conn.close()
            return self._failed(entry, f"failed ({type(exc).__name__}; see the daemon log)", user)
        with self._changed:
            current = self._entries.get(alias) is entry
            if current:
                entry.state, entry.error = "connected", ""
                self._rebuild()
                self._changed.notify_all()
        if not current:
            await conn.close()
            return False, f"mcp: {alias}: replaced while connecting"
        count = len(conn.tools)
        return True, f"mcp: connected {alias} ({count} tool{'s' if count != 1 else ''})"

    def _failed(self, entry: _Entry, message: str, user: bool) -> tuple:
        alias = entry.spec.alias
        line = f"mcp: {alias}: {message}; retry: aish mcp connect {alias}"
        with self._changed:
            if self._entries.get(alias) is entry:
                if entry.spec.origin == "runtime" and not entry.restarts:
                    del self._entries[alias]  # it never worked: the user saw why, nothing to list
                else:
                    entry.state, entry.error, entry.conn = "failed", message, None
                    if not user:
                        self._notices.append(line)
                self._rebuild()
                self._changed.notify_all()
        self.log.warning("mcp: %s: %s", alias, message)
        return False, line

    def _on_event(self, conn: Any, kind: str) -> None:
        """A connection's news, on the loop: its tools changed, or it was lost."""
        alias = conn.spec.alias
        with self._changed:
            entry = self._entries.get(alias)
            if entry is None or entry.conn is not conn:
                return
            if kind == "tools":
                self._rebuild()
                return
            why = conn.error.one_line(prefix=False) if conn.error else "connection lost"
            if entry.restarts == 0:
                self._notices.append(f"mcp: {why}; restarted it")
                restart = True
            else:
                entry.state, entry.error, entry.conn = "failed", why, None
                self._notices.append(f"mcp: {why} again; its tools are withdrawn; "
                                     f"retry: aish mcp connect {alias}")
                self._rebuild()
                self._changed.notify_all()
                restart = False
        if restart:
            self._begin(entry.spec, restarts=1)

    # ------------------------------------------------------------ disconnecting
    def disconnect(self, alias: str) -> str:
        with self._lock:
            known = alias in self._entries
            listed = ", ".join(sorted(self._entries)) or "none"
        if not known:
            return f"mcp: no server named '{alias}' (connected: {listed})"
        self._drop(alias, wait=True)
        return f"mcp: disconnected {alias}"

    def _drop(self, alias: str, wait: bool) -> None:
        with self._changed:
            entry = self._entries.pop(alias, None)
            self._rebuild()
            self._changed.notify_all()
        if entry is None or entry.conn is None:
            return
        future = loop.submit(entry.conn.close())
        if wait:
            try:
                future.result(15)
            except Exception:  # noqa: BLE001 - closing is best effort
                self.log.info("mcp: closing %s did not finish", alias)

    def close_all(self) -> None:
        """Close every session (the daemon stops); run-time servers stay retryable by alias."""
        with self._changed:
            entries, self._entries = list(self._entries.values()), {}
            self._rebuild()
            self._changed.notify_all()
        conns = [e.conn for e in entries if e.conn is not None]
        if not conns:
            return

        async def close_each() -> None:
            import asyncio

            await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)

        try:
            loop.run(close_each(), timeout=15)
        except Exception:  # noqa: BLE001
            self.log.info("mcp: closing the sessions did not finish")

    # ------------------------------------------------------------ tools
    def _rebuild(self) -> None:
        """Recompute the offered tools and their wire names (caller holds the lock)."""
        tools: dict[str, McpTool] = {}
        for alias, entry in self._entries.items():
            if entry.state != "connected" or entry.conn is None:
                continue
            server = self.cfg.servers.get(alias) if entry.spec.origin == "config" else None
            trusted = bool(server.trusted) if server is not None else False
            enabled = server.enabled_tools if server is not None else []
            disabled = server.disabled_tools if server is not None else []
            for tool in entry.conn.tools:
                if allowed(tool.name, enabled, disabled):
                    tools[tool.user_name] = tool.with_trust(trusted)
        mapping = names.build(tools)
        self._user = mapping
        self._wire = {wire: tools[user] for user, wire in mapping.items()}
        over = len(self._wire) > PROVIDER_TOOL_LIMIT
        if over and not self._over_limit:
            self._notices.append(f"mcp: {len(self._wire)} tools are offered; many providers accept at most "
                                 f"{PROVIDER_TOOL_LIMIT} (set enabled_tools / disabled_tools of a server)")
        self._over_limit = over

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

    def call(self, tool: McpTool, arguments: dict, cancel: Optional[CancelToken] = None,
             side: Optional[UserSide] = None) -> dict:
        """Run a tool; a server that forgot our session is initialized again and asked once more."""
        from aish.mcp.connection import SessionGone

        conn = self._connection(tool.alias)
        try:
            return loop.run(conn.call_tool(tool.name, arguments, side), cancel=cancel)
        except SessionGone:
            self.log.info("mcp: %s: session gone; initializing again", tool.alias)
        future = self._begin(conn.spec)
        ok, line = future.result(_connect_bound(conn.spec.timeout))
        if not ok:
            raise ToolError(line.removeprefix("mcp: "))
        try:
            return loop.run(self._connection(tool.alias).call_tool(tool.name, arguments, side), cancel=cancel)
        except SessionGone:
            raise ToolError(f"{tool.alias}: the server forgot the new session at once",
                            hint=f"try 'aish mcp connect {tool.alias}'") from None

    def request(self, alias: str, method: str, cancel: Optional[CancelToken] = None, **kwargs: Any) -> dict:
        """A resources/prompts request of one server (``list_resources``, ``read_resource``...)."""
        return loop.run(self._connection(alias).request(method, **kwargs), cancel=cancel)

    def _connection(self, alias: str) -> Any:
        with self._lock:
            entry = self._entries.get(alias)
        if entry is None or entry.state != "connected" or entry.conn is None:
            state = entry.state if entry is not None else "not connected"
            raise ToolError(f"{alias} is {state}" + (f" ({entry.error})" if entry and entry.error else ""),
                            hint=f"aish mcp connect {alias}")
        return entry.conn

    def capabilities(self, alias: str) -> Any:
        """What the server said it offers at the handshake (the SDK's ``ServerCapabilities``)."""
        return self._connection(alias).capabilities

    def timeout(self, alias: str) -> float:
        with self._lock:
            entry = self._entries.get(alias)
        return entry.spec.timeout if entry else 30.0

    # ------------------------------------------------------------ what the ask shows
    def notices(self) -> list[str]:
        """One-time lines (failures, restarts, too many tools) for the next answer."""
        with self._lock:
            out, self._notices = self._notices, []
        return out

    def servers(self) -> list[ServerStatus]:
        """Connected, connecting and failed servers, by alias (for ``aish mcp list``)."""
        with self._lock:
            out = []
            for alias in sorted(self._entries):
                entry = self._entries[alias]
                conn = entry.conn
                if entry.state == "connected" and conn is not None:
                    out.append(ServerStatus(alias, entry.spec.target, entry.spec.kind, "connected",
                                            len(conn.tools), protocol_version=conn.protocol_version))
                else:
                    out.append(ServerStatus(alias, entry.spec.target, entry.spec.kind, entry.state,
                                            error=entry.error))
            return out

    def instructions(self) -> str:
        """The servers' own instructions for the system message, by alias (byte-stable)."""
        with self._lock:
            parts = [f"[{alias}] {' '.join(e.conn.instructions.split())[:2000]}"
                     for alias, e in sorted(self._entries.items())
                     if e.state == "connected" and e.conn is not None and e.conn.instructions]
        return "\n".join(parts)

    def set_roots(self, paths: list[str]) -> None:
        """The directories servers may work in (the shell's cwd, or its trusted project root)."""
        with self._lock:
            if paths == self._roots:
                return
            self._roots = list(paths)
            conns = [e.conn for e in self._entries.values() if e.state == "connected" and e.conn]
        for conn in conns:
            loop.submit(conn.notify_roots_changed())

    def roots(self) -> list[str]:
        with self._lock:
            return list(self._roots)

    def _max_bytes(self) -> int:
        return int(float(self.cfg.max_message_mb) * 1024 * 1024)

    def _longest_timeout(self) -> float:
        with self._lock:
            return max([e.spec.timeout for e in self._entries.values()] or [0.0])


def _connect_bound(timeout: float) -> float:
    """The longest a caller waits for a connect: the SDK's import, process start, handshake."""
    return max(timeout, specs.HANDSHAKE_FLOOR) + IMPORT_WAIT + SETTLE_MARGIN


def check_alias(alias: str) -> None:
    if not _ALIAS.match(alias or ""):
        raise ToolError(f"alias '{alias}' is not usable",
                        hint="use letters, digits, '_' or '-' (no dots), at most 32 characters")


def default_alias(target: str) -> str:
    """No alias given: a short hash of the URL or command."""
    return "mcp_" + hashlib.sha256(target.encode("utf-8")).hexdigest()[:6]
