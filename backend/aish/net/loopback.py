"""HTTP/1.1 to a server on this machine, on the standard library's ``http.client``.

Why not requests here: a call to a server on loopback needs nothing requests adds (loopback
is never proxied, plain ``http://`` has no certificates, no cookies are kept, no redirect is
followed), and requests with urllib3 cost about half a millisecond of CPU per call
(preparing and merging settings, header objects, urllib3's protocol checks).  An ask makes
two such calls to a local server (the tokenizer's count of the new turn, then the chat
stream), which made HTTP the largest share of a busy daemon's work per ask
(docs/performance.md, many shells).  Every other URL keeps going through requests (proxies,
CA bundles, TLS).

The objects mimic the small part of requests' API the callers use (``status_code``,
``reason``, ``headers``, ``raw``, ``content``, ``json()``, ``close()``), so the failure
mapping (``transport.failures``: these raise the standard library's own exceptions, which it
already maps) and the body reading (``transport.chunks``) are the same for both.
"""
from __future__ import annotations

import functools
import http.client
import json as json_mod
import select
import socket
import threading
from typing import Any, Callable, Optional, Union
from urllib.parse import urlsplit

ENABLED = True  # tests that mock requests itself (``responses``) send loopback calls through it
_KEPT_PER_SERVER = 8

Timeout = Union[float, tuple[float, float]]


MAX_HEADERS = 100  # as http.client: a server that sends more is not one we talk to
MAX_LINE = 65536


class Headers(dict):
    """A reply's headers by lower-cased name (the first of repeated ones, as ``email`` gives):
    the ``get``/``get_all``/``items`` the callers and ``http.client`` use."""

    def get(self, name: str, default: Any = None) -> Any:
        return dict.get(self, name.lower(), default)

    def get_all(self, name: str, default: Any = None) -> Any:
        value = dict.get(self, name.lower())
        return default if value is None else [value]

    def __getitem__(self, name: str) -> Any:
        return dict.get(self, name.lower())


class _Reply(http.client.HTTPResponse):
    """``http.client``'s reply with its headers read as plain lines: the standard library
    parses them with the ``email`` package, most of the CPU of a short loopback reply."""

    def begin(self) -> None:
        if self.headers is not None:
            return
        while True:
            version, status, reason = self._read_status()
            headers = _read_headers(self.fp)
            if status != http.client.CONTINUE:
                break
        self.code = self.status = status
        self.reason = reason.strip()
        if version in ("HTTP/1.0", "HTTP/0.9"):
            self.version = 10
        elif version.startswith("HTTP/1."):
            self.version = 11
        else:
            raise http.client.UnknownProtocol(version)
        self.headers = self.msg = headers
        self.chunked = (headers.get("transfer-encoding") or "").lower() == "chunked"
        self.chunk_left = None
        self.will_close = self._check_close()
        self.length = None
        length = headers.get("content-length")
        if length and not self.chunked:
            try:
                self.length = int(length) if int(length) >= 0 else None
            except ValueError:
                self.length = None
        if status in (http.client.NO_CONTENT, http.client.NOT_MODIFIED) or 100 <= status < 200 \
                or self._method == "HEAD":
            self.length = 0
        if not self.will_close and not self.chunked and self.length is None:
            self.will_close = True


def _read_headers(fp: Any) -> Headers:
    headers = Headers()
    for _ in range(MAX_HEADERS + 1):
        line = fp.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise http.client.LineTooLong("header line")
        if line in (b"\r\n", b"\n", b""):
            return headers
        name, colon, value = line.decode("iso-8859-1").partition(":")
        if colon:
            headers.setdefault(name.strip().lower(), value.strip())
    raise http.client.HTTPException(f"got more than {MAX_HEADERS} headers")


class ConnectTimedOut(OSError):
    """No connection within the connect timeout (told apart from a read timeout)."""


@functools.lru_cache(maxsize=64)
def _address(url: str) -> Optional[tuple[str, int]]:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme != "http" or not (host in ("localhost", "::1") or host.startswith("127.")):
        return None
    try:
        return host, parts.port or 80
    except ValueError:  # a port that is not a number: requests names the problem
        return None


def applies(url: str) -> bool:
    """Is ``url`` plain http to this machine (and the direct path on)?"""
    return ENABLED and _address(url) is not None


class Response:
    """The reply of one call, shaped like the part of ``requests.Response`` callers read."""

    __slots__ = ("raw", "status_code", "reason", "headers", "_session", "_body")

    def __init__(self, raw: http.client.HTTPResponse, session: "Session") -> None:
        self.raw, self.status_code, self.reason, self.headers = raw, raw.status, raw.reason, raw.headers
        self._session = session
        self._body: Optional[bytes] = None

    @property
    def content(self) -> bytes:
        if self._body is None:
            self._body = self.raw.read()
        return self._body

    def json(self) -> Any:
        return json_mod.loads(self.content)

    def error_body(self) -> bytes:
        return self.raw.read(65536)

    def close(self) -> None:
        """A reply read to its end leaves the connection ready for the next call; one left
        half-read would hand the next call its leftovers, so that connection is closed."""
        if not self.raw.isclosed():
            self._session.close()
        self.raw.close()


class Session:
    """One keep-alive connection to one loopback server (requests keeps a pool per session;
    here the sessions are the pool, ``take``/``give``)."""

    def __init__(self, address: tuple[str, int]) -> None:
        self.address = address
        self._conn: Optional[http.client.HTTPConnection] = None

    def request(self, method: str, url: str, *, data: Optional[bytes] = None, json: Any = None,
                headers: Optional[dict] = None, timeout: Timeout = 30.0, stream: bool = False,
                watch: Optional[Callable[[socket.socket], None]] = None, **_: Any) -> Response:
        """Send and read the status line and headers; the body too unless ``stream``.
        ``watch`` gets the socket once the request is out, so a cancel can cut the wait.
        (``proxies``, ``verify``, ``allow_redirects``: nothing to do on loopback; a redirect
        is returned, never followed.)"""
        connect, read = timeout if isinstance(timeout, tuple) else (timeout, timeout)
        if json is not None:
            data = json_mod.dumps(json).encode("utf-8")
            headers = {"Content-Type": "application/json", **(headers or {})}
        conn = self._connection(connect)
        target = urlsplit(url)
        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
        try:
            conn.sock.settimeout(read)
            conn.request(method, path, body=data, headers=headers or {})
            if watch is not None:
                watch(conn.sock)
            response = Response(conn.getresponse(), self)
            if not stream:
                response.content  # noqa: B018 - read now: the connection is free for the next call
        except BaseException:
            self.close()
            raise
        return response

    def post(self, url: str, **kwargs: Any) -> Response:
        return self.request("POST", url, **kwargs)

    def _connection(self, connect_timeout: float) -> http.client.HTTPConnection:
        conn = self._conn
        if conn is not None and (conn.sock is None or _dropped(conn.sock)):
            conn.close()  # the server closed it while it was idle: a fresh one, not a failed call
            conn = None
        if conn is None:
            conn = http.client.HTTPConnection(*self.address, timeout=connect_timeout)
            conn.response_class = _Reply
            try:
                conn.connect()
            except TimeoutError:
                conn.close()
                raise ConnectTimedOut(f"no connection within {connect_timeout:g}s") from None
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return conn

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


def _dropped(sock: socket.socket) -> bool:
    """An idle keep-alive socket that is readable was closed by the server (or sent junk)."""
    try:
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True


_idle: dict[tuple[str, int], list[Session]] = {}
_lock = threading.Lock()


def take(url: str) -> Session:
    """A session for ``url``'s server (an idle kept-alive one when there is one)."""
    address = _address(url)
    assert address is not None, "take() is for loopback URLs (applies())"
    with _lock:
        idle = _idle.get(address)
        if idle:
            return idle.pop()
    return Session(address)


def give(session: Session) -> None:
    """Back to the pool after a reply read to its end (at most a few kept per server)."""
    with _lock:
        idle = _idle.setdefault(session.address, [])
        if len(idle) < _KEPT_PER_SERVER:
            idle.append(session)
            return
    session.close()
