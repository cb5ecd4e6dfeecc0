"""requests sessions for servers elsewhere: imported only when a call leaves this machine.

requests with urllib3 (and what they pull in: charset_normalizer, idna, the email package,
ssl) is the largest import a daemon can make, longer than the rest of an ask's path; a
daemon that only talks to a server on loopback (``loopback.py``) never needs it, so its
first answer after a cold start does not wait for it.  This is the one module that reaches
into requests' and urllib3's internals (connection classes, pool classes, the raw
response); ``transport.py`` keeps the library-neutral part (watch, body bytes, the failure
boundary) and comes here for a session, a proxy setting or the library's exception types.
"""
from __future__ import annotations

import socket
import threading
from typing import Any, Optional

import requests
import urllib3.exceptions as u3
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

# the library's failures, as ``transport.transport_error`` tells them apart
FAILURES = (requests.RequestException, u3.HTTPError)
INVALID_URL = (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
               requests.exceptions.InvalidSchema, u3.LocationParseError)
NAME_RESOLUTION = (getattr(u3, "NameResolutionError", socket.gaierror),)
CONNECT_TIMEOUT = (requests.exceptions.ConnectTimeout,)
READ_TIMEOUT = (requests.exceptions.ReadTimeout, u3.ReadTimeoutError)
TLS = (requests.exceptions.SSLError,)
PROTOCOL = (u3.ProtocolError,)


def connect_timed_out(err: BaseException) -> bool:
    """urllib3 files every failed connect (NewConnectionError) under ConnectTimeoutError."""
    return isinstance(err, u3.ConnectTimeoutError) and not isinstance(err, u3.NewConnectionError)


_local = threading.local()  # .watch: the transport.Watch of the call this thread is making


class _WatchedMixin:
    def getresponse(self, *args, **kwargs):
        watch = getattr(_local, "watch", None)
        if watch is not None:
            watch.attach(self.sock)  # type: ignore[attr-defined]
        return super().getresponse(*args, **kwargs)  # type: ignore[misc]


class _HTTPConnection(_WatchedMixin, HTTPConnection):
    pass


class _HTTPSConnection(_WatchedMixin, HTTPSConnection):
    pass


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class _Adapter(HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}


def new_session() -> requests.Session:
    """A keep-alive session that takes proxies/CA only from ``transport.env_settings``, never
    ~/.netrc."""
    session = requests.Session()
    session.trust_env = False  # proxies/CA read once per URL in env_settings
    adapter = _Adapter(pool_connections=4, pool_maxsize=4)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def watched_post(session: Any, url: str, watch: Any, **kwargs: Any) -> Any:
    """``session.post`` with the call's socket given to ``watch.attach`` as soon as it is sent."""
    _local.watch = watch
    try:
        resp = session.post(url, **kwargs)
    finally:
        _local.watch = None
    if watch.sock is None:  # through a proxy, or a test double: find it on the response
        watch.attach(response_socket(resp))
    return resp


def environ_proxies(url: str) -> dict:
    return requests.utils.get_environ_proxies(url)


def response_socket(resp: Any) -> Optional[socket.socket]:
    """The socket under a requests response (through a proxy, or a test double)."""
    conn = getattr(resp.raw, "_connection", None)
    sock = getattr(conn, "sock", None)
    if sock is None:
        fp = getattr(getattr(resp.raw, "_fp", None), "fp", None)
        sock = getattr(getattr(fp, "raw", None), "_sock", None)
    return sock if isinstance(sock, socket.socket) else None
