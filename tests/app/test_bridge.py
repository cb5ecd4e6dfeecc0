"""app/bridge: the agents' requests and the shells', with a stand-in shell on a real pty.

The stand-in is a process whose controlling terminal is a pty (``setsid -c``), with the
state file a shell writes: the bridge's status request lands on the pty's master, where
the test reads it, then plays the shell's side (``take``, ``ran``, ``dismissed``) as the
integration would.  The shells themselves, in tmux, are tests/shell/cases_agents.py.
"""
from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from aish.app.bridge.agents import MARKER, Agents
from aish.app.bridge.hub import Bridge, Host
from aish.app.verbs.context import AgentFor
from aish.config.schema import Config
from aish.context.output import Output
from aish.errors import AishError
from aish.ipc.protocol import Request, escape
from tests.doubles import RecordingReply
from tests.helpers import wait_until

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


class FakeShell:
    """A process on a pty, with the state file its shell would write."""

    def __init__(self, rundir: Path, kind: str = "zsh") -> None:
        self.master, self.slave = os.openpty()
        self.tty = os.ttyname(self.slave)
        self.proc = subprocess.Popen(["setsid", "-c", "sleep", "120"], stdin=self.slave,
                                     stdout=self.slave, stderr=self.slave)
        self.kind, self.rundir = kind, rundir
        self.conv = f"{kind}-{self.proc.pid}-1"
        os.set_blocking(self.master, False)

    def report(self, running: str = "", history: tuple = (), cwd: str = "/tmp") -> None:
        lines = ["v=1", f"shell={self.kind}", f"conv={self.conv}", f"pid={self.proc.pid}", f"tty={self.tty}",
                 f"cwd={cwd}", "status=0", "tmux=/tmp/sock,1,0", "tmux_pane=%9"]
        lines += ["hist=" + escape(f"{st}\t{ms}\t{cmd}") for st, ms, cmd in history]
        if running:
            lines += [f"running={escape(running)}", f"since={time.time()}"]
        (self.rundir / f"{self.kind}-{self.proc.pid}.state").write_text("\n".join(lines + ["end=1", ""]))

    def asked(self, timeout: float = 10.0) -> bool:
        """The status request reached the terminal."""
        deadline = time.monotonic() + timeout
        seen = b""
        while time.monotonic() < deadline:
            try:
                seen += os.read(self.master, 64)
            except BlockingIOError:
                time.sleep(0.02)
            if b"\x1b[5n" in seen:
                return True
        return False

    def request(self) -> Request:
        return Request(id="r", kind="verb", conv=self.conv, shell=self.kind, cwd="/tmp", interactive=True,
                       extra={"tmux": "/tmp/sock,1,0", "tmux_pane": "%9"})

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture(autouse=True)
def quick_looks(monkeypatch):
    """A waiting proposal looks at its shell every 10 ms, not every 100 ms: each case waits
    for those looks (the first offer, a withdrawal, a closed shell, a time-out), never asserting
    how many there are; a case that checks nothing is written to a busy shell sees more looks."""
    from aish.app.bridge import landing

    monkeypatch.setattr(landing, "TICK", 0.01)


@pytest.fixture
def rundir(aish_env) -> Path:
    return Path(os.environ["AISH_RUNTIME_DIR"])


@pytest.fixture
def shell(rundir):
    fake = FakeShell(rundir)
    yield fake
    fake.close()


class World:
    """The bridge with a host that judges and reads output as the test says."""

    def __init__(self, rundir: Path, config: Config | None = None) -> None:
        self.config = config or Config()
        self.outputs: dict[str, Output] = {}
        self.judged: list[str] = []
        self.tasks: set[str] = set()
        self.bridge = Bridge(Host(rundir=rundir, config=lambda: self.config, judge=self._judge,
                                  output=lambda term, cmd, st: self.outputs.get(cmd),
                                  task_waiting=lambda key: key in self.tasks))
        self.agent_pid = str(os.getpid())

    def _judge(self, req, reply, command):
        self.judged.append(command)
        return ("high", "force push") if "--force" in command else (None, "")

    def agent(self, action: str, reply: RecordingReply | None = None, **fields):
        req = Request(id="a", kind="verb", conv="agent-1", shell="agent",
                      extra={"agent": "claude-code", "agent_pid": self.agent_pid, **fields})
        return self.bridge.handle(req, reply or RecordingReply(), AgentFor(action))

    def propose(self, **fields):
        """Start a proposal in a thread; returns (thread, the agent's reply, the result box)."""
        reply, box = RecordingReply(), {}

        def run():
            try:
                box["result"] = self.agent("propose", reply, **fields)
            except AishError as err:
                box["error"] = err

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread, reply, box

    def shell_says(self, shell: FakeShell, what: AgentFor) -> RecordingReply:
        reply = RecordingReply()
        self.bridge.handle(shell.request(), reply, what)
        return reply


def take_what_is_queued(world: World, shell: FakeShell, timeout: float = 10.0) -> RecordingReply:
    """The shell answers the status request until something is there for it: a request still
    unread from before (the daemon asks again while a proposal waits) can come first."""
    deadline = time.monotonic() + timeout
    while True:
        took = world.shell_says(shell, AgentFor("take"))
        if took.proposals or took.statuses or time.monotonic() > deadline:
            return took
        shell.asked(timeout=0.5)


def finished(thread: threading.Thread, box: dict) -> dict:
    thread.join(15)
    assert not thread.is_alive(), "the proposal never ended"
    assert "result" in box, (box.get("error"), os.listdir(os.environ["AISH_RUNTIME_DIR"]))
    return box["result"]


def test_a_proposal_lands_judged_and_returns_what_really_ran_redacted(rundir, shell):
    world = World(rundir)
    shell.report(history=[(0, 5, f"export GITHUB_TOKEN={TOKEN}")])
    context = world.agent("context")
    assert TOKEN not in context["text"] and "<secret:1>" in context["text"]
    # the agent copies the placeholder into its command: the shell gets the real value back
    thread, agent_reply, box = world.propose(command='git push --force "$X" <secret:1>', reason="publish it")
    assert shell.asked()
    took = world.shell_says(shell, AgentFor("take"))
    assert took.commands == [(f'git push --force "$X" {TOKEN}', "high", "force push")]
    assert took.statuses == ["claude-code proposes: publish it"] and took.proposals == [("wait", took.commands[0][0])]
    wait_until(lambda: any("high risk" in line for line in agent_reply.statuses), 20, "the agent told")
    # the user edits it, runs it; what it printed is read as for a question
    ran = f"git push --force origin {TOKEN}"
    world.outputs[ran] = Output(source="tmux", command=ran, text=f"denied for {TOKEN}", lines=1)
    told = world.shell_says(shell, AgentFor("ran", status=1, ms=40, command=ran))
    result = finished(thread, box)
    assert result["outcome"] == "ran" and result["edited"] is True and result["exit"] == 1
    assert result["ran"] == "git push --force origin <secret:1>" and result["output"] == "denied for <secret:1>"
    assert result["proposed"] == 'git push --force "$X" <secret:1>' and result["duration_ms"] == 40
    assert result["safety"] == {"level": "high", "reason": "force push"}
    assert TOKEN not in str(result)
    assert told.proposals == [("off", "")] and "claude-code was told" in told.statuses[0]


def test_nothing_run_is_a_dismissal_and_a_stray_answer_changes_nothing(rundir, shell):
    world = World(rundir)
    shell.report()
    assert world.shell_says(shell, AgentFor("take")).commands == []  # no proposal: nothing
    thread, _, box = world.propose(command="echo hi")
    assert shell.asked()
    world.shell_says(shell, AgentFor("take"))
    assert world.shell_says(shell, AgentFor("take")).commands == []  # a second answer: nothing
    told = world.shell_says(shell, AgentFor("dismissed"))
    assert finished(thread, box)["outcome"] == "dismissed"
    assert told.statuses == ["claude-code was told you dismissed its proposal"]


def test_a_busy_shell_keeps_it_queued_until_its_next_prompt(rundir, shell):
    world = World(rundir)
    shell.report(running="make test")
    thread, agent_reply, box = world.propose(command="echo next")
    wait_until(lambda: any("running `make test`" in line for line in agent_reply.statuses), 20, "the busy note")
    assert not shell.asked(timeout=0.2)  # its answer would go to `make` (about 20 looks at the shell)
    # said once, not at every look at the shell (a build can run for an hour)
    assert sum("running `make test`" in line for line in agent_reply.statuses) == 1, agent_reply.statuses
    shell.report(history=[(0, 10, "make test")])
    assert shell.asked()
    took = world.shell_says(shell, AgentFor("take", typing=True))  # the user was typing
    assert took.commands[0][0] == "echo next"
    wait_until(lambda: any("cycle key" in line for line in agent_reply.statuses), 20, "the cycle-key note")
    world.shell_says(shell, AgentFor("ran", status=0, ms=1, command="echo next"))
    assert finished(thread, box)["outcome"] == "ran"


def test_withdrawn_timed_out_and_closed_proposals_end_and_leave_the_line(rundir, shell):
    world = World(rundir)
    shell.report()
    thread, agent_reply, box = world.propose(command="echo maybe")
    assert shell.asked()
    world.shell_says(shell, AgentFor("take"))
    agent_reply.cancel.cancel()  # the agent withdrew it (an MCP cancel)
    assert finished(thread, box)["outcome"] == "withdrawn"
    assert shell.asked()  # the shell is asked again, to take it off the line
    took = take_what_is_queued(world, shell)
    assert took.proposals == [("withdraw", "echo maybe")] and took.statuses == ["claude-code withdrew its proposal"]

    # the time-out comes once it is on the line: one that came before the shell took it (a
    # loaded machine, when the wait was 0.3 s) ended it while offered, with nothing shown to take
    # off the line, so the shell was never asked again
    thread, _, box = world.propose(command="echo slow", timeout="30")
    assert shell.asked()
    world.shell_says(shell, AgentFor("take"))
    world.bridge.board.active(shell.conv).deadline = time.monotonic()  # the 30 s are up
    result = finished(thread, box)
    assert result["outcome"] == "timed_out" and "no answer within 30 s" in result["text"]
    assert shell.asked()  # asked again, to take it off the line
    assert "timed out" in take_what_is_queued(world, shell).statuses[0]

    thread, _, box = world.propose(command="echo closing")
    assert shell.asked()
    shell.proc.kill()
    result = finished(thread, box)
    assert result["outcome"] == "shell_closed" and "nothing ran" in result["text"]
    assert result["text"] == f"the shell closed ({shell.kind}-{shell.proc.pid}); nothing ran"


def test_the_users_own_command_typed_before_the_proposal_is_not_its_edit(rundir, shell):
    # keys on the line when it came: the proposal waited on the cycle key, and the user ran
    # their own line instead (the shell says --own): the agent hears it was not taken
    world = World(rundir)
    shell.report()
    thread, _, box = world.propose(command="echo theirs")
    assert shell.asked()
    world.shell_says(shell, AgentFor("take", typing=True))
    told = world.shell_says(shell, AgentFor("ran", status=0, ms=3, command="echo mine", own=True))
    result = finished(thread, box)
    assert result["outcome"] == "dismissed" and result["ran"] is None and result["edited"] is False
    assert "ran a command of their own" in result["text"] and "echo theirs" not in result["text"]
    assert told.statuses == ["claude-code was told you ran your own command, not its proposal"]


def test_what_the_user_is_told_reads_as_a_sentence(rundir, shell):
    world = World(rundir)
    shell.report()
    thread, _, box = world.propose(command="true")
    assert shell.asked()
    world.shell_says(shell, AgentFor("take"))
    world.outputs["true"] = Output(source="tmux", command="true", text="", lines=0, note="it printed nothing")
    told = world.shell_says(shell, AgentFor("ran", status=0, ms=2, command="true"))
    finished(thread, box)
    assert told.statuses == ["claude-code was told: `true` exited 0 after 2 ms; it printed nothing"]


def test_one_proposal_per_shell_and_none_where_a_norris_task_waits(rundir, shell):
    world = World(rundir)
    shell.report()
    thread, agent_reply, box = world.propose(command="echo first")
    assert shell.asked()
    with pytest.raises(AishError, match="one proposal per shell at a time"):
        world.agent("propose", command="echo second")
    agent_reply.cancel.cancel()
    finished(thread, box)
    world.tasks.add(shell.conv)
    with pytest.raises(AishError, match="a norris task works in"):
        world.agent("propose", command="echo third")
    with pytest.raises(AishError, match="needs a command"):
        world.agent("propose", command="  ")
    with pytest.raises(AishError, match="no shell named 'nope'"):
        world.agent("propose", command="echo x", target="nope")


def test_without_a_model_for_a_second_opinion_the_rules_still_judge_it(rundir, shell):
    world = World(rundir)

    def no_model(req, reply, command):
        from aish.errors import ConfigError

        raise ConfigError("no model named 'fast' is configured")

    world.bridge.host.judge = no_model
    shell.report()
    thread, agent_reply, box = world.propose(command="git push --force origin main")
    assert shell.asked()
    took = world.shell_says(shell, AgentFor("take"))
    assert took.commands[0][1] == "high" and "force push" in took.commands[0][2]
    agent_reply.cancel.cancel()
    finished(thread, box)


def test_the_config_caps_the_wait(rundir, shell):
    config = Config()
    config.agents.propose_timeout = 0.05
    world = World(rundir, config)
    shell.report()
    thread, _, box = world.propose(command="echo x", timeout="999")
    assert finished(thread, box)["outcome"] == "timed_out"


def test_the_marker_exists_while_an_agent_is_connected(rundir):
    world = World(rundir)
    agent = subprocess.Popen(["sleep", "60"])
    try:
        world.agent_pid = str(agent.pid)
        world.agent("hello")
        assert (rundir / MARKER).read_text() == f"{agent.pid} claude-code\n"
        assert oct((rundir / MARKER).stat().st_mode & 0o777) == "0o600"
        # a new daemon takes over the agents the marker names that still run
        assert [a.pid for a in Agents(rundir).connected()] == [agent.pid]
        lines = world.bridge.handle(Request(), RecordingReply(), AgentFor("list")).text
        assert f"claude-code (pid {agent.pid})" in lines
        world.agent("bye")
        assert not (rundir / MARKER).exists()
        world.agent("hello")
        agent.kill()
        agent.wait()
        assert world.bridge.agents.connected() == [] and not (rundir / MARKER).exists()
    finally:
        if agent.poll() is None:
            agent.kill()
            agent.wait()


def test_the_agents_requests_must_name_the_agent(rundir):
    world = World(rundir)
    world.agent_pid = ""
    with pytest.raises(AishError, match="aish mcp-server"):
        world.agent("context")


def test_an_agent_killed_without_goodbye_leaves_the_marker_with_the_next_change(rundir):
    # SIGKILL says no goodbye: the next agent's hello or goodbye drops it from the marker, so
    # the shells stop writing state once no agent that runs is left
    agents = Agents(rundir)
    killed = subprocess.Popen(["sleep", "60"])
    other = subprocess.Popen(["sleep", "60"])
    try:
        agents.seen(killed.pid, "claude")
        killed.kill()
        killed.wait()
        agents.seen(other.pid, "codex")
        assert (rundir / MARKER).read_text() == f"{other.pid} codex\n"
        agents.gone(other.pid)
        assert not (rundir / MARKER).exists()
    finally:
        other.kill()
        other.wait()


def test_a_shell_that_answers_before_the_offer_is_recorded_keeps_it_landed(rundir, shell, monkeypatch):
    """The shell's answer to the status request can come before the daemon's thread runs
    again (a loaded machine): the landing it made must not be undone into 'offered', or a
    withdrawal would leave the command on the user's line."""
    from aish.app.bridge import landing

    world = World(rundir)
    shell.report()
    real_poke = landing.shells.poke
    took: list[RecordingReply] = []

    def poke_and_answer_at_once(tty, pid):
        sent = real_poke(tty, pid)
        if sent and not took:
            took.append(world.shell_says(shell, AgentFor("take")))
        return sent

    monkeypatch.setattr(landing.shells, "poke", poke_and_answer_at_once)
    thread, agent_reply, box = world.propose(command="echo quick")
    wait_until(lambda: took, 10, "the shell answered")
    assert took[0].proposals and took[0].proposals[0][1] == "echo quick"
    agent_reply.cancel.cancel()
    assert finished(thread, box)["outcome"] == "withdrawn"
    assert take_what_is_queued(world, shell).proposals == [("withdraw", "echo quick")]
