"""The daemon's application in this process: what a test of verbs, costs, routing or tasks
needs from "the daemon", without spawning one.

``InProcessDaemon`` builds the requests ``aish`` builds (``cli/main.py``'s ``_send``) and
hands them to a real ``Service``, as the daemon's server does; the answer lands in a
``RecordingReply`` instead of frames on a FIFO.  ``restart()`` is a daemon restart: a new
``Service`` that finds its conversations, totals and tasks on disk.

``ThreadDaemon`` is the daemon's own ``Server`` on a thread of this process, on real FIFOs,
logging to the daemon's log file: with the real ``Service`` as its handler (the ``wired``
fixture) the CLI run in this process (``tests/helpers.py``'s ``aish_here``) speaks to it as
``aish`` speaks to a daemon: request files, frames, the printer, exit statuses.  What only
daemon processes can show (spawning, the locks, signals, kills, restarts, cold starts and
what they import) is checked by the few tests in tests/e2e.
"""
from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from aish.errors import AishError
from aish.llm.events import AskResult
from tests.doubles import RecordingReply


@dataclass
class Outcome:
    """One request's answer, read as ``aish`` would print it (cli/main.py's ``_Printer``, on no
    terminal): ``stdout`` the text then one line per suggested command, ``stderr`` the status
    and warning lines, each command's level line and the error's line; ``returncode`` the
    exit status of the error's kind."""

    reply: RecordingReply
    result: Optional[AskResult] = None
    error: Optional[AishError] = None

    @property
    def text(self) -> str:
        return self.reply.full_text

    @property
    def commands(self) -> list[str]:
        return [command for command, _level, _reason in self.reply.commands]

    @property
    def stdout(self) -> str:
        text = self.text
        if text and not text.endswith("\n"):
            text += "\n"
        return text + "".join(f"{command}\n" for command in self.commands)

    @property
    def stderr(self) -> str:
        lines = [line if line.startswith("[aish] ") else f"[aish] {line}" for line in self.reply.statuses]
        lines += self.reply.warnings
        lines += [f"  ! {level}: {reason}" for _command, level, reason in self.reply.commands
                  if level and level != "-"]
        if self.error is not None:
            lines.append(f"aish: {self.error}")
        return "".join(f"{line}\n" for line in lines)

    @property
    def returncode(self) -> int:
        from aish.cli.exit_status import ExitStatus, for_kind

        return ExitStatus.OK if self.error is None else for_kind(self.error.kind)

    def json(self) -> dict:
        """What ``aish ask --json`` prints."""
        assert self.result is not None, self.stderr
        return self.result.to_dict()


def own_directory() -> str:
    """The case's own directory (tests/conftest.py's private paths), made if need be: the
    requests' working directory unless a case gives one.  This checkout is a git repository,
    and a new service's first ask in it ran ``git status`` (~16 ms of CPU, ~100 times a unit
    run); the cases about the git line or a project's notes name their directory."""
    base = Path(os.environ["AISH_CONFIG"]).parent
    base.mkdir(parents=True, exist_ok=True)
    return str(base)


class InProcessDaemon:
    def __init__(self, conv: str = "e2e") -> None:
        from aish.app.service import Service

        self.conv = conv
        self.cwd = own_directory()
        self.service = Service()

    def request(self, kind: str, *, argv: tuple = (), text: str = "", stdin: str = "",
                conv: Optional[str] = None, cwd: Optional[os.PathLike] = None,
                answers: Optional[list] = None, reply: Optional[RecordingReply] = None,
                env: Optional[dict] = None) -> Outcome:
        """One request as ``aish`` sends it; an ``AishError`` is kept, not raised (the daemon
        sends it as an E frame).  ``env``: the caller's exported variables (default: this
        process's), which the daemon's own environment does not have."""
        from aish.ipc.protocol import Request, env_from

        request = Request(id="", kind=kind, reply="", conv=conv or self.conv, shell="cli",
                          mode="question", text=text, buffer="", cwd=str(cwd or self.cwd),
                          argv=list(argv), stdin=stdin, interactive=False, cols=80,
                          env=env_from(dict(os.environ)) if env is None else env)
        outcome = Outcome(reply or RecordingReply(answers=answers))
        try:
            outcome.result = self.service.handle(request, outcome.reply)
        except AishError as err:
            outcome.error = err
        return outcome

    def ask(self, text: str, **kw) -> Outcome:
        return self.request("ask", text=text, **kw)

    def verb(self, *argv: str, **kw) -> Outcome:
        """``aish VERB ARGS...`` (or ``? :VERB ARGS`` in a shell)."""
        return self.request("verb", argv=argv, **kw)

    def ok(self, *argv: str, **kw) -> Outcome:
        """``aish ask TEXT`` or ``aish VERB ARGS...``, which must succeed."""
        outcome = self.ask(" ".join(argv[1:]), **kw) if argv[0] == "ask" else self.verb(*argv, **kw)
        assert outcome.returncode == 0, (argv, outcome.stdout, outcome.stderr)
        return outcome

    def restart(self) -> None:
        """A daemon restart: nothing kept in memory, everything read back from disk."""
        from aish.app.service import Service

        self.service.close()
        self.service = Service()

    def close(self) -> None:
        self.service.close()


class ThreadDaemon:
    """The daemon's ``Server`` serving ``handler`` on a thread, logging to the daemon's log
    file (as ``python -m aish.daemon`` sets it up); its pid is this process's, so a client
    here finds it running (daemon.pid) and never starts one."""

    def __init__(self, handler: Callable) -> None:
        from aish.daemon import runtime
        from aish.daemon.server import Server

        runtime.log_path().parent.mkdir(parents=True, exist_ok=True)
        self.log_handler = logging.FileHandler(runtime.log_path(), encoding="utf-8")
        root = logging.getLogger("aish")
        self.level = root.level
        root.addHandler(self.log_handler)
        root.setLevel(logging.INFO)
        self.server = Server(handler, log=logging.getLogger("aish.daemon"))
        self.thread = threading.Thread(target=self.server.serve_forever, name="test-daemon", daemon=True)
        self.thread.start()
        assert self.server.ready.wait(10), "the daemon did not start serving"
        self.pid = os.getpid()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(10)
        root = logging.getLogger("aish")
        root.removeHandler(self.log_handler)
        root.setLevel(self.level)
        self.log_handler.close()
        assert not self.thread.is_alive(), "the daemon did not stop"


class WiredDaemon(ThreadDaemon):
    """``ThreadDaemon`` serving the daemon's real handler, a ``Service`` (what the daemon's
    ``LazyService`` builds off the request path and hands every request to)."""

    def __init__(self) -> None:
        from aish.app.service import Service

        self.service = Service(logging.getLogger("aish"))
        super().__init__(self.service.handle)

    def stop(self) -> None:
        try:
            super().stop()
        finally:
            self.service.close()
