"""Remote servers through the manager, on loopback: the official SDK server (SSE answers
with sessions, and JSON/stateless) and a plain-JSON server like lmcp (with and without
the TypeScript SDK's session rules)."""
from __future__ import annotations

import threading
import time

import pytest
import requests

from aish.config.schema import McpConfig, McpServerConfig
from aish.errors import ToolError
from aish.mcp import results
from aish.mcp.manager import McpManager
from tests.mcp_servers import SdkHttpServer, free_port
from tests.mcp_servers.plain_json_server import PlainServer


@pytest.fixture(scope="module")
def sse_server():
    server = SdkHttpServer()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def json_server():
    server = SdkHttpServer("--json", "--stateless")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def plain():
    server = PlainServer(token="s3cret-token", page_size=2, extra_tools=5)
    yield server
    server.stop()


@pytest.fixture
def managers():
    made = []

    def make(**servers) -> McpManager:
        cfg = McpConfig(servers={alias: McpServerConfig(alias=alias, **kw) for alias, kw in servers.items()})
        manager = McpManager(cfg)
        made.append(manager)
        return manager

    yield make
    for manager in made:
        manager.close_all()


def call(manager, name, arguments=None, **kw):
    tool = manager.resolve(name)
    assert tool is not None, f"{name} not offered: {[t.user_name for t in manager.tools()]}"
    return manager.call(tool, arguments or {}, **kw)


def text(result: dict) -> str:
    return results.result_text(result)


def test_sessions_and_protocol_version_headers(managers, sse_server):
    manager = managers(notes=dict(url=sse_server.url))
    assert manager.connect_configured() == []
    seen = text(call(manager, "notes.whoami"))
    assert "session=-" not in seen and "version=2025-11-25" in seen
    status = manager.servers()[0]
    assert (status.kind, status.state, status.protocol_version) == ("http", "connected", "2025-11-25")


def test_an_expired_session_is_initialized_again_once(managers, sse_server):
    manager = managers(notes=dict(url=sse_server.url))
    manager.connect_configured()
    before = text(call(manager, "notes.whoami"))
    session = before.split("session=")[1].split()[0]
    requests.delete(sse_server.url, timeout=5, headers={"Mcp-Session-Id": session,
                                                        "MCP-Protocol-Version": "2025-11-25"})
    assert text(call(manager, "notes.echo", {"text": "still here"})) == "still here"
    assert session not in text(call(manager, "notes.whoami"))


def test_a_restarted_server_answering_400_no_valid_session_is_initialized_again(managers):
    server = PlainServer(sessions=True)
    try:
        manager = managers(ts=dict(url=server.url))
        assert manager.connect_configured() == []
        assert text(call(manager, "ts.echo", {"text": "one"})) == "one"
        server.forget_sessions()  # what a restart of a TypeScript SDK server looks like
        assert text(call(manager, "ts.echo", {"text": "two"})) == "two"
        assert server.methods().count("initialize") == 2
    finally:
        server.stop()


def test_a_timed_out_call_is_cancelled_on_the_server_and_leaks_nothing(managers, sse_server, tmp_path):
    """The tool keeps its stream alive with progress; after the time-out the server is told
    (notifications/cancelled) and no thread or connection of ours stays behind.  The server
    pauses 50 ms between making its marker and writing it (a loaded host read it empty).  Half
    a second is five of the tool's progress notifications: they do not put the time-out off."""
    manager = managers(notes=dict(url=sse_server.url, timeout=0.5))
    manager.connect_configured()
    text(call(manager, "notes.echo", {"text": "warm"}))
    threads = threading.active_count()
    marker = tmp_path / "cancelled"
    start = time.monotonic()
    with pytest.raises(ToolError) as info:
        call(manager, "notes.wait_for_cancel", {"seconds": 30, "marker": str(marker), "pause": 0.05})
    assert time.monotonic() - start < 5
    deadline = time.monotonic() + 5
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists() and marker.read_text() == "cancelled"
    deadline = time.monotonic() + 5  # the call's threads end just after the server was told
    while threading.active_count() > threads and time.monotonic() < deadline:
        time.sleep(0.02)
    assert threading.active_count() <= threads
    assert "no answer within 0.5s" in str(info.value) and "timeout" in str(info.value)
    assert text(call(manager, "notes.echo", {"text": "after"})) == "after"


def test_json_stateless_mode_results_errors_and_protocol_errors(managers, json_server):
    manager = managers(notes=dict(url=json_server.url))
    assert manager.connect_configured() == []
    assert text(call(manager, "notes.read_note", {"name": "todo"})) == "buy milk"
    result = call(manager, "notes.fail", {"reason": "no disk"})
    assert result["isError"] is True and "no disk" in text(result)
    with pytest.raises(ToolError) as info:
        call(manager, "notes.protocol_error")
    assert "locked" in str(info.value)


def test_plain_json_bearer_pagination_and_no_session(managers, plain):
    plain.requests.clear()
    manager = managers(plain=dict(url=plain.url, auth_token="s3cret-token"))
    assert manager.connect_configured() == []
    names = [t.name for t in manager.tools()]
    assert len(names) == 8 and {"echo", "sleep", "fail"} <= set(names)  # 3 + 5, fetched 2 per page
    assert plain.methods()[:2] == ["initialize", "notifications/initialized"]
    assert plain.methods().count("tools/list") == 4
    for _, raw in plain.requests:
        headers = {k.lower(): v for k, v in raw.items()}
        assert headers["authorization"] == "Bearer s3cret-token"
        assert "application/json" in headers["accept"] and "text/event-stream" in headers["accept"]
        assert "mcp-session-id" not in headers
    manager.close_all()
    assert "DELETE" not in plain.methods(), "no session id, so nothing to delete"


def test_wrong_token_is_an_actionable_error_without_the_token(managers, plain):
    manager = managers(plain=dict(url=plain.url, auth_token="wrong-token"))
    [line] = manager.connect_configured()
    assert "401" in line and "auth_token" in line and "wrong-token" not in line


def test_unknown_tool_and_timeout_on_a_plain_server(managers, plain):
    manager = managers(plain=dict(url=plain.url, auth_token="s3cret-token"))
    manager.connect_configured()
    tool = manager.resolve("plain.echo")
    tool.name = "nope"
    with pytest.raises(ToolError) as info:
        manager.call(tool, {})
    assert "Unknown tool: nope" in str(info.value)
    # a time-out of its own: the call that must time out sleeps 2 s, ten times the bound
    hasty = managers(plain=dict(url=plain.url, auth_token="s3cret-token", timeout=0.2))
    hasty.connect_configured()
    with pytest.raises(ToolError) as info:
        call(hasty, "plain.sleep", {"seconds": 2})
    assert "within 0.2s" in str(info.value)


def test_connection_refused_names_the_url_without_secrets():
    url = f"http://user:pw@127.0.0.1:{free_port()}/mcp?token=abc"
    manager = McpManager(McpConfig())
    line = manager.connect(url, "gone")
    assert "cannot connect" in line and "127.0.0.1" in line
    assert "pw" not in line and "abc" not in line


def test_not_an_http_url():
    line = McpManager(McpConfig()).connect("ftp://127.0.0.1/mcp", "x")
    assert "not an http(s) URL" in line


def test_loopback_is_never_proxied(managers, plain, monkeypatch):
    """A proxy in the environment is not used for a loopback server (aish.net's policy)."""
    from tests.helpers import closed_port_url

    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", closed_port_url())
    monkeypatch.setenv("http_proxy", closed_port_url())
    manager = managers(plain=dict(url=plain.url, auth_token="s3cret-token"))
    assert manager.connect_configured() == []
    assert manager.resolve("plain.echo") is not None


def test_the_legacy_http_sse_transport(managers):
    """A server on the 2024-11-05 transport (GET /sse for events, POST for messages): chosen by
    the /sse path, calls and the session's end work as on Streamable HTTP."""
    server = SdkHttpServer(mode="sse")
    try:
        manager = managers(old=dict(url=server.url))
        assert manager.connect_configured() == []
        assert manager.servers()[0].kind == "sse"
        assert text(call(manager, "old.echo", {"text": "over sse"})) == "over sse"
        with pytest.raises(ToolError):
            call(manager, "old.protocol_error")
        manager.close_all()
        assert manager.servers() == []
    finally:
        server.stop()


def test_a_remote_server_that_died_is_listed_failed_not_connected(managers):
    """A stdio server's exit is seen at once; a remote one's only when something is sent.
    `aish mcp list` pings it first; a live server without `ping` ("method not found") is
    still alive."""
    from aish.app.verbs.mcp import _list

    gone, alive = PlainServer(), PlainServer()
    try:
        manager = managers(gone=dict(url=gone.url), alive=dict(url=alive.url))
        assert manager.connect_configured() == []
        gone.stop()
        lines = dict(line.split(None, 1) for line in _list(manager))
        assert "failed" in lines["gone"] and "connected" not in lines["gone"], lines
        assert lines["alive"].endswith("connected (MCP 2025-03-26)"), lines
        assert "ping" in alive.methods()
        assert text(call(manager, "alive.echo", {"text": "still"})) == "still"
    finally:
        alive.stop()


def test_one_tls_context_per_ca_bundle_as_it_is_on_disk(tmp_path, monkeypatch):
    """Every remote server's transport shares the TLS context of its CA bundle (loading a bundle
    was ~20 ms of CPU a connect); a bundle rewritten on disk is loaded afresh, and the system's
    default (no bundle named) has a context of its own."""
    import os
    import ssl

    import certifi

    from aish.mcp.http_transport import Guard, tls_context

    bundle = tmp_path / "ca.pem"  # one authority of certifi's (the whole bundle is ~20 ms a load)
    first_certificate = certifi.contents().split("-----END CERTIFICATE-----")[0]
    bundle.write_text(first_certificate[first_certificate.index("-----BEGIN"):] + "-----END CERTIFICATE-----\n")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(bundle))
    first = Guard("https://one.example/mcp", 1000).inner._pool._ssl_context
    assert Guard("http://127.0.0.1:9/mcp", 1000).inner._pool._ssl_context is first, \
        "a second server's transport loaded the bundle again"
    assert tls_context(str(bundle)) is first
    stat = bundle.stat()
    os.utime(bundle, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    again = tls_context(str(bundle))
    assert again is not first, "a bundle rewritten on disk was not loaded afresh"
    system = tls_context(True)
    assert system is tls_context(True) and system is not again
    for context in (first, again, system):
        assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
