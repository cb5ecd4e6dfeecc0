"""The reference MCP servers people install, from the package registries, through aish's
manager: mcp-server-time, -fetch and -git (PyPI, the test extra) over stdio, and
@modelcontextprotocol/server-everything (npm, installed by .ci/run into .ci/node) over
stdio, Streamable HTTP and the legacy HTTP+SSE transport.  Slow by nature (Node and the
servers' own imports), so marked ``slow``: ``.ci/run`` runs them after the default suite."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from aish.config.schema import McpConfig, McpServerConfig
from aish.mcp import catalog, results
from aish.mcp.asks import ShellSide
from aish.mcp.manager import McpManager
from tests.doubles import RecordingReply
from tests.mcp_servers import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EVERYTHING = ROOT / ".ci" / "node" / "node_modules" / ".bin" / "mcp-server-everything"


def python_server(name: str) -> str:
    path = Path(sys.executable).parent / name
    found = str(path) if path.exists() else shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


def everything() -> str:
    assert EVERYTHING.exists(), ("the npm reference server is missing: run "
                                 "'npm install --no-save --prefix .ci/node @modelcontextprotocol/server-everything' "
                                 "(.ci/run does)")
    return str(EVERYTHING)


def manager_of(**servers) -> McpManager:
    manager = McpManager(McpConfig(servers={a: McpServerConfig(alias=a, timeout=60, **kw)
                                            for a, kw in servers.items()}))
    assert manager.connect_configured() == []
    return manager


def call(manager, name, arguments=None, reply=None, sampler=None):
    tool = manager.resolve(name)
    assert tool is not None, [t.user_name for t in manager.tools()]
    side = ShellSide(reply or RecordingReply(), timeout=10, sampler=sampler)
    return results.result_text(manager.call(tool, arguments or {}, side=side))


# ---------------------------------------------------------------- the Python reference servers
def test_mcp_server_time():
    manager = manager_of(time=dict(command=[python_server("mcp-server-time"), "--local-timezone", "UTC"]))
    try:
        assert {"get_current_time", "convert_time"} <= {t.name for t in manager.tools()}
        assert '"timezone": "Europe/Paris"' in call(manager, "time.get_current_time", {"timezone": "Europe/Paris"})
    finally:
        manager.close_all()


class _Page(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        body = b"<html><body><h1>Release notes</h1><p>Version 7 adds tea.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_mcp_server_fetch_reads_a_loopback_page():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        manager = manager_of(fetch=dict(command=[python_server("mcp-server-fetch"), "--ignore-robots-txt",
                                                 "--allow-private-ips"]))
        try:
            page = call(manager, "fetch.fetch", {"url": f"http://127.0.0.1:{httpd.server_address[1]}/notes"})
            assert "Version 7 adds tea." in page
        finally:
            manager.close_all()
    finally:
        httpd.shutdown()


def test_mcp_server_git_on_a_scratch_repository(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.test",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.test"}
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "first light"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    manager = manager_of(git=dict(command=[python_server("mcp-server-git"), "--repository", str(repo)]))
    try:
        assert "first light" in call(manager, "git.git_log", {"repo_path": str(repo)})
    finally:
        manager.close_all()


# ---------------------------------------------------------------- the npm "everything" server
def test_everything_over_stdio_the_whole_client_side(tmp_path):
    manager = manager_of(ev=dict(command=[everything(), "stdio"]))
    try:
        assert call(manager, "ev.echo", {"message": "hi"}) == "Echo: hi"
        assert "5" in call(manager, "ev.get-sum", {"a": 2, "b": 3})
        assert "[image/png" in call(manager, "ev.get-tiny-image")
        assert manager.instructions().startswith("[ev] ")

        reply = RecordingReply()
        call(manager, "ev.trigger-long-running-operation", {"duration": 2, "steps": 4}, reply)
        assert any(s.startswith("tool ev.trigger-long-running-operation: ") for s in reply.statuses), reply.statuses

        manager.set_roots([str(tmp_path)])
        # the server asks roots/list on its own time after the list_changed notification
        deadline, roots = time.monotonic() + 20, ""
        while tmp_path.as_uri() not in roots and time.monotonic() < deadline:
            roots = call(manager, "ev.get-roots-list")
        assert tmp_path.as_uri() in roots, roots

        samples = []
        reply = RecordingReply(answers=["y"])
        said = call(manager, "ev.trigger-sampling-request", {"prompt": "say tea"}, reply,
                    sampler=lambda alias, request: samples.append(request) or ("tea", "local-model"))
        assert "tea" in said and samples and samples[0]["messages"]

        typed = ["Ada Lovelace", "", "ada@example.test", "https://example.test", "1815-12-10", "7", "",
                 "Joey", "Piano, Drums", "", "", "", "", ""]
        reply = RecordingReply(answers=["y"] * 8, texts=typed)
        answer = call(manager, "ev.trigger-elicitation-request", {}, reply)
        assert "Ada Lovelace" in answer and "accept" in answer.lower(), (answer, reply.prompts)

        resources, problems = catalog.resources(manager)
        assert problems == [] and resources
        owner, text = catalog.read_resource(manager, resources[0].name)
        assert owner == "ev" and text
        assert "Boston" in catalog.get_prompt(manager, "args-prompt", {"city": "Boston"})
    finally:
        manager.close_all()


def _start_everything(mode: str, port: int) -> subprocess.Popen:
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([everything(), mode], env={**os.environ, "PORT": str(port)},
                            stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the everything server exited at start"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the everything server ({mode}) did not listen within 60 s")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def test_everything_over_streamable_http_survives_a_server_restart():
    """The TypeScript server answers 400 "No valid session ID" after a restart: aish
    initializes again and the call goes through."""
    port = free_port()
    proc = _start_everything("streamableHttp", port)
    manager = None
    try:
        manager = manager_of(ev=dict(url=f"http://127.0.0.1:{port}/mcp"))
        assert manager.servers()[0].kind == "http"
        assert call(manager, "ev.echo", {"message": "before"}) == "Echo: before"
        _stop(proc)
        proc = _start_everything("streamableHttp", port)
        assert call(manager, "ev.echo", {"message": "after"}) == "Echo: after"
    finally:
        if manager is not None:
            manager.close_all()
        _stop(proc)


def test_everything_over_the_legacy_sse_transport():
    port = free_port()
    proc = _start_everything("sse", port)
    try:
        manager = manager_of(ev=dict(url=f"http://127.0.0.1:{port}/sse"))
        try:
            assert manager.servers()[0].kind == "sse"
            assert call(manager, "ev.echo", {"message": "old way"}) == "Echo: old way"
        finally:
            manager.close_all()
    finally:
        _stop(proc)
