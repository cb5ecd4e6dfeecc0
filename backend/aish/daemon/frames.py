"""``FrameReply``: the daemon's ``Reply``, writing protocol frames to a client's FIFO.

A client can vanish or stop reading at any moment, and the daemon serves many
shells at once, so nothing here may block for long: the FIFO is non-blocking,
a full pipe gets a bounded wait, and a watcher thread notices the reader
closing (POLLERR on the write end: ``reader_watch.py``, one thread for every
request) while the handler is busy elsewhere (in a model call), turning it into
a cancel that closes the HTTP stream.
"""
from __future__ import annotations

import json
import logging
import os
import select
import threading
import time
from pathlib import Path
from typing import Optional

from aish.daemon import client_files, reader_watch, runtime
from aish.errors import AishError
from aish.ipc.cancel import CancelToken
from aish.ipc.protocol import SECRET_NAME_WORDS, encode_frame, parse_vars

_MAX_VARS_BYTES = 1 << 20   # a shell's variables, as var= lines (values over 4 KB are left out)
_DONE_JSON = json.JSONEncoder(ensure_ascii=False, default=str)  # made once, not per D frame


# seconds a client may leave its pipe full before it counts as gone (tests shorten it)
def stall_seconds() -> float:
    """Read when used, not at import: a forked daemon inherits its parent's modules."""
    return float(os.environ.get("AISH_DAEMON_STALL") or 10.0)
_PATH_LOCKS: dict = {}
_PATH_LOCKS_GUARD = threading.Lock()


def _path_lock(path: str) -> threading.Lock:
    """One lock per reply FIFO: a shell reuses its FIFO, so a cancelled request's
    late frames and the next request's frames must never interleave mid-line."""
    with _PATH_LOCKS_GUARD:
        lock = _PATH_LOCKS.get(path)
        if lock is None:
            if len(_PATH_LOCKS) > 256:  # shells come and go; forget idle ones
                for key in [k for k, v in _PATH_LOCKS.items() if not v.locked()]:
                    del _PATH_LOCKS[key]
            lock = _PATH_LOCKS[path] = threading.Lock()
        return lock


class FrameReply:
    """Reply of one request; created before its FIFO is known so ``cancel`` and
    ``answer`` lines that race the request file still find it."""

    def __init__(self, req_id: str, log: logging.Logger) -> None:
        self.id = req_id
        self.cancel = CancelToken()
        self.interactive = False
        self.log = log
        self._fd: Optional[int] = None
        self._lock: Optional[threading.Lock] = None
        self._gone = False
        self._done = False
        self._qlock = threading.Lock()
        self._qseq = 0
        self._questions: dict = {}
        self.rundir: Optional[Path] = None  # where the shell writes what a V frame asks for
        self._watched: Optional[reader_watch.Watched] = None
        self.finished = threading.Event()  # set by the server once the request is over
        self._after: list = []  # work the handler left for after the D frame (``after_done``)
        self.path: Optional[str] = None  # the reply FIFO, once attached
        self._held: list = []  # frames that go out with the next one (``command``)

    # ------------------------------------------------------------ lifecycle
    def attach(self, fd: int, path: str, interactive: bool) -> None:
        self._fd, self._lock, self.interactive, self.path = fd, _path_lock(path), interactive, path
        self._watched = reader_watch.readers().add(fd, self._reader_gone)

    def _reader_gone(self) -> None:
        if not self._done:  # a client closes its FIFO once it has read the D frame: nothing lost
            self._lost("the client closed its reply FIFO")

    @property
    def client_lost(self) -> bool:
        """The reader went away (or stopped reading) before the request ended."""
        return self._gone

    def _lost(self, why: str) -> None:
        if not self._gone:
            self._gone = True
            if not self._done:
                self.log.info("request %s: %s; cancelling", self.id, why)
            self.cancel.cancel()

    def close(self) -> None:
        """Stop watching (the watch polls a duplicate of the fd), then close (a frame still
        held goes out first)."""
        if self._held:
            self._send("", hold=False)
        self._done = True
        if self._watched is not None:
            reader_watch.readers().remove(self._watched)
            self._watched = None
        lock = self._lock  # set with _fd by attach()
        if self._fd is None or lock is None:
            return
        with lock:  # never under a frame another thread writes (the server's, at shutdown)
            fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def after_done(self, fn) -> None:
        """Run ``fn`` on this request's thread once its D frame is sent (the fold of a
        conversation after its answer): no thread handed the work, nobody waits for it."""
        self._after.append(fn)

    def run_after(self) -> None:
        jobs, self._after = self._after, []
        for fn in jobs:
            try:
                fn()
            except Exception:
                self.log.exception("request %s: work after the answer failed", self.id)

    # ------------------------------------------------------------ writing
    def _send(self, tag: str, *fields: str, hold: bool = False) -> bool:
        """Write one frame now (no buffering: latency matters more than syscalls), after the
        frames held for it; ``hold``: keep this one for the next frame's write instead (an
        answer's suggested commands, which its D frame follows at once: one write, and one
        wake-up of the shell, fewer per ask).  ``tag`` "": only what is held.
        After a cancel only the D frame is still attempted, without waiting."""
        lock = self._lock  # set with _fd by attach()
        if self._fd is None or lock is None or self._gone or (self.cancel.cancelled and tag != "D" and (
                tag or not self._held)):
            return False
        frame = encode_frame(self.id, tag, *fields) if tag else b""
        deadline = None
        with lock:
            if hold:
                self._held.append(frame)
                return True
            if self._held:
                frame, self._held = b"".join([*self._held, frame]), []
            fd = self._fd  # read under the lock: close() takes it too (the server's thread
            if fd is None:  # writes "stopped while answering" while the request's closes)
                return False
            data = memoryview(frame)
            while data:
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    now = time.monotonic()
                    deadline = deadline or now + (0.0 if self.cancel.cancelled else stall_seconds())
                    if now >= deadline:
                        self._lost("the client stopped reading")
                        return False
                    poller = select.poll()
                    poller.register(fd, select.POLLOUT)
                    poller.poll(max(1, int((deadline - now) * 1000)))
                except OSError as exc:  # EPIPE: the reader went away
                    self._lost(f"reply FIFO write failed ({exc.strerror})")
                    return False
        return True

    def text(self, chunk: str) -> None:
        if chunk:
            self._send("T", chunk)

    def status(self, line: str) -> None:
        self._send("S", line if line.startswith("[aish] ") else f"[aish] {line}")

    def warning(self, line: str) -> None:
        self._send("W", line)

    def command(self, command: str, level: Optional[str] = None, reason: Optional[str] = None) -> None:
        """C frame: held until the next frame (the D frame, a status, a question...) goes out."""
        self._send("C", command, level or "-", reason or "-", hold=True)

    def task(self, state: str) -> None:
        self._send("N", state)

    def proposal(self, state: str, command: str = "") -> None:
        self._send("A", state, command)

    def error(self, message: str, kind: str = "error", hint: Optional[str] = None) -> None:
        """E frame: the message, the error's kind, its hint (docs/protocol.md), each one line."""
        fields = [" ".join(message.split()), kind] + ([" ".join(hint.split())] if hint else [])
        self._send("E", *fields)

    def done(self, payload: dict) -> None:
        self._done = True  # the client may close its FIFO as soon as it reads D: no cancel log
        self._send("D", _DONE_JSON.encode(payload))

    # ------------------------------------------------------------ questions
    def ask(self, question: str, timeout: float) -> Optional[str]:
        """Q frame, then wait for the matching ``answer`` line; None is a denial."""
        # The timeout goes along: the shell gives up at the same moment and says so.
        _, answer = self._question(timeout, "Q", question, f"{timeout:g}")
        return answer

    def input(self, prompt: str, timeout: float) -> Optional[str]:
        """I frame: the shell reads a line and writes it as ``var=answer=TEXT`` to
        ``<id>.<qid>.vars`` (as for a V frame), then answers ``v``; ``n`` (or nothing) is None."""
        found = self._answer_file(timeout, "I", prompt, f"{timeout:g}")
        return None if found is None else found.get("answer") or ""

    def variables(self, timeout: float) -> Optional[dict]:
        """V frame; the shell writes ``<id>.<qid>.vars`` (0600, in the runtime dir) and
        answers ``v``.  None when it cannot (not interactive, gone, too slow, a bad file)."""
        return self._answer_file(timeout, "V", "|".join(SECRET_NAME_WORDS))

    def _answer_file(self, timeout: float, tag: str, *fields: str) -> Optional[dict]:
        """Ask with ``tag`` and read the ``var`` lines the client wrote for the answer."""
        if self.rundir is None:
            return None
        qid, answer = self._question(timeout, tag, *fields)
        if not qid:   # nobody to ask: no frame went out, no file can come
            return None
        path = self.rundir / f"{self.id}.{qid}.vars"
        try:
            if answer != "v":
                return None
            return parse_vars(client_files.read_own_file(path, _MAX_VARS_BYTES))
        except (OSError, AishError) as err:
            self.log.warning("request %s: the shell's variables are unreadable: %s", self.id, err)
            return None
        finally:
            runtime.unlink_quietly(path)   # written late, after we gave up: still ours to remove

    def _question(self, timeout: float, tag: str, *fields: str) -> tuple:
        """Send ``tag qid fields...`` and wait for ``answer <id> <qid> X``: (qid, X or None)."""
        if not self.interactive or self.cancel.cancelled or self._gone:
            return "", None
        event = threading.Event()
        with self._qlock:
            self._qseq += 1
            qid = f"q{self._qseq}"
            slot = self._questions[qid] = [event, None]
        unregister = self.cancel.on_cancel(event.set)
        try:
            if not self._send(tag, qid, *fields):
                return qid, None
            event.wait(timeout)
            return qid, None if self.cancel.cancelled else slot[1]
        finally:
            unregister()
            with self._qlock:
                self._questions.pop(qid, None)

    def deliver(self, qid: str, answer: str) -> bool:
        with self._qlock:
            slot = self._questions.get(qid)
            if slot is None:
                return False
            slot[1] = answer
        slot[0].set()
        return True
