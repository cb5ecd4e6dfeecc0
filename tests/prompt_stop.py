"""A socketserver loop that ``shutdown()`` ends at once.

socketserver's ``serve_forever`` looks at its stop flag only when its ``select`` times out or a
client connects, so every ``shutdown()`` waited up to one ``poll_interval`` (0.05 s for the test
servers: ~170 model stubs a unit run, about 6 s of one process's wall time).  Here the loop also
watches a pipe that ``shutdown()`` writes to, and blocks with no time-out at all."""
from __future__ import annotations

import os
import selectors
import threading


class PromptStop:
    """Mix in before a ``socketserver`` server class (``class S(PromptStop, ThreadingHTTPServer)``)."""

    def server_activate(self) -> None:
        super().server_activate()  # type: ignore[misc]
        self._stop_asked = False
        self._loop_done = threading.Event()
        self._wake_read, self._wake_write = os.pipe()

    def serve_forever(self, poll_interval: float = 0.5) -> None:  # no polling: see the module
        self._loop_done.clear()
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(self, selectors.EVENT_READ)  # type: ignore[arg-type]
                selector.register(self._wake_read, selectors.EVENT_READ)
                while not self._stop_asked:
                    ready = selector.select()
                    if self._stop_asked:
                        break
                    for key, _events in ready:
                        if key.fileobj is self:
                            self._handle_request_noblock()  # type: ignore[attr-defined]
                        else:
                            os.read(self._wake_read, 64)
                    self.service_actions()  # type: ignore[attr-defined]
        finally:
            self._stop_asked = False
            self._loop_done.set()

    def shutdown(self) -> None:
        """Stop the loop and wait until it has (``serve_forever`` must be running, as for
        socketserver's own ``shutdown``)."""
        self._stop_asked = True
        os.write(self._wake_write, b"x")
        self._loop_done.wait()

    def server_close(self) -> None:
        super().server_close()  # type: ignore[misc]
        for fd in (self._wake_read, self._wake_write):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_read = self._wake_write = -1
