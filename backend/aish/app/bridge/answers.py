"""``shell_context`` and ``last_output``: one shell's state and its last output, for an agent.

Both read the shell's state file (context/shells.py); the output comes from the same
sources, with the same rules, as the output aish attaches to its own questions (exact or
nothing: docs/output.md).  Every text goes through the agent's redactor, as everything
aish sends to its own models goes through the conversation's (docs/secrets.md).
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, Optional

from aish.context import shells
from aish.context.output import HOW_TO_GET

if TYPE_CHECKING:
    from aish.app.bridge.agents import Agent
    from aish.app.bridge.hub import Bridge


def _entry(command: str, exit_: Optional[int], ms: Optional[int]) -> str:
    status = "?" if exit_ is None else str(exit_)
    return f"  [{status}{'' if ms is None else f' {ms}ms'}] {command}"


def context(bridge: Bridge, agent: Agent, target: str) -> dict:
    found = shells.live(bridge.host.rundir)
    shell = shells.pick(found, target)
    r = bridge.redactor(agent)
    now = time.time()
    lines = [r(shell.describe(now))]
    if shell.cwd:
        lines.append(f"cwd: {r(shell.cwd)}")
    if shell.status is not None:
        lines.append(f"last exit status: {shell.status}")
    commands = [{"command": r(e.command), "exit": e.exit, "duration_ms": e.duration_ms} for e in shell.history]
    if commands:
        lines.append("recent commands (exit status, duration, command), oldest first:")
        lines += [_entry(r(e.command), e.exit, e.duration_ms) for e in shell.history]
    git = bridge.git(shell.cwd) if shell.cwd else None
    if git is not None:
        lines.append(r(git.line()))
    others = [s for s in found if s is not shell]
    if others:
        lines.append("other shells: " + "; ".join(r(s.describe(now)) for s in others))
    agent.did(f"read the context of {shell.label}")
    return {
        "text": "\n".join(lines),
        "shell": shell.label, "kind": shell.shell, "pid": shell.pid,
        "tty": shell.tty or shells.tty_of(shell), "tmux_pane": shell.term.get("tmux_pane") or None,
        "cwd": r(shell.cwd), "status": shell.status, "commands": commands,
        "running": r(shell.running) or None,
        "running_for_s": round(now - shell.since, 1) if shell.running and shell.since else None,
        "reported_s_ago": round(now - shell.written, 1),
        "git": None if git is None else {"root": r(git.root), "branch": git.branch, "upstream": git.upstream,
                                         "ahead": git.ahead, "behind": git.behind, "changed_files": git.dirty},
        "other_shells": [s.label for s in others],
    }


def last_output(bridge: Bridge, agent: Agent, target: str) -> dict:
    shell = shells.pick(shells.live(bridge.host.rundir), target)
    r = bridge.redactor(agent)
    base = {"shell": shell.label, "command": None, "exit": None, "output": None, "lines": 0,
            "source": None, "cut": False, "note": ""}
    if not shell.history:
        note = "no command has finished there since aish was loaded"
        return {**base, "note": note, "text": f"{shell.label}: {note}"}
    entry = shell.history[-1]
    command = r(entry.command)
    running = f" (`{r(shell.running)}` is running now)" if shell.running else ""
    out = bridge.host.output(shell.term, entry.command, entry.exit)
    agent.did(f"read the output of `{command}` in {shell.label}")
    found = {**base, "command": command, "exit": entry.exit}
    if out is None:
        return {**found, "note": HOW_TO_GET,
                "text": f"no output of `{command}` to give{running}: {HOW_TO_GET}"}
    if not out.text:
        note = out.note or ("command output is off (context.command_output, or AISH_OUTPUT=off in "
                            "that shell)")
        return {**found, "source": out.source, "note": note,
                "text": f"no output of `{command}` to give{running}: {note}"}
    cut = ", head and tail" if out.cut else ""
    head = (f"output of `{command}` in {shell.label}{running} (exit {entry.exit}; "
            f"{out.source}, {out.lines} line{'' if out.lines == 1 else 's'}{cut}):")
    text = r(out.text)
    return {**found, "output": text, "lines": out.lines, "source": out.source, "cut": out.cut,
            "text": f"{head}\n{text}"}


def redactor_of(agent: Agent, redacting: bool) -> Callable[[str], str]:
    return lambda text: agent.redact(text, redacting)
