"""End to end through the real `aish` CLI and daemon: memory, project context, delegation."""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers import aish, ok
from tests.stub_server import Reply

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def system_of(request: dict) -> str:
    return request["body"]["messages"][0]["content"]


def test_remembered_facts_reach_every_ask_survive_reset_and_never_hold_a_secret(stub):
    assert "remembered: I use fd, not find" in ok("remember", "I use fd, not find").stdout
    ok("memory", "add", "deploy token", SECRET)
    stored = (Path(os.environ["AISH_STATE_DIR"]) / "memory.json").read_text()
    assert SECRET not in stored
    stub.queue(Reply(text="ok"))
    ok("ask", "which tool finds files?")
    system = system_of(stub.requests[-1])
    assert "[background]" in system and "- (fact) I use fd, not find" in system
    assert SECRET not in json.dumps(stub.requests[-1]["body"])
    ok("reset")
    stub.queue(Reply(text="ok"))
    ok("ask", "again")
    assert "- (fact) I use fd, not find" in system_of(stub.requests[-1])
    listing = ok("memory", "list").stdout
    assert "1. I use fd, not find" in listing and "2. deploy token ***" in listing
    assert "forgot: I use fd, not find" in ok("memory", "forget", "1").stdout
    bad = aish("memory", "forget", "7")
    assert bad.returncode != 0 and "no fact 7" in bad.stderr and "Traceback" not in bad.stderr


def test_memory_summarize_shows_before_after_is_costed_and_waits_for_accept(stub):
    ok("remember", "I use fd")
    ok("remember", "I prefer fd over find")
    stub.queue(Reply(text="- uses fd instead of find\n"))
    shown = ok("memory", "summarize").stdout
    assert "before (2 facts)" in shown and "after (1 facts)" in shown and "uses fd instead of find" in shown
    assert ok("memory", "list").stdout.count(".") >= 2  # nothing changed before the user accepts
    detail = json.loads(ok("cost", "--json").stdout)
    assert "memory_summarize" in json.dumps(detail)
    assert "replaced by the summary" in ok("memory", "accept").stdout
    assert ok("memory", "list").stdout.strip() == "1. uses fd instead of find"
