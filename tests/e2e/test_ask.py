"""End to end: the real `aish` CLI -> the real daemon (FIFOs) -> the loopback model stub.

What an answer is made of (verbs, costs, routing, tasks) is tested in process against the
daemon's Service (tests/app/test_service_*.py), and what the CLI prints and exits with against
the daemon's server on a thread (tests/cli/test_cli_to_daemon.py); these check the whole wire
once, with the daemon the CLI starts (forked or a fresh interpreter)."""
from __future__ import annotations

import json
import os

import pytest

from tests.helpers import aish, question
from tests.stub_server import Reply


def test_an_answer_streams_with_its_commands_or_prints_one_json_object(stub):
    stub.queue(Reply(text="Sort by size:\nCMD: ls -lS\nCMD: du -sh * | sort -h\n"))
    result = aish("ask", "how do I list files by size")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Sort by size:\nCMD: ls -lS")
    assert result.stdout.rstrip().splitlines()[-2:] == ["ls -lS", "du -sh * | sort -h"]
    body = stub.requests[-1]["body"]
    assert body["stream"] is True and question(body["messages"][-1]["content"]) == "how do I list files by size"
    assert body["messages"][0]["role"] == "system" and "CMD: " in body["messages"][0]["content"]

    stub.queue(Reply(text="Use this.\nCMD: git push --force\n"))
    result = aish("ask", "--json", "push my branch")
    data = json.loads(result.stdout)
    assert set(data) >= {"text", "commands", "model", "usage"}
    assert data["commands"] == ["git push --force"] and data["model"] == "fast"
    assert data["safety"][0]["level"] in ("medium", "high") and data["safety"][0]["reason"]
    assert data["usage"]["prompt_tokens"] > 0

    cost = aish("cost")  # a verb reaches the same daemon
    assert cost.returncode == 0 and "session usage" in cost.stdout
    status = aish("daemon", "status")
    assert status.returncode == 0 and "running" in status.stdout


def _open_files(pid: int) -> list:
    """What the process's descriptors point at; one closed between the listing and its reading (the
    daemon's warm-up opens and closes files meanwhile) is not held, and is left out."""
    targets = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except FileNotFoundError:
            continue
    return targets


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
    targets = _open_files(pid)
    assert not any(t.endswith("start.lock") for t in targets)
    assert os.readlink(f"/proc/{pid}/cwd") == "/"
