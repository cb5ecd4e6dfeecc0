"""One request on its worker thread, from its ``req`` line to its ``D`` frame: the request
file read (and deleted), the client's reply FIFO opened without blocking (a path the daemon
does not trust is refused), the handler run, and what the client hears at the end (an ``E``
frame for an error, the ``D`` frame's JSON).

``Server`` (``daemon/server.py``) routes the control lines and keeps the books of what
runs; this is the part between.  docs/protocol.md is the contract.
"""
from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Any, Callable, Optional

from aish.daemon import client_files, runtime
from aish.daemon.frames import FrameReply
from aish.errors import AishError, Cancelled, DaemonError, ProtocolError
from aish.ipc.protocol import Request, parse_request, unescape

MAX_REQUEST = 16 * 1024 * 1024  # a request file larger than this is refused, not read

Handler = Callable[[Request, FrameReply], object]


class RequestRunner:
    """Runs ``handler`` for the requests of one daemon, logging to ``log``."""

    def __init__(self, handler: Handler, log: logging.Logger) -> None:
        self.handler = handler
        self.log = log

    def serve(self, rundir: Path, reply: FrameReply) -> None:
        try:
            text = read_request(rundir, reply.id)
        except (OSError, ProtocolError) as err:
            self.log.warning("request %s unreadable: %s", reply.id, err)
            return
        try:
            request = parse_request(text, reply.id)
        except ProtocolError as err:
            self.log.warning("%s", err)
            if self._attach(rundir, reply, _find_reply(text), False):
                reply.done(_failed(reply, err))
            return
        if request.kind == "prepare" and not request.reply:
            self.run(request, reply)  # reads nothing back: the shell never waits for it
            return
        if not self._attach(rundir, reply, request.reply, request.interactive):
            return
        self.log.info("request %s: %s/%s from %s", reply.id, request.kind, request.mode, request.shell)
        payload = self.run(request, reply)
        if reply.cancel.cancelled:
            payload.setdefault("cancelled", True)
        reply.done(payload)

    def run(self, request: Request, reply: FrameReply) -> dict:
        try:
            return _to_dict(self.handler(request, reply))
        except Cancelled:
            return _CANCELLED.copy()
        except AishError as err:
            if reply.cancel.cancelled:  # what failed was the cancelled call
                return _CANCELLED.copy()
            return _failed(reply, err)
        except Exception:
            self.log.exception("request %s: handler failed", request.id)
            message = runtime.internal_error_message()
            reply.error(message, "internal")
            return {"error": message, "kind": "internal"}

    def _attach(self, rundir: Path, reply: FrameReply, path: Optional[str], interactive: bool) -> bool:
        """Open the client's reply FIFO without blocking; refuse any path we do not trust."""
        if not path:
            return False
        try:
            fifo = client_files.check_reply_fifo(rundir, path)
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        except (DaemonError, ValueError) as err:  # ValueError: a NUL in the path
            self.log.warning("request %s refused: %s", reply.id, err)
            reply.cancel.cancel()
            return False
        except OSError as err:  # ENXIO: nobody reads it, the client is gone
            self.log.info("request %s: client gone before the answer (%s)", reply.id, err.strerror)
            reply.cancel.cancel()
            remove_gone_client(rundir, path, self.log)
            return False
        st = os.fstat(fd)
        if not stat.S_ISFIFO(st.st_mode) or st.st_uid != os.getuid():  # swapped after the check
            os.close(fd)
            self.log.warning("request %s refused: %s changed under us", reply.id, path)
            return False
        reply.attach(fd, str(fifo), interactive)
        return True


def read_request(rundir: Path, req_id: str) -> str:
    """Read and delete ``<id>.req``; only a regular file of ours counts."""
    path = rundir / f"{req_id}.req"
    try:
        return client_files.read_own_file(path, MAX_REQUEST)
    finally:
        runtime.unlink_quietly(path)


def remove_gone_client(rundir: Path, path: str, log: logging.Logger) -> None:
    removed = client_files.remove_if_client_gone(rundir, path)
    if removed:
        log.info("removed %d file(s) of a client that is gone", removed)


_CANCELLED = {"error": "cancelled", "kind": "cancelled", "cancelled": True}


def _failed(reply: FrameReply, err: AishError) -> dict:
    """The E frame for ``err`` (message, kind, hint as fields), and the D frame's payload."""
    reply.error(err.summary, err.kind, err.hint)
    payload = {"error": " ".join(str(err).split()), "kind": err.kind}
    if err.hint:
        payload["hint"] = err.hint
    return payload


def _find_reply(text: str) -> Optional[str]:
    """The reply path of a request we could not parse, so its client hears why (a path
    cut at a NUL byte is still checked like any other before anything is written)."""
    for line in text.split("\n"):
        if line.startswith("reply="):
            return unescape(line[6:]).split("\x00", 1)[0]
    return None


def _to_dict(result: Any) -> dict:
    """The D frame's JSON: the service's handlers return an ``AskResult`` (``to_dict``); a
    scripted handler (tests, ``--handler``) may return a plain dict or nothing."""
    if result is None:
        return {}
    return dict(result) if isinstance(result, dict) else result.to_dict()
