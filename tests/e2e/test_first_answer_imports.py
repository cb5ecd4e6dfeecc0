"""What a daemon has imported when the first answer of its life starts streaming.

A cold ``aish ask`` waits for every module the daemon imports before its first byte, so
the ask path must not pull in what only later work or other servers need.  Each case runs
a fresh interpreter that asks a question of a server on this machine (the loopback stub),
recording ``sys.modules`` at the first text chunk.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.mcp_servers import stdio_argv
from tests.stub_server import Reply, StubServer

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = r'''
import json, logging, os, sys, time
from aish.ipc.protocol import Request
from tests.doubles import RecordingReply

seen = []


class FirstChunk(RecordingReply):
    def text(self, chunk):
        if not seen:
            seen.append(sorted(sys.modules))
        super().text(chunk)


reply = FirstChunk()
question = Request(id="probe", kind="ask", conv="probe", text="hi", cwd=os.getcwd(), env={})
'''

# the daemon's lazy service: the question first, its warm-up after; then, the warm-up done,
# a second question; and which of the MCP SDK's modules the process has loaded by then
DAEMON = PRELUDE + r'''
import threading
from aish.app.daemon_state import LATER
from aish.daemon.__main__ import LazyService

service = LazyService(logging.getLogger("aish"))
service.handle(question, reply)
deadline = time.monotonic() + 30
while time.monotonic() < deadline and not all(name in sys.modules for name in LATER):
    time.sleep(0.05)
later = sorted(n for n in LATER if n in sys.modules)
for thread in threading.enumerate():
    if thread.name == "service-init":  # the warm-up (ledger, MCP servers...) to its end
        thread.join(30)
again = RecordingReply()
service.handle(Request(id="again", kind="ask", conv="probe", text="again", cwd=os.getcwd(), env={}), again)
sdk = sorted({name.split(".")[0] for name in sys.modules} & {"mcp", "mcp_types", "httpx2"})
print(json.dumps({"first": seen[0] if seen else None, "text": "".join(reply.texts),
                  "again": "".join(again.texts), "later": later, "sdk": sdk}))
'''

# what the first answer must not wait for: other servers' HTTP (requests), the judgement
# of the suggested command (after the answer), the cost ledger (SQLite: it records the call
# after the answer), MCP, the agents' bridge, Norris; and modules whose import compiles
# regular expressions or starts machinery a configured model does not use: the standard
# library's HTTP client (its reply parser is the ``email`` package, with ``random``, ``ssl``,
# ``calendar``...: a server on this machine is spoken to on a plain socket) and the logging
# handlers' module (``pickle``, ``queue``... for handlers the daemon does not use); hashlib
# (it loads OpenSSL: the token counter's digests are blake2b's own module); the readers and
# cleaning of a command's output (a request from a shell with a command run before it loads
# them: this question, like a CLI ask, carries no output)
NOT_BEFORE_THE_FIRST_BYTE = ("requests", "urllib3", "aish.net.pooled", "aish.safety.assess",
                             "aish.safety.rules", "sqlite3", "aish.cost.ledger", "aish.mcp",
                             "aish.app.bridge", "aish.app.norris", "platform", "concurrent.futures",
                             "http.client", "email", "ssl", "logging.handlers", "pickle", "hashlib",
                             "aish.context.output", "aish.context.sources", "aish.context.sanitize")


def _probe(config_file, code: str, more_config: str = "") -> dict:
    with StubServer() as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n{more_config}')
        stub.queue(Reply(text="hello there\nCMD: ls -la\n"), Reply(text="and again\n"))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=90,
                             env=env, cwd=str(ROOT), stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert "hello there" in result["text"] and "and again" in result["again"], result
    assert result["first"], "no text chunk arrived"
    return result


def _undocumented_dataclasses(modules: list) -> list:
    """The dataclasses of aish's modules in ``modules`` without a docstring of their own: for
    those ``@dataclass`` writes ``__doc__`` from ``inspect.signature``, about half of what
    making a class costs once its methods' code is kept (daemon/method_cache.py)."""
    import ast

    found = []
    for name in modules:
        path = ROOT / "backend" / (name.replace(".", "/") + ".py")
        if not name.startswith("aish.") or not path.is_file():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None and any(
                    "dataclass" in ast.unparse(d) for d in node.decorator_list):
                found.append(f"{name}.{node.name}")
    return found


def _not_yet(modules: list) -> list:
    return [name for name in modules
            if any(name == bad or name.startswith(bad + ".") for bad in NOT_BEFORE_THE_FIRST_BYTE)]


def test_the_daemon_answers_first_and_loads_the_rest_after(config_file):
    """The daemon's lazy service (``LazyService``, which builds the ``Service`` the daemon's
    request threads run): at the first text chunk nothing the first answer must not wait for
    is loaded; the background loading waits for the first answer, then still happens (the
    judgement of commands and the ledger); and the ledger, opened after the answer, still
    has the first call.  (The ``Service`` alone imports a subset of what the lazy service
    has loaded at that chunk, so this also bounds a ``Service`` built directly.)  With no
    MCP server configured, the MCP SDK (seconds and tens of MB to import) is never loaded:
    not for the answer, the warm-up or the next question."""
    from aish.app.daemon_state import LATER
    from aish.cost.ledger import Ledger

    result = _probe(config_file, DAEMON)
    assert _not_yet(result["first"]) == []
    assert _undocumented_dataclasses(result["first"]) == []
    assert result["later"] == sorted(LATER)
    assert result["sdk"] == [], "the MCP SDK was imported with no MCP server configured"
    ledger = Ledger()
    try:
        assert ledger.totals(None)["calls"] >= 1
    finally:
        ledger.close()


def test_a_configured_mcp_server_brings_the_sdk_in(config_file):
    """The probe above can fail: the same daemon handler imports the SDK once a server is
    configured."""
    command = ", ".join(f'"{a}"' for a in stdio_argv())
    result = _probe(config_file, DAEMON, f'[mcp.servers.notes]\ncommand = [{command}]\n')
    assert "mcp" in result["sdk"], result["sdk"]
