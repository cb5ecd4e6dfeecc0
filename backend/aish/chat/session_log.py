"""The JSONL session log: one file per conversation, appended and flushed per event.

The file stays open (``O_APPEND``) while its conversation is in memory: an entry is one
``write`` (and an ``fstat`` that sees the file removed or replaced), not an open, a write and
a close; the entries an answer ends with (its usage, its turn) are one write
(``SessionLog.together``). At 50 shells each of those calls was a hand-off of the GIL.

Why a log and not a snapshot: appending one line is cheap and crash-safe, and
replaying it after a daemon restart rebuilds the conversation exactly (turns,
evictions, summary, usage totals), so nothing the user saw is lost.
"""
from __future__ import annotations

import errno
import json
import os
import re
import stat
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from aish import paths

_SAFE_ID = re.compile(r"[^A-Za-z0-9._-]")
_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps(entry, ensure_ascii=False), made once


def _file_name(conv_id: str) -> str:
    return f"{_SAFE_ID.sub('_', conv_id)[:100] or 'default'}.jsonl"


def log_path(conv_id: str) -> Path:
    return paths.sessions_dir() / _file_name(conv_id)


class SessionLog:
    """Appends never raise: a full disk or an unwritable state dir must not cost the
    answer.  The first failure becomes ``problem`` (one line naming the file and the
    fix) until a write succeeds again; the service shows it once per ask."""

    def __init__(self, conv_id: str) -> None:
        self._lock = threading.Lock()
        self.problem: Optional[str] = None
        self._told = False
        self.appended = 0  # entries appended since the log was last rewritten (a snapshot's tail)
        self.snapshot = 0  # entries the last rewrite wrote (what a rewrite keeps)
        self._fd: Optional[int] = None  # the file, open for appending (closed when the log goes)
        self._held = threading.local()  # a thread's entries held for one write (``together``)
        try:
            self.path = log_path(conv_id)
        except OSError as exc:  # the state dir itself cannot be made
            base = Path(os.environ.get("AISH_STATE_DIR") or paths.default_state_dir())
            self.path = base / "sessions" / _file_name(conv_id)
            self._failed(exc)

    def _failed(self, exc: OSError) -> None:
        why = exc.strerror or type(exc).__name__
        fix = "free some space" if exc.errno == errno.ENOSPC else f"make {self.path.parent} writable"
        self.problem = (f"could not save this conversation to {self.path} ({why}): "
                        f"{fix} (or set AISH_STATE_DIR)")
        self._told = False

    def take_problem(self) -> Optional[str]:
        """The problem line, once per occurrence (None when all is well or already told)."""
        if self.problem is None or self._told:
            return None
        self._told = True
        return self.problem

    def append(self, entry: dict) -> None:
        entry = {"ts": round(time.time(), 3), **entry}
        line = _ENCODER.encode(entry) + "\n"
        held = getattr(self._held, "lines", None)
        if held is not None:
            held.append(line)
            return
        self._write(line, 1)

    @contextmanager
    def together(self) -> Iterator[None]:
        """The entries this thread appends meanwhile are written as one append when it ends
        (an exception too: they are written, then it goes on); other threads' entries are
        written as they come."""
        if getattr(self._held, "lines", None) is not None:  # already held: the outer one writes
            yield
            return
        lines: list[str] = []
        self._held.lines = lines
        try:
            yield
        finally:
            self._held.lines = None
            if lines:
                self._write("".join(lines), len(lines))

    def _write(self, text: str, count: int) -> None:
        with self._lock:
            try:
                fd = self._open_fd()
                os.write(fd, text.encode("utf-8"))
            except OSError as exc:
                self._close_fd()
                if self.problem is None:
                    self._failed(exc)
                return
            self.problem = None
            self.appended += count

    def _open_fd(self) -> int:
        """The kept descriptor, opened again if its file lost its name (removed, or replaced by
        a rewrite): an entry is never written where no name reaches it."""
        if self._fd is not None:
            if os.fstat(self._fd).st_nlink > 0:
                return self._fd
            self._close_fd()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        return self._fd

    def _close_fd(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self) -> None:
        """Close the kept file (the log is appended to again by opening it)."""
        with self._lock:
            self._close_fd()

    def __del__(self) -> None:  # a forgotten conversation's log closes its file
        if getattr(self, "_fd", None) is not None:
            self._close_fd()

    def rewrite(self, entries: list) -> None:
        """Replace the whole log atomically (write a temp file, then rename)."""
        tmp = self.path.with_suffix(".jsonl.tmp")
        stamp = round(time.time(), 3)
        data = "".join(_ENCODER.encode({"ts": stamp, **e}) + "\n" for e in entries)
        with self._lock:
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    os.write(fd, data.encode("utf-8"))
                    os.fsync(fd)
                finally:
                    os.close(fd)
                os.replace(tmp, self.path)
                self._close_fd()  # the kept one is the replaced file's
                self.appended = 0
                self.snapshot = len(entries)
            except OSError as exc:  # the old log stays as it was; nothing is lost
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                if self.problem is None:
                    self._failed(exc)

    def entries(self) -> Iterator[dict]:
        """Yield every readable entry; a torn last line (crash mid-write) is skipped.

        The lines are parsed as one JSON array (a restart reads a snapshot and its tail: one
        call into the decoder, not one per line, about half of reading them); a file that does
        not parse whole, line for line, is read line by line."""
        try:
            # errors="replace": a line torn inside a character is then only not JSON (skipped)
            with open(self.path, encoding="utf-8", errors="replace") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    return  # a device or FIFO in its place: nothing to replay (and no end)
                text = handle.read()
        except OSError:  # missing, or unreadable: start empty
            return
        lines = [line for line in (raw.strip() for raw in text.split("\n")) if line]
        try:
            entries = json.loads("[" + ",".join(lines) + "]") if lines else []
        except json.JSONDecodeError:
            entries = None
        if entries is None or len(entries) != len(lines):  # a torn or odd line: one at a time
            entries = []
            for line in lines:
                try:
                    entries.append(json.loads(line))
                except json.JSONDecodeError:
                    continue
        for entry in entries:
            if isinstance(entry, dict):
                yield entry
