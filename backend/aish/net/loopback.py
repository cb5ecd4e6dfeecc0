"""HTTP/1.1 to a server on this machine, on a plain socket.

Why not requests here: a call to a server on loopback needs nothing requests adds (loopback
is never proxied, plain ``http://`` has no certificates, no cookies are kept, no redirect is
followed), and requests with urllib3 cost about half a millisecond of CPU per call
(preparing and merging settings, header objects, urllib3's protocol checks).  An ask makes
two such calls to a local server (the tokenizer's count of the new turn, then the chat
stream), which made HTTP the largest share of a busy daemon's work per ask
(docs/performance.md, many shells).  Every other URL keeps going through requests (proxies,
CA bundles, TLS).

Why not the standard library's ``http.client`` either: importing it imports the ``email``
package (its header parser, with ``random``, ``calendar``, ``quopri``...) and ``ssl``,
~14 ms of CPU that a cold ``aish ask`` spent before its first byte; and its header parsing
was most of the CPU of a short reply.  What a call to a local model's server needs of
HTTP/1.1 is small: one request written at once, a status line, header lines, and a body
by ``Content-Length``, chunks, or the end of the connection.

The objects mimic the small part of requests' API the callers use (``status_code``,
``reason``, ``headers``, ``raw``, ``content``, ``json()``, ``close()``), so the failure
mapping (``transport.failures``: every error here is an ``OSError``, which it maps) and the
body reading (``transport.chunks``: ``raw.read1``) are the same for both.
"""
from __future__ import annotations

import functools
import json as json_mod
import re
import select
import socket
import struct
import threading
from typing import Any, Callable, Optional, Union
from urllib.parse import urlsplit

from aish.net.http11 import Body, ConnectTimedOut, InvalidURL
from aish.net.socket_reader import SocketReader, timed_out

ENABLED = True  # tests that mock requests itself (``responses``) send loopback calls through it
_KEPT_PER_URL = 8

Timeout = Union[float, tuple[float, float]]

class _Connection:
    """One socket with its buffered reader (``SocketReader``: a streamed reply's chunks that
    arrived together are read together).

    The socket blocks, and the kernel times its sends and receives out (``SO_SNDTIMEO``,
    ``SO_RCVTIMEO``): a socket with a Python timeout is non-blocking, and Python polls it before
    every send and receive and sets its mode with an ``ioctl`` whenever the timeout changes (the
    chat and the token count take different ones): three system calls more per call, each a
    hand-off of the GIL for every one of 50 shells asking at once.  A receive or send the kernel
    timed out raises ``TimeoutError``, as the socket's own timeout would (``timed_out``)."""

    __slots__ = ("sock", "fp", "timeout")

    def __init__(self, address: tuple[str, int], connect_timeout: float) -> None:
        host, port = address
        try:  # (the host as bytes: a str one is looked up through the idna codec, ~2 ms to import)
            self.sock = socket.create_connection((host.encode("ascii"), port),  # type: ignore[arg-type]
                                                 timeout=connect_timeout)
        except TimeoutError:
            raise ConnectTimedOut(f"no connection within {connect_timeout:g}s") from None
        try:
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # not TCP (a test's socket pair): nothing to tune
            pass
        self.timeout: Optional[float] = None  # what the kernel's timeouts are set to
        self.fp = SocketReader(self.sock)

    def set_timeout(self, seconds: float) -> None:
        """Each send and receive gives up after ``seconds`` (set in the kernel when it changes)."""
        if self.sock.gettimeout() is not None:  # (a new connection, or a drain's Python timeout)
            self.sock.settimeout(None)
            self.timeout = None
        if seconds == self.timeout:
            return
        if seconds <= 0 or seconds > _LONGEST:  # (0 is "never" to the kernel; a huge one overflows)
            self.sock.settimeout(seconds if seconds > 0 else 0.0)
        else:
            whole = int(seconds)
            value = struct.pack("@ll", whole, int((seconds - whole) * 1_000_000))
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, value)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, value)
        self.timeout = seconds

    def close(self) -> None:
        self.fp.close()
        self.sock.close()


_LONGEST = 365 * 86400.0  # seconds: longer timeouts stay Python's


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

    def __init__(self, raw: Body, session: "Session") -> None:
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


GATHER_FROM = 1 << 16  # a body this long is sent beside its head, not copied after it
_GATHER_AT_ONCE = 512  # buffers per sendmsg (IOV_MAX is 1024 on Linux)


def _send(sock: socket.socket, head: bytes, data: Union[bytes, list, None]) -> None:
    """The head and the body in one send: a long body (a long conversation's request, sent on
    every ask, in pieces: ``broker.encode_parts``) is handed to the kernel where it lies, not
    first copied onto the end of the head; whatever one send leaves is sent by the next."""
    try:
        _send_all(sock, head, data)
    except BlockingIOError as err:  # the kernel's send timeout (``_Connection.set_timeout``)
        raise timed_out(err) from None


def _send_all(sock: socket.socket, head: bytes, data: Union[bytes, list, None]) -> None:
    parts = data if isinstance(data, list) else [data] if data else []
    if sum(map(len, parts)) < GATHER_FROM:
        sock.sendall(b"".join([head, *parts]))
        return
    views = [memoryview(part) for part in (head, *parts) if part]
    while views:
        sent = sock.sendmsg(views[:_GATHER_AT_ONCE])
        done = 0
        while done < len(views) and sent >= len(views[done]):
            sent -= len(views[done])
            done += 1
        del views[:done]
        if sent:
            views[0] = views[0][sent:]


_CONTROL = re.compile(r"[\x00-\x20\x7f]")  # what a request line's path may not hold (as http.client)


def _request_head(method: str, path: str, host: str, headers: dict, length: Optional[int]) -> bytes:
    if _CONTROL.search(path):
        raise InvalidURL(f"URL can't contain control characters: {path!r}")
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Accept-Encoding: identity"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    for name, value in headers.items():
        value = str(value)
        if "\r" in value or "\n" in value or "\r" in name or "\n" in name or ":" in name:
            raise ValueError(f"Invalid header {name!r}")  # (as http.client refuses it)
        lines.append(f"{name}: {value}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class Session:
    """One keep-alive connection to one loopback server (requests keeps a pool per session;
    here the sessions are the pool, ``take``/``give``, kept per URL: ``key``)."""

    def __init__(self, address: tuple[str, int], key: str = "") -> None:
        self.address = address
        self.key = key  # the URL it is kept for (``give``)
        self._conn: Optional[_Connection] = None
        host, port = address
        host = f"[{host}]" if ":" in host else host
        self._host = host if port == 80 else f"{host}:{port}"

    def request(self, method: str, url: str, *, data: Union[bytes, list, None] = None, json: Any = None,
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
        if isinstance(data, str):
            data = data.encode("utf-8")
        target = urlsplit(url)
        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
        length = (sum(map(len, data)) if isinstance(data, list) else len(data)) if data is not None else (
            0 if method in ("POST", "PUT", "PATCH") else None)
        head = _request_head(method, path, self._host, headers or {}, length)
        conn = self._connection(connect)
        try:
            conn.set_timeout(read)
            _send(conn.sock, head, data)
            if watch is not None:
                watch(conn.sock)
            response = Response(Body(conn, method), self)
            if not stream:
                response.content  # noqa: B018 - read now: the connection is free for the next call
        except BaseException:
            self.close()
            raise
        return response

    def get(self, url: str, **kwargs: Any) -> Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Response:
        return self.request("POST", url, **kwargs)

    def _connection(self, connect_timeout: float) -> _Connection:
        conn = self._conn
        if conn is not None and _dropped(conn.sock):
            conn.close()  # the server closed it while it was idle: a fresh one, not a failed call
            conn = None
        if conn is None:
            conn = _Connection(self.address, connect_timeout)
            self._conn = conn
        return conn

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


def _dropped(sock: socket.socket) -> bool:
    """An idle keep-alive socket that is readable was closed by the server (or sent junk)."""
    try:
        return sock.fileno() < 0 or bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True


_idle: dict[str, list[Session]] = {}  # by the URL each was taken for
_lock = threading.Lock()


def take(url: str) -> Session:
    """A session for ``url``'s server (an idle kept-alive one when there is one).  Sessions are
    kept per URL, not per server: a chat's connection and a token count's then keep their own
    timeouts (the model's read timeout, the count's seconds), set once in the kernel, where one
    connection serving both in turn set both on every call (``_Connection.set_timeout``)."""
    address = _address(url)
    assert address is not None, "take() is for loopback URLs (applies())"
    with _lock:
        idle = _idle.get(url)
        if idle:
            return idle.pop()
    return Session(address, url)


def give(session: Session) -> None:
    """Back to the pool after a reply read to its end (at most a few kept per URL)."""
    with _lock:
        idle = _idle.setdefault(session.key, [])
        if len(idle) < _KEPT_PER_URL:
            idle.append(session)
            return
    session.close()
