"""The cross-session SQLite ledger: persistence, periods, concurrency, damage and locks."""
from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from pathlib import Path

from aish.cost import ledger as ledger_mod
from aish.llm.events import Usage
from aish.cost.ledger import Ledger, period_start


def rec(ledger, model="cloud", category="main", cost=0.01, local=False, conv="c1", **kw):
    ledger.record(conv=conv, model=model, category=category,
                  usage=Usage(kw.get("p", 100), kw.get("c", 10), cost=cost,
                              estimated=kw.get("estimated", False)), local=local)


def test_default_path_is_in_the_state_dir_private_and_survives_a_restart(aish_env):
    first = Ledger()
    assert first.path == Path(os.environ["AISH_STATE_DIR"]) / "ledger.sqlite3"
    rec(first, conv="a")
    rec(first, model="fast", local=True, cost=5.0, conv="b")
    first.close()
    second = Ledger()  # a new daemon
    data = second.totals(None)
    assert data["calls"] == 2 and data["prompt"] == 200 and data["conversations"] == 2
    assert round(data["cost"], 6) == 5.01  # a cost the provider reported counts, local or not
    assert stat.S_IMODE(os.stat(second.path).st_mode) == 0o600
    assert second.problem is None


def test_periods_filter_by_time(memory_dir, monkeypatch):
    now = time.time()
    ledger = Ledger(memory_dir / "l.db")
    for age_days, cost in ((0, 0.01), (3, 0.1), (30, 1.0)):
        monkeypatch.setattr(ledger_mod, "_clock", lambda a=age_days: now - a * 86400)
        rec(ledger, cost=cost)
    monkeypatch.setattr(ledger_mod, "_clock", lambda: now)
    assert ledger.totals(period_start("today"))["calls"] == 1
    assert round(ledger.totals(period_start("week"))["cost"], 4) == 0.11
    assert ledger.totals(period_start("all"))["calls"] == 3


def test_period_start_is_local_midnight():
    now = time.mktime((2026, 5, 16, 15, 30, 0, 0, 0, -1))
    assert time.localtime(period_start("today", now))[:6] == (2026, 5, 16, 0, 0, 0)
    assert time.localtime(period_start("week", now))[:6] == (2026, 5, 10, 0, 0, 0)
    assert period_start("all", now) is None


def test_lines_use_the_session_formats(memory_dir):
    ledger = Ledger(memory_dir / "l.db")
    for _ in range(3):
        rec(ledger, cost=0.002, p=1000, c=200)
    rec(ledger, model="fast", local=True, cost=None, estimated=True, conv="c2")
    lines = ledger.lines("today", detail=True)
    assert lines[0] == ("[aish] usage today: 4 calls, prompt=3,100 / completion=610 tokens cost=$0.0060 "
                        "(cloud $0.0060; local 1 call, free; estimated: 1 call), 2 conversations")
    assert lines[1].split()[:2] == ["cloud", "main"] and lines[1].endswith("3 calls, 3,000 / 600 tokens, $0.0060")
    assert lines[2].endswith("$0 (local; estimated)")
    assert Ledger(memory_dir / "l.db").lines("week")[0].startswith("[aish] usage last 7 days: 4 calls")
    assert Ledger(memory_dir / "l.db").lines("all")[0].startswith("[aish] usage, all time: 4 calls")


def test_threads_and_two_ledgers_on_one_file_lose_nothing(memory_dir):
    path = memory_dir / "l.db"
    ledgers = [Ledger(path), Ledger(path)]  # two daemons sharing a state dir

    def work(ledger, n):
        for _ in range(n):
            rec(ledger, cost=0.001)

    threads = [threading.Thread(target=work, args=(ledgers[i % 2], 50)) for i in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=30)
    assert ledgers[0].totals(None)["calls"] == 300
    assert ledgers[0].problem is None and ledgers[1].problem is None


def test_a_corrupted_file_is_moved_aside_with_one_warning(memory_dir):
    path = memory_dir / "l.db"
    path.write_bytes(b"this is not a database" * 200)
    warnings = []
    ledger = Ledger(path, on_warning=warnings.append)
    rec(ledger)
    assert ledger.totals(None)["calls"] == 1
    assert len(warnings) == 1 and "unreadable" in warnings[0] and "starting a new one" in warnings[0]
    moved = list(memory_dir.glob("l.db.corrupt-*"))
    assert moved and moved[0].read_bytes().startswith(b"this is not a database")


def test_a_locked_ledger_drops_the_row_with_one_warning_and_recovers(memory_dir, monkeypatch):
    monkeypatch.setattr(ledger_mod, "BUSY_TIMEOUT", 0.1)
    path = memory_dir / "l.db"
    warnings = []
    ledger = Ledger(path, on_warning=warnings.append)
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        rec(ledger)
        rec(ledger)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(warnings) == 1 and "locked" in warnings[0]
    rec(ledger)
    assert ledger.totals(None)["calls"] == 1
    assert ledger.lines("all")[-1].startswith("[aish] note: cost ledger")  # the warning stays visible


def test_an_unusable_location_disables_the_ledger_without_raising(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    warnings = []
    ledger = Ledger(blocker / "l.db", on_warning=warnings.append)
    rec(ledger)
    assert len(warnings) == 1 and "cannot be opened" in warnings[0]
    assert ledger.totals(None)["available"] is False
    assert ledger.lines("today")[0].startswith("[aish] usage today: unavailable (cost ledger")


def test_damage_while_open_is_recovered(memory_dir):
    path = memory_dir / "l.db"
    warnings = []
    ledger = Ledger(path, on_warning=warnings.append)
    rec(ledger)
    ledger._conn.close()  # simulate the file being clobbered under a running daemon
    path.write_bytes(b"garbage" * 2000)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    ledger._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    rec(ledger)
    assert len(warnings) == 1 and "damaged" in warnings[0]
    assert ledger.totals(None)["calls"] == 1


class _Slow:
    """The ledger's connection, holding its first write until the other threads have queued."""

    def __init__(self, conn, queued: threading.Event) -> None:
        self.conn, self.queued, self.transactions = conn, queued, 0

    def execute(self, sql, *args):
        if sql.startswith("INSERT") or sql == "BEGIN":
            self.transactions += 1
            self.queued.wait(10)
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_rows_recorded_at_once_are_written_together_and_each_is_in_when_record_returns(memory_dir):
    """50 shells' answers end together: the rows queued while one is written go in the next
    transaction, one for all of them (before, a transaction each: ~10 system calls per row);
    and no thread returns before its row is in the database (another connection reads it)."""
    path = memory_dir / "l.db"
    ledger = Ledger(path)
    queued = threading.Event()
    ledger._conn = slow = _Slow(ledger._conn, queued)
    reader = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    seen: list = []

    def one(i: int) -> None:
        rec(ledger, conv=f"shell-{i}")
        seen.append(reader_count(f"shell-{i}"))

    lock = threading.Lock()

    def reader_count(conv: str) -> int:
        with lock:
            return reader.execute("SELECT count(*) FROM calls WHERE conv = ?", (conv,)).fetchone()[0]

    threads = [threading.Thread(target=one, args=(i,)) for i in range(20)]
    for th in threads:
        th.start()
    deadline = time.monotonic() + 5
    while len(getattr(ledger, "_queue", ())) < 19 and time.monotonic() < deadline:  # the first is being written
        time.sleep(0.005)
    queued.set()
    for th in threads:
        th.join(timeout=30)
    assert ledger.totals(None)["calls"] == 20 and seen == [1] * 20
    assert slow.transactions == 2  # the first row, then the 19 queued meanwhile
