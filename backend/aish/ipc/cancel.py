"""A cancel token shared between the thread that serves a request and the one
that notices the user gave up (a cancel message, or a vanished client).

Blocking socket reads cannot poll an Event, so whoever blocks registers a
callback (for example: shut the HTTP socket down) that ``cancel()`` runs from
the cancelling thread.
"""
from __future__ import annotations

import threading
from typing import Callable, Optional


class CancelToken:
    """``cancelled`` is a plain attribute (read a few dozen times per ask, on every event of
    its stream), set once under the lock; an ``Event`` is made only for a thread that waits
    for the cancel (``wait``): a request made two or three tokens and none was ever waited on,
    and each Event is a Condition and two locks."""

    __slots__ = ("cancelled", "_lock", "_callbacks", "_event")

    def __init__(self) -> None:
        self.cancelled = False
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._event: Optional[threading.Event] = None

    def wait(self, timeout: float | None = None) -> bool:
        with self._lock:
            if self.cancelled:
                return True
            if self._event is None:
                self._event = threading.Event()
            event = self._event
        return event.wait(timeout)

    def cancel(self) -> None:
        with self._lock:
            if self.cancelled:
                return
            self.cancelled = True
            callbacks, self._callbacks = self._callbacks, []
            event = self._event
        if event is not None:
            event.set()
        for callback in callbacks:
            try:
                callback()
            except Exception:  # a failing callback must not stop the others
                pass

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` on cancel (now, if already cancelled); returns an unregister function."""
        with self._lock:
            if not self.cancelled:
                self._callbacks.append(callback)

                def unregister() -> None:
                    with self._lock:
                        if callback in self._callbacks:
                            self._callbacks.remove(callback)

                return unregister
        callback()
        return lambda: None
