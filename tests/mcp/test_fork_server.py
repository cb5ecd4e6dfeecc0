"""The test servers' fork server (tests/mcp_servers/fork_server.py) stands in for a process the
client started: its exit status, a signal it got, and its end when the launcher is killed."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import conftest, mcp_servers
from tests.mcp_servers import SDK_SERVER, server_argv

pytestmark = pytest.mark.skipif(not os.environ.get(mcp_servers.FORKS_ENV), reason="the session has no fork server")
_IMPORTED_AT = time.time()  # (a worker imports its test modules before its first case: collection, or xdist's template)


def test_a_run_holding_the_mcp_tests_has_its_fork_server_started_before_any_case():
    """tests/conftest.py starts the fork server at the session's configuration, so its SDK import overlaps
    the run's start: before any process imported this module.  Started by the first MCP case, it was later."""
    pid_file = Path(os.environ[mcp_servers.FORKS_ENV].rpartition(":")[0]) / "pid"
    assert pid_file.exists() and pid_file.stat().st_mtime <= _IMPORTED_AT
    runs = lambda *args: conftest.runs_mcp_tests(  # noqa: E731
        SimpleNamespace(args=list(args), invocation_params=SimpleNamespace(dir=conftest.TESTS.parent)))
    wrong = [args for args, expected in [
        (("tests",), True), ((".",), True), (("tests/mcp",), True), (("tests/mcp/test_http.py::test_x",), True),
        (("tests/safety", "tests/mcp/test_stdio.py"), True), (("tests/safety",), False), (("tests/app",), False),
        (("tests/test_schedule.py",), False)] if runs(*args) != expected]
    assert wrong == [], "started at once for a run that holds tests/mcp, only"


def _sleeper(tmp_path, name: str) -> tuple[subprocess.Popen, int]:
    """A launched script that writes its pid and sleeps, and that pid (the forked child's)."""
    script, pid_file = tmp_path / f"{name}.py", tmp_path / f"{name}.pid"
    script.write_text(f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n")
    launcher = subprocess.Popen(server_argv(script))
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline and launcher.poll() is None, "the script did not start"
        time.sleep(0.02)
    return launcher, int(pid_file.read_text())


def _gone(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.02)
    return not os.path.exists(f"/proc/{pid}")


def test_the_launcher_runs_the_script_and_exits_with_its_status(tmp_path):
    script = tmp_path / "say.py"
    script.write_text("import os, sys\nprint(sys.argv[1:], os.getcwd(), os.environ['WHO'])\n"
                      "sys.stderr.write('bye\\n')\nsys.exit(7)\n")
    done = subprocess.run(server_argv(script, "a", "b"), capture_output=True, text=True, cwd=tmp_path,
                          env={"WHO": "me", "PATH": os.environ["PATH"]}, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (7, f"['a', 'b'] {tmp_path} me\n", "bye\n")
    assert server_argv(SDK_SERVER, "stdio")[:2] == [sys.executable, "-I"], "the session forks its servers"


def test_a_signal_reaches_the_server_and_killing_the_launcher_ends_it(tmp_path):
    launcher, child = _sleeper(tmp_path, "terminated")
    assert child != launcher.pid
    launcher.terminate()
    assert launcher.wait(10) == -15, "the child died of the SIGTERM the launcher passed on"
    assert _gone(child)
    launcher, child = _sleeper(tmp_path, "killed")
    launcher.kill()
    launcher.wait(10)
    assert _gone(child), "the forked script outlived its launcher"
