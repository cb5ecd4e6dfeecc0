"""The first question after a daemon starts meets the MCP manager that warm-up is making."""
import threading

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
    warm_up = threading.Thread(target=svc.mcp)
    warm_up.start()
    assert following.wait(10)
    seen = []
    question = threading.Thread(target=lambda: seen.append(svc.mcp()._started))
    question.start()
    question.join(0.5)  # (the bound a question had to run into the gap before the fix)
    go_on.set()
    warm_up.join(10)
    question.join(10)
    assert seen == [True]
