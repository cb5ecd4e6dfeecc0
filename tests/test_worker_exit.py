"""An xdist worker leaves as soon as its session has finished (tests/conftest.py): the controller
waits for every worker's process to end, and pytest's clean-up after a worker's session (the
unraisable exception plugin's five full garbage collections over its heap, 0.2-0.9 s of wall a
worker) only delayed that."""
from __future__ import annotations

import weakref

from tests import conftest


def test_a_worker_runs_its_exit_handlers_first_thing_after_its_session(monkeypatch):
    ran = []
    monkeypatch.setattr(conftest.mcp_servers, "end_session", lambda: ran.append("servers"))
    monkeypatch.setattr(conftest.atexit, "_run_exitfuncs", lambda: ran.append("exit handlers"))
    monkeypatch.setattr(conftest, "_LEAVES_AFTER_ITS_SESSION", True)
    conftest.pytest_unconfigure(None)
    assert ran == ["servers", "exit handlers"]
    assert conftest.pytest_unconfigure.pytest_impl["tryfirst"]  # before the other plugins' own


def test_the_controller_and_a_worker_with_finalizers_registered_end_as_usual(monkeypatch):
    ran, registered = [], []
    monkeypatch.setattr(conftest.mcp_servers, "end_session", lambda: None)
    monkeypatch.setattr(conftest.atexit, "_run_exitfuncs", lambda: ran.append("exit handlers"))
    monkeypatch.setattr(conftest.atexit, "register", registered.append)
    monkeypatch.setattr(conftest, "_LEAVES_AFTER_ITS_SESSION", False)
    monkeypatch.setattr(weakref.finalize, "_registered_with_atexit", True)
    conftest._end_worker_without_teardown()
    conftest.pytest_unconfigure(None)
    assert ran == [] and registered == [] and not conftest._LEAVES_AFTER_ITS_SESSION
    monkeypatch.setattr(weakref.finalize, "_registered_with_atexit", False)
    conftest._end_worker_without_teardown()
    assert conftest._LEAVES_AFTER_ITS_SESSION and len(registered) == 1
