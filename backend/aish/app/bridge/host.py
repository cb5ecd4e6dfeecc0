"""The service's side of the bridge: what ``Host`` needs, built from the daemon's own parts.

The proposal is judged exactly as a suggestion is (``judge.judge`` in the shell's own
request: the local verdict in its cwd, the second opinion, the preview with its variables),
and its output is read exactly as for a question (``output.read`` with the daemon's tmux
taps; a pane not yet watched is watched from now on).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from aish.app.bridge.hub import Host
from aish.ipc.protocol import Request
from aish.ipc.reply import Reply

if TYPE_CHECKING:
    from aish.app.service import Service
    from aish.context.output import Output


def for_service(service: Service) -> Host:
    from aish import paths

    def judge(req: Request, reply: Reply, command: str) -> tuple:
        from aish.app.judge import judge as judge_commands
        from aish.app.model_call import Caller

        caller = Caller(service.ask_env(service.config()), service.session(req.conv))
        level, reason, preview = judge_commands(caller, [command], req, reply)[0]
        return level, f"{reason} — {preview}" if preview and reason else (reason or "")

    def output(term: dict, command: str, exit_code: Optional[int]) -> Optional[Output]:
        from aish.app.attach_output import read

        service.watch(Request(id="", kind="watch", interactive=True, extra=dict(term)))
        return read(term, command, service.config(), None, service.taps(), exit_code=exit_code)

    def task_waiting(key: str) -> bool:
        from aish.app.norris_task import Task

        session = service.sessions.loaded(key)
        task = Task.from_dict(session.task) if session is not None else None
        return task is not None and task.active

    def answering(key: str) -> bool:
        session = service.sessions.loaded(key)
        return session is not None and session.lock.locked()

    return Host(rundir=paths.runtime_dir(), config=service.config, judge=judge, output=output,
                task_waiting=task_waiting, answering=answering, log=service.log)
