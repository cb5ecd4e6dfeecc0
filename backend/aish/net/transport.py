"""The HTTP plumbing under ``broker.py``: pooled sessions, cancellable sockets,
and the translation of requests/urllib3 failures into aish errors.

Kept apart from the broker so that it reads as the chat-completion protocol alone.
requests itself is behind ``pooled.py``, imported by the first call that leaves this
machine: a daemon that only talks to a server on loopback never loads it (its cold
start would wait ~100 ms for it).

Why it looks like this:
- Cancel must cut a *blocking* read within 200 ms, which no flag check can do:
  the call's socket is recorded the moment the request is sent (a watched
  connection class, so even the wait for the status line can be cut) and the
  cancel callback shuts it down from the cancelling thread.
- Latency is a feature: sessions are pooled (keep-alive), proxies/CA settings
  are read once per URL, and after ``[DONE]`` the chunked terminator is drained
  so the connection goes back to the pool instead of being closed.
- Failures become the typed errors of ``aish.errors`` (``ConnectRefused``,
  ``ReadTimeout``, ...) with the documented one-line messages; callers decide
  by type.  The mapping happens at one boundary: callers wrap each HTTP step in
  ``with failures(...)`` (as httpx wraps httpcore in ``map_httpcore_exceptions``),
  so no requests exception ever leaves this package and no caller maps one.
"""
from __future__ import annotations

import contextlib
import functools
import os
import socket
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Union
from urllib.parse import urlparse

from aish.net import http11, loopback
from aish.errors import (AishError, BrokerError, Cancelled, ConnectFailed, ConnectRefused, ConnectTimeout,
                         Disconnected, DnsFailure, ReadTimeout, StreamCut, TlsError)

if TYPE_CHECKING:
    import requests

    # for type hints outside this package, which never imports requests
    Response = Union[requests.Response, loopback.Response]
else:
    Response = Any

# What a request or a body read may raise without requests (a loopback call: every error of
# ``loopback`` is an OSError); once a call went through requests, its library's failures and
# the standard library's ``http.client`` ones under them too (``_library``, ``_is_failure``).
ERRORS: tuple = (OSError,)
STREAM_ERRORS: tuple = ERRORS

_DRAIN_TIMEOUT = 0.25  # after [DONE], how long the chunked terminator may take


# ---------------------------------------------------------------- cancellation

class Watch:
    """The socket of one call, so that another thread can cut a blocking read."""

    __slots__ = ("sock", "cancelled", "_lock")

    def __init__(self) -> None:
        self.sock: Optional[socket.socket] = None
        self.cancelled = False
        self._lock = threading.Lock()

    def attach(self, sock: Optional[socket.socket]) -> None:
        with self._lock:
            self.sock = sock
            if sock is not None and self.cancelled:
                _shutdown(sock)

    def fire(self) -> None:
        with self._lock:
            self.cancelled = True
            if self.sock is not None:
                _shutdown(self.sock)

    def detach(self) -> None:
        with self._lock:
            self.sock = None

    def settimeout(self, seconds: float) -> None:
        with self._lock:
            if self.sock is not None:
                self.sock.settimeout(seconds)


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)  # wakes a recv blocked in another thread; close() would not
    except OSError:
        pass


def watched_post(session: Any, url: str, watch: Watch, **kwargs) -> Any:
    """``session.post`` with the call's socket recorded in ``watch`` as soon as it is sent.

    Raises what requests (or ``loopback``) raises (``failures`` maps it); the caller
    decides whether a failure was really a cancel before mapping it.
    """
    if isinstance(session, loopback.Session):
        return session.post(url, watch=watch.attach, **kwargs)
    if isinstance(kwargs.get("data"), list):  # a body in pieces (``broker.encode_parts``)
        kwargs["data"] = b"".join(kwargs["data"])
    from aish.net import pooled

    return pooled.watched_post(session, url, watch, **kwargs)


# ---------------------------------------------------------------- body bytes

def chunks(raw, eof: list) -> Iterator[bytes]:
    """Bytes as they arrive: one HTTP chunk at a time, or whatever one recv returns.

    Sets ``eof[0]`` once the body ended, so a half event can be told from garbage.
    """
    chunked_reads = getattr(raw, "supports_chunked_reads", None)  # urllib3's; loopback's has none
    if getattr(raw, "chunked", False) and chunked_reads is not None and chunked_reads():
        yield from raw.read_chunked(None, decode_content=True)
    elif hasattr(raw, "read1"):
        read1 = raw.read1
        while True:
            data = read1(65536)
            if not data:
                break
            yield data
    else:  # pragma: no cover - urllib3 1.x without read1
        yield from raw.stream(1024, decode_content=True)
    eof[0] = True


def drain(source: Iterator[bytes], watch: Watch, raw: Any = None) -> None:
    """Read the end of the chunked body so the connection can be reused (a loopback reply whose
    end came with its last event is over already: no timeout to set, a system call saved)."""
    try:
        if not (isinstance(raw, http11.Body) and raw.isclosed()):
            watch.settimeout(_DRAIN_TIMEOUT)
        for count, _ in enumerate(source):
            if count > 16:  # a server that keeps talking after [DONE]: just close it
                return
    except Exception:  # noqa: BLE001 - a failed drain only costs the keep-alive
        return


def error_body(resp: Any) -> bytes:
    """The start of an error reply's body, or nothing if even that fails."""
    try:
        if isinstance(resp, loopback.Response):
            return resp.error_body()
        return resp.raw.read(65536, decode_content=True) or b""
    except Exception:  # noqa: BLE001 - the status alone still says what happened
        return b""


# ---------------------------------------------------------------- sessions

_idle: list = []  # one call owns a session at a time; list ops are atomic


def take_session(url: str = "") -> Any:
    """A pooled session for ``url`` (hand it back with ``give_session``): for a server on this
    machine a direct one (``loopback.py``), else a requests session."""
    if url and loopback.applies(url):
        return loopback.take(url)
    try:
        return _idle.pop()
    except IndexError:
        return new_session()


def new_session() -> Any:
    """A requests session (``pooled.py``: requests is imported on the first call that leaves
    this machine)."""
    from aish.net import pooled

    return pooled.new_session()


def give_session(session: Any) -> None:
    if isinstance(session, loopback.Session):
        loopback.give(session)
    elif len(_idle) < 8:
        _idle.append(session)
    else:
        session.close()


@functools.lru_cache(maxsize=64)
def env_settings(url: str) -> tuple[dict, Union[bool, str]]:
    """``(proxies, verify)`` for a URL; loopback never goes through a proxy."""
    host = (urlparse(url).hostname or "").lower()
    loopback = host in ("localhost", "::1") or host.startswith("127.")
    if loopback:
        proxies: dict = {}
    else:
        from aish.net import pooled

        proxies = pooled.environ_proxies(url)
    verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    return proxies, verify


# ---------------------------------------------------------------- errors

def cut_error(endpoint: str, partial: str) -> StreamCut:
    arrived = f"{len(partial)} characters of text arrived" if partial else "no text arrived"
    return StreamCut(f"stream from {endpoint} was cut short ({arrived}; no [DONE] or "
                     "finish_reason)", partial_text=partial)


def _causes(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    todo = [exc]
    while todo and len(seen) < 32:
        err = todo.pop()
        if id(err) in seen:
            continue
        seen.add(id(err))
        yield err
        nested = [err.__cause__, err.__context__, getattr(err, "reason", None), *err.args]
        todo.extend(e for e in nested if isinstance(e, BaseException))


def _library() -> Any:
    """``pooled`` (requests' and urllib3's exception types) once either library is loaded; None
    before: no exception of theirs can exist yet, and a loopback-only daemon never loads them."""
    if "requests" not in sys.modules and "urllib3" not in sys.modules:
        return None
    from aish.net import pooled

    return pooled


def _tls_errors() -> tuple:
    ssl = sys.modules.get("ssl")  # (an SSLError needs ssl loaded; plain loopback HTTP never does)
    return (ssl.SSLError,) if ssl is not None else ()


def transport_error(exc: BaseException, endpoint: str, timeouts: tuple[float, float],
                    partial: str = "", streaming: bool = False) -> AishError:
    """The aish error for a requests/urllib3/socket failure talking to ``endpoint``.

    ``streaming`` means the reply had begun: a connect timeout cannot have
    happened, and anything unexplained is a cut keeping ``partial`` text.
    The messages are the documented ones (docs/routing.md); the class is what
    callers decide on.
    """
    chain = list(_causes(exc))
    lib = _library()

    def has(*types: type) -> bool:
        return any(isinstance(err, types) for err in chain)

    if lib is not None and has(*lib.INVALID_URL):
        return BrokerError(f"endpoint '{endpoint}' is not a valid http(s) URL",
                           hint="set it like endpoint = \"http://127.0.0.1:8080\"")
    if has(socket.gaierror, *(lib.NAME_RESOLUTION if lib else ())):
        host = urlparse(endpoint).hostname or endpoint
        return DnsFailure(f"Couldn't resolve host {host}")
    if has(ConnectionRefusedError):
        return ConnectRefused(f"Connection refused ({endpoint})")
    connect_timeout = any(isinstance(e, loopback.ConnectTimedOut) or lib is not None and lib.connect_timed_out(e)
                          for e in chain)
    if (connect_timeout or lib is not None and has(*lib.CONNECT_TIMEOUT)) and not streaming:
        return ConnectTimeout(f"Timeout was reached (connect timeout after {timeouts[0]:g}s, {endpoint})")
    if has(socket.timeout, *(lib.READ_TIMEOUT if lib else ())):
        arrived = f"; {len(partial)} characters had arrived" if partial else ""
        return ReadTimeout(f"Timeout was reached (read timeout after {timeouts[1]:g}s, "
                           f"{endpoint}){arrived}", partial_text=partial)
    tls = _tls_errors()
    if has(*tls, *(lib.TLS if lib else ())):
        reason = next((str(e) for e in chain if tls and isinstance(e, tls)), "handshake failed")
        return TlsError(f"TLS error with {endpoint}: {reason}")
    if streaming:
        return cut_error(endpoint, partial)
    if has(ConnectionResetError, *(lib.PROTOCOL if lib else ())):  # (http.client's RemoteDisconnected is one)
        return Disconnected(f"Server closed the connection before replying ({endpoint})")
    why = next((e.strerror for e in chain if isinstance(e, OSError) and e.strerror), None)
    return ConnectFailed(f"Could not connect to {endpoint}: {why or type(exc).__name__}")


def _is_failure(exc: BaseException) -> bool:
    """A transport failure (mapped at the boundary), not a bug to let through."""
    if isinstance(exc, STREAM_ERRORS):
        return True
    client = sys.modules.get("http.client")  # (loaded with requests; a loopback call never loads it)
    if client is not None and isinstance(exc, client.HTTPException):
        return True
    lib = _library()
    return lib is not None and isinstance(exc, lib.FAILURES)


@contextlib.contextmanager
def failures(endpoint: str, timeouts: tuple[float, float], *, cancel: Any = None,
             partial: Optional[Callable[[], str]] = None, streaming: bool = False) -> Iterator[None]:
    """The one boundary: a requests/urllib3/socket failure inside becomes its aish error.

    ``cancel`` (a CancelToken): a failure after a cancel is the cancel (its watch shut
    the socket), so ``Cancelled`` is raised instead.  ``partial()`` is the text that had
    arrived, kept on the error; ``streaming`` says the reply had begun (see
    ``transport_error``)."""
    try:
        yield
    except Exception as exc:
        if not _is_failure(exc):
            raise
        if cancel is not None and cancel.cancelled:
            raise Cancelled() from None
        raise transport_error(exc, endpoint, timeouts, partial() if partial else "",
                              streaming=streaming) from None
