"""The daemon as a process: spawning it, its locks, signals, a client process killed
mid-answer, and clients whose daemon dies.  Each case starts few daemons and checks all it
can of each; the protocol itself (frames, cancels, questions, refused paths, the log) is
checked against the server on a thread in tests/daemon/test_daemon.py.

The daemons run the scripted handler of tests/daemon/scripted_handler.py (loaded by path
through ``AISH_DAEMON_HANDLER``).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from aish.daemon import runtime, spawn
from aish.daemon.client import Client
from aish.errors import DaemonError
from aish.ipc.protocol import Request
from tests.daemon.test_daemon import cancel_time, log_text, rundir, wait_for
from tests.helpers import aish

HANDLER = Path(__file__).resolve().parents[1] / "daemon" / "scripted_handler.py"


@pytest.fixture
def events(tmp_path, monkeypatch):
    path = tmp_path / "events"
    path.mkdir()
    monkeypatch.setenv("AISH_TEST_EVENTS", str(path))
    monkeypatch.setenv("AISH_DAEMON_HANDLER", f"{HANDLER}:handle")
    yield path
    runtime.stop()


def ask(text: str, client: Client | None = None) -> dict:
    return (client or Client()).request(Request(text=text), on_frame=lambda f: None)


# A process that starts the daemon as a shell's `aish` does (single-threaded: it forks the
# daemon) and counts its own sleeps: it is woken by the daemon's ready pipe, not by a poll.
STARTER = r'''
import json, time
from aish.daemon import runtime, spawn

sleeps = []
real_sleep = time.sleep


def counted(seconds):
    sleeps.append(seconds)
    real_sleep(seconds)


time.sleep = counted
pid = spawn.start()
print(json.dumps({"pid": pid, "sleeps": len(sleeps), "running": runtime.is_running()}))
'''

# A client process that prints each frame's id and tag as it comes.
CLIENT = ("from aish.daemon.client import Client\nfrom aish.ipc.protocol import Request\n"
          "def show(f):\n    print(f.id, f.tag, flush=True)\n"
          "Client().request(Request(text='slow 5'), on_frame=show)\n")


def test_a_daemon_process_starts_serves_a_killed_client_and_stops_on_every_signal(events, monkeypatch):
    # a daemon that cannot start names its log in one line, at once
    monkeypatch.setenv("AISH_DAEMON_HANDLER", "no_such_module_anywhere:handle")
    start = time.monotonic()
    with pytest.raises(DaemonError) as info:
        spawn.start()
    message = str(info.value)
    assert "\n" not in message and str(runtime.log_path()) in message
    assert "no_such_module_anywhere" in message
    assert time.monotonic() - start < 3
    monkeypatch.setenv("AISH_DAEMON_HANDLER", f"{HANDLER}:handle")

    # the process that forks a new daemon is woken by it once it serves, not by a sleep
    out = subprocess.run([sys.executable, "-c", STARTER], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    started = json.loads(out.stdout.strip().splitlines()[-1])
    daemon = started["pid"]
    assert daemon and started["running"] == daemon and started["sleeps"] == 0

    # status, the pidfile (pid, version, install), a second start finds it
    info = runtime.status()
    assert info["running"] and info["pid"] == daemon == runtime.is_running()
    from aish.install import Install
    from aish.version import __version__
    assert (rundir() / "daemon.pid").read_text().split() == [str(daemon), __version__, Install.find().identity]
    assert spawn.start() == daemon

    # a client process killed mid-answer: its request is cancelled within 200 ms, its reply
    # FIFO is removed at once (not at the next sweep), a live client's is never touched
    with Client() as alive:
        assert ask("echo keep", alive)["text"] == "keep"
        proc = subprocess.Popen([sys.executable, "-c", CLIENT], stdout=subprocess.PIPE, text=True)
        req_id, tag = proc.stdout.readline().split()
        fifo = rundir() / f"py-{proc.pid}-1.fifo"
        assert tag == "T" and fifo.exists()
        killed = time.time()
        proc.kill()
        proc.wait()
        proc.stdout.close()
        assert cancel_time(events, req_id) - killed < 0.2
        assert wait_for(lambda: not fifo.exists()), f"{fifo.name} left behind"
        assert alive.fifo.exists() and ask("echo after", alive)["text"] == "after"
    assert runtime.is_running() == daemon

    # aish daemon stop: files gone, a second stop finds none
    assert runtime.stop() is True
    assert runtime.is_running() is None and not runtime.status()["running"]
    assert not (rundir() / "daemon.fifo").exists() and not (rundir() / "daemon.pid").exists()
    assert runtime.stop() is False

    # SIGTERM: a clean shutdown, its files removed, the lock released, said in the log
    daemon = spawn.start()
    os.kill(daemon, signal.SIGTERM)
    assert wait_for(lambda: not (rundir() / "daemon.fifo").exists() and not runtime.lock_held(rundir()))
    assert not (rundir() / "daemon.pid").exists()
    assert "stopped" in log_text()

    # SIGTERM stops a daemon whose FIFO path is gone (it used to wake its read through the
    # path, so it went on serving a deleted FIFO)
    daemon = spawn.start()
    (rundir() / runtime.FIFO).unlink()
    os.kill(daemon, signal.SIGTERM)
    assert wait_for(lambda: runtime.pid_exited(daemon), timeout=3)


def test_racing_starts_and_daemons_started_by_hand_leave_one(events):
    # five shells' `aish daemon start` at once: one daemon (behind start.lock)
    said: list = []
    starters = [threading.Thread(target=lambda: said.append(aish("daemon", "start", timeout=60)))
                for _ in range(5)]
    for starter in starters:
        starter.start()
    for starter in starters:
        starter.join(60)
    assert [done.returncode for done in said] == [0] * 5, [done.stderr for done in said]
    pids = {done.stdout.strip() for done in said}
    assert len(pids) == 1 and pids == {f"aish daemon running (pid {runtime.is_running()})"}
    assert runtime.stop()

    # five `python -m aish.daemon` by hand: the lock keeps one, the others say why and exit 1
    procs = [subprocess.Popen([sys.executable, "-m", "aish.daemon"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for _ in range(5)]
    surplus = None
    try:
        # five interpreters start at once: slow on a busy machine, and the wait ends at one left
        codes = wait_for(lambda: [p.poll() for p in procs].count(None) == 1, timeout=30)
        assert codes, "more than one daemon kept running"
        survivor = next(p for p in procs if p.poll() is None)
        assert wait_for(runtime.is_running) == survivor.pid
        losers = [p for p in procs if p is not survivor]
        assert all(p.returncode == 1 and "already running" in p.stderr.read() for p in losers)

        # Concurrent cold starts can fork a second daemon that waits for the lock.  A stop
        # then must not leave it holding the lock behind a FIFO the stop removed: every
        # client would find no daemon and be unable to start one.
        surplus = subprocess.Popen([sys.executable, "-m", "aish.daemon"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
        time.sleep(0.4)                  # it waits on daemon.lock while the first serves
        assert runtime.stop()

        def settled() -> bool:
            return surplus.poll() is not None or runtime.is_running() == surplus.pid

        assert wait_for(settled, timeout=5), (surplus.poll(), runtime.is_running(), runtime.lock_held(rundir()))
        # the lock is held exactly when a reachable daemon holds it
        assert runtime.lock_held(rundir()) == bool(runtime.is_running())
    finally:
        runtime.stop()
        for p in procs + ([surplus] if surplus else []):
            p.kill()
            p.wait()
            p.stderr.close()


def test_a_client_notices_its_daemon_dying_and_starts_the_next(events):
    """Autostart; a daemon killed mid-answer is an error at once, and the next request starts
    a fresh one; and the liveness check is about the daemon that took the request: a new
    daemon (another shell started it, or a spare one waiting on the lock) must not keep the
    client waiting for frames that will never come."""
    assert runtime.is_running() is None
    client = Client()
    try:
        assert ask("echo started", client)["text"] == "started"
        pid = runtime.is_running()
        assert pid

        def kill_daemon(frame):
            if frame.tag == "T" and runtime.is_running():
                os.kill(pid, signal.SIGKILL)

        start = time.monotonic()
        with pytest.raises(DaemonError, match="stopped while answering"):
            client.request(Request(text="slow 30"), on_frame=kill_daemon)
        assert time.monotonic() - start < 2.5
        # the next request starts a fresh daemon
        assert ask("echo again", client)["text"] == "again"
        first, pid = pid, runtime.is_running()
        assert pid not in (None, first)
        replaced = []

        def kill_and_restart(frame):
            if frame.tag == "T" and not replaced:
                os.kill(pid, signal.SIGKILL)
                while runtime.is_running() == pid:  # SIGKILL lands asynchronously
                    time.sleep(0.005)
                replaced.append(spawn.start())

        # timeout: the bound the old client hit instead of noticing ("no answer within")
        with pytest.raises(DaemonError, match=rf"\(pid {pid}\) stopped while answering"):
            client.request(Request(text="slow 30"), on_frame=kill_and_restart, timeout=8)
        assert replaced and replaced[0] != pid and runtime.is_running() == replaced[0]
        assert ask("echo fine", client)["text"] == "fine"
    finally:
        client.close()
        runtime.stop()
