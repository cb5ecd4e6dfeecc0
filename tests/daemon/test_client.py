"""The Python client against a real server on real FIFOs, the server on a thread of this
process (a daemon process that has to die or be started: tests/e2e/test_daemon_process.py)."""
from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from aish.daemon.client import Client
from aish.daemon.server import Server
from aish.errors import Cancelled, DaemonError
from aish.ipc.protocol import Request

def rundir() -> Path:
    return Path(os.environ["AISH_RUNTIME_DIR"])


class Scripted:
    """An in-process handler whose behaviour each test sets; records what it saw."""

    def __init__(self) -> None:
        self.behaviour = lambda req, reply: {"text": req.text}
        self.cancelled = threading.Event()
        self.requests: list = []

    def __call__(self, req, reply):
        self.requests.append(req)
        reply.cancel.on_cancel(self.cancelled.set)
        return self.behaviour(req, reply)


@pytest.fixture
def server():
    handler = Scripted()
    srv = Server(handler, rundir=rundir())
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    assert srv.ready.wait(5)
    yield handler
    srv.shutdown()
    thread.join(5)
    assert not thread.is_alive()


def stream(req, reply, n=200):
    for _ in range(n):
        if reply.cancel.cancelled:
            break
        reply.text("tick ")
        reply.cancel.wait(0.02)
    return {}


def test_fills_in_id_and_reply_fifo_and_returns_the_done_json(server):
    with Client(autostart=False) as client:
        req = Request(text="hello", history=[], argv=["a"])
        assert client.request(req, on_frame=lambda f: None) == {"text": "hello"}
        fifo = client.fifo
        assert req.reply == str(fifo) and fifo.parent == rundir()
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and stat.S_IMODE(os.lstat(fifo).st_mode) == 0o600
        seen = server.requests[0]
        assert seen.id == req.id and seen.text == "hello" and seen.argv == ["a"]
        assert not list(rundir().glob("*.req"))  # the daemon deleted the request file
    assert not fifo.exists()  # removed on close


def test_frames_of_other_requests_are_ignored(server):
    def intruder(req, reply):
        fd = os.open(req.reply, os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, b"someone-else\tT\tnot yours\n")
        os.close(fd)
        reply.text("mine")
        return {}

    server.behaviour = intruder
    frames = []
    with Client(autostart=False) as client:
        client.request(Request(text="x"), on_frame=frames.append)
    assert [(f.tag, f.fields) for f in frames] == [("T", ["mine"]), ("D", ["{}"])]


def test_ctrl_c_cancels_the_request_in_the_daemon(server):
    server.behaviour = stream

    def interrupt(frame):
        if frame.tag == "T":
            raise KeyboardInterrupt

    with Client(autostart=False) as client:
        with pytest.raises(KeyboardInterrupt):
            client.request(Request(text="x"), on_frame=interrupt)
        interrupted = time.monotonic()
        assert server.cancelled.wait(1) and time.monotonic() - interrupted < 0.2
        server.behaviour = lambda req, reply: {"text": "next"}  # the client stays usable
        server.cancelled.clear()
        assert client.request(Request(text="y"), on_frame=lambda f: None) == {"text": "next"}


def test_another_threads_stop_cancels_the_request_in_the_daemon(server):
    """How `aish mcp-server` withdraws a call its agent cancelled: the call runs in a worker
    thread, the agent's cancel sets a flag the client checks between its reads."""
    asked, stop, set_at = threading.Event(), threading.Event(), []
    server.behaviour = lambda req, reply: (asked.set(), reply.cancel.wait(30), {})[2]  # silent until cancelled
    threading.Thread(target=lambda: asked.wait(10) and (set_at.append(time.monotonic()), stop.set())).start()
    with Client(autostart=False) as client:
        with pytest.raises(Cancelled):
            client.request(Request(text="x"), on_frame=lambda f: None, stop=stop.is_set)
        stopped = time.monotonic()
    # the agent's cancel is seen at once (it was once asked only every half second)
    assert stopped - set_at[0] < 0.3, f"the stop was seen {stopped - set_at[0]:.2f}s late"
    assert server.cancelled.wait(2) and time.monotonic() - stopped < 1.5


def test_unanswered_question_sends_nothing_and_times_out_as_denial(server):
    server.behaviour = lambda req, reply: {"answer": reply.ask("run it? [y/N/a]", 0.1)}
    asked = []
    with Client(autostart=False) as client:
        result = client.request(Request(text="x", interactive=True), on_frame=lambda f: None,
                                answer=lambda qid, q: asked.append((qid, q)))
    assert result == {"answer": None} and asked == [("q1", "run it? [y/N/a]")]


def test_timeout_cancels_and_raises(server, monkeypatch):
    """A stream that ends only when cancelled (or after 30 s): the client's 0.1 s bound is its way
    out, and the daemon hears the cancel.  (Timed against a 4 s stream, the case failed on a
    loaded machine: a second of scheduling is not a late timeout.)  The client reads only once the
    daemon's handler has started: on a loaded machine its 0.1 s could pass before the daemon had
    read the request, which the client then deleted (a request never run, nothing to cancel: the
    case waited 20 s and failed, 1 run in 12 at load 7)."""
    started = threading.Event()
    server.behaviour = lambda req, reply: (started.set(), stream(req, reply, n=1500))[1]
    read_frames = Client._read_frames

    def once_started(self, *args, **kwargs):
        assert started.wait(10)
        return read_frames(self, *args, **kwargs)

    monkeypatch.setattr(Client, "_read_frames", once_started)
    with Client(autostart=False) as client:
        with pytest.raises(DaemonError, match=r"no answer from the aish daemon within 0\.1s"):
            client.request(Request(text="x"), on_frame=lambda f: None, timeout=0.1)
        # heard while the client's reply FIFO is still open: its cancel line, not the FIFO's closing
        # (the daemon's next frame to a closed FIFO cancels too, which let a client that sent no
        # cancel pass)
        assert server.cancelled.wait(20)


def test_no_daemon_and_no_autostart_says_how_to_start_it():
    with pytest.raises(DaemonError) as info:
        Client(autostart=False).request(Request(text="x"), on_frame=lambda f: None)
    assert "aish daemon start" in str(info.value)
