"""The daemon's warm-up (the judge, the ledger, MCP servers) comes after the first answer, or after
``WARM_UP_AFTER`` idle seconds: never while a first question is still being answered, however
long that takes (a cold daemon on a busy machine: its answer lost the GIL to the warm-up)."""
from __future__ import annotations

import logging
import threading

from aish.daemon import __main__ as daemon_main


class _Service:
    def __init__(self, log) -> None:
        self.warmed = threading.Event()
        self.answering = threading.Event()
        self.release = threading.Event()
        self.warmed_while_answering = False

    def handle(self, request, reply):
        self.answering.set()
        self.release.wait(10)
        self.warmed_while_answering = self.warmed.is_set()
        self.answering.clear()

    def warm_up(self) -> None:
        self.warmed.set()


def _lazy(monkeypatch, after: "threading.Event | None" = None) -> daemon_main.LazyService:
    import aish.app.service

    monkeypatch.setattr(aish.app.service, "Service", _Service)
    monkeypatch.setattr(daemon_main, "WARM_UP_AFTER", 0.05)
    monkeypatch.setattr(daemon_main.method_cache, "save", lambda: None)
    lazy = daemon_main.LazyService(logging.getLogger("aish-test"), start=False)
    lazy.start(after)
    if after is None:
        assert lazy._ready.wait(10)
    return lazy


def test_a_first_question_longer_than_the_idle_wait_is_answered_before_the_warm_up(monkeypatch):
    # The question is in flight before the service is ready, as a cold start's is: the idle wait cannot
    # run out between the two on a loaded machine (it did, when the question was sent after the build).
    built = threading.Event()
    lazy = _lazy(monkeypatch, after=built)
    asking = threading.Thread(target=lazy.handle, args=(object(), object()))
    asking.start()
    for _ in range(1000):  # until handle has counted the question in flight
        if lazy._asking:
            break
        threading.Event().wait(0.01)
    assert lazy._asking == 1
    built.set()
    assert lazy._ready.wait(10)
    service = lazy.service
    assert service.answering.wait(10)
    # five idle waits pass while the question is answered: no warm-up meanwhile
    assert not service.warmed.wait(0.25)
    service.release.set()
    asking.join(10)
    assert not service.warmed_while_answering
    assert service.warmed.wait(10)  # then at once (the first answer is out)


def test_a_daemon_nobody_asks_warms_up_after_the_idle_wait(monkeypatch):
    lazy = _lazy(monkeypatch)
    assert lazy.service.warmed.wait(10)
