"""``aish mcp-server`` as a process: what it loads, and hello and goodbye to the daemon whether
its agent closes its end or terminates it (how it says the SDK is missing:
tests/cli/test_cli_to_daemon.py).

The whole bridge, with a real agent client and real shells, is tests/shell/cases_agents.py.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.helpers import aish, wait_until

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


def test_it_says_hello_and_goodbye_to_the_daemon_when_its_agent_leaves_or_terminates_it(stub):
    """An agent that closes its end at once: the server exits cleanly, nothing on stdout, and
    the daemon no longer counts it (the marker the shells look for is gone).  Agents also stop
    their servers with SIGTERM (Claude Code's `mcp list` health check does): the daemon hears
    goodbye then too, so the shells stop writing their state at once, not at the next sweep of
    dead clients' files, and nothing but a clean exit is shown."""
    done = aish("mcp-server", input="")
    assert done.returncode == 0 and done.stdout == "", done.stderr
    marker = Path(os.environ["AISH_RUNTIME_DIR"]) / "agents"
    assert not marker.exists()
    assert "no agent is connected" in aish("agents").stdout

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
