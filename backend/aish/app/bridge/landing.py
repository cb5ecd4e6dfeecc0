"""A proposed command onto a shell's prompt line, and back with what the user did.

aish runs nothing here either.  ``propose`` (the agent's request) queues the proposal and
follows it: while the shell is at its prompt, it writes the status request to the shell's
terminal (context/shells.py); the terminal's answer is a key the integration binds, which
sends ``take`` (the shell's request): the proposal is judged as any suggestion is (verdict,
preview, the Enter guard on high risk), shown with the agent's reason and name, and put on
the prompt line, or on the cycle key when the user was typing (as a norris step is).  The
shell's prompt hook then reports ``ran`` (what the user ran, maybe edited, its status and
duration; its output is read as for a question) or ``dismissed`` (nothing ran: Ctrl-C, an
empty line); the agent's request returns with that.  A busy shell (a command running, or
aish answering there) keeps the proposal queued until its next prompt.  The agent can
withdraw it (an MCP cancel), ``agents.propose_timeout`` bounds the wait, and a shell that
closes ends it.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from aish.app.bridge.proposals import FINAL, SHOWN, WAITING, Proposal
from aish.context import shells
from aish.errors import AishError, UsageError
from aish.ipc.protocol import Request, strip_controls
from aish.ipc.reply import Reply
from aish.llm.events import AskResult

if TYPE_CHECKING:
    from aish.app.bridge.agents import Agent
    from aish.app.bridge.hub import Bridge

TICK = 0.1  # seconds between looks at the shell while a proposal waits
UNANSWERED = 5.0  # seconds after a status request before the agent hears it is not answered


def propose(bridge: Bridge, agent: Agent, req: Request, reply: Reply) -> dict:
    cfg = bridge.host.config()
    command = strip_controls(agent.restore(req.extra.get("command", ""))).strip()
    if not command:
        raise UsageError("propose_command needs a command", hint="pass the command line to propose")
    reason = " ".join(strip_controls(req.extra.get("reason", "")).split())
    shell = shells.pick(shells.live(bridge.host.rundir), req.extra.get("target", ""))
    if bridge.host.task_waiting(shell.key):
        raise AishError(f"a norris task works in {shell.label}: its steps own that prompt line",
                        hint="propose to another shell, or after '? :halt' there")
    limit = cfg.agents.propose_timeout
    try:
        asked = float(req.extra.get("timeout") or 0)
    except ValueError:
        asked = 0.0
    wait = min(asked, limit) if asked > 0 else limit
    proposal = Proposal(agent=agent.name, agent_pid=agent.pid, shell=shell.label, key=shell.key,
                        pid=shell.pid, command=command, reason=reason,
                        deadline=time.monotonic() + wait)
    bridge.board.open(proposal)
    r = bridge.redactor(agent)
    agent.did(f"proposed `{r(command)}` to {shell.label}")
    try:
        _follow(bridge, proposal, reply, wait)
    finally:
        bridge.board.finish(proposal, "withdrawn", note="the request ended")  # no-op when over
    return result(proposal, r)


def _follow(bridge: Bridge, proposal: Proposal, reply: Reply, wait: float) -> None:
    """Until it is over: offer it while the shell is at its prompt, tell the agent each step."""
    told, busy_told = "", ""  # the state and the busy line last told: each said once
    unanswered_said = False
    while True:
        proposal.changed.wait(TICK)
        proposal.changed.clear()
        if proposal.state != told:
            told = proposal.state
            line = _progress(proposal)
            if line:
                reply.status(line)
        if proposal.state in FINAL:
            return
        if reply.cancel.cancelled:
            _withdraw(bridge, proposal, "withdrawn", "the agent withdrew it")
        elif time.monotonic() >= proposal.deadline:
            _withdraw(bridge, proposal, "timed_out", f"no answer within {wait:g} s")
        elif not shells.alive(proposal.pid):
            bridge.board.finish(proposal, "shell_closed", note=f"{proposal.shell} closed")
        elif proposal.state in WAITING:
            busy = _offer(bridge, proposal)
            if busy and busy != busy_told:
                reply.status(busy)
            busy_told = busy
            if (proposal.state == "offered" and not unanswered_said
                    and time.monotonic() - proposal.offered_at > UNANSWERED):
                unanswered_said = True
                reply.status(f"{proposal.shell}'s terminal has not answered the status request yet "
                             "(ESC [ 5 n): the proposal waits")


def _progress(proposal: Proposal) -> str:
    where = proposal.shell
    if proposal.state == "offered":
        return f"putting it on {where}'s prompt line"
    if proposal.state == "on_line":
        guard = " (high risk: the user's Enter needs a second Enter)" if proposal.level == "high" else ""
        return f"on {where}'s prompt line{guard}: waiting for the user to run, edit or dismiss it"
    if proposal.state == "on_key":
        return f"the user was typing in {where}: it waits on the cycle key (Ctrl-X Ctrl-Y)"
    return ""


def _state_of(bridge: Bridge, proposal: Proposal):
    name = f"{'zsh' if proposal.key.startswith('zsh') else 'bash'}-{proposal.pid}.state"
    state = shells.read(bridge.host.rundir / name)
    if state is None:  # a key that does not tell the shell: look it up
        state = next((s for s in shells.live(bridge.host.rundir) if s.pid == proposal.pid), None)
    return state


def _offer(bridge: Bridge, proposal: Proposal) -> str:
    """Write the status request to the shell's terminal when it is at its prompt; what keeps
    it waiting otherwise (a line for the agent), or ``""``."""
    state = _state_of(bridge, proposal)
    if state is None:
        return ""
    if state.running:
        # a command started: the answer may have gone to it (unless it landed meanwhile)
        bridge.board.move(proposal, "queued", only_from=("offered",))
        return f"{proposal.shell} is running `{state.running}`: the proposal waits for its prompt"
    if bridge.host.answering(proposal.key) or shells.foreground(proposal.pid) is False:
        return f"{proposal.shell} is busy: the proposal waits for its prompt"
    if proposal.state == "offered" and state.written <= proposal.offered_report:
        return ""  # asked already, and the shell has not been back to a prompt since
    tty = shells.tty_of(state)
    # offered before the request is written: the shell's answer can come before this thread
    # runs again, and marking it offered after would undo the landing that answer made
    proposal.offered_at, proposal.offered_report = time.monotonic(), state.written
    if not bridge.board.move(proposal, "offered", only_from=WAITING):
        return ""
    if not shells.poke(tty, proposal.pid):
        bridge.board.finish(proposal, "withdrawn",
                            note=f"cannot write to {proposal.shell}'s terminal ({tty or 'unknown'})")
    return ""


def _withdraw(bridge: Bridge, proposal: Proposal, state: str, note: str) -> None:
    """Ends it; one on the prompt line is taken off it when the shell is at its prompt."""
    shown = proposal.state in SHOWN
    if bridge.board.finish(proposal, state, note=note) and shown:
        current = _state_of(bridge, proposal)
        if current is not None and not current.running and shells.foreground(proposal.pid) is not False:
            shells.poke(shells.tty_of(current), proposal.pid)


def result(proposal: Proposal, r) -> dict:
    """What the agent gets back: the outcome, and what ran when something did (redacted)."""
    data = {"outcome": proposal.state, "shell": proposal.shell, "proposed": r(proposal.command),
            "ran": r(proposal.ran) if proposal.ran else None, "edited": proposal.edited,
            "exit": proposal.exit, "duration_ms": proposal.ms,
            "safety": {"level": proposal.level, "reason": proposal.risk or None}, "note": proposal.note,
            **proposal.output}
    if proposal.state == "ran":
        how = f"the user edited it and ran `{data['ran']}`" if proposal.edited else f"the user ran `{data['ran']}`"
        text = f"{how} in {proposal.shell}: exit {proposal.exit}, {proposal.ms} ms"
        out = proposal.output
        if out.get("output") is not None:
            lines = f"{out['lines']} line{'' if out['lines'] == 1 else 's'}"
            text += f"\noutput ({out['source']}, {lines}):\n{out['output']}"
        elif out.get("output_note"):
            text += f"\nno output to give: {out['output_note']}"
    elif proposal.state == "dismissed" and "of their own" in proposal.note:
        text = (f"the user ran a command of their own in {proposal.shell} (shell_context lists it) "
                "without taking the proposal; nothing of it ran")
    elif proposal.state == "dismissed":
        text = f"the user dismissed the proposal in {proposal.shell}; nothing ran"
    elif proposal.state == "shell_closed":
        text = f"the shell closed ({proposal.shell}); nothing ran"
    else:
        what = {"timed_out": "timed out"}.get(proposal.state, proposal.state)
        text = f"{what}{': ' + proposal.note if proposal.note else ''}; nothing ran"
    data["text"] = text
    return data


# ------------------------------------------------------------------ the shell's side
def take(bridge: Bridge, req: Request, reply: Reply, typing: bool) -> AskResult:
    """The terminal answered the status request: an old proposal leaves the line, a new one
    lands (judged, shown with its reason), or nothing happens (a stray answer)."""
    gone = bridge.board.retraction(req.conv)
    if gone is not None:
        reply.status(f"{gone.agent} withdrew its proposal" if gone.state == "withdrawn"
                     else f"{gone.agent}'s proposal timed out ({gone.note}): taken off the line")
        reply.proposal("withdraw", gone.command)
    proposal = bridge.board.active(req.conv)
    if proposal is None or proposal.state not in WAITING:
        return AskResult()
    try:
        proposal.level, proposal.risk = bridge.host.judge(req, reply, proposal.command)
    except AishError as err:  # no model for a second opinion (none configured): the rules alone
        bridge.host.log.warning("judging %s's proposal: %s; the safety rules alone judge it",
                                proposal.agent, err)
        proposal.level, proposal.risk = rules_only(proposal.command, req.cwd)
    if reply.cancel.cancelled:  # Ctrl-C as it came: the user does not want it
        bridge.board.finish(proposal, "dismissed", note="the user pressed Ctrl-C as it landed")
        return AskResult(cancelled=True)
    reason = f": {proposal.reason}" if proposal.reason else ""
    reply.status(f"{proposal.agent} proposes{reason}")
    reply.command(proposal.command, proposal.level, proposal.risk)
    reply.proposal("wait", proposal.command)
    bridge.board.move(proposal, "on_key" if typing else "on_line")
    return AskResult(commands=[proposal.command])


def rules_only(command: str, cwd: str) -> tuple:
    """The local verdict, never skipped: a proposal lands judged or not at all."""
    from aish.safety import assess

    verdict = assess.assess(command, cwd=cwd)
    return (verdict.level, verdict.reason) if verdict is not None else (None, "")


def ran(bridge: Bridge, req: Request, reply: Reply, status: int, ms: int, command: str) -> AskResult:
    """The shell ran a command while a proposal was shown: that is the agent's answer."""
    bridge.board.retraction(req.conv)  # the line moved on: nothing to take off it any more
    reply.proposal("off")
    proposal = bridge.board.active(req.conv)
    if proposal is None or proposal.state not in SHOWN:
        return AskResult()
    agent = bridge.agents.get(proposal.agent_pid)
    r = bridge.redactor(agent)
    term = {k: v for k, v in req.extra.items() if isinstance(v, str)}
    out = bridge.host.output(term, command, status)
    if out is not None and out.text:
        output = {"output": r(out.text), "lines": out.lines, "source": out.source, "cut": out.cut}
        sent = f", and its output ({out.lines} line{'' if out.lines == 1 else 's'}, {out.source})"
    else:
        why = HOW if out is None else (out.note or "command output is off")
        output = {"output": None, "output_note": why}
        sent = f"; {why}" if why.startswith("it ") else f"; its output was not sent: {why}"
    if not bridge.board.finish(proposal, "ran", ran=command, exit=status, ms=ms, output=output):
        return AskResult()
    edited = " (your edit)" if proposal.edited else ""
    reply.status(f"{proposal.agent} was told: `{command}`{edited} exited {status} after {ms} ms{sent}")
    return AskResult()


HOW = "this terminal offers no exact source of output (docs/output.md)"


def dismissed(bridge: Bridge, req: Request, reply: Reply, own: bool = False) -> AskResult:
    """The shell came back to its prompt with nothing of the proposal run: nothing at all, or
    (``own``) the line the user was typing when it came, never inserting it (it waited on the
    cycle key): not an edit of it; what the user ran is theirs (``shell_context`` lists it)."""
    bridge.board.retraction(req.conv)
    reply.proposal("off")
    note, told = (("the user ran a command of their own instead", "you ran your own command, not its proposal")
                  if own else ("the user dismissed it", "you dismissed its proposal"))
    proposal = bridge.board.active(req.conv)
    if proposal is not None and proposal.state in SHOWN and bridge.board.finish(proposal, "dismissed", note=note):
        reply.status(f"{proposal.agent} was told {told}")
    return AskResult()
