"""Remote servers: the SDK's Streamable HTTP and legacy HTTP+SSE clients, on aish's HTTP policy.

The SDK speaks the protocol; what this module adds sits in one ``httpx2``
transport every request of a server goes through (``Guard``):

- aish's proxy/CA policy (``aish.net``): loopback never proxied, the CA bundle
  of ``REQUESTS_CA_BUNDLE``/``CURL_CA_BUNDLE`` honoured, ``~/.netrc`` never read;
- a byte cap on JSON answers (the SDK caps SSE events, not JSON bodies);
- the abort the SDK leaves out before the 2026 protocol: after a
  ``notifications/cancelled`` (Ctrl-C or a time-out) the request's own
  response stream is closed, so a server that keeps it alive with pings
  cannot keep our connection forever;
- what the last failure was (status, and whether the server forgot our
  session: 404, or the TypeScript SDK's 400 "No valid session ID"), which the
  SDK turns into an anonymous JSON-RPC error.
"""
from __future__ import annotations

import json
import os
import ssl
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator, Optional
from urllib.parse import urlsplit, urlunsplit

import anyio
import httpx2

from aish.errors import ToolError
from aish.net.transport import env_settings

CONNECT_TIMEOUT = 10.0
# one TLS context per CA bundle, shared by every remote server's transport: loading a bundle is
# ~20 ms of CPU, which every connect and reconnect paid (54 of them in a unit test run: 1 s); a
# bundle replaced or rewritten on disk is loaded afresh (its size, time or inode changed)
_TLS_CONTEXTS: dict[tuple, ssl.SSLContext] = {}
STREAM_READ_TIMEOUT = 300.0  # between bytes of an event stream (servers ping in between)


def display_url(url: str) -> str:
    """The URL without user info or query: either may carry a token."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "<invalid url>"
    host = parts.hostname or ""
    if port:
        host = f"{host}:{port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def check_url(url: str) -> None:
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ToolError(f"'{display_url(url)}' is not an http(s) URL",
                        hint="give the server's MCP endpoint, e.g. http://127.0.0.1:8000/mcp")


@dataclass
class Failure:
    """The last HTTP failure of a server, for the one line the user reads."""

    status: int = 0
    session_rejected: bool = False  # a request carrying our session id was refused
    too_large: int = 0  # bytes of a JSON answer over the cap
    oauth: bool = False  # a 401 that names a Bearer challenge: the server signs users in


class _CappedBody(httpx2.AsyncByteStream):
    """A response body that can be aborted from another task and stops at a byte cap."""

    def __init__(self, inner: Any, cap: Optional[int], guard: "Guard") -> None:
        self.inner = inner
        self.cap = cap
        self.guard = guard
        self.scope: Optional[anyio.CancelScope] = None
        self.aborted = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        iterator = self.inner.__aiter__()
        while True:
            with anyio.CancelScope() as scope:
                self.scope = scope
                if self.aborted:
                    scope.cancel()
                try:
                    chunk = await iterator.__anext__()
                except StopAsyncIteration:
                    return
            if scope.cancelled_caught:
                raise httpx2.StreamError("aborted: the request was cancelled")
            seen += len(chunk)
            if self.cap is not None and seen > self.cap:
                self.guard.failure.too_large = seen
                raise httpx2.StreamError(f"the answer is larger than {self.cap} bytes")
            yield chunk

    def abort(self) -> None:
        self.aborted = True
        if self.scope is not None:
            self.scope.cancel()

    async def aclose(self) -> None:
        with anyio.CancelScope(shield=True):
            await self.inner.aclose()
        self.guard.forget(self)


def tls_context(verify: str | bool) -> ssl.SSLContext:
    """The TLS context for ``verify`` (a CA bundle's path, or True: the system's), as
    ``httpx2`` builds it, made once per bundle as it is on disk.  Sharing one is safe: a
    connection reads it, and the one setting ``httpcore2`` writes on it at a connect (ALPN) is
    the same for every server (HTTP/1.1)."""
    path = verify if isinstance(verify, str) else ssl.get_default_verify_paths().openssl_cafile
    try:
        found = os.stat(path)
        on_disk: tuple = (found.st_ino, found.st_size, found.st_mtime_ns)
    except OSError:
        on_disk = ()
    key = (verify, path, *on_disk)
    context = _TLS_CONTEXTS.get(key)
    if context is None:
        context = ssl.create_default_context(cafile=verify) if isinstance(verify, str) \
            else httpx2.create_ssl_context(verify=True, trust_env=False)
        _TLS_CONTEXTS.clear()  # only the newest stays (a bundle rewritten daily is not kept for ever)
        _TLS_CONTEXTS[key] = context
    return context


class Guard(httpx2.AsyncBaseTransport):
    """Wraps the real transport of one server (see the module docstring)."""

    def __init__(self, url: str, max_bytes: int) -> None:
        proxies, verify = env_settings(url)
        scheme = urlsplit(url).scheme
        proxy = proxies.get(scheme) or proxies.get("all")
        self.inner = httpx2.AsyncHTTPTransport(verify=tls_context(verify), proxy=proxy, trust_env=False)
        self.max_bytes = max_bytes
        self.failure = Failure()
        self._open: dict[str, _CappedBody] = {}  # JSON-RPC request id -> its response body

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        message = _json_body(request)
        if message.get("method") == "notifications/cancelled":
            target = (message.get("params") or {}).get("requestId")
            body = self._open.get(str(target))
            if body is not None:
                body.abort()
        response = await self.inner.handle_async_request(request)
        if response.status_code >= 400:
            self.failure.status = response.status_code
            carried = "mcp-session-id" in request.headers
            self.failure.session_rejected = carried and response.status_code in (400, 404)
            challenge = response.headers.get("www-authenticate", "").lower()
            self.failure.oauth = response.status_code == 401 and challenge.startswith("bearer")
        is_json = response.headers.get("content-type", "").lower().startswith("application/json")
        body = _CappedBody(response.stream, self.max_bytes if is_json else None, self)
        if "id" in message and "method" in message:
            self._open[str(message["id"])] = body
        response.stream = body
        return response

    def forget(self, body: _CappedBody) -> None:
        for key, value in list(self._open.items()):
            if value is body:
                del self._open[key]

    async def aclose(self) -> None:
        await self.inner.aclose()


def _json_body(request: httpx2.Request) -> dict:
    if request.method != "POST":
        return {}
    try:
        message = json.loads(request.content or b"{}")
    except (ValueError, httpx2.RequestNotRead):
        return {}
    return message if isinstance(message, dict) else {}


@asynccontextmanager
async def http_transport(url: str, kind: str, headers: dict, timeout: float, guard: Guard,
                         auth: Optional[httpx2.Auth] = None) -> AsyncIterator[tuple]:
    """``(read_stream, write_stream)`` of the SDK client for ``kind`` ("http" or "sse")."""
    limits = httpx2.Timeout(CONNECT_TIMEOUT, read=STREAM_READ_TIMEOUT)
    client = httpx2.AsyncClient(transport=guard, headers=headers, timeout=limits, trust_env=False,
                                auth=auth)
    async with client:
        if kind == "sse":
            from mcp.client.sse import sse_client

            def factory(headers: Optional[dict] = None, timeout: Any = None,
                        auth: Optional[httpx2.Auth] = None) -> Any:
                return _Borrowed(client)

            async with sse_client(url, headers=headers, timeout=min(timeout, CONNECT_TIMEOUT),
                                  sse_read_timeout=STREAM_READ_TIMEOUT,
                                  httpx_client_factory=factory, auth=auth) as streams:
                yield streams[0], streams[1]
        else:
            from mcp.client.streamable_http import streamable_http_client

            async with streamable_http_client(url, http_client=client,
                                              max_sse_event_size=guard.max_bytes) as streams:
                yield streams[0], streams[1]


class _Borrowed:
    """Our client lent to code that closes what its factory returns (the SSE client):
    its ``async with`` leaves ours open for the stack that owns it."""

    def __init__(self, client: httpx2.AsyncClient) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    async def __aenter__(self) -> httpx2.AsyncClient:
        return self._client

    async def __aexit__(self, *exc: Any) -> None:
        return None
