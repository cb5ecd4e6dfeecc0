"""daemon/logfile.py: the daemon's log stays bounded, one older file kept, 0600 as made."""
from __future__ import annotations

import logging
import os
import stat

from aish.daemon.logfile import LineFormat, RotatingLog


def _logger(path, max_bytes):
    handler = RotatingLog(path, max_bytes=max_bytes)
    handler.setFormatter(logging.Formatter("%(message)s"))
    log = logging.Logger("aish-test-logfile")
    log.addHandler(handler)
    return log, handler


def test_a_full_log_moves_to_dot_one_and_a_new_one_starts(tmp_path):
    path = tmp_path / "daemon.log"
    old = os.umask(0o077)
    try:
        log, handler = _logger(path, max_bytes=100)
        for i in range(12):  # 12 lines of 20 bytes: two rotations
            log.info("line %02d %s", i, "x" * 11)
        handler.close()
    finally:
        os.umask(old)
    now, before = path.read_text().splitlines(), (tmp_path / "daemon.log.1").read_text().splitlines()
    assert os.path.getsize(path) < 100 and os.path.getsize(tmp_path / "daemon.log.1") < 100
    assert now[-1].startswith("line 11") and before and int(before[-1].split()[1]) + 1 == int(now[0].split()[1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["daemon.log", "daemon.log.1"]  # one older file only
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_log_that_is_not_a_file_is_never_moved(tmp_path):
    log, handler = _logger(os.devnull, max_bytes=10)
    log.info("a line longer than ten bytes")
    handler.close()
    assert os.path.exists(os.devnull) and not os.path.exists(os.devnull + ".1")


def test_a_line_costs_no_look_at_the_file_until_it_may_be_full(tmp_path, monkeypatch):
    """Each line was formatted twice and cost a stat and a seek (system calls each, a GIL
    hand-off for every one of 50 shells asking at once): now formatted once, and the file is
    looked at only when the lines written may have filled it (and every 64 lines, for what
    went to it around the handler: the daemon's stderr)."""
    from aish.daemon import logfile

    log, handler = _logger(tmp_path / "daemon.log", max_bytes=1_000_000)
    looks, formats = [], []
    real_isfile, real_format = os.path.isfile, handler.format
    monkeypatch.setattr(logfile.os.path, "isfile", lambda p: looks.append(p) or real_isfile(p))
    monkeypatch.setattr(handler, "format", lambda record: formats.append(record) or real_format(record))
    for i in range(10):
        log.info("line %d", i)
    handler.close()
    assert len(formats) == 10 and looks == []
    assert (tmp_path / "daemon.log").read_text().splitlines() == [f"line {i}" for i in range(10)]


def test_what_others_wrote_to_the_log_counts_toward_its_bound(tmp_path):
    path = tmp_path / "daemon.log"
    log, handler = _logger(path, max_bytes=2000)
    log.info("first")
    with open(path, "a") as other:  # the daemon's stderr goes to the same file
        other.write("x" * 1900 + "\n")
    for i in range(70):
        log.info("line %02d", i)
    handler.close()
    assert os.path.getsize(path) < 2000 and (tmp_path / "daemon.log.1").exists()


def test_the_daemons_line_is_the_standard_formats_without_a_getpid_per_record(monkeypatch):
    """``LineFormat`` writes what ``logging.Formatter(LineFormat.FORMAT)`` writes, records with a
    traceback too, across seconds; with ``logProcesses`` off no record asks for the pid."""
    standard, fast = logging.Formatter(LineFormat.FORMAT), LineFormat()
    log = logging.Logger("aish.daemon")
    made: list = []
    log.handle = made.append  # type: ignore[method-assign]
    for created in (1_700_000_000.25, 1_700_000_000.999, 1_700_000_001.0, 1_700_003_600.5):
        log.info("request %s: %s/%s from %s", "r1", "ask", "normal", "zsh")
        made[-1].created, made[-1].msecs = created, (created - int(created)) * 1000
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("handler failed")
    for record in made:
        assert fast.format(record) == standard.format(record)
    assert "Traceback" in fast.format(made[-1]) and "ValueError: boom" in fast.format(made[-1])
    monkeypatch.setattr(logging, "logProcesses", False)
    pids: list = []
    monkeypatch.setattr(os, "getpid", lambda: pids.append(1) or 1)
    log.info("no pid looked up")
    assert pids == [] and made[-1].process is None
    line = fast.format(made[-1])
    assert line.endswith(" INFO aish.daemon [%d] no pid looked up" % made[0].process)
