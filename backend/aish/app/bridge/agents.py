"""Who is connected: one entry per ``aish mcp-server`` process, and the marker the shells check.

The marker ``<runtime dir>/agents`` (0600, one ``PID NAME`` line per agent) exists while an
agent is connected: only then do the shells write their state files (context/shells.py), so
a user without an agent pays nothing on the prompt path.  It outlives a daemon restart (a
new daemon takes over the agents it names that still run) and goes when the last agent
says goodbye or is found gone; the daemon's sweep of dead clients' files removes one left by
agents that all died (daemon/client_files.py).

Each agent has its own redactor (docs/secrets.md): what it reads is redacted as aish's own
model calls are, and a placeholder it copies into a proposed command is restored before the
command lands on the prompt line.
"""
from __future__ import annotations

import collections
import logging
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from aish.safety.secrets import Redactor

MARKER = "agents"
_LINE = re.compile(r"(\d{1,10}) (.{1,64})")
_NAME = re.compile(r"[^\x00-\x1f\x7f]{1,64}")
_ACTIVITY = 8  # what each agent read or proposed, kept for `? :agents`


def clean_name(name: str) -> str:
    """An agent's name as the user sees it: one printable line, 64 characters at most."""
    name = " ".join(name.split())[:64]
    return name if _NAME.fullmatch(name) else ""


@dataclass
class Agent:
    pid: int
    name: str
    since: float = field(default_factory=time.time)
    redactor: Redactor = field(default_factory=Redactor)
    activity: collections.deque = field(default_factory=lambda: collections.deque(maxlen=_ACTIVITY))

    def redact(self, text: str, redacting: bool) -> str:
        return self.redactor.redact(text) if redacting and text else text

    def restore(self, text: str) -> str:
        return self.redactor.restore(text)

    def did(self, what: str) -> None:
        self.activity.append((time.time(), what))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def read_marker(rundir: Path) -> list[tuple[int, str]]:
    try:
        text = (rundir / MARKER).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [(int(m.group(1)), m.group(2)) for m in map(_LINE.fullmatch, text.splitlines()) if m]


class Agents:
    """The connected agents, by pid; every change is written to the marker at once."""

    def __init__(self, rundir: Path, log: Optional[logging.Logger] = None) -> None:
        self._rundir = rundir
        self._log = log or logging.getLogger("aish")
        self._lock = threading.Lock()
        self._by_pid: dict[int, Agent] = {pid: Agent(pid, name) for pid, name in read_marker(rundir)
                                          if _alive(pid)}
        self._write()

    def seen(self, pid: int, name: str) -> Agent:
        """The agent of process ``pid`` (registered now if new; renamed when it says its name)."""
        name = clean_name(name)
        with self._lock:
            agent = self._by_pid.get(pid)
            if agent is None:
                agent = self._by_pid[pid] = Agent(pid, name or f"agent {pid}")
                self._log.info("agent %s (pid %d) connected", agent.name, pid)
            elif (not name or name == agent.name) and (self._rundir / MARKER).exists():
                return agent
            else:  # renamed, or the marker went (a sweep that raced a new agent): write it again
                agent.name = name or agent.name
            self._write()
            return agent

    def get(self, pid: int) -> Optional[Agent]:
        with self._lock:
            return self._by_pid.get(pid)

    def gone(self, pid: int) -> Optional[Agent]:
        with self._lock:
            agent = self._by_pid.pop(pid, None)
            if agent is not None:
                self._log.info("agent %s (pid %d) disconnected", agent.name, pid)
                self._write()
            return agent

    def connected(self) -> list[Agent]:
        """The agents whose process still runs (the others are forgotten now)."""
        with self._lock:
            if any(not _alive(pid) for pid in self._by_pid):
                self._write()
            return sorted(self._by_pid.values(), key=lambda a: a.since)

    def _write(self) -> None:
        """The marker: written whole under a temporary name, then renamed; removed when empty.
        Agents killed without a goodbye (SIGKILL) are left out: the shells write their state
        only while one that runs is connected."""
        for pid in [pid for pid in self._by_pid if not _alive(pid)]:
            self._log.info("agent %s (pid %d) is gone", self._by_pid.pop(pid).name, pid)
        path = self._rundir / MARKER
        try:
            if not self._by_pid:
                path.unlink(missing_ok=True)
                return
            tmp = self._rundir / f".{MARKER}.{os.getpid()}"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write("".join(f"{a.pid} {a.name}\n" for a in self._by_pid.values()))
            os.replace(tmp, path)
        except OSError as err:
            self._log.warning("cannot write %s: %s", path, err)
