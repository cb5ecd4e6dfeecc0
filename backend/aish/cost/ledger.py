"""The cross-session cost ledger: every counted call, in SQLite in the state dir.

Why: session totals die with ``aish cost reset`` and are per shell; "what did
aish cost me today / this week" spans shells and daemon restarts.  It lives
here, one row per model call.

Why SQLite with WAL: several daemon threads (one per asking shell) and, with
separate runtime dirs, several daemons write at once; WAL lets readers run
beside the writer and ``busy_timeout`` queues writers.  One connection per
Ledger behind a lock keeps the threads simple.

Tolerance: the ledger is a convenience, an answer must never fail because of
it.  A file that is not a database is moved aside and a new one started; a
ledger that stays locked or unwritable drops the row.  Either way the user
sees ONE warning (``problem``, and ``on_warning``), never a traceback.
"""
from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from aish.llm.events import Usage
from aish.cost import usage as usage_fmt

FILENAME = "ledger.sqlite3"
BUSY_TIMEOUT = 2.0  # seconds a writer waits for another writer
PERIODS = ("today", "week", "all")
_clock = time.time  # the wall clock rows are stamped with (tests move it)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    id INTEGER PRIMARY KEY,
    ts REAL NOT NULL,
    conv TEXT NOT NULL,
    model TEXT NOT NULL,
    category TEXT NOT NULL,
    prompt INTEGER NOT NULL DEFAULT 0,
    completion INTEGER NOT NULL DEFAULT 0,
    cost REAL NOT NULL DEFAULT 0,
    local INTEGER NOT NULL DEFAULT 0,
    estimated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS calls_ts ON calls(ts);
CREATE TABLE IF NOT EXISTS cap_raises (
    ts REAL NOT NULL,
    dollars REAL NOT NULL
);
"""


_INSERT = ("INSERT INTO calls (ts, conv, model, category, prompt, completion, cost, local, estimated) "
           "VALUES (?,?,?,?,?,?,?,?,?)")


def period_start(period: str, now: Optional[float] = None) -> Optional[float]:
    """Epoch seconds a period starts at: today = local midnight, week = midnight 6 days ago."""
    if period == "all":
        return None
    if period not in PERIODS:
        raise ValueError(f"unknown period {period!r}")
    now = _clock() if now is None else now
    t = time.localtime(now)
    midnight = time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 0, 0, 0, 0, 0, -1))
    if period == "today":
        return midnight
    t = time.localtime(midnight - 6 * 86400 + 43200)  # noon, so DST shifts cannot skip a day
    return time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 0, 0, 0, 0, 0, -1))


class Ledger:
    def __init__(self, path: Optional[Path] = None,
                 on_warning: Optional[Callable[[str], None]] = None) -> None:
        self.log = logging.getLogger("aish")
        self._on_warning = on_warning
        self._lock = threading.Lock()
        self._conn: Optional[sqlite3.Connection] = None
        # rows waiting for the writer (``record``): numbered, so a thread knows its row is in
        self._queued = threading.Lock()
        self._queue: list[tuple] = []
        self._numbered = 0  # the last row queued
        self._written = 0  # the last row the database holds (or dropped with its warning)
        self.problem: Optional[str] = None  # the one warning, once something went wrong
        try:
            if path is None:
                from aish import paths

                path = paths.state_dir() / FILENAME
            self.path = Path(path)
            self._open()
        except (OSError, sqlite3.Error) as exc:
            self.path = Path(path) if path is not None else Path(FILENAME)
            self._disable(f"cost ledger {self.path} cannot be opened ({_why(exc)}); "
                          "cross-session totals are off until the daemon restarts")

    # ------------------------------------------------------------ opening
    def _open(self) -> None:
        try:
            self._conn = self._connect()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):  # locked, permissions: not the file's fault
                raise
            moved = self._move_aside()
            self._warn(f"cost ledger {self.path} was unreadable ({_why(exc)}); moved to {moved.name}, "
                       "starting a new one")
            self._conn = self._connect()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))
        conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT, check_same_thread=False,
                               isolation_level=None)
        try:
            try:
                conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError as exc:  # e.g. a file system without shared memory
                if "locked" in str(exc):
                    raise
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            conn.execute("SELECT count(*) FROM calls WHERE ts < 0").fetchone()
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> Path:
        target = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                os.replace(src, Path(str(target) + suffix))
        return target

    def _disable(self, message: str) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
        self._conn = None
        self._warn(message)

    def _warn(self, message: str) -> None:
        if self.problem is not None:
            return
        self.problem = message
        self.log.warning("%s", message)
        if self._on_warning is not None:
            try:
                self._on_warning(message)
            except Exception:
                pass

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # ------------------------------------------------------------ writing
    def record(self, *, conv: str, model: str, category: str, usage: Usage, local: bool) -> None:
        """Append one call; on any database trouble the row is dropped with one warning.

        It returns once the row is in the database (a kill right after loses nothing); rows
        that other threads queued meanwhile go in the same transaction (a group commit: each
        transaction is ~10 system calls, and 50 shells' answers end together)."""
        row = (_clock(), conv or "", model or "?", category or "main",
               usage_fmt.nonneg_int(usage.prompt_tokens), usage_fmt.nonneg_int(usage.completion_tokens),
               max(0.0, usage_fmt.finite_float(usage.cost)), int(bool(local)),
               int(bool(usage.estimated)))
        with self._queued:
            self._queue.append(row)
            self._numbered += 1
            mine = self._numbered
        with self._lock:
            if self._written >= mine:  # another thread wrote it with its own
                return
            with self._queued:
                rows, self._queue = self._queue, []
                last = self._numbered
            try:
                if self._conn is not None:
                    self._insert(rows)
            finally:
                self._written = last

    def _insert(self, rows: list[tuple]) -> None:
        """``rows`` in one transaction (held: ``_lock``)."""
        try:
            self._insert_once(rows)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                self._warn(f"cost ledger {self.path} is locked by another process; "
                           "some calls were not recorded there (session totals are unaffected)")
            else:
                self._disable(f"cost ledger {self.path} failed ({_why(exc)}); "
                              "cross-session totals are off until the daemon restarts")
        except sqlite3.DatabaseError as exc:
            self._recover(exc)
            if self._conn is not None:
                try:
                    self._insert_once(rows)
                except sqlite3.Error:
                    pass

    def _insert_once(self, rows: list[tuple]) -> None:
        conn = self._conn
        assert conn is not None
        if len(rows) == 1:  # autocommit: one statement, one transaction
            conn.execute(_INSERT, rows[0])
            return
        conn.execute("BEGIN")
        try:
            conn.executemany(_INSERT, rows)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise

    def _recover(self, exc: Exception) -> None:
        """The file went bad while open: move it aside and start afresh, or give up."""
        try:
            self._conn.close()  # type: ignore[union-attr]
        except sqlite3.Error:
            pass
        self._conn = None
        try:
            moved = self._move_aside()
            self._conn = self._connect()
            self._warn(f"cost ledger {self.path} was damaged ({_why(exc)}); moved to {moved.name}, "
                       "starting a new one")
        except (OSError, sqlite3.Error) as again:
            self._disable(f"cost ledger {self.path} is damaged and cannot be replaced ({_why(again)}); "
                          "cross-session totals are off until the daemon restarts")

    # ------------------------------------------------------------ reading
    def totals(self, since: Optional[float]) -> dict:
        """Totals of calls at or after ``since`` (None: all) with per-(model, category) rows."""
        query = ("SELECT model, category, count(*), sum(prompt), sum(completion), sum(cost), max(local), "
                 "sum(estimated) FROM calls WHERE ts >= ? GROUP BY model, category")
        rows: list[dict] = []
        conversations = 0
        with self._lock:
            if self._conn is not None:
                try:
                    found = self._conn.execute(query, (since if since is not None else float("-inf"),))
                    for model, category, calls, prompt, completion, cost, local, estimated in found:
                        rows.append({"model": model, "category": category, "calls": calls,
                                     "prompt": prompt or 0, "completion": completion or 0,
                                     "cost": cost or 0.0, "local": bool(local),
                                     "estimated_calls": estimated or 0})
                    conversations = self._conn.execute(
                        "SELECT count(DISTINCT conv) FROM calls WHERE ts >= ?",
                        (since if since is not None else float("-inf"),)).fetchone()[0]
                except sqlite3.Error as exc:
                    self._warn(f"cost ledger {self.path} cannot be read ({_why(exc)})")
        rows = usage_fmt.sort_rows(rows)
        return {"since": since, "calls": sum(r["calls"] for r in rows),
                "prompt": sum(r["prompt"] for r in rows), "completion": sum(r["completion"] for r in rows),
                "cost": round(sum(r["cost"] for r in rows), 10),
                "estimated_calls": sum(r["estimated_calls"] for r in rows),
                "conversations": conversations, "available": self._conn is not None,
                "problem": self.problem, "rows": rows}

    def _one(self, query: str, args: tuple) -> Optional[float]:
        """One number from the database, None when it is unreadable or has none."""
        with self._lock:
            if self._conn is None:
                return None
            try:
                value = self._conn.execute(query, args).fetchone()[0]
            except sqlite3.Error as exc:
                self._warn(f"cost ledger {self.path} cannot be read ({_why(exc)})")
                return None
        return float(value) if value is not None else None

    def spent(self, since: Optional[float]) -> float:
        """Dollars of every conversation at or after ``since`` (the daily cap's basis)."""
        return self._one("SELECT sum(cost) FROM calls WHERE ts >= ?",
                         (since if since is not None else float("-inf"),)) or 0.0

    def rate(self, model: str) -> Optional[float]:
        """Dollars per token ``model`` was reported to cost (the price when none is configured)."""
        return self._one("SELECT sum(cost) / sum(prompt + completion) FROM calls "
                         "WHERE model = ? AND cost > 0 AND prompt + completion > 0", (model,))

    def add_raise(self, dollars: float) -> None:
        """``aish cost raise``: today's cap allows ``dollars`` more (for every conversation)."""
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.execute("INSERT INTO cap_raises (ts, dollars) VALUES (?, ?)", (_clock(), dollars))
                except sqlite3.Error as exc:
                    self._warn(f"cost ledger {self.path} cannot be written ({_why(exc)})")

    def raised(self, since: Optional[float]) -> float:
        return self._one("SELECT sum(dollars) FROM cap_raises WHERE ts >= ?",
                         (since if since is not None else float("-inf"),)) or 0.0

    def lines(self, period: str, detail: bool = False) -> list[str]:
        """``aish cost --today`` (one line) or with ``detail`` the per model and category rows."""
        data = self.totals(period_start(period))
        label = {"today": "usage today", "week": "usage last 7 days", "all": "usage, all time"}[period]
        if not data["available"]:
            return [f"[aish] {label}: unavailable ({self.problem or 'cost ledger is off'})"]
        out = ["[aish] " + usage_fmt.summary_text(label, data["rows"])
               + f", {usage_fmt.plural(data['conversations'], 'conversation')}"]
        if detail:
            out.extend(usage_fmt.detail_rows_text(data["rows"]))
        if self.problem:
            out.append(f"[aish] note: {self.problem}")
        return out


def _why(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
