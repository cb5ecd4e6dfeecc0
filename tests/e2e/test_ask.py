"""End to end: the real `aish` CLI -> the real daemon (FIFOs) -> the loopback model stub."""
from __future__ import annotations

import json
import os
import time

import pytest

from aish.cli.exit_status import ExitStatus
from tests.helpers import aish, question
from tests.stub_server import Reply, StubServer



@pytest.fixture
def openrouter(config_file):
    with StubServer(shape="openrouter") as server:  # on loopback, but priced like a cloud
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\nlocal = false\n')
        yield server
    aish("daemon", "stop")


def test_ask_streams_answer_and_ends_with_the_commands(stub):
    stub.queue(Reply(text="Sort by size:\nCMD: ls -lS\nCMD: du -sh * | sort -h\n"))
    result = aish("ask", "how do I list files by size")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Sort by size:\nCMD: ls -lS")
    assert result.stdout.rstrip().splitlines()[-2:] == ["ls -lS", "du -sh * | sort -h"]
    body = stub.requests[-1]["body"]
    assert body["stream"] is True and question(body["messages"][-1]["content"]) == "how do I list files by size"
    assert body["messages"][0]["role"] == "system" and "CMD: " in body["messages"][0]["content"]


def test_ask_json_prints_one_object(stub):
    stub.queue(Reply(text="Use this.\nCMD: git push --force\n"))
    result = aish("ask", "--json", "push my branch")
    data = json.loads(result.stdout)
    assert set(data) >= {"text", "commands", "model", "usage"}
    assert data["commands"] == ["git push --force"] and data["model"] == "fast"
    assert data["safety"][0]["level"] in ("medium", "high") and data["safety"][0]["reason"]
    assert data["usage"]["prompt_tokens"] > 0


def test_stdin_is_extra_context(stub):
    stub.queue(Reply(text="Looks fine."))
    aish("ask", "review", input="diff --git a/x b/x\n+new line\n")
    assert "+new line" in stub.requests[-1]["body"]["messages"][-1]["content"]


def test_server_without_usage_is_still_counted_as_estimated(stub):
    stub.queue(Reply(text="no usage here", usage=None))
    data = json.loads(aish("ask", "--json", "hi").stdout)
    assert data["usage"]["estimated"] is True and data["usage"]["completion_tokens"] > 0


def test_openrouter_shape_cost_is_read(openrouter):
    data = json.loads(aish("ask", "--json", "hi").stdout)
    assert data["usage"]["cost"] and data["usage"]["estimated"] is False


def test_conversation_continues_after_a_daemon_restart_and_reset_forgets(stub):
    stub.queue(Reply(text="first answer"))
    aish("ask", "remember the word pelican")
    assert aish("daemon", "stop").returncode == 0
    stub.queue(Reply(text="pelican"))
    aish("ask", "-c", "what was the word?")
    contents = [question(m["content"]) for m in stub.requests[-1]["body"]["messages"]]
    assert "remember the word pelican" in contents and "first answer" in contents
    assert aish("reset").returncode == 0  # the last CLI conversation
    aish("ask", "-c", "fresh")
    contents = [question(m["content"]) for m in stub.requests[-1]["body"]["messages"]]
    assert "remember the word pelican" not in contents


def test_unreachable_model_is_one_line_naming_the_endpoint(config_file):
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    try:
        result = aish("ask", "hi")
    finally:
        aish("daemon", "stop")
    assert result.returncode == ExitStatus.TRANSPORT
    assert "transport: Connection refused" in result.stderr and "127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_model_at_all_says_how_to_configure(aish_env, monkeypatch):
    monkeypatch.delenv("AISH_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(aish_env / "xdg"))
    try:
        result = aish("ask", "hi")
    finally:
        aish("daemon", "stop")
    assert result.returncode == ExitStatus.CONFIG and "no model configured" in result.stderr


def test_verbs_reach_the_daemon(stub):
    aish("ask", "hi")
    cost = aish("cost")
    assert cost.returncode == 0 and "session usage" in cost.stdout
    status = aish("daemon", "status")
    assert status.returncode == 0 and "running" in status.stdout


def test_config_edit_applies_without_restart(stub, config_file):
    aish("ask", "hi")
    with StubServer() as other:
        config_file(f'[models.fast]\nendpoint = "{other.url}"\nmodel = "other"\n')
        time.sleep(0.01)
        aish("ask", "again")
        assert other.requests and other.requests[-1]["body"]["model"] == "other"


@pytest.mark.parametrize("spawn", ["fork", "exec"])
def test_cold_start_daemon_holds_no_inherited_files(stub, spawn):
    """The first ask starts the daemon (forked from the CLI, or a fresh interpreter);
    either way it keeps no descriptor of its parent, start.lock above all."""
    from aish.daemon import runtime

    stub.queue(Reply(text="cold\nCMD: true"))
    result = aish("ask", "hi", env={"AISH_DAEMON_SPAWN": spawn})
    assert result.returncode == 0 and result.stdout.startswith("cold"), result.stderr
    pid = runtime.is_running()
    assert pid
    targets = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    assert not any(t.endswith("start.lock") for t in targets)
    assert os.readlink(f"/proc/{pid}/cwd") == "/"
