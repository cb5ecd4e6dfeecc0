"""OAuth for remote servers, on the SDK's client auth: sign in once, tokens kept 0600.

Why the sign-in runs in the ``aish mcp login ALIAS`` process and not in the daemon: it
needs a person (a browser, or an address pasted back), and the daemon never waits for
one in front of a question.  The login runs the SDK's flow (discovery, dynamic client
registration, PKCE) in the user's terminal: it prints the address, opens a browser
when there is one (``$BROWSER``, or a desktop session), and takes the answer either
from the browser's redirect to a one-shot loopback listener or from the address the
user pastes (a browser on another machine).  The daemon then uses the stored tokens
through the same SDK provider (it refreshes them); when they are gone or refused it
says to sign in again instead of trying to open anything.

Tokens and the registered client live in one JSON file per server (alias and URL) in
the state directory, written 0600 in a 0700 directory, replaced atomically.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import parse_qs, urlsplit

from aish.errors import ToolError

LOGIN_WAIT = 300.0  # seconds the login waits for the person
DIR_NAME = "mcp-oauth"


def token_path(alias: str, url: str) -> Path:
    """Where the tokens of ``alias`` at ``url`` live (another URL: another sign-in)."""
    from aish import paths
    from aish.mcp.http_transport import display_url

    digest = hashlib.sha256(display_url(url).encode("utf-8")).hexdigest()[:10]
    return paths.state_dir() / DIR_NAME / f"{alias}-{digest}.json"


def signed_in(alias: str, url: str) -> bool:
    return token_path(alias, url).exists()


class FileTokenStorage:
    """The SDK's ``TokenStorage`` on one private file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, key: str, value: Any) -> None:
        self._write_raw(key, value.model_dump(mode="json", exclude_none=True))

    def _write_raw(self, key: str, value: Any) -> None:
        data = self._read()
        data[key] = value
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.path.parent, 0o700)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)
        os.replace(tmp, self.path)

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        raw = self._read().get("tokens")
        return OAuthToken.model_validate(raw) if raw else None

    async def set_tokens(self, tokens: Any) -> None:
        self._write("tokens", tokens)
        if tokens.expires_in is not None:  # the SDK keeps the expiry in memory only
            self._write_raw("expires_at", time.time() + float(tokens.expires_in))

    def expires_at(self) -> Optional[float]:
        value = self._read().get("expires_at")
        return float(value) if isinstance(value, (int, float)) else None

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        raw = self._read().get("client_info")
        return OAuthClientInformationFull.model_validate(raw) if raw else None

    async def set_client_info(self, client_info: Any) -> None:
        self._write("client_info", client_info)

    def redirect_uris(self) -> list:
        info = self._read().get("client_info") or {}
        return list(info.get("redirect_uris") or [])


def _metadata(redirect_uri: str) -> Any:
    from mcp.shared.auth import OAuthClientMetadata

    return OAuthClientMetadata.model_validate({
        "client_name": "aish", "redirect_uris": [redirect_uri], "response_types": ["code"],
        "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none"})


def _provider(storage: FileTokenStorage, **kwargs: Any) -> Any:
    """The SDK's provider, told when the stored access token expires (it would send an
    expired one, hear 401 and start a whole sign-in instead of refreshing)."""
    from mcp.client.auth import OAuthClientProvider

    class StoredExpiry(OAuthClientProvider):
        async def _initialize(self) -> None:
            await super()._initialize()
            expires_at = storage.expires_at()
            if expires_at is not None and self.context.current_tokens is not None:
                self.context.token_expiry_time = expires_at

    return StoredExpiry(storage=storage, **kwargs)


def daemon_auth(alias: str, url: str) -> Optional[Any]:
    """The ``httpx2.Auth`` of a server the user signed in to (None: never signed in).

    It sends and refreshes the stored tokens; a flow that would need the person fails
    with the line that says how to sign in again."""
    path = token_path(alias, url)
    if not path.exists():
        return None
    storage = FileTokenStorage(path)

    async def needs_person(_address: str) -> None:
        raise ToolError("the sign-in expired or was refused", hint=f"aish mcp login {alias}")

    async def never() -> Any:
        raise ToolError("sign in first", hint=f"aish mcp login {alias}")

    redirect = (storage.redirect_uris() or ["http://127.0.0.1/callback"])[0]
    return _provider(storage, server_url=url, client_metadata=_metadata(redirect),
                     redirect_handler=needs_person, callback_handler=never)


# ---------------------------------------------------------------- the sign-in, in the terminal
@dataclass
class Answer:
    code: str
    state: Optional[str]
    iss: Optional[str] = None


_CLOSE_POLL = 0.02  # seconds the callback listener's loop sleeps between looks at ``close``


class _Listener:
    """A one-shot loopback HTTP listener for the browser's redirect, plus the pasted address."""

    def __init__(self) -> None:
        self.answers: "queue.Queue[Answer]" = queue.Queue()
        listener = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                answer = parse_answer(self.path)
                page = (b"Signed in: you can close this page and go back to the terminal."
                        if answer else b"No authorization code in this address.")
                self.send_response(200 if answer else 400)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)
                if answer:
                    listener.answers.put(answer)

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.uri = f"http://127.0.0.1:{self.server.server_address[1]}/callback"
        # a short poll: ``close`` (right after the sign-in) waits for the loop to notice, and
        # serve_forever's default half second would be felt by the person signing in
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": _CLOSE_POLL},
                         name="aish-oauth-callback", daemon=True).start()

    def read_pasted(self, stream: Any) -> None:
        """Take an address (or a bare code) typed at the terminal, for a browser elsewhere."""
        def read() -> None:
            for line in stream:
                answer = parse_answer(line.strip())
                if answer:
                    self.answers.put(answer)
                    return
        threading.Thread(target=read, name="aish-oauth-paste", daemon=True).start()

    def wait(self, timeout: float) -> Answer:
        try:
            return self.answers.get(timeout=timeout)
        except queue.Empty:
            raise ToolError(f"no sign-in within {timeout:g}s", hint="run 'aish mcp login' again") from None

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def parse_answer(text: str) -> Optional[Answer]:
    """``code`` and ``state`` of a redirect address (or of its query alone)."""
    query = urlsplit(text).query if "?" in text or "://" in text else text.lstrip("?")
    params = parse_qs(query)
    code = (params.get("code") or [""])[0]
    if not code:
        return None
    state, iss = params.get("state"), params.get("iss")
    return Answer(code, state[0] if state else None, iss[0] if iss else None)


def open_browser(address: str) -> bool:
    """Open a browser where there is one to open (never a text browser in this terminal)."""
    if not (os.environ.get("BROWSER") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            or sys.platform == "darwin"):
        return False
    import webbrowser

    try:
        return bool(webbrowser.open(address))
    except webbrowser.Error:
        return False


def login(alias: str, url: str, kind: str, say: Callable[[str], None],
          opener: Callable[[str], bool] = open_browser, pasted: Any = None,
          wait: float = LOGIN_WAIT, max_bytes: int = 16 * 1024 * 1024) -> int:
    """Sign in to ``url`` and keep the tokens; returns how many tools the server offers."""
    import anyio

    path = token_path(alias, url)
    path.unlink(missing_ok=True)  # a fresh registration for this redirect address
    listener = _Listener()
    if pasted is not None:
        listener.read_pasted(pasted)
    try:
        return anyio.run(_login, alias, url, kind, path, listener, say, opener, wait, max_bytes)
    except Exception as exc:  # noqa: BLE001 - the SDK's flow errors arrive in groups: one line
        if not path.exists() or not FileTokenStorage(path)._read().get("tokens"):
            path.unlink(missing_ok=True)
        raise _one_error(exc, alias) from None
    finally:
        listener.close()


async def _login(alias: str, url: str, kind: str, path: Path, listener: _Listener,
                 say: Callable[[str], None], opener: Callable[[str], bool], wait: float,
                 max_bytes: int) -> int:
    import anyio
    from mcp import ClientSession
    from mcp.client.auth import AuthorizationCodeResult

    from aish.mcp.http_transport import Guard, http_transport

    async def redirect(address: str) -> None:
        opened = await anyio.to_thread.run_sync(opener, address)
        say(f"sign in to {alias}" + (" in the browser that opened, or open:" if opened else "; open:"))
        say(f"  {address}")
        say("(on another machine? paste the address the browser ends on here)")

    async def callback() -> Any:
        answer = await anyio.to_thread.run_sync(listener.wait, wait, abandon_on_cancel=True)
        return AuthorizationCodeResult(code=answer.code, state=answer.state, iss=answer.iss)

    provider = _provider(FileTokenStorage(path), server_url=url, client_metadata=_metadata(listener.uri),
                         redirect_handler=redirect, callback_handler=callback)
    async with http_transport(url, kind, {}, wait, Guard(url, max_bytes), auth=provider) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return len((await session.list_tools()).tools)


def _one_error(exc: BaseException, alias: str) -> ToolError:
    from aish.mcp.exceptions import leaves as walk

    leaves = walk(exc) or [exc]
    for leaf in leaves:
        if isinstance(leaf, ToolError):
            return leaf
    leaf = leaves[0]
    return ToolError(f"{alias}: sign-in failed: {str(leaf)[:200] or type(leaf).__name__}")
