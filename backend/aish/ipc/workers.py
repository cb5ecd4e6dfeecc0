"""Threads kept for the next request, and one timer thread for every request's alarms.

Why: the daemon served each request on a thread of its own, started for it, and each ask
started three more (the FIFO's watcher, the "still waiting" notes, the fold after the
answer).  Starting and ending a thread costs more CPU than most of what an ask does
(``Thread.start`` waits for the new thread to run; at 50 shells at once it was the largest
single share of the daemon's time, docs/performance.md).

- ``Workers.run(fn)`` runs ``fn`` on an idle kept thread, or on a new one when none is idle:
  a request never waits behind another (a slow model, a stuck MCP server), as before.  A
  thread idle for ``idle_seconds`` ends.
- ``Alarms.at(delay, fn)`` runs ``fn`` on the one alarm thread after ``delay`` seconds unless
  cancelled first: a note that is due only when a model is slow needs no thread of its own.
  ``fn`` must be quick (it runs on the shared thread).
"""
from __future__ import annotations

import heapq
import itertools
import queue
import threading
import time
from typing import Any, Callable, Optional, TypeVar

IDLE_SECONDS = 60.0
T = TypeVar("T")


class Workers:
    """A pool that grows to as many threads as requests run at once, and shrinks when idle."""

    def __init__(self, name: str = "aish-worker", idle_seconds: float = IDLE_SECONDS) -> None:
        self.name = name
        self.idle_seconds = idle_seconds
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0  # threads waiting for a job (each job put is for one of them)
        self._count = itertools.count(1)

    def run(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` now, on a kept thread or a new one; exceptions reach
        ``threading.excepthook`` as a thread's own would."""
        with self._lock:
            if self._idle:
                self._idle -= 1
                self._jobs.put((fn, args))
                return
        threading.Thread(target=self._work, args=(fn, args), daemon=True,
                         name=f"{self.name}-{next(self._count)}").start()

    def idle(self) -> int:
        with self._lock:
            return self._idle

    def _work(self, fn: Callable[..., Any], args: tuple) -> None:
        while True:
            try:
                fn(*args)
            except Exception:
                threading.excepthook(_hook_args(fn))
            fn = args = None  # type: ignore[assignment]  # nothing of the finished job kept alive
            with self._lock:
                self._idle += 1
            try:
                fn, args = self._jobs.get(timeout=self.idle_seconds)
            except queue.Empty:
                with self._lock:
                    try:  # a job put for us between the time-out and the lock
                        fn, args = self._jobs.get_nowait()
                    except queue.Empty:
                        self._idle -= 1
                        return


def _hook_args(fn: Callable[..., Any]) -> Any:
    import sys

    exc_type, exc_value, exc_tb = sys.exc_info()
    return threading.ExceptHookArgs((exc_type, exc_value, exc_tb, threading.current_thread()))


class Alarm:
    """One scheduled call; ``cancel()`` before it is due and it never runs."""

    __slots__ = ("when", "fn", "cancelled")

    def __init__(self, when: float, fn: Callable[[], Any]) -> None:
        self.when, self.fn, self.cancelled = when, fn, False

    def cancel(self) -> None:
        self.cancelled = True


class Alarms:
    """One thread runs every due alarm; the thread starts with the first alarm."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._cond = threading.Condition(threading.Lock())
        self._heap: list = []
        self._seq = itertools.count()
        self._thread: Optional[threading.Thread] = None

    def at(self, delay: float, fn: Callable[[], Any]) -> Alarm:
        alarm = Alarm(self._clock() + delay, fn)
        with self._cond:
            earliest = not self._heap or alarm.when < self._heap[0][0]
            heapq.heappush(self._heap, (alarm.when, next(self._seq), alarm))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True, name="aish-alarms")
                self._thread.start()
            elif earliest:
                self._cond.notify()
        return alarm

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    while self._heap and self._heap[0][2].cancelled:
                        heapq.heappop(self._heap)  # cancelled ones go without waking anyone
                    now = self._clock()
                    if self._heap and self._heap[0][0] <= now:
                        alarm = heapq.heappop(self._heap)[2]
                        break
                    self._cond.wait(self._heap[0][0] - now if self._heap else None)
            if not alarm.cancelled:
                try:
                    alarm.fn()
                except Exception:
                    threading.excepthook(_hook_args(alarm.fn))


def kept(make: Callable[[], T]) -> Callable[[], T]:
    """``make()`` made once, by whichever thread asks first: the process's one of a thing."""
    lock = threading.Lock()
    made: list = []

    def get() -> T:
        if not made:
            with lock:
                if not made:
                    made.append(make())
        return made[0]

    return get


alarms = kept(Alarms)  # the process's alarm thread
background = kept(lambda: Workers(name="aish-after"))  # work after an answer that has no request thread
