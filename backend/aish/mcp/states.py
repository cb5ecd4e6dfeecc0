"""The table of every MCP server's state, and the waits and views read from it.

Why its own module: the manager's actions (follow the config, connect, restart, drop)
write this table from the MCP loop and from request threads, while questions, ``aish mcp
list`` and the system message read it; keeping the table, its lock and its condition here
keeps the reading side (who is connecting, wait until settled, what to show) apart from
the lifecycle.  ``McpManager`` extends it.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Optional

from aish.errors import ToolError
from aish.mcp import spec as specs

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
class Entry:
    spec: specs.ServerSpec
    state: str = "connecting"
    conn: Any = None  # Connection (connecting or connected)
    error: str = ""
    restarts: int = 0
    gen: int = 0
    started: float = 0.0  # when its handshake began (after the SDK was imported)


class ServerStates:
    """Servers by alias (``_entries``) under one lock; ``_changed`` wakes whoever waits for a
    server to leave "connecting"; ``_notices`` are the one-time lines of the next answer."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._entries: dict[str, Entry] = {}
        self._notices: list[str] = []

    # ------------------------------------------------------------ waits
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

    def _longest_timeout(self) -> float:
        with self._lock:
            return max([e.spec.timeout for e in self._entries.values()] or [0.0])

    # ------------------------------------------------------------ one server
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
