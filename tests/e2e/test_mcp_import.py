"""A daemon with no MCP server configured never imports the MCP SDK (its import costs
seconds and tens of MB); with one configured it does, in the background."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.mcp_servers import stdio_argv
from tests.stub_server import Reply, StubServer

PROBE = Path(__file__).resolve().parent / "sdk_probe_handler.py"


def _ask(question: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "AISH_DAEMON_HANDLER": f"{PROBE}:handle"}
    return subprocess.run([sys.executable, "-m", "aish", "ask", question], capture_output=True, text=True,
                          timeout=90, env=env, stdin=subprocess.DEVNULL)


def _modules(stderr: str) -> str:
    line = next(line for line in stderr.splitlines() if "sdk-modules:" in line)
    return line.split("sdk-modules:", 1)[1].strip()


def test_no_server_configured_means_the_sdk_is_never_imported(config_file):
    with StubServer() as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        stub.queue(Reply(text="one"), Reply(text="two"))
        try:
            first, second = _ask("hello"), _ask("again")
            assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
            assert _modules(first.stderr) == "none" and _modules(second.stderr) == "none"
        finally:
            subprocess.run([sys.executable, "-m", "aish", "daemon", "stop"], capture_output=True, timeout=30)


def test_a_configured_server_brings_the_sdk_in(config_file):
    """The probe above can fail: the same daemon imports the SDK once a server is configured."""
    with StubServer() as stub:
        command = ", ".join(f'"{a}"' for a in stdio_argv())
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                    f'[mcp.servers.notes]\ncommand = [{command}]\n')
        stub.queue(Reply(text="one"))
        try:
            result = _ask("hello")
            assert result.returncode == 0, result.stderr
            assert "mcp" in _modules(result.stderr).split(",")
        finally:
            subprocess.run([sys.executable, "-m", "aish", "daemon", "stop"], capture_output=True, timeout=30)
