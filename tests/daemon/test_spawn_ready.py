"""The process that forks a new daemon is woken by it once it serves (a pipe the daemon
closes when its FIFO and pidfile are up), not by sleeping and looking again: a cold
``aish ask`` would otherwise wait up to a poll interval more, longer on a busy host."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from aish.daemon import runtime

PROBE = r'''
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


def test_the_starter_waits_on_the_daemon_not_on_a_sleep():
    env = {**os.environ, "AISH_DAEMON_HANDLER": ""}
    try:
        out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60,
                             env=env, stdin=subprocess.DEVNULL)
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout.strip().splitlines()[-1])
        assert result["pid"] and result["running"] == result["pid"]
        assert result["sleeps"] == 0
    finally:
        runtime.stop()
