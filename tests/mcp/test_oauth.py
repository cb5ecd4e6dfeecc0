"""OAuth for remote servers: a real SDK server that is its own authorization server
(discovery, dynamic registration, PKCE, refresh), the sign-in in the terminal, tokens
kept 0600, and the daemon's manager using (and refreshing) them."""
from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import time

import pytest
import requests

from aish.config.schema import McpConfig, McpServerConfig
from aish.errors import ToolError
from aish.mcp import results, oauth
from aish.mcp.manager import McpManager
from tests.mcp_servers import OAUTH_SERVER, SdkHttpServer


@pytest.fixture(scope="module")
def server():
    started = SdkHttpServer(script=OAUTH_SERVER)
    yield started
    started.stop()


def browser(address: str) -> bool:
    """A person who clicks "Allow": follow the address, redirects included, to our listener."""
    requests.get(address, timeout=10)
    return True


def manager_of(url: str) -> McpManager:
    manager = McpManager(McpConfig(servers={"notes": McpServerConfig(alias="notes", url=url, timeout=20)}))
    manager.connect_configured()
    return manager


def whoami(manager: McpManager) -> str:
    tool = manager.resolve("notes.whoami")
    assert tool is not None, manager.servers()
    return results.result_text(manager.call(tool, {}))


def test_an_oauth_server_not_signed_in_says_how_to_sign_in(server):
    manager = manager_of(server.url)
    try:
        [status] = manager.servers()
        assert status.state == "failed"
        assert "sign in" in status.error and "aish mcp login notes" in status.error, status.error
    finally:
        manager.close_all()


def test_login_keeps_tokens_private_and_the_manager_uses_them(server):
    said: list = []
    tools = oauth.login("notes", server.url, "http", said.append, opener=browser, wait=30)
    assert tools == 1
    path = oauth.token_path("notes", server.url)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert any("/authorize?" in line for line in said), said
    token = json.loads(path.read_text())["tokens"]["access_token"]
    assert not any(token in line for line in said)
    manager = manager_of(server.url)
    try:
        assert whoami(manager) == "signed in"
    finally:
        manager.close_all()


def test_an_address_pasted_at_the_terminal_signs_in_too(server):
    """A browser on another machine: the user pastes the address it ended on."""
    pasted = io.StringIO()

    def elsewhere(address: str) -> bool:
        answer = requests.get(address, timeout=10, allow_redirects=False)
        pasted.write("not an address\n" + answer.headers["location"] + "\n")
        pasted.seek(0)
        return False

    said: list = []
    class Later:  # the terminal: lines come once the browser elsewhere is done
        def __iter__(self):
            deadline = time.monotonic() + 10
            while not pasted.getvalue() and time.monotonic() < deadline:
                time.sleep(0.05)
            return iter(pasted.getvalue().splitlines())

    assert oauth.login("notes", server.url, "http", said.append, opener=elsewhere, pasted=Later(), wait=30) == 1
    assert "; open:" in said[0]


@pytest.mark.slow  # a second server, and a token left to expire
def test_an_expired_token_is_refreshed_without_the_person():
    short = SdkHttpServer("--token-life", "2", script=OAUTH_SERVER)
    try:
        oauth.login("notes", short.url, "http", lambda line: None, opener=browser, wait=30)
        path = oauth.token_path("notes", short.url)
        first = path.read_text()
        time.sleep(3)
        manager = manager_of(short.url)
        try:
            assert whoami(manager) == "signed in"
        finally:
            manager.close_all()
        assert path.read_text() != first  # the refreshed tokens were kept
    finally:
        short.stop()


def test_refused_tokens_say_to_sign_in_again(server):
    oauth.login("notes", server.url, "http", lambda line: None, opener=browser, wait=30)
    path = oauth.token_path("notes", server.url)
    data = json.loads(path.read_text())
    data["tokens"]["access_token"] = "revoked"
    data["tokens"].pop("refresh_token", None)
    path.write_text(json.dumps(data))
    manager = manager_of(server.url)
    try:
        [status] = manager.servers()
        assert status.state == "failed" and "aish mcp login notes" in status.error, status.error
    finally:
        manager.close_all()


def test_no_sign_in_within_the_wait_is_one_line(server):
    with pytest.raises(ToolError) as caught:
        oauth.login("notes", server.url, "http", lambda line: None, opener=lambda a: False, wait=0.1)
    assert "no sign-in within 0.1s" in caught.value.one_line()
    assert not oauth.token_path("notes", server.url).exists()


@pytest.mark.slow  # the real CLI and daemon processes
def test_aish_mcp_login_on_the_command_line(server, config_file, tmp_path):
    """The CLI signs in (here $BROWSER follows the address), then the daemon connects."""
    config_file(f'[mcp.servers.notes]\nurl = "{server.url}"\n')
    opener = tmp_path / "browser"
    opener.write_text(f"#!/bin/sh\nexec {sys.executable} -c 'import sys, requests; "
                      f"requests.get(sys.argv[1], timeout=10)' \"$1\"\n")
    opener.chmod(0o700)
    env = {**os.environ, "BROWSER": f"{opener} %s"}
    try:
        done = subprocess.run([sys.executable, "-m", "aish", "mcp", "login", "notes"], capture_output=True,
                              text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "signed in to notes (1 tool)" in done.stdout, done.stdout
        assert "connected notes" in done.stdout + done.stderr, done.stdout + done.stderr
    finally:
        subprocess.run([sys.executable, "-m", "aish", "daemon", "stop"], capture_output=True, timeout=30)


def test_the_sign_in_listener_closes_at_once():
    """Closing the callback listener (after a sign-in, or after the wait ran out) does not
    keep the person waiting: serve_forever's default poll held ``close`` up to half a second."""
    for signed_in in (True, False):
        listener = oauth._Listener()
        try:
            if signed_in:
                assert requests.get(listener.uri + "?code=c1&state=s1", timeout=10).status_code == 200
                assert listener.wait(10).code == "c1"
            else:
                with pytest.raises(ToolError):
                    listener.wait(0.05)
        finally:
            start = time.monotonic()
            listener.close()
            took = time.monotonic() - start
        assert took < 0.2, f"closing the sign-in listener took {took:.2f}s (signed in: {signed_in})"
