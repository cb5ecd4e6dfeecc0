"""A request's reply (``daemon/frames.py``) written by two threads: the request's own and the
server's, which says "stopped while answering" to every request still running at shutdown."""
from __future__ import annotations

import logging
import os
import threading

from aish.daemon import frames
from aish.daemon.frames import FrameReply


def test_a_reply_closed_while_a_frame_is_written_is_closed_after_the_write(tmp_path, monkeypatch):
    """The request's thread closed its reply FIFO under a frame the server was writing: the
    writer then wrote to a closed descriptor (or one reused by another open) and, reading it
    as None, crashed the server's shutdown before it removed its files."""
    fifo = tmp_path / "reply.fifo"
    os.mkfifo(fifo, 0o600)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    reply = FrameReply("r1", logging.getLogger("aish.test"))
    reply.attach(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK), str(fifo), interactive=False)
    writing, go_on = threading.Event(), threading.Event()
    real_write = os.write

    def slow_write(fd, data):  # the server's frame, caught in the middle of its write
        if threading.current_thread().name == "writer" and not go_on.is_set():
            writing.set()
            go_on.wait(5)
        return real_write(fd, data)

    monkeypatch.setattr(frames.os, "write", slow_write)
    sent: list = []
    writer = threading.Thread(target=lambda: sent.append(reply._send("W", "stopped while answering")),
                              name="writer")
    writer.start()
    try:
        assert writing.wait(5)
        closer = threading.Thread(target=reply.close)
        closer.start()
        closer.join(0.1)
        assert closer.is_alive(), "the reply was closed under a frame being written"
    finally:
        go_on.set()
        writer.join(5)
    closer.join(5)
    assert sent == [True] and not closer.is_alive()
    assert os.read(reader, 4096) == b"r1\tW\tstopped while answering\n"
    assert reply._send("T", "after the close") is False
    os.close(reader)


def _attached(tmp_path, monkeypatch) -> tuple:
    """A reply on a real FIFO, its writes counted, and the FIFO's read end."""
    fifo = tmp_path / "reply.fifo"
    os.mkfifo(fifo, 0o600)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    reply = FrameReply("r1", logging.getLogger("aish.test"))
    reply.attach(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK), str(fifo), interactive=False)
    writes: list = []
    real_write = os.write
    monkeypatch.setattr(frames.os, "write", lambda fd, data: writes.append(bytes(data)) or real_write(fd, data))
    return reply, reader, writes


def test_an_answers_commands_go_out_with_its_done_frame_in_one_write(tmp_path, monkeypatch):
    """An answer's C frames were each a write (a system call, a hand-off of the GIL and a wake-up
    of the shell, for every one of 50 shells asking at once) right before the D frame's."""
    reply, reader, writes = _attached(tmp_path, monkeypatch)
    reply.text("Use lsof.\n")
    reply.command("lsof -ti tcp:8080", "low", "reads only")
    reply.command("kill 1", "medium", "stops a process")
    reply.done({"text": "x"})
    reply.close()
    assert writes == [b"r1\tT\tUse lsof.%0A\n",
                      b"r1\tC\tlsof -ti tcp:8080\tlow\treads only\nr1\tC\tkill 1\tmedium\tstops a process\n"
                      b'r1\tD\t{"text": "x"}\n']
    assert os.read(reader, 4096) == b"".join(writes)
    os.close(reader)


def test_a_held_command_goes_out_before_any_later_frame_and_at_the_close(tmp_path, monkeypatch):
    reply, reader, writes = _attached(tmp_path, monkeypatch)
    reply.command("make", "low", "builds")
    reply.status("norris: needs you")
    reply.command("make install", "medium", "writes")
    reply.close()  # (no D frame: a request that failed outside its handler)
    assert os.read(reader, 4096) == (b"r1\tC\tmake\tlow\tbuilds\nr1\tS\t[aish] norris: needs you\n"
                                     b"r1\tC\tmake install\tmedium\twrites\n")
    assert len(writes) == 2
    os.close(reader)
