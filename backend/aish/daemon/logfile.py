"""The daemon's log file: bounded in size, one older file kept beside it.

The standard library's ``RotatingFileHandler`` does this, but its module
(``logging.handlers``) imports ``pickle``, ``queue``, ``socket`` and ``struct`` for the
handlers the daemon does not use: ~5 ms of a cold start's CPU, spent before the first
answer.  This is the part the daemon uses, on ``logging.FileHandler``.
"""
from __future__ import annotations

import logging
import os


RESYNC_EVERY = 64  # lines between looks at the file's real size (the daemon's stderr writes to it too)


class RotatingLog(logging.FileHandler):
    """Appends to ``path``; a record that would take it to ``max_bytes`` first moves it to
    ``path.1`` (replacing the one before) and starts a new file.

    A line is formatted once and costs no system call but its write: the size is counted as
    lines go out, and the file itself is looked at (a stat and a seek: each a hand-off of the
    GIL among 50 shells' requests) only when the count says it may be full, and every
    ``RESYNC_EVERY`` lines for what others wrote to it."""

    def __init__(self, path: os.PathLike, max_bytes: int) -> None:
        super().__init__(path, mode="a", encoding="utf-8")
        self.max_bytes = max_bytes
        self._size: int = -1  # written so far, as counted; -1: look at the file
        self._lines = 0

    def emit(self, record: logging.LogRecord) -> None:
        try:
            msg = self.format(record)
            if self._full(len(msg) + 1):
                self._rotate()
                self._size = len(msg) + 1
            assert self.stream is not None  # opened by _full or _rotate
            self.stream.write(msg + self.terminator)
            self.flush()
        except RecursionError:  # as logging does
            raise
        except Exception:  # noqa: BLE001 - as logging does: said on stderr, never raised
            self.handleError(record)

    def _full(self, length: int) -> bool:
        if self.stream is None:
            self.stream = self._open()
            self._size = -1
        self._lines += 1
        if self._size < 0 or self._lines >= RESYNC_EVERY:
            self._size, self._lines = self.stream.tell(), 0
        if self._size + length < self.max_bytes:
            self._size += length
            return False
        if not os.path.isfile(self.baseFilename):  # /dev/null, a FIFO: nothing to bound
            self._size = 0
            return False
        self._size = self.stream.tell()
        if self._size + length >= self.max_bytes:
            return True
        self._size += length
        return False

    def _rotate(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        os.replace(self.baseFilename, self.baseFilename + ".1")
        self.stream = self._open()
        self._size, self._lines = 0, 0
