"""The daemon's process-wide tuning for many shells: log records that do not walk the stack,
and a heap frozen out of the garbage collector's way once the service is warm."""
from __future__ import annotations

import gc
import logging

from aish.daemon import __main__ as daemon_main
from aish.daemon import heap, runtime


def test_a_daemon_log_line_does_not_walk_the_stack_for_its_caller(aish_env, monkeypatch):
    """The format writes no caller, thread or process name; logging found them for every record
    (``findCaller`` walked the stack: ~3% of a request's CPU at 50 shells)."""
    for name in ("_srcfile", "logThreads", "logMultiprocessing", "logProcesses"):
        monkeypatch.setattr(logging, name, getattr(logging, name))
    root = logging.getLogger("aish")
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "propagate", root.propagate)
    monkeypatch.setattr(root, "level", root.level)
    monkeypatch.setattr(logging, "captureWarnings", lambda capture: None)  # (process-wide: not here)
    walks: list = []
    real = logging.Logger.findCaller
    monkeypatch.setattr(logging.Logger, "findCaller", lambda self, *a: walks.append(a) or real(self, *a))
    log = daemon_main.setup_logging()
    try:
        log.info("request %s: %s/%s from %s", "r1", "ask", "normal", "zsh")
        log.warning("a warning")
        for handler in root.handlers:
            handler.flush()
        text = runtime.log_path().read_text()
    finally:
        for handler in root.handlers:
            handler.close()
    assert walks == []
    assert "INFO aish.daemon [" in text and "request r1: ask/normal from zsh" in text
    assert "WARNING aish.daemon [" in text and "a warning" in text


class _WarmService:
    def __init__(self, log) -> None:
        self.warmed = False

    def warm_up(self) -> None:
        self.warmed = True


def _built(monkeypatch, **kwargs) -> tuple:
    """A LazyService built and warmed; what it asked of the collector (recorded, not done: this
    test process keeps its own collector as its conftest set it)."""
    import aish.app.service

    monkeypatch.setattr(aish.app.service, "Service", _WarmService)
    asked: list = []
    monkeypatch.setattr(gc, "collect", lambda *a: asked.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: asked.append("freeze"))
    monkeypatch.setattr(gc, "set_threshold", lambda *a: asked.append(("threshold", *a)))
    lazy = daemon_main.LazyService(logging.getLogger("aish-test"), start=False, **kwargs)
    lazy._served.set()
    lazy._build(None)
    assert lazy.service.warmed
    return asked


def test_the_daemons_heap_is_frozen_once_its_service_is_warm(monkeypatch):
    """What the daemon loaded before and just after its first answer (~200,000 objects) was
    walked by every full collection (~25 ms of CPU with the GIL held, at 50 shells), and the
    youngest generation was collected every 700 allocations while 50 asks kept thousands alive."""
    _, middle, old = gc.get_threshold()
    assert _built(monkeypatch, settle_heap=True) == ["collect", "freeze",
                                                      ("threshold", heap.YOUNG_THRESHOLD, middle, old)]


def test_a_lazy_service_in_another_process_leaves_its_collector_alone(monkeypatch):
    """Only the daemon's own process is tuned (a test or an embedding process keeps its GC)."""
    assert _built(monkeypatch) == []
