"""transport.py: the cancellable-socket watch on real sockets, and the error
mapping for cases a loopback server cannot stage (streaming connect timeout,
TLS).  The end-to-end paths are covered through broker's API in test_broker."""
from __future__ import annotations

import socket
import ssl
import threading
import time

import pytest
import requests
import urllib3.exceptions as u3

from aish.net import transport
from aish.errors import BrokerError, ConnectTimeout, StreamCut, TlsError


def test_cancel_before_the_socket_is_known_cuts_it_on_attach():
    a, b = socket.socketpair()
    with a, b:
        watch = transport.Watch()
        watch.fire()
        watch.attach(a)
        a.settimeout(1.0)
        assert a.recv(1) == b""  # shut down, not blocked


def test_fire_wakes_a_read_blocked_in_another_thread():
    a, b = socket.socketpair()
    with a, b:
        a.settimeout(5.0)
        watch = transport.Watch()
        watch.attach(a)
        got: list = []
        reader = threading.Thread(target=lambda: got.append(a.recv(1)))
        reader.start()
        time.sleep(0.05)
        started = time.monotonic()
        watch.fire()
        reader.join(2.0)
        assert not reader.is_alive()
        assert got == [b""]
        assert time.monotonic() - started < 0.2


def test_detached_watch_leaves_the_socket_alone():
    a, b = socket.socketpair()
    with a, b:
        watch = transport.Watch()
        watch.attach(a)
        watch.detach()
        watch.fire()
        b.sendall(b"x")
        a.settimeout(1.0)
        assert a.recv(1) == b"x"


def test_connect_timeout_while_streaming_is_a_cut_not_a_connect_timeout():
    exc = requests.exceptions.ConnectionError(u3.ConnectTimeoutError("slow"))
    before = transport.transport_error(exc, "http://127.0.0.1:9", (1.0, 5.0))
    during = transport.transport_error(exc, "http://127.0.0.1:9", (1.0, 5.0), "abc", streaming=True)
    assert isinstance(before, ConnectTimeout)
    assert "connect timeout after 1s" in str(before)
    assert isinstance(during, StreamCut) and during.partial_text == "abc"
    assert "connect timeout" not in str(during)


def test_tls_and_bad_url_errors_name_the_cause():
    tls = requests.exceptions.SSLError(ssl.SSLError(1, "CERTIFICATE_VERIFY_FAILED"))
    err = transport.transport_error(tls, "https://127.0.0.1:9", (1.0, 1.0))
    assert isinstance(err, TlsError)
    assert "TLS error" in str(err) and "CERTIFICATE_VERIFY_FAILED" in str(err)
    bad = transport.transport_error(requests.exceptions.MissingSchema("x"), "127.0.0.1:8080", (1.0, 1.0))
    assert isinstance(bad, BrokerError) and "not a valid http(s) URL" in str(bad)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_loopback_never_goes_through_a_proxy(monkeypatch, host):
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:3128")
    transport.env_settings.cache_clear()
    try:
        proxies, _ = transport.env_settings(f"http://{host}:8080/v1/chat/completions")
        assert proxies == {}
    finally:
        transport.env_settings.cache_clear()


def test_sessions_are_reused_and_the_idle_pool_is_bounded(monkeypatch):
    monkeypatch.setattr(transport, "_idle", [])
    first = transport.take_session()
    transport.give_session(first)
    assert transport.take_session() is first
    sessions = [transport.take_session() for _ in range(10)]
    for session in sessions:
        transport.give_session(session)
    assert len(transport._idle) == 8
