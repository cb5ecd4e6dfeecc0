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

What a connect names is resolved to a ``ServerSpec`` in ``spec``; the table of offered
tools is an ``Offered`` value (``offered``), rebuilt here and read without the lock; one
session is a ``Connection``.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Mapping, Optional, Union

from aish.config.schema import McpConfig, McpServerConfig
from aish.errors import AishError, ToolError
from aish.ipc.cancel import CancelToken
from aish.mcp import loop, spec as specs
from aish.mcp.asks import UserSide
from aish.mcp.offered import PROVIDER_TOOL_LIMIT, Offered
from aish.mcp.states import IMPORT_WAIT, Entry, ServerStates
from aish.mcp.tools import McpTool, allowed

SETTLE_MARGIN = 15.0
LIVENESS_WAIT = 3.0  # seconds a remote server gets to answer a ping before `aish mcp list`


class McpManager(ServerStates):
    """The servers' actions (follow the config, connect, restart, drop, call) over the
    table of their states that ``ServerStates`` keeps and answers from."""

    def __init__(self, cfg: McpConfig, log: Optional[logging.Logger] = None) -> None:
        super().__init__()
        self.cfg = cfg
        self.log = log or logging.getLogger("aish.mcp")
        self._known: dict[str, specs.ServerSpec] = {}  # run-time servers, so `connect ALIAS` retries them
        self._offered = Offered()  # replaced whole, never changed: read without the lock
        self._gen = 0
        self._roots: list[str] = []
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
                wanted = specs.of_server(server)
            except AishError as err:
                if entry is None or entry.error != err.one_line(prefix=False):
                    self._fail_config(alias, server, err)
                continue
            if entry is None or entry.spec != wanted:
                self._begin(wanted)
        for alias, entry in entries.items():
            if entry.spec.origin == "config" and alias not in configured:
                self._drop(alias, wait=False)

    def _fail_config(self, alias: str, server: McpServerConfig, err: AishError) -> None:
        line = err.one_line(prefix=False)
        placeholder = specs.ServerSpec(alias=alias, kind="stdio" if server.command else "http",
                                       argv=tuple(map(str, server.command or ())), url=server.url)
        with self._lock:
            self._entries[alias] = Entry(placeholder, state="failed", error=line)
            self._notices.append(f"mcp: {alias}: {line}")

    # ------------------------------------------------------------ connecting
    def connect_configured(self) -> list[str]:
        """Start, wait until every server connected or failed, and return the failure lines."""
        self.start()
        self.settle(_connect_bound(self._longest_timeout()))
        return self.notices()

    def connect(self, target: Union[str, list], alias: Optional[str] = None, *,
                auth_env: Optional[str] = None, cwd: Optional[str] = None,
                environ: Optional[Mapping[str, Optional[str]]] = None,
                env: Optional[Mapping[str, str]] = None, transport: str = "auto") -> str:
        """Connect a URL or a stdio argv, or (re)connect a known alias; returns one status line.

        ``cwd`` and ``environ`` are the calling shell's: a run-time server starts in its
        directory, finds its command on its PATH and reads ``auth_env`` from it.
        """
        with self._lock:
            known = dict(self._known)
        try:
            wanted = specs.for_target(target, alias, auth_env=auth_env, cwd=cwd, environ=environ,
                                      env=env or {}, transport=transport, configured=self.cfg.servers,
                                      known=known)
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

    def _begin(self, wanted: specs.ServerSpec, *, user: bool = False, restarts: int = 0) -> Any:
        """Start connecting ``wanted`` (replacing whatever had its alias); a future of (ok, line)."""
        with self._lock:
            self._gen += 1
            old = self._entries.get(wanted.alias)
            entry = Entry(wanted, gen=self._gen, restarts=restarts)
            self._entries[wanted.alias] = entry
            self._rebuild()
        return loop.submit(self._connect(entry, old.conn if old is not None else None, user))

    async def _connect(self, entry: Entry, old: Any, user: bool) -> tuple:
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

    def _failed(self, entry: Entry, message: str, user: bool) -> tuple:
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

    def check_remote(self, bound: float = LIVENESS_WAIT) -> None:
        """Ping the connected remote servers (concurrently, each at most ``bound`` seconds),
        then wait as long again for the restart of any found gone: ``aish mcp list`` must
        not call a server connected that died since the last question."""
        with self._lock:
            conns = [e.conn for e in self._entries.values()
                     if e.state == "connected" and e.conn is not None and e.spec.kind != "stdio"]
        if not conns:
            return

        async def every_one() -> None:
            await asyncio.gather(*(conn.check_alive(bound) for conn in conns))

        try:
            loop.run(every_one(), timeout=2 * bound + 1)
        except Exception as exc:  # noqa: BLE001 - a list must still be shown
            self.log.warning("mcp: checking remote servers failed: %s", exc)
        self.settle(bound)

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
        tools = []
        for alias, entry in self._entries.items():
            if entry.state != "connected" or entry.conn is None:
                continue
            server = self.cfg.servers.get(alias) if entry.spec.origin == "config" else None
            trusted = bool(server.trusted) if server is not None else False
            enabled = server.enabled_tools if server is not None else []
            disabled = server.disabled_tools if server is not None else []
            tools += [tool.with_trust(trusted) for tool in entry.conn.tools
                      if allowed(tool.name, enabled, disabled)]
        offered = Offered.build(tools)
        if offered.over_limit and not self._offered.over_limit:
            self._notices.append(f"mcp: {len(offered)} tools are offered; many providers accept at most "
                                 f"{PROVIDER_TOOL_LIMIT} (set enabled_tools / disabled_tools of a server)")
        self._offered = offered

    # the offered tools, as ``Offered`` answers (one table per call, never half rebuilt)
    def openai_tools(self) -> list[dict]:
        return self._offered.openai_tools()

    def has_tools(self) -> bool:
        return bool(self._offered)

    def resolve(self, name: str) -> Optional[McpTool]:
        return self._offered.resolve(name)

    def wire_name(self, user_name: str) -> Optional[str]:
        return self._offered.wire_name(user_name)

    def tools(self) -> list[McpTool]:
        return self._offered.tools()

    def call(self, tool: McpTool, arguments: dict, cancel: Optional[CancelToken] = None,
             side: Optional[UserSide] = None) -> dict:
        """Run a tool; a server that forgot our session is initialized again and asked once more."""
        from aish.mcp.failures import SessionGone

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

    # ------------------------------------------------------------ what the ask shows
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

def _connect_bound(timeout: float) -> float:
    """The longest a caller waits for a connect: the SDK's import, process start, handshake."""
    return max(timeout, specs.HANDSHAKE_FLOOR) + IMPORT_WAIT + SETTLE_MARGIN
