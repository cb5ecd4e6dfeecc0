"""The daemon's loop: control lines from daemon.fifo, one thread per request.

The main thread only reads control lines and routes them (``req`` hands the
request to a thread of its own, an idle kept one or a new one: ``ipc/workers.py``;
``cancel`` and ``answer`` reach the running request at once), so a slow model,
a stuck MCP server or a client that stopped reading can never delay another shell.
What a request's thread does, from its file to its ``D`` frame, is ``daemon/one_request.py``.
docs/protocol.md is the contract; docs/daemon.md says how to run and debug it.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from aish.daemon import client_files, restart, runtime
from aish.daemon.frames import FrameReply
from aish.daemon.one_request import Handler, RequestRunner, remove_gone_client
from aish.errors import DaemonError
from aish.ipc.protocol import Request, parse_control
from aish.ipc.workers import Workers

if TYPE_CHECKING:
    from aish.install import Install

MAX_LINE = 4096
PRUNE_EVERY = 600.0  # seconds between sweeps of dead clients' FIFOs (also one at start)


class Server:
    def __init__(self, handler: Handler, rundir: Optional[Path] = None,
                 log: Optional[logging.Logger] = None, resume: Optional[restart.Resume] = None,
                 before_restart: Callable[[], object] = lambda: None,
                 restart_argv: Sequence[str] = ()) -> None:
        self.log = log or logging.getLogger("aish.daemon")
        self._runner = RequestRunner(handler, self.log)
        self.ready = threading.Event()  # set once daemon.fifo is read and daemon.pid written
        self.rundir: Path  # set by serve_forever(); nothing reads it before
        self._rundir_arg = rundir
        self._fifo_fd = -1
        self._stopping = False
        self._retiring = False
        self._lock_fd = -1
        self._active: dict = {}
        self._active_lock = threading.Lock()
        self._next_prune = 0.0
        self._workers = Workers(name="req")
        # restarting in place after a reinstall (daemon/restart.py)
        self._resume = resume
        self._before_restart = before_restart
        self._restart_argv = tuple(restart_argv)
        self._install: Optional[Install] = None
        self._held: Optional[list] = None  # req lines held for the new install
        self._install_changed: Optional[bool] = None  # looked at once per batch of lines read together

    # ------------------------------------------------------------ lifecycle
    def serve_forever(self) -> None:
        """Own the runtime dir's daemon files and serve until ``shutdown()``."""
        from aish.install import Install

        rundir = self.rundir = runtime.rundir_path(self._rundir_arg)
        resume = self._resume
        restart.adopt(resume)
        lock_fd = resume.lock_fd if resume else runtime.acquire_instance(rundir)
        if lock_fd is None:
            pid = runtime.read_pid(rundir)
            raise DaemonError(f"another aish daemon is already running (pid {pid or '?'})",
                              hint="'aish daemon stop' to stop it")
        self._lock_fd = lock_fd
        try:
            self._fifo_fd = resume.fifo_fd if resume else runtime.make_fifo(rundir)
            self._install = install = Install.find()
            runtime.write_pidfile(rundir, _version(), install.identity)
            self.log.info("daemon %d serving %s%s", os.getpid(), rundir,
                          " (restarted in place with the new install)" if resume else "")
            self.ready.set()
            runtime.announce_ready()  # the client that forked us sends its question now
            self._prune()
            for line in resume.lines if resume else ():
                self._dispatch(line.encode("utf-8"))
            self._loop()
        finally:
            self._finish()
            runtime.remove_files(rundir, self._fifo_fd)
            if self._fifo_fd >= 0:
                os.close(self._fifo_fd)
                self._fifo_fd = -1
            # Logged before the lock goes: whoever waits on the lock (a restart,
            # a test) must find the log complete.
            self.log.info("daemon %d stopped", os.getpid())
            self._release_lock()

    def _release_lock(self) -> None:
        if self._lock_fd >= 0:
            os.close(self._lock_fd)
            self._lock_fd = -1

    def _retire(self) -> None:
        """Another version's client wants its own daemon: give up the names and the lock
        now (so it can start one), finish what runs, then exit.  Clients of running
        requests keep their open daemon.fifo (cancels still arrive) and watch our pid."""
        if self._retiring:
            return
        self._retiring = True
        self.log.info("retiring for a daemon of another version (%d request(s) to finish)",
                      self.active())
        runtime.remove_files(self.rundir, self._fifo_fd)
        self._release_lock()
        self._wake()

    def _wake(self) -> None:
        try:
            os.write(self._fifo_fd, b"\n")
        except OSError:
            pass

    def shutdown(self) -> None:
        """Safe from a signal handler: set a flag and wake the blocked read, through the
        FIFO we read (its path may be gone or hold another daemon's FIFO by now)."""
        self._stopping = True
        if self._fifo_fd >= 0:
            self._wake()

    def _finish(self, wait: float = 1.0) -> None:
        """Cancel what still runs, saying why (as a shell says so when a daemon dies), and
        give it a moment to send its D frame."""
        with self._active_lock:
            running = list(self._active.values())
        for reply in running:
            reply.warning("[aish] the daemon was stopped while answering")
            reply.cancel.cancel()
        deadline = time.monotonic() + wait
        for reply in running:
            reply.finished.wait(max(0.0, deadline - time.monotonic()))

    def active(self) -> int:
        """How many requests run (a retiring or restarting daemon waits for none)."""
        with self._active_lock:
            return len(self._active)

    def _prune(self) -> None:
        self._next_prune = time.monotonic() + PRUNE_EVERY
        removed = client_files.prune_client_files(self.rundir)
        if removed:
            self.log.info("removed %d file(s) of clients that are gone", removed)

    # ------------------------------------------------------------ control lines
    def _loop(self) -> None:
        pending = b""
        while not self._stopping:
            chunk = os.read(self._fifo_fd, 65536)  # O_RDWR: blocks, never EOF
            pending += chunk
            *lines, pending = pending.split(b"\n")
            if len(pending) > MAX_LINE:
                self.log.warning("dropped %d bytes of control input without a newline", len(pending))
                pending = b""
            if self._retiring and self.active() == 0:
                return
            self._install_changed = None  # lines read together arrived together: one look for them
            for raw in lines:
                if self._stopping:
                    return
                try:
                    self._dispatch(raw)
                except Exception:  # one bad line must never stop the daemon
                    self.log.exception("control line %r failed", raw[:80])
            if self._held is not None and self.active() == 0 and not self._retiring:
                self._restart()

    def _dispatch(self, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace").strip()
        if not line:
            return
        parsed = parse_control(line)
        if parsed is None:
            self.log.warning("ignored malformed control line %r", line[:80])
            return
        word, args = parsed
        self.CONTROL[word](self, args, line)

    def _on_retire(self, args: list, line: str) -> None:
        if args[0] == str(os.getpid()):
            self._retire()

    def _on_req(self, args: list, line: str) -> None:
        if self._hold(line):
            return
        if time.monotonic() >= self._next_prune:
            self._prune()
        with self._active_lock:
            if args[0] in self._active:
                self.log.warning("duplicate request id %s ignored", args[0])
                return
            reply = self._active[args[0]] = FrameReply(args[0], self.log)
            reply.rundir = self.rundir
        self._workers.run(self._serve, reply)

    def _on_cancel(self, args: list, line: str) -> None:
        if self._held and f"req {args[0]}" in self._held:
            self._held.remove(f"req {args[0]}")
            return
        reply = self._running(args[0], "cancel")
        if reply is not None:
            self.log.info("request %s cancelled by the client", args[0])
            reply.cancel.cancel()

    def _on_answer(self, args: list, line: str) -> None:
        reply = self._running(args[0], "answer")
        if reply is not None and not reply.deliver(args[1], args[2]):
            self.log.info("answer for unknown question %s/%s ignored", args[0], args[1])

    def _running(self, req_id: str, word: str) -> Optional[FrameReply]:
        with self._active_lock:
            reply = self._active.get(req_id)
        if reply is None:
            self.log.info("%s for unknown request %s ignored", word, req_id)
        return reply

    def _on_watch(self, args: list, line: str) -> None:
        """A shell's first prompt in tmux: the handler reads its pane from now on.  Off the
        control loop (the handler runs tmux), with no reply."""
        extra = {"tmux_pane": args[0], "tmux": args[1]}
        if len(args) > 2:
            extra["mark"] = args[2]  # the shell's count of D marks so far (context/marks.py)
        request = Request(id="watch", kind="watch", interactive=True, extra=extra)
        self._workers.run(self._runner.run, request, FrameReply("watch", self.log))

    # One handler per control word (docs/protocol.md, Control lines)
    CONTROL: dict[str, Callable[["Server", list, str], None]] = {
        "req": _on_req, "cancel": _on_cancel, "answer": _on_answer, "retire": _on_retire,
        "watch": _on_watch}

    # ------------------------------------------------------------ a reinstall
    def _hold(self, line: str) -> bool:
        """Hold a request for the new install once aish was reinstalled under us."""
        if self._held is None:
            if self._install is None:
                return False
            if self._install_changed is None:  # (a stat: once for the lines of one read, not once each)
                self._install_changed = self._install.changed()
            if not self._install_changed:
                return False
            self.log.info("aish was reinstalled under this daemon: restarting with the new install "
                          "once %d running request(s) finish", self.active())
            self._held = []
        self._held.append(line)
        return True

    def _restart(self) -> None:
        """Exec the new install over this process (same pid, FIFO and lock kept)."""
        try:
            self._before_restart()
        except Exception:
            self.log.exception("closing the service before the restart failed")
        for handler in logging.getLogger("aish").handlers:
            handler.flush()
        err = restart.exec_over(restart.Resume(self._fifo_fd, self._lock_fd, self._held or []),
                                self._restart_argv)
        self.log.error("cannot restart with the new install (%s): stopping; the next question "
                       "starts a new daemon", err)
        self._held = None
        self._stopping = True

    # ------------------------------------------------------------ one request
    def _serve(self, reply: FrameReply) -> None:
        try:
            self._runner.serve(self.rundir, reply)
        except Exception:
            self.log.exception("request %s failed outside its handler", reply.id)
        finally:
            with self._active_lock:
                self._active.pop(reply.id, None)
            reply.close()
            reply.finished.set()
            reply.run_after()  # the conversation's fold, once the answer is delivered
            if reply.client_lost and reply.path:
                remove_gone_client(self.rundir, reply.path, self.log)
            if self._retiring or self._held is not None:
                self._wake()  # the loop exits (or restarts) once nothing runs


def _version() -> str:
    from aish.version import __version__

    return __version__
