"""The JSONL session log: one file per conversation, appended and flushed per event.

Why a log and not a snapshot: appending one line is cheap and crash-safe, and
replaying it after a daemon restart rebuilds the conversation exactly (turns,
evictions, summary, usage totals), so nothing the user saw is lost.
"""
from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Iterator

from aish import paths

_SAFE_ID = re.compile(r"[^A-Za-z0-9._-]")


def log_path(conv_id: str) -> Path:
    return paths.sessions_dir() / f"{_SAFE_ID.sub('_', conv_id)[:100] or 'default'}.jsonl"


class SessionLog:
    def __init__(self, conv_id: str) -> None:
        self.path = log_path(conv_id)
        self._lock = threading.Lock()

    def append(self, entry: dict) -> None:
        entry = {"ts": round(time.time(), 3), **entry}
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, line.encode("utf-8"))
            finally:
                os.close(fd)

    def rewrite(self, entries: list) -> None:
        """Replace the whole log atomically (write a temp file, then rename)."""
        tmp = self.path.with_suffix(".jsonl.tmp")
        stamp = round(time.time(), 3)
        data = "".join(json.dumps({"ts": stamp, **e}, ensure_ascii=False) + "\n" for e in entries)
        with self._lock:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, data.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.path)

    def entries(self) -> Iterator[dict]:
        """Yield every readable entry; a torn last line (crash mid-write) is skipped."""
        try:
            with open(self.path, encoding="utf-8") as handle:
                for line in handle:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        entry = json.loads(line)
                    except json.JSONDecodeError:
                        continue
                    if isinstance(entry, dict):
                        yield entry
        except FileNotFoundError:
            return
