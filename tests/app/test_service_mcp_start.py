"""The first question after a daemon starts meets the MCP manager that warm-up is making."""
import threading
import time

from aish.app import service as service_mod
from aish.mcp.manager import McpManager


def test_a_question_during_warm_up_gets_the_manager_once_it_started(config_file, monkeypatch):
    """Warm-up made the manager, then followed the config outside the lock: a question in
    between got a manager with no server registered yet, did not wait for any, and the
    model was told of no tools (seen as "unknown tool" on a daemon forked warm)."""
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9/v1"\nmodel = "m"\n'
                '[mcp.servers.notes]\nurl = "http://127.0.0.1:9/mcp"\n')
    following, go_on = threading.Event(), threading.Event()
    follow = McpManager.update_config

    def slow_follow(self, cfg):
        following.set()
        go_on.wait(10)
        follow(self, cfg)
    monkeypatch.setattr(McpManager, "update_config", slow_follow)
    monkeypatch.setattr(McpManager, "_reconcile", lambda self: None)  # no connecting here
    svc = service_mod.Service()
    svc._mcp_following = lock = _CountedLock(svc._mcp_following)
    warm_up = threading.Thread(target=svc.mcp)
    warm_up.start()
    assert following.wait(10)
    seen = []
    question = threading.Thread(target=lambda: seen.append(svc.mcp()._started))
    question.start()
    # the question returns (into the gap, before the fix) or waits where warm-up holds the lock
    deadline = time.monotonic() + 10
    while question.is_alive() and lock.arrivals < 2 and time.monotonic() < deadline:
        time.sleep(0.002)
    go_on.set()
    warm_up.join(10)
    question.join(10)
    assert seen == [True]


class _CountedLock:
    """The service's lock, counting who came to take it."""

    def __init__(self, lock) -> None:
        self.lock, self.arrivals = lock, 0

    def __enter__(self):
        self.arrivals += 1
        return self.lock.__enter__()

    def __exit__(self, *exc):
        return self.lock.__exit__(*exc)
