"""The daemon's log file: bounded in size, one older file kept beside it.

The standard library's ``RotatingFileHandler`` does this, but its module
(``logging.handlers``) imports ``pickle``, ``queue``, ``socket`` and ``struct`` for the
handlers the daemon does not use: ~5 ms of a cold start's CPU, spent before the first
answer.  This is the part the daemon uses, on ``logging.FileHandler``.
"""
from __future__ import annotations

import logging
import os


class RotatingLog(logging.FileHandler):
    """Appends to ``path``; a record that would take it to ``max_bytes`` first moves it to
    ``path.1`` (replacing the one before) and starts a new file."""

    def __init__(self, path: os.PathLike, max_bytes: int) -> None:
        super().__init__(path, mode="a", encoding="utf-8")
        self.max_bytes = max_bytes

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._full(record):
                self._rotate()
        except Exception:  # noqa: BLE001 - as logging does: said on stderr, never raised
            self.handleError(record)
            return
        super().emit(record)

    def _full(self, record: logging.LogRecord) -> bool:
        if self.stream is None:
            self.stream = self._open()
        if not os.path.isfile(self.baseFilename):  # /dev/null, a FIFO: nothing to bound
            return False
        return self.stream.tell() + len(self.format(record)) + 1 >= self.max_bytes

    def _rotate(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        os.replace(self.baseFilename, self.baseFilename + ".1")
        self.stream = self._open()
