"""daemon/reader_watch.py: one thread notices any reply FIFO's reader going away."""
from __future__ import annotations

import os
import threading
import time

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


def test_a_watch_taken_back_wakes_nothing_and_goes_with_the_next_change(monkeypatch):
    """A request that ends takes its watch back without waking the watch's thread (a write, a
    wake-up and a GIL hand-off per ask of 50 shells): its duplicate is closed at the next
    change, and its callback is never called."""
    watch = reader_watch.ReaderWatch()
    wakes = []
    real_write = os.write

    def write(fd: int, data: bytes) -> int:
        if fd == watch._wake_w:
            wakes.append(fd)
        return real_write(fd, data)

    monkeypatch.setattr(reader_watch.os, "write", write)
    pipes = [os.pipe(), os.pipe()]
    called = []
    try:
        first = watch.add(pipes[0][1], lambda: called.append("first"))
        assert wait_for(lambda: not watch._woken)  # the thread took the change
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
