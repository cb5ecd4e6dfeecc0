"""The scripted daemon handler the daemon's tests run: in a real ``python -m aish.daemon``
(loaded through ``AISH_DAEMON_HANDLER=<this file>:handle``, so nothing else of the test suite
is needed there) or behind a ``Server`` on a thread of the test process.

What it does is chosen by the request's text.  When ``$AISH_TEST_EVENTS`` is set it writes
``<id>.cancel`` there once the request's cancel token fires, so a test can measure how fast
a cancel or a vanished client reaches a running request.
"""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from aish.errors import ConfigError


def handle(req, reply):
    """What the test daemon does, chosen by the request text."""
    events = os.environ.get("AISH_TEST_EVENTS")
    if events:
        reply.cancel.on_cancel(lambda: _mark(Path(events) / f"{req.id}.cancel"))
    word, _, rest = req.text.partition(" ")
    if word == "meet":  # "meet N words": echo once N such requests are running at once
        count, _, rest = rest.partition(" ")
        _meeting(int(count)).wait(5)  # (requests served one after another never meet: an error)
        word = "echo"
    if word == "echo":
        reply.status("echoing")
        for w in rest.split():
            reply.text(w + " ")
            time.sleep(float(req.extra.get("delay", 0)))
        reply.command("ls -l", "low", None)
        return {"text": rest, "argv": req.argv}
    if word == "slow":  # streams until cancelled (or a bound)
        deadline = time.monotonic() + float(rest or 5)
        while not reply.cancel.cancelled and time.monotonic() < deadline:
            reply.text("tick ")
            reply.cancel.wait(0.02)
        return {"text": "slow", "cancelled": reply.cancel.cancelled}
    if word == "flood":  # never waits: fills a pipe nobody reads
        while not reply.cancel.cancelled:
            reply.text("x" * 4000)
        return {}
    if word == "ask":
        return {"answer": reply.ask("call notes.read_note {\"name\": \"todo\"}? [y/N/a]",
                                    float(rest or 2))}
    if word == "later":  # work after the D frame, until the test says go
        me = threading.current_thread().name

        def after() -> None:
            deadline = time.monotonic() + 10
            while not Path(rest + ".go").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            _publish(Path(rest + ".done"), threading.current_thread().name)

        reply.after_done(after)
        return {"thread": me}
    if word == "threads":  # which thread serves, and how many the daemon has
        return {"thread": threading.current_thread().name, "alive": threading.active_count()}
    if word == "fail":
        if rest == "aish":
            raise ConfigError("model 'deep' is not configured", hint="add [models.deep]")
        raise RuntimeError("boom with sk-secret-in-traceback")
    return None


_MEETINGS: dict[int, threading.Barrier] = {}
_MEETINGS_LOCK = threading.Lock()


def _meeting(count: int) -> threading.Barrier:
    with _MEETINGS_LOCK:
        if count not in _MEETINGS or _MEETINGS[count].broken:
            _MEETINGS[count] = threading.Barrier(count)
        return _MEETINGS[count]


def _publish(path: Path, text: str) -> None:
    """The file appears with its text (written aside, then renamed): a test that waits for it
    to exist reads it whole (it read it empty, between the open and the write, on a loaded
    host)."""
    aside = path.with_name(path.name + ".part")
    aside.write_text(text)
    os.replace(aside, path)


def _mark(path: Path) -> None:
    path.write_text(repr(time.time()))
