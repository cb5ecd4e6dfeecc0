"""daemon/reader_watch.py: one thread notices any reply FIFO's reader going away."""
from __future__ import annotations

import fcntl
import os
import select
import struct
import termios
import threading
import time

import pytest

from aish.daemon import reader_watch


def wait_for(predicate, timeout: float = 3.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not predicate():
        time.sleep(0.005)
    return predicate()


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


class _Poller:
    """``select.poll()``'s object, telling whether its thread waits in ``poll``."""

    def __init__(self) -> None:
        self.real, self.calls, self.inside = select.poll(), 0, False

    def register(self, *args) -> None:
        self.real.register(*args)

    def unregister(self, fd: int) -> None:
        self.real.unregister(fd)

    def poll(self, *args) -> list:
        self.calls, self.inside = self.calls + 1, True
        try:
            return self.real.poll(*args)
        finally:
            self.inside = False

    def idle(self, wake_fd: int) -> bool:
        """In ``poll`` with nothing to wake it: inside the same call before and after the
        wake-up pipe was seen empty."""
        calls = self.calls
        return self.inside and _unread(wake_fd) == 0 and self.inside and self.calls == calls


def _unread(fd: int) -> int:
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def test_a_reader_that_goes_away_is_noticed():
    watch = reader_watch.ReaderWatch()
    read_end, write_end = os.pipe()
    gone = threading.Event()
    try:
        watch.add(write_end, gone.set)
        assert not gone.wait(0.1)
        os.close(read_end)
        assert gone.wait(3)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("slow_thread", [False, True])
def test_a_watch_taken_back_wakes_nothing_and_goes_with_the_next_change(monkeypatch, slow_thread):
    """A request that ends takes its watch back without waking the watch's thread (a write, a
    wake-up and a GIL hand-off per ask of 50 shells): its duplicate is closed at the next
    change, and its callback is never called.  ``slow_thread``: the thread reads its wake-up
    50 ms late (a loaded host), and still takes the change back only at the next one."""
    watch = reader_watch.ReaderWatch()
    wakes = []
    real_write, real_read = os.write, os.read

    def write(fd: int, data: bytes) -> int:
        if fd == watch._wake_w:
            wakes.append(fd)
        return real_write(fd, data)

    def read(fd: int, size: int) -> bytes:
        if fd == watch._wake_r:
            time.sleep(0.05)
        return real_read(fd, size)

    monkeypatch.setattr(reader_watch.os, "write", write)
    if slow_thread:
        monkeypatch.setattr(reader_watch.os, "read", read)
    poller = _Poller()
    monkeypatch.setattr(reader_watch.select, "poll", lambda: poller)
    pipes = [os.pipe(), os.pipe()]
    called = []
    try:
        first = watch.add(pipes[0][1], lambda: called.append("first"))
        # the thread took the change and its wake-up, and waits in poll for the next: taken
        # out of the wait and before reading its wake-up, it took the removal below with it
        assert wait_for(lambda: not watch._woken and poller.idle(watch._wake_r))
        woken = len(wakes)
        watch.remove(first)
        time.sleep(0.05)
        assert len(wakes) == woken and first.live  # not woken: still polled
        second = watch.add(pipes[1][1], lambda: called.append("second"))
        assert len(wakes) == woken + 1
        assert wait_for(lambda: not first.live)  # dropped (its duplicate closed) with that change
        os.close(pipes[0][0])
        time.sleep(0.05)
        assert called == [] and second.live
    finally:
        for fd in (pipes[0][1], *pipes[1]):
            os.close(fd)
