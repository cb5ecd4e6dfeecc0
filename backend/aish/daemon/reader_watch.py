"""One thread that notices when the reader of any reply FIFO goes away.

A request's handler is busy elsewhere most of the time (waiting for a model), so a client
killed meanwhile is noticed by polling the write end of its FIFO for ``POLLERR`` (no reader
left), which turns into a cancel that closes the HTTP stream.  That poll ran on a thread of
its own per request; one thread now polls them all, woken through a pipe when the set
changes.  It polls its own duplicate of each descriptor and closes it itself, so the
request may close its descriptor at any moment without the number being reused under the
poll.
"""
from __future__ import annotations

import os
import select
import threading
from typing import Callable, Optional

from aish.ipc import workers

_GONE = select.POLLERR | select.POLLHUP | select.POLLNVAL


class Watched:
    """One registration: ``ReaderWatch.remove`` takes it back."""

    __slots__ = ("fd", "on_gone", "live")

    def __init__(self, fd: int, on_gone: Callable[[], None]) -> None:
        self.fd, self.on_gone, self.live = fd, on_gone, True


class ReaderWatch:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[tuple[bool, Watched]] = []  # (add?, registration), in order
        self._woken = False
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._thread: Optional[threading.Thread] = None

    def add(self, fd: int, on_gone: Callable[[], None]) -> Watched:
        """Call ``on_gone`` (on the watch's thread) once ``fd``'s reader is gone."""
        entry = Watched(os.dup(fd), on_gone)
        self._change(True, entry)
        return entry

    def remove(self, entry: Watched) -> None:
        """``on_gone`` is not called after this (unless it runs at this very moment); the
        duplicate is closed by the watch's thread at its next change or wake-up, without waking
        it now (a request ends on every ask: at 50 shells asking at once, a wake-up and a GIL
        hand-off each).  Nothing sees the difference: clients hold their FIFO open for reading
        and writing, so a duplicate left a moment longer changes no end of file."""
        entry.on_gone = _nothing
        self._change(False, entry)

    def _change(self, add: bool, entry: Watched) -> None:
        with self._lock:
            self._pending.append((add, entry))
            if not add:
                return
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="aish-readers", daemon=True)
                self._thread.start()
            elif self._woken:
                return
            self._woken = True
        try:
            os.write(self._wake_w, b"x")
        except BlockingIOError:  # the pipe is full of wake-ups already
            pass

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        watched: dict[int, Watched] = {}
        while True:
            with self._lock:
                changes, self._pending, self._woken = self._pending, [], False
            for add, entry in changes:
                if add and entry.live:
                    watched[entry.fd] = entry
                    poller.register(entry.fd, select.POLLERR)
                elif not add and entry.live:
                    self._drop(poller, watched, entry)
            for fd, events in poller.poll():
                if fd == self._wake_r:
                    try:
                        os.read(self._wake_r, 4096)
                    except BlockingIOError:
                        pass
                elif events & _GONE and fd in watched:
                    entry = watched[fd]
                    on_gone = entry.on_gone
                    self._drop(poller, watched, entry)
                    try:
                        on_gone()
                    except Exception:  # a callback must never stop the watch
                        pass

    @staticmethod
    def _drop(poller: "select.poll", watched: dict, entry: Watched) -> None:
        entry.live = False
        watched.pop(entry.fd, None)
        poller.unregister(entry.fd)
        os.close(entry.fd)


def _nothing() -> None:
    pass


readers = workers.kept(ReaderWatch)  # the process's watch, made with the first reply attached
