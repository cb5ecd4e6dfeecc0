"""The daemon-wide bridge: one table of actions, for the agents' requests and the shells'.

``aish mcp-server`` sends ``agents --hello`` when it starts and ``--bye`` when it ends, and
one request per tool call (``--context``, ``--output``, ``--propose``), naming itself in the
request's fields (``agent``, ``agent_pid``) with its arguments (``target``, ``command``,
``reason``, ``timeout``).  The shells send ``--take``, ``--ran`` and ``--dismissed``
(app/bridge/landing.py).  What the bridge needs of the daemon comes in a ``Host``, so it
never reaches into the service and its tests need no daemon.
"""
from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from aish.app.bridge import answers, landing
from aish.app.bridge.agents import Agent, Agents
from aish.app.bridge.proposals import Board
from aish.config.schema import Config
from aish.context.git import GitContext, GitInfo
from aish.errors import UsageError
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply
from aish.llm.events import AskResult

if TYPE_CHECKING:
    from aish.app.verbs.context import AgentFor
    from aish.context.output import Output


@dataclass
class Host:
    """What the bridge needs of the daemon, handed in by the service."""

    rundir: Path
    config: Callable[[], Config]
    # (the shell's take request, its reply, the command) -> (level, reason with preview)
    judge: Callable[[Request, Reply, str], tuple]
    # (terminal variables, command, its exit status) -> the output, as for a question
    output: Callable[[dict, str, Optional[int]], Optional["Output"]]
    task_waiting: Callable[[str], bool] = lambda key: False  # a norris step owns that prompt line
    answering: Callable[[str], bool] = lambda key: False  # aish answers in that shell now
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("aish"))


class Bridge:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.agents = Agents(host.rundir, host.log)
        self.board = Board()
        self._git = GitContext()
        self.actions: dict[str, Callable[[Request, Reply, AgentFor], Union[AskResult, dict]]] = {
            "hello": self._hello, "bye": self._bye, "context": self._context, "output": self._output,
            "propose": self._propose, "take": self._take, "ran": self._ran,
            "dismissed": self._dismissed, "list": self._list}

    def handle(self, req: Request, reply: Reply, what: AgentFor) -> Union[AskResult, dict]:
        return self.actions[what.action](req, reply, what)

    # ------------------------------------------------------------ shared
    def redactor(self, agent: Optional[Agent]) -> Callable[[str], str]:
        """The agent's redaction (``secrets.redact`` off: none), as for aish's own model calls."""
        if agent is None:
            return lambda text: text
        return answers.redactor_of(agent, bool(self.host.config().secrets.redact))

    def git(self, cwd: str) -> Optional[GitInfo]:
        try:
            return self._git.info(cwd)
        except Exception:  # git missing, a broken repo: the context goes without it
            self.host.log.exception("git state for %s", cwd)
            return None

    def _agent(self, req: Request) -> Agent:
        """The agent a request comes from (``aish mcp-server`` names itself in every request)."""
        try:
            pid = int(req.extra.get("agent_pid", ""))
        except ValueError:
            pid = 0
        if pid <= 0:
            raise UsageError("this request comes from 'aish mcp-server'", hint="add it to an agent's MCP config")
        return self.agents.seen(pid, str(req.extra.get("agent", "")))

    # ------------------------------------------------------------ the agents' requests
    def _hello(self, req: Request, reply: Reply, what: AgentFor) -> dict:
        agent = self._agent(req)
        return {"agent": agent.name, "shells": []}

    def _bye(self, req: Request, reply: Reply, what: AgentFor) -> dict:
        try:
            pid = int(req.extra.get("agent_pid", ""))
        except ValueError:
            return {}
        self.agents.gone(pid)
        return {}

    def _context(self, req: Request, reply: Reply, what: AgentFor) -> dict:
        return answers.context(self, self._agent(req), req.extra.get("target", ""))

    def _output(self, req: Request, reply: Reply, what: AgentFor) -> dict:
        return answers.last_output(self, self._agent(req), req.extra.get("target", ""))

    def _propose(self, req: Request, reply: Reply, what: AgentFor) -> dict:
        return landing.propose(self, self._agent(req), req, reply)

    # ------------------------------------------------------------ the shells' requests
    def _take(self, req: Request, reply: Reply, what: AgentFor) -> AskResult:
        return landing.take(self, req, reply, what.typing)

    def _ran(self, req: Request, reply: Reply, what: AgentFor) -> AskResult:
        if what.own:
            return landing.dismissed(self, req, reply, own=True)
        return landing.ran(self, req, reply, what.status, what.ms, what.command)

    def _dismissed(self, req: Request, reply: Reply, what: AgentFor) -> AskResult:
        return landing.dismissed(self, req, reply)

    # ------------------------------------------------------------ `? :agents`
    def _list(self, req: Request, reply: Reply, what: AgentFor) -> AskResult:
        connected = self.agents.connected()
        proposals = self.board.recent()
        if what.json:
            data: dict[str, Any] = {
                "agents": [{"name": a.name, "pid": a.pid, "since": a.since,
                            "activity": [{"at": at, "what": did} for at, did in a.activity]} for a in connected],
                "proposals": [{"agent": p.agent, "shell": p.shell, "command": p.command, "state": p.state,
                               "at": p.created, "ran": p.ran or None, "exit": p.exit} for p in proposals]}
            text = json.dumps(data, ensure_ascii=False) + "\n"
            reply.text(text)
            return AskResult(text=text)
        lines = self._lines(connected, proposals)
        for line in lines:
            reply.text(line + "\n")
        return AskResult(text="".join(line + "\n" for line in lines))

    @staticmethod
    def _lines(connected: list[Agent], proposals: list) -> list[str]:
        if not connected:
            lines = ["[aish] no agent is connected (add 'aish mcp-server' to an agent's MCP "
                     "servers: docs/agents.md)"]
        else:
            lines = ["[aish] agents connected through 'aish mcp-server':"]
            for agent in connected:
                lines.append(f"  {agent.name} (pid {agent.pid}), since {_clock(agent.since)}")
                lines += [f"    {_clock(at)} {did}" for at, did in agent.activity]
        if proposals:
            lines.append("[aish] proposals, oldest first:")
            lines += [f"  {_clock(p.created)} {p.agent} -> {p.shell}: `{p.command}`: {p.outcome()}"
                      for p in proposals]
        return lines


def _clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))
