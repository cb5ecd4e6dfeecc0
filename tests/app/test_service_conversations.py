"""Conversations, usage and the state dir through the daemon's Service, in process
(tests/in_process.py): the requests `aish` sends, against the loopback model stub.  The CLI's
own choice of conversation (-c, --conv, AISH_CONV) is tests/cli/test_cli_to_daemon.py's, and
the daemon processes are tests/e2e's."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from aish.cli.exit_status import ExitStatus
from tests.helpers import question, wait_until
from tests.stub_server import Reply, StubServer
from tests.doubles import RecordingReply


def user_turns(request: dict) -> list:
    """The questions, without the shell context that travels in front of each."""
    return [question(m["content"]) for m in request["body"]["messages"] if m["role"] == "user"]


def state() -> Path:
    return Path(os.environ["AISH_STATE_DIR"])


# ------------------------------------------------------------------ usage
def test_server_without_usage_is_still_counted_as_estimated(stub, service):
    stub.queue(Reply(text="no usage here", usage=None))
    data = service.ok("ask", "hi").json()
    assert data["usage"]["estimated"] is True and data["usage"]["completion_tokens"] > 0


def test_openrouter_shape_cost_is_read(config_file, service):
    with StubServer(shape="openrouter") as server:  # on loopback, but priced like a cloud
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\nlocal = false\n')
        data = service.ok("ask", "hi").json()
    assert data["usage"]["cost"] and data["usage"]["estimated"] is False


def test_a_cost_the_provider_reports_is_recorded_for_a_loopback_endpoint(config_file, service):
    with StubServer(shape="openrouter") as proxy:  # a local gateway that reports usage.cost
        config_file(f'[models.fast]\nendpoint = "{proxy.url}"\nmodel = "m"\n')
        data = service.ok("ask", "hi", conv="c").json()
        assert data["usage"]["cost"] and data["usage"]["cost"] > 0
        ledger = json.loads(service.ok("cost", "--all", "--json").stdout)
        session = json.loads(service.ok("cost", "--json", conv="c").stdout)
    assert ledger["cost"] > 0, ledger
    assert session["cost"] > 0, session


# ------------------------------------------------------------------ conversations
def test_conversation_continues_after_a_daemon_restart_and_reset_forgets(stub, service):
    stub.queue(Reply(text="first answer"))
    service.ok("ask", "remember the word pelican", conv="cli-1")
    service.restart()
    stub.queue(Reply(text="pelican"))
    service.ok("ask", "what was the word?", conv="cli-1")
    contents = [question(m["content"]) for m in stub.requests[-1]["body"]["messages"]]
    assert "remember the word pelican" in contents and "first answer" in contents
    assert service.ok("reset", conv="cli-1").returncode == 0
    service.ok("ask", "fresh", conv="cli-1")
    contents = [question(m["content"]) for m in stub.requests[-1]["body"]["messages"]]
    assert "remember the word pelican" not in contents


def test_an_ask_waiting_for_its_conversation_says_so(stub, service):
    release = threading.Event()
    stub.queue(Reply(text="slow answer", until=release), Reply(text="second answer"))
    outcomes: dict = {}
    first = threading.Thread(target=lambda: outcomes.update(first=service.ask("one", conv="shared")))
    first.start()
    wait_until(lambda: stub.requests, 10, "the first question to reach the model")
    waiting = RecordingReply()
    second = threading.Thread(target=lambda: outcomes.update(
        second=service.ask("two", conv="shared", reply=waiting)))
    second.start()
    wait_until(lambda: waiting.statuses, 10, "the second ask to say why it waits")
    assert len(stub.requests) == 1  # it waits for the turn, not for the model
    release.set()
    first.join(30)
    second.join(30)
    assert outcomes["second"].returncode == 0 and "second answer" in outcomes["second"].stdout
    assert "waiting for the answer in progress in this conversation" in outcomes["second"].stderr
    assert outcomes["first"].stdout.startswith("slow answer")


def test_a_failed_ask_leaves_the_conversation_as_it_was(stub, service):
    stub.queue(Reply(text="first answer"), Reply(status=500), Reply(text="third answer"))
    service.ask("first question", conv="f")
    failed = service.ask("doomed question", conv="f")
    assert failed.returncode == ExitStatus.TRANSPORT and "500" in failed.stderr
    service.ask("third question", conv="f")
    assert user_turns(stub.requests[-1]) == ["first question", "third question"]
    entries = [json.loads(line) for line in (state() / "sessions" / "f.jsonl").read_text().splitlines()]
    doomed = [e for e in entries if question(e.get("content") or "") == "doomed question"]
    assert doomed and any(e.get("type") == "failed" for e in entries)
    service.restart()  # the log replays to the same conversation
    service.ask("after a restart", conv="f")
    assert user_turns(stub.requests[-1]) == ["first question", "third question", "after a restart"]


# ------------------------------------------------------------------ state dir trouble
def test_a_full_disk_still_streams_the_answer_and_says_what_was_not_saved(stub, service):
    sessions = state() / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    (sessions / "full.jsonl").symlink_to("/dev/full")  # every write: ENOSPC
    stub.queue(Reply(text="the answer\nCMD: ls\n"))
    result = service.ask("hi", conv="full")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("the answer")
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "full.jsonl" in lines[0] and "No space left" in lines[0], lines
    assert "internal error" not in result.stderr


# ------------------------------------------------------------------ small ones
def test_status_without_a_config_file_does_not_say_none(aish_env, monkeypatch, service):
    monkeypatch.setenv("AISH_CONFIG", "")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(aish_env / "xdg"))
    out = service.verb("status")
    assert out.returncode == 0, out.stderr
    assert "None" not in out.stdout and "no config file" in out.stdout
