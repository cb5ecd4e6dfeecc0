"""The daemon keeps its promises under faults, upgrades and many clients (through the real
`aish` CLI, the real daemon and the loopback model stub)."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.helpers import question, stop_daemon
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
        stop_daemon()


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
    log = (state() / "daemon.log").read_text()
    assert "retiring for a daemon of another version" in log and "Traceback" not in log, log


# ------------------------------------------------------------------ state dir trouble
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
