"""The daemon's log file: bounded in size, one older file kept beside it.

The standard library's ``RotatingFileHandler`` does this, but its module
(``logging.handlers``) imports ``pickle``, ``queue``, ``socket`` and ``struct`` for the
handlers the daemon does not use: ~5 ms of a cold start's CPU, spent before the first
answer.  This is the part the daemon uses, on ``logging.FileHandler``.
"""
from __future__ import annotations

import logging
import os
import time


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


class LineFormat(logging.Formatter):
    """The daemon's line, ``%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s``,
    made with less per line (a request's log line was ~4% of its thread at 50 shells): the date
    and time to the second are formatted once a second (``localtime`` and ``strftime`` for every
    record), the process id is known (with ``logging.logProcesses`` off a record makes no
    ``getpid`` system call), and the line is one f-string.  A record with a traceback or a stack
    goes the standard way, with the same head."""

    FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"

    def __init__(self) -> None:
        super().__init__(self.FORMAT)
        self._second: tuple = (None, "")  # (the second, its date and time), swapped as one

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        if datefmt is not None:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        kept = self._second
        if kept[0] != second:
            kept = self._second = (second, time.strftime(self.default_time_format, self.converter(second)))
        return "%s,%03d" % (kept[1], record.msecs)  # logging's default_msec_format

    def format(self, record: logging.LogRecord) -> str:
        if record.process is None:
            record.process = _pid[0]
        if record.exc_info or record.exc_text or record.stack_info:
            return super().format(record)
        record.message = record.getMessage()
        return f"{self.formatTime(record)} {record.levelname} {record.name} [{record.process}] {record.message}"


_pid = [os.getpid()]  # this process's id, for records made without it (``LineFormat``)
os.register_at_fork(after_in_child=lambda: _pid.__setitem__(0, os.getpid()))
