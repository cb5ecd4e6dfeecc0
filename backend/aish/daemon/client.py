"""The Python client of the daemon (``aish ask`` and the daemon-side verbs).

It speaks docs/protocol.md exactly as the shells do: write ``<id>.req``, send
``req <id>``, read frames from its own reply FIFO.  The FIFO is created and
opened read-write before the request goes out, so the daemon's non-blocking
open always finds a reader.  The client keeps daemon.fifo open for the whole
request: its write end reports an error the moment the daemon that took the
request dies, even when another daemon is already serving the same path.
"""
from __future__ import annotations

import atexit
import errno
import itertools
import json
import os
import select
import stat
import time
from pathlib import Path
from collections.abc import Callable

from aish.daemon import runtime, spawn
from aish.errors import Cancelled, DaemonError, ProtocolError
from aish.ipc.wire import Frame, format_control, parse_frame, request_text

TYPE_CHECKING = False  # (typing itself is a tenth of `aish ask`'s imports)
if TYPE_CHECKING:
    from aish.ipc.protocol import Request

LIVENESS = 0.5  # seconds between checks of the overall bounds while waiting
STOP_CHECK = 0.05  # seconds between asks of another thread's stop() (an agent's cancel is felt)
IDLE = 300.0  # seconds without a frame that count as "no answer" (AISH_TIMEOUT, as the shells)
_SEQ = itertools.count(1)


class Client:
    def __init__(self, rundir: os.PathLike | None = None, autostart: bool = True) -> None:
        self._rundir_arg = rundir
        self.autostart = autostart
        self.rundir: Path | None = None
        self.fifo: Path | None = None
        self._fd = -1
        self._pending = b""

    # ------------------------------------------------------------ setup
    def _ensure(self) -> Path:
        if self.rundir is None:
            self.rundir = runtime.rundir_path(self._rundir_arg)
        rundir = self.rundir
        if self.autostart:  # another version or install: replaced once its answers finish
            runtime.replace_outdated(rundir)
        if not runtime.is_running(rundir):
            if not self.autostart:
                raise DaemonError("the aish daemon is not running", hint="run 'aish daemon start'")
            spawn.start(rundir=rundir)
        if self._fd < 0:
            self._open_fifo(rundir)
        return rundir

    def _open_fifo(self, rundir: Path) -> None:
        """One reply FIFO per Client, named after the process (``py-<pid>-<n>``)."""
        path = rundir / f"py-{os.getpid()}-{next(_SEQ)}.fifo"
        try:
            if stat.S_ISFIFO(os.lstat(path).st_mode):
                os.unlink(path)  # left behind by a dead process that had our pid
        except FileNotFoundError:
            pass
        try:
            os.mkfifo(path, 0o600)
            self._fd = os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            raise DaemonError(f"cannot create the reply FIFO {path}: {exc.strerror}",
                              hint="check the runtime dir ('aish doctor')") from None
        self.fifo = path
        atexit.register(self.close)

    def close(self) -> None:
        """Close and remove the reply FIFO (also run at exit)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self.fifo is not None:
            runtime.unlink_quietly(self.fifo)
            self.fifo = None
            atexit.unregister(self.close)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------ one request
    def request(self, req: Request | dict, *, on_frame: Callable[[Frame], None],
                answer: Callable[..., str | None] | None = None,
                timeout: float | None = None, stop: Callable[[], bool] | None = None,
                idle: float | None = None) -> dict:
        """Send ``req`` (its ``id`` and ``reply`` are filled in) and stream its frames
        to ``on_frame``; returns the D frame's JSON.  Ctrl-C cancels the request
        in the daemon and is re-raised, as is ``Cancelled`` once ``stop()`` says so (it is
        asked every 50 ms: another thread's way to cancel, so the daemon stops at once).  ``timeout`` bounds the
        whole request; ``idle`` (default ``AISH_TIMEOUT``, 300) the time without a frame.
        ``req`` may be a dict of the request's fields (the CLI's fast path builds no dataclass)."""
        rundir = self._ensure()
        fields = req if isinstance(req, dict) else vars(req)  # (a Request's own: filled in there too)
        req_id = fields["id"] = fields.get("id") or f"py-{os.getpid()}-{next(_SEQ)}-{time.time_ns() % 10**9}"
        fields["reply"] = str(self.fifo)
        req_path = rundir / f"{req_id}.req"
        daemon = -1
        try:
            self._write_request(req_path, request_text(fields))
            daemon, pid = self._open_daemon(rundir)
            self._write(daemon, format_control("req", req_id))
            return self._read_frames(req_id, daemon, pid, on_frame, answer, timeout, stop, idle)
        except BaseException:  # Ctrl-C, a failing callback, a timeout: stop the daemon's work
            if daemon >= 0:
                self._cancel(daemon, req_id)
            runtime.unlink_quietly(req_path)
            raise
        finally:
            if daemon >= 0:
                os.close(daemon)

    def _write_request(self, path: Path, text: str) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))

    def _open_daemon(self, rundir: Path) -> tuple:
        """Open daemon.fifo for writing and keep it for the whole request: the
        request's control lines (cancel, answers) then reach the daemon that took
        it, and the open end reports POLLERR the moment that daemon's read end is
        gone, whatever daemon comes up at the same path later."""
        pid = runtime.read_pid(rundir)
        try:
            fd = os.open(rundir / runtime.FIFO, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            if exc.errno in (errno.ENXIO, errno.ENOENT):
                raise DaemonError("the aish daemon stopped", hint="run 'aish daemon start'") from None
            raise DaemonError(f"cannot reach the aish daemon: {exc.strerror}",
                              hint="run 'aish doctor'") from None
        return fd, pid

    @staticmethod
    def _write(fd: int, line: bytes) -> None:
        try:
            os.write(fd, line)
        except BlockingIOError:
            raise DaemonError("the aish daemon is not reading its FIFO",
                              hint="'aish daemon stop', then try again") from None
        except BrokenPipeError:
            raise DaemonError("the aish daemon stopped", hint="run 'aish daemon start'") from None

    def _cancel(self, daemon: int, req_id: str) -> None:
        try:
            self._write(daemon, format_control("cancel", req_id))
        except (DaemonError, ProtocolError, OSError):
            pass

    def _read_frames(self, req_id: str, daemon: int, pid: int | None,
                     on_frame: Callable[[Frame], None],
                     answer: Callable[..., str | None] | None,
                     timeout: float | None, stop: Callable[[], bool] | None = None,
                     idle: float | None = None) -> dict:
        deadline = None if timeout is None else time.monotonic() + timeout
        idle = idle or _idle_bound()
        last = time.monotonic()
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        poller.register(daemon, 0)  # POLLERR: the daemon that took the request is gone
        while True:
            for line in self._lines():
                frame = parse_frame(line)
                if frame.id != req_id:
                    continue  # a late frame of an earlier, cancelled request
                last = time.monotonic()
                on_frame(frame)
                if frame.tag == "Q" and len(frame.fields) >= 2 and answer is not None:
                    reply = answer(frame.fields[0], frame.fields[1])
                    if reply in ("y", "n", "a", "s"):
                        self._write(daemon, format_control("answer", req_id, frame.fields[0], reply))
                    last = time.monotonic()
                elif frame.tag == "I" and len(frame.fields) >= 2 and answer is not None:
                    text = answer(frame.fields[0], frame.fields[1], text=True)
                    self._write(daemon, format_control("answer", req_id, frame.fields[0],
                                                       self._text_answer(req_id, frame.fields[0], text)))
                    last = time.monotonic()
                elif frame.tag == "D":
                    return _done(frame)
            if stop is not None and stop():
                raise Cancelled()
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise DaemonError(f"no answer from the aish daemon within {timeout:g}s",
                                  hint="see 'aish daemon status'")
            if now - last >= idle:
                raise DaemonError(f"no answer from the aish daemon for {idle:g}s",
                                  hint="see 'aish daemon status'")
            every = LIVENESS if stop is None else STOP_CHECK
            wait = min(every, idle - (now - last), (deadline or now + every) - now)
            events = dict(poller.poll(int(max(wait, 0) * 1000) + 1))
            if events.get(daemon, 0) & (select.POLLERR | select.POLLHUP | select.POLLNVAL):
                if self._drain():  # it wrote its last frames and went
                    continue
                raise DaemonError(f"the aish daemon (pid {pid or '?'}) stopped while answering",
                                  hint=f"see {runtime.log_path()}; the next ask starts a new one")

    def _text_answer(self, req_id: str, qid: str, text: str | None) -> str:
        """Write a typed answer to ``<id>.<qid>.vars`` (new, 0600): ``v``, or ``n`` for none."""
        if text is None or self.rundir is None:
            return "n"
        from aish.ipc.wire import escape

        try:
            self._write_request(self.rundir / f"{req_id}.{qid}.vars", f"var={escape('answer=' + text)}\n")
        except OSError:
            return "n"
        return "v"

    def _drain(self) -> bool:
        try:
            chunk = os.read(self._fd, 65536)
        except BlockingIOError:
            return False
        self._pending += chunk
        return bool(chunk)

    def _lines(self) -> list:
        self._drain()
        *lines, self._pending = self._pending.split(b"\n")
        return [line.decode("utf-8", "replace") for line in lines if line]


def _idle_bound() -> float:
    try:
        return max(float(os.environ.get("AISH_TIMEOUT") or IDLE), 0.1)
    except ValueError:
        return IDLE


def _done(frame: Frame) -> dict:
    try:
        result = json.loads(frame.fields[0]) if frame.fields else {}
    except ValueError:
        result = None
    if not isinstance(result, dict):
        raise ProtocolError("the daemon's done frame is not a JSON object",
                            hint="the daemon and the client differ: aish daemon stop")
    return result
