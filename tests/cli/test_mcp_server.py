"""``aish mcp-server`` as a process: what it loads, where it looks, how it says what is wrong.

The whole bridge, with a real agent client and real shells, is tests/shell/cases_agents.py.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from aish.cli import mcp_server
from tests.helpers import aish

NO_SDK_MODULES = """
import sys
sdk = lambda: sorted(m for m in sys.modules if m == "mcp" or m.startswith(("mcp.", "mcp_types")))
import aish.entry, aish.cli.main, aish.daemon.__main__
from aish.app.service import Service
from aish.app.verbs.context import AgentFor
from aish.ipc.protocol import Request
from tests.doubles import RecordingReply
service = Service()
service.verb(Request(kind="verb", argv=["agents"]), RecordingReply())   # the bridge, daemon side
service.bridge().handle(Request(), RecordingReply(), AgentFor("list"))
print(sdk())
"""


def test_the_sdk_is_loaded_by_mcp_server_only(config_file):
    """The CLI's start and the daemon's (its service and the bridge's own code) never import
    the MCP SDK; only `aish mcp-server` does, once it runs."""
    config_file("")
    done = subprocess.run([sys.executable, "-c", NO_SDK_MODULES], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_the_sdk_it_says_so_in_one_line_and_stdout_stays_clean(stub, tmp_path):
    fake = tmp_path / "shadow" / "mcp"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no SDK here', name='mcp')\n")
    done = aish("mcp-server", input="", env={"PYTHONPATH": str(fake.parent)})
    assert done.returncode != 0 and done.stdout == ""  # stdout is the MCP channel
    assert done.stderr.strip().splitlines() == [
        "aish: aish mcp-server needs the MCP Python SDK (mcp is missing) (python3 -m pip install 'mcp>=2.3')"]


def test_it_says_hello_and_goodbye_to_the_daemon(stub):
    """An agent that closes its end at once: the server exits cleanly, nothing on stdout, and
    the daemon no longer counts it (the marker the shells look for is gone)."""
    done = aish("mcp-server", input="")
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert not (Path(os.environ["AISH_RUNTIME_DIR"]) / "agents").exists()
    assert "no agent is connected" in aish("agents").stdout


def test_a_small_environment_still_finds_the_shells_runtime_dir(monkeypatch, tmp_path):
    """Agents may start it without XDG_RUNTIME_DIR (the SDK's stdio client, Codex): it looks
    where the shells would have the dir, and the daemon it starts uses the same one."""
    found = tmp_path / f"aish-{os.getuid()}"
    found.mkdir(mode=0o700)
    (found / "agents").write_text("1 claude\n")
    for name in ("AISH_RUNTIME_DIR", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(mcp_server, "_CANDIDATES", lambda uid: [tmp_path / "nothing", found])
    assert mcp_server._runtime_dir() == found
    assert os.environ["AISH_RUNTIME_DIR"] == str(found)


def test_an_agent_that_terminates_it_is_told_goodbye_too(stub):
    """Agents stop their servers with SIGTERM (Claude Code's `mcp list` health check does):
    the daemon hears goodbye, so the shells stop writing their state at once, not at the
    next sweep of dead clients' files, and nothing but a clean exit is shown."""
    import signal

    from tests.helpers import wait_until

    marker = Path(os.environ["AISH_RUNTIME_DIR"]) / "agents"
    server = subprocess.Popen([sys.executable, "-m", "aish", "mcp-server"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: str(server.pid) in (marker.read_text() if marker.exists() else ""), 30,
                   "the agent registered")
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert out == b"" and b"Traceback" not in err, err
    assert not marker.exists()
