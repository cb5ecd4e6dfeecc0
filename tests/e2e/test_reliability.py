"""The daemon keeps its promises under faults, upgrades and many clients (through the real
`aish` CLI, the real daemon and the loopback model stub)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from aish.cli.exit_status import ExitStatus
from tests.helpers import closed_port_url, question
from tests.stub_server import Reply, StubServer

OLD = "0.0.1-old"
# An `aish` of another version: the daemon it starts (a fork) reports that version too.
OLD_AISH = ("import sys\nimport aish.version\naish.version.__version__ = %r\n"
            "from aish.cli.main import main\nsys.argv = ['aish'] + sys.argv[1:]\nmain()\n") % OLD


def aish(*args, input=None, env=None, timeout=60, stdin=subprocess.DEVNULL):
    kw = {"input": input} if input is not None else {"stdin": stdin}
    return subprocess.run([sys.executable, "-m", "aish", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, **kw)


def spawn(*args, code=None, env=None):
    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "aish", *args]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})


def user_turns(request: dict) -> list:
    """The questions, without the shell context that travels in front of each."""
    return [question(m["content"]) for m in request["body"]["messages"] if m["role"] == "user"]


def state() -> Path:
    return Path(os.environ["AISH_STATE_DIR"])


def wait_for(predicate, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    return predicate()


@pytest.fixture
def stub(config_file):
    with StubServer(shape="llamacpp") as server:
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n')
        yield server
        aish("daemon", "stop")


# ------------------------------------------------------------------ conversations
def test_concurrent_cli_asks_run_at_once_each_in_its_own_conversation(stub):
    """Eight scripts calling `aish ask` at once: the model sees all eight in flight together
    (the gate answers only then), each with only its own question."""
    stub.gate = threading.Barrier(8, timeout=30)
    procs = [spawn("ask", f"question {n}") for n in range(8)]
    outs = [p.communicate(timeout=90) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, outs
    assert stub.max_inflight == 8
    assert sorted(tuple(user_turns(r)) for r in stub.requests) == [(f"question {n}",) for n in range(8)]


def test_continue_named_and_shell_conversations(stub):
    aish("ask", "remember the word pelican")
    aish("ask", "-c", "what was the word?")
    assert user_turns(stub.requests[-1]) == ["remember the word pelican", "what was the word?"]
    aish("ask", "a fresh question")
    assert user_turns(stub.requests[-1]) == ["a fresh question"]
    aish("ask", "--conv", "work", "first at work")
    aish("ask", "unrelated")
    aish("ask", "--conv", "work", "second at work")
    assert user_turns(stub.requests[-1]) == ["first at work", "second at work"]
    shell = {"AISH_CONV": "zsh-4242-1700000000"}  # what the shell integration exports
    aish("ask", "from the shell", env=shell)
    aish("ask", "again from the shell", env=shell)
    assert user_turns(stub.requests[-1]) == ["from the shell", "again from the shell"]
    bad = aish("ask", "--conv", "no/slashes", "x")
    assert bad.returncode != 0 and "--conv" in bad.stderr and "Traceback" not in bad.stderr


def test_an_ask_waiting_for_its_conversation_says_so(stub):
    stub.queue(Reply(text="slow answer", first_byte_delay=4), Reply(text="second answer"))
    first = spawn("ask", "--conv", "shared", "one")
    wait_for(lambda: stub.requests)
    second = aish("ask", "--conv", "shared", "two")
    assert second.returncode == 0 and "second answer" in second.stdout
    assert "waiting for the answer in progress in this conversation" in second.stderr
    assert first.communicate(timeout=30)[0].startswith("slow answer")


def test_a_failed_ask_leaves_the_conversation_as_it_was(stub):
    stub.queue(Reply(text="first answer"), Reply(status=500), Reply(text="third answer"))
    aish("ask", "--conv", "f", "first question")
    failed = aish("ask", "--conv", "f", "doomed question")
    assert failed.returncode == ExitStatus.TRANSPORT and "500" in failed.stderr
    aish("ask", "--conv", "f", "third question")
    assert user_turns(stub.requests[-1]) == ["first question", "third question"]
    entries = [json.loads(line) for line in (state() / "sessions" / "f.jsonl").read_text().splitlines()]
    doomed = [e for e in entries if question(e.get("content") or "") == "doomed question"]
    assert doomed and any(e.get("type") == "failed" for e in entries)
    aish("daemon", "stop")  # the log replays to the same conversation
    aish("ask", "--conv", "f", "after a restart")
    assert user_turns(stub.requests[-1]) == ["first question", "third question", "after a restart"]


# ------------------------------------------------------------------ cost
def test_a_cost_the_provider_reports_is_recorded_for_a_loopback_endpoint(config_file):
    with StubServer(shape="openrouter") as proxy:  # a local gateway that reports usage.cost
        config_file(f'[models.fast]\nendpoint = "{proxy.url}"\nmodel = "m"\n')
        try:
            data = json.loads(aish("ask", "--json", "--conv", "c", "hi").stdout)
            assert data["usage"]["cost"] and data["usage"]["cost"] > 0
            ledger = json.loads(aish("cost", "--all", "--json").stdout)
            session = json.loads(aish("cost", "--json", env={"AISH_CONV": "c"}).stdout)
        finally:
            aish("daemon", "stop")
    assert ledger["cost"] > 0, ledger
    assert session["cost"] > 0, session


# ------------------------------------------------------------------ upgrades
def test_a_daemon_of_another_version_is_replaced_after_its_running_answer(stub):
    stub.queue(Reply(text="long " * 60, chunk_size=5, delay=0.05), Reply(text="new daemon here"))
    old_ask = spawn("ask", "--conv", "old", "long one", code=OLD_AISH)
    wait_for(lambda: stub.requests)
    status = aish("daemon", "status")
    assert f"version {OLD}" in status.stdout, status.stdout
    new_ask = aish("ask", "--conv", "new", "hello")
    assert new_ask.returncode == 0 and "new daemon here" in new_ask.stdout, new_ask.stderr
    out, err = old_ask.communicate(timeout=30)
    assert old_ask.returncode == 0 and out.count("long") == 60, err  # finished, not cut
    from aish.version import __version__
    status = aish("daemon", "status")
    assert f"version {__version__}" in status.stdout
    assert f"daemon {__version__}" in aish("status").stdout


# ------------------------------------------------------------------ state dir trouble
def test_a_full_disk_still_streams_the_answer_and_says_what_was_not_saved(stub):
    sessions = state() / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    (sessions / "full.jsonl").symlink_to("/dev/full")  # every write: ENOSPC
    stub.queue(Reply(text="the answer\nCMD: ls\n"))
    result = aish("ask", "--conv", "full", "hi")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("the answer")
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "full.jsonl" in lines[0] and "No space left" in lines[0], lines
    assert "internal error" not in result.stderr


def test_an_unwritable_state_dir_names_the_directory(stub, tmp_path):
    """The state dir cannot even hold the daemon's log: the answer still streams, and the
    one line names the directory to fix."""
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the state dir should be")
    env = {"AISH_STATE_DIR": str(blocked / "state")}
    aish("daemon", "stop")
    stub.queue(Reply(text="still answered\n"))
    result = aish("ask", "hi", env=env)
    try:
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("still answered")
        assert str(blocked / "state") in result.stderr and "Traceback" not in result.stderr
    finally:
        aish("daemon", "stop", env=env)


# ------------------------------------------------------------------ file modes
def test_config_init_is_private_and_doctor_flags_readable_secrets(stub, config_file):
    path = Path(os.environ["AISH_CONFIG"])
    path.unlink()
    assert aish("config", "init").returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    aish("ask", "--conv", "d", "hi")  # a session log and a ledger exist now
    log = state() / "sessions" / "d.jsonl"
    ledger = state() / "ledger.sqlite3"
    for p in (path, log, ledger):
        p.chmod(0o644)
    lines = aish("doctor").stdout.splitlines()
    flagged = [line for line in lines if "readable by others" in line]
    assert len(flagged) == 3 and all("chmod 600" in line for line in flagged), lines


# ------------------------------------------------------------------ small ones
def test_status_without_a_config_file_does_not_say_none(aish_env):
    try:
        out = aish("status", env={"AISH_CONFIG": "", "XDG_CONFIG_HOME": str(aish_env / "xdg")})
    finally:
        aish("daemon", "stop")
    assert out.returncode == 0, out.stderr
    assert "None" not in out.stdout and "no config file" in out.stdout


def test_mcp_connect_to_a_dead_server_exits_non_zero(stub):
    result = aish("mcp", "connect", f"{closed_port_url()}/mcp", "dead")
    assert result.returncode == 1 and "dead" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_ask_in_a_while_read_loop_keeps_the_loop_input(stub):
    script = ('printf "one\\ntwo\\nthree\\n" | while read -r w; do '
              f'{sys.executable} -m aish ask --no-stdin "q $w" >/dev/null; done')
    subprocess.run(["bash", "-c", script], check=True, timeout=90)
    assert [user_turns(r)[-1] for r in stub.requests] == ["q one", "q two", "q three"]


def test_stdin_is_read_from_a_file_but_never_from_a_terminal(stub, tmp_path):
    context = tmp_path / "context.txt"
    context.write_text("context from a file\n")
    with open(context) as fh:
        aish("ask", "--conv", "s1", "with a file", stdin=fh)
    assert "context from a file" in user_turns(stub.requests[-1])[-1]
    master, slave = os.openpty()
    try:
        result = aish("ask", "--conv", "s2", "from a terminal", stdin=slave, timeout=30)
    finally:
        os.close(master)
        os.close(slave)
    assert result.returncode == 0 and user_turns(stub.requests[-1]) == ["from a terminal"]
