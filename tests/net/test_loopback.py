"""net/loopback.py: calls to a server on this machine skip requests, on real sockets."""
from __future__ import annotations

import pytest
import requests

from aish.config.schema import ModelConfig, TokenizeConfig
from aish.llm import broker
from aish.llm.events import TextDelta
from aish.llm.tokens import TokenCounter
from aish.net import http11, loopback
from aish.net.socket_reader import SocketReader
from tests.safety.forms import each_form
from tests.stub_server import Reply, StubServer


@pytest.fixture
def no_requests(monkeypatch):
    """Any call that reaches requests fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("a loopback call went through requests")

    monkeypatch.setattr(requests.Session, "send", refuse)


def text(model: ModelConfig) -> str:
    return "".join(e.text for e in broker.chat_stream(model, [{"role": "user", "content": "hi"}])
                   if type(e) is TextDelta)


def test_only_plain_http_to_this_machine_is_direct():
    assert loopback.applies("http://127.0.0.1:8080/v1/chat/completions")
    assert loopback.applies("http://localhost/tokenize") and loopback.applies("http://[::1]:9/x")
    assert not loopback.applies("https://127.0.0.1:8080/x")  # TLS: requests (CA bundles)
    assert not loopback.applies("http://192.168.1.9:8080/x")  # another machine: requests (proxies)
    assert not loopback.applies("http://model.test/x")


def test_asks_and_counts_to_a_local_server_never_touch_requests_and_share_one_connection(no_requests, monkeypatch):
    """... and each connection keeps its timeouts: one kept connection served the chat (the
    model's read timeout) and the count (its own seconds) in turn, and had its kernel timeouts set
    again on every call (two system calls)."""
    changes: list = []
    real = loopback._Connection.set_timeout

    def set_timeout(conn, seconds):
        if conn.timeout != seconds:
            changes.append(seconds)
        real(conn, seconds)

    monkeypatch.setattr(loopback._Connection, "set_timeout", set_timeout)
    with StubServer(default=Reply(text="hello there", chunk_size=3)) as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        counter = TokenCounter(TokenizeConfig(use_endpoint=True))
        for i in range(5):
            assert text(model) == "hello there"
            assert counter.count(model, f"question number {i}") == 3
        assert stub.tokenize_calls == 5 and len(stub.requests) == 5
        assert stub.connections <= 2  # one kept alive for the chats, one for the counts
        assert len(changes) == 2  # each connection's own timeout, set once


def test_a_kept_connection_the_server_closed_is_replaced_not_a_failure(no_requests):
    with StubServer(default=Reply(text="ok")) as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        assert text(model) == "ok"
        idle = loopback._idle[model.chat_url]
        assert len(idle) == 1
        idle[0]._conn.sock.shutdown(2)  # as a server's idle timeout would
        assert text(model) == "ok"


def test_a_reply_left_half_read_closes_its_connection(no_requests):
    with StubServer(default=Reply(text="x" * 400, chunk_size=4, delay=0.001)) as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        stream = broker.chat_stream(model, [{"role": "user", "content": "hi"}])
        next(e for e in stream if type(e) is TextDelta)
        stream.close()  # the consumer stopped: the connection must not serve the next call
        stub.wait_disconnects(1)
        stub.default = Reply(text="fresh")
        assert text(model) == "fresh"


def test_replies_are_read_without_the_email_package(no_requests, monkeypatch):
    """http.client parses a reply's headers with ``email``: most of the CPU of a short loopback
    reply (a tokenize count, a chat stream's start) when fifty shells ask at once."""
    import http.client
    import threading

    parse, client = http.client.parse_headers, threading.current_thread()

    def refuse(*args, **kwargs):  # (the stub, a server in other threads, parses requests with it)
        assert threading.current_thread() is not client, "a reply's headers parsed by the email package"
        return parse(*args, **kwargs)

    monkeypatch.setattr(http.client, "parse_headers", refuse)
    with StubServer(default=Reply(text="hello there", chunk_size=3)) as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        counter = TokenCounter(TokenizeConfig(use_endpoint=True))
        assert text(model) == "hello there" and text(model) == "hello there"  # chunked, kept alive
        assert counter.count(model, "three words here") == 3  # a body of a Content-Length
        session = loopback.take(stub.url)
        reply = session.request("GET", stub.url + "/v1/models")
        assert reply.status_code == 200 and reply.json()["data"]
        assert reply.headers.get("content-type") == reply.headers.get("Content-Type") == "application/json"
        assert reply.headers.get("X-Not-There", "none") == "none"


class _Conn:
    """A connection whose bytes are ``raw`` (what ``http11.Body`` reads)."""

    def __init__(self, raw: bytes) -> None:
        import io

        self.fp = io.BufferedReader(io.BytesIO(raw))
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_headers_as_a_server_may_send_them():
    raw = (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
           b"Set-Cookie: a=1\r\nset-cookie: b=2\r\nContent-Length: 5\r\nX-Odd:  spaced value \r\n\r\nhello")
    reply = http11.Body(_Conn(raw), "GET")
    assert (reply.status, reply.reason, reply.version) == (200, "OK", 11)
    assert reply.headers.get("set-cookie") == "a=1" and reply.headers["x-odd"] == "spaced value"
    assert reply.read() == b"hello" and not reply.will_close and reply.isclosed()


@each_form("raw, body, closes", [
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n", b"hello world", False),
    (b"HTTP/1.0 200 OK\r\n\r\nto the end", b"to the end", True),  # no length: the end of the connection
    (b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc", b"abc", True),
    (b"HTTP/1.1 204 No Content\r\n\r\n", b"", False),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", b"", False),
])
def test_bodies_end_where_the_server_says(raw, body, closes):
    conn = _Conn(raw)
    reply = http11.Body(conn, "GET")
    assert reply.read() == body and reply.isclosed() and conn.closed is closes


def test_a_streamed_body_comes_a_chunk_at_a_time():
    raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
    reply = http11.Body(_Conn(raw), "POST")
    assert [reply.read1(), reply.read1(), reply.read1()] == [b"abc", b"de", b""]


@each_form("raw", [
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nonly part",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
])
def test_a_body_cut_short_is_an_error_not_an_end(raw):
    """A cut (or a cancel that shut the socket) is never taken for the end of the reply."""
    with pytest.raises(http11.IncompleteRead):
        http11.Body(_Conn(raw), "GET").read()


@each_form("raw, error", [
    (b"", http11.RemoteDisconnected),
    (b"SSH-2.0-OpenSSH_9.2\r\n", http11.BadStatusLine),
    (b"HTTP/1.1 2000 OK\r\n\r\n", http11.BadStatusLine),
    (b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 101 + b"\r\n", http11.ProtocolError),
    (b"HTTP/1.1 200 OK\r\nX: " + b"y" * 70000 + b"\r\n\r\n", http11.LineTooLong),
])
def test_what_is_not_http_is_refused_as_an_oserror(raw, error):
    with pytest.raises(error) as caught:
        http11.Body(_Conn(raw), "GET")
    assert isinstance(caught.value, OSError)  # the failure map takes it as a broken connection


def test_a_header_that_would_split_the_request_is_refused():
    with pytest.raises(ValueError):
        loopback._request_head("POST", "/x", "127.0.0.1:9", {"Authorization": "Bearer a\r\nX-Evil: 1"}, 0)
    with pytest.raises(loopback.InvalidURL):
        loopback._request_head("GET", "/x y", "127.0.0.1:9", {}, None)


def test_a_server_that_closes_before_replying_is_a_disconnect():
    """A request the server reads and then drops: ``Disconnected``, the same line as before."""
    import socket
    import threading

    from aish.errors import Disconnected
    from aish.net.transport import failures

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def drop():
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.close()

    threading.Thread(target=drop, daemon=True).start()
    url = f"http://127.0.0.1:{port}/tokenize"
    with pytest.raises(Disconnected):
        with failures(url, (1.0, 1.0)):
            loopback.take(url).post(url, json={"content": "x"}, timeout=1.0)
    listener.close()


def test_a_long_body_is_sent_whole_beside_its_head():
    """A body over ``GATHER_FROM`` goes out in one gathering send (no copy after the head); what
    the server reads is the head then the body, however the kernel splits the send."""
    import socket as socket_mod
    import threading

    left, right = socket_mod.socketpair()
    left.setsockopt(socket_mod.SOL_SOCKET, socket_mod.SO_SNDBUF, 4096)  # partial sends, surely
    left.settimeout(10)
    head, body = b"POST / HTTP/1.1\r\n\r\n", bytes(range(256)) * 4096  # 1 MiB
    got = bytearray()

    def read() -> None:
        while len(got) < 2 * (len(head) + len(body)):
            chunk = right.recv(65536)
            if not chunk:
                return
            got.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        assert len(body) >= loopback.GATHER_FROM
        loopback._send(left, head, body)
        pieces = [body[:1], body[1:300_000], b"", body[300_000:]]  # a body in pieces (encode_parts)
        loopback._send(left, head, pieces)
        loopback._send(left, b"GET / HTTP/1.1\r\n\r\n", None)
        reader.join(10)
    finally:
        left.close()
        right.close()
    one = len(head) + len(body)
    assert bytes(got[:one]) == head + body and bytes(got[one:2 * one]) == head + body


class _OneReply:
    """A loopback server that answers one request with ``first`` in one write, then with
    ``rest`` once the test calls ``more()``: what a client has received is exactly ``first``."""

    def __init__(self, first: bytes, rest: bytes) -> None:
        import socket
        import threading

        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._more = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(first, rest), daemon=True)
        self._thread.start()

    def _serve(self, first: bytes, rest: bytes) -> None:
        conn, _ = self._listener.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            conn.sendall(first)
            self._more.wait(10)
            conn.sendall(rest)

    def more(self) -> None:
        self._more.set()

    def close(self) -> None:
        self._more.set()
        self._thread.join(10)
        self._listener.close()


HEAD = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"


@pytest.mark.parametrize("first, rest, got, whole", [
    (HEAD + b"3\r\nabc\r\n2\r\nde\r\n4\r\nfg", b"hi\r\n0\r\n\r\n", b"abcde", b"abcdefghi"),  # a chunk half here
    (HEAD + b"3\r\nabc\r\n2\r\nde\r\n1", b"\r\nf\r\n0\r\n\r\n", b"abcde", b"abcdef"),  # a size line half here
    (HEAD + b"3\r\nabc\r\n2\r\nde\r\n", b"1\r\nf\r\n0\r\n\r\n", b"abcde", b"abcdef"),
    (HEAD + b"3\r\nabc\r\n2\r\nde\r\n0\r\n", b"\r\n", b"abcde", b"abcde"),  # the end half here
], ids=["chunk-half-here", "size-line-half-here", "next-chunk-not-here", "end-half-here"])
def test_a_streamed_body_comes_as_every_whole_chunk_received(no_requests, first, rest, got, whole):
    """One read gives every chunk one receive brought (a stream's events that arrived together
    are parsed, and their text written to the shell, together: issue 26, many shells), and
    never waits for a chunk still on its way."""
    server = _OneReply(first, rest)
    try:
        session = loopback.take(server.url)
        reply = session.request("POST", server.url + "/v1/chat/completions", data=b"{}", stream=True,
                                timeout=5.0)
        assert reply.raw.read1() == got  # without the rest: it comes only after this read
        server.more()
        assert got + reply.raw.read() == whole and reply.raw.isclosed()
    finally:
        server.close()


def _chunked(pieces: list, rng) -> bytes:
    """A chunked body of ``pieces`` as servers write it: sizes in either case, now and then an
    extension or a bare LF, trailers at the end."""
    out = []
    for piece in pieces:
        size = f"{len(piece):x}"
        size = size.upper() if rng.random() < 0.3 else size
        ext = b";x=1" if rng.random() < 0.1 else b""
        end = b"\n" if rng.random() < 0.1 else b"\r\n"
        out.append(size.encode() + ext + end + piece + end)
    out.append(b"0\r\nX-Trailer: t\r\n\r\n" if rng.random() < 0.5 else b"0\r\n\r\n")
    return HEAD + b"".join(out)


def test_whole_chunks_taken_together_are_the_body_a_chunk_at_a_time_gives():
    """Every chunk already received taken in one pass gives the bytes the careful reads give,
    for any sizes, extensions, line ends and trailers, and ends the body where it ends."""
    import random
    import socket

    rng = random.Random(26)
    for _ in range(200):
        pieces = [bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))) for _ in range(rng.randint(1, 30))]
        raw = _chunked(pieces, rng)
        left, right = socket.socketpair()
        with left, right:
            left.sendall(raw)
            right.settimeout(5)
            conn = _Conn(b"")
            conn.fp = SocketReader(right)
            reply = http11.Body(conn, "POST")
            got = []
            while data := reply.read1(rng.choice([7, 64, 65536])):
                got.append(data)
            assert b"".join(got) == b"".join(pieces) == http11.Body(_Conn(raw), "POST").read()
            assert reply.isclosed()


def test_a_kept_connection_waits_in_the_kernel_not_in_a_poll_before_each_call(no_requests):
    """A socket with a Python timeout is non-blocking: Python polled it before every send and
    receive, and set its mode with an ioctl whenever the timeout changed (the chat's and the
    token count's differ): system calls, each a hand-off of the GIL at 50 shells.  It blocks now,
    and the kernel times it out (SO_RCVTIMEO, SO_SNDTIMEO), set only when the timeout changes."""
    import socket
    import struct

    with StubServer(default=Reply(text="hello")) as stub:
        session = loopback.take(stub.url + "/tokenize")
        try:
            for timeout in (2.5, 30.0, 2.5):
                assert session.post(stub.url + "/tokenize", json={"content": "x"}, timeout=(1.0, timeout)).json()
                sock = session._conn.sock
                assert sock.gettimeout() is None
                for option in (socket.SO_RCVTIMEO, socket.SO_SNDTIMEO):
                    seconds, micros = struct.unpack("@ll", sock.getsockopt(socket.SOL_SOCKET, option, 16))
                    assert seconds + micros / 1e6 == pytest.approx(timeout, abs=0.01)
        finally:
            session.close()


def test_a_server_that_reads_nothing_times_the_send_out(no_requests):
    """The kernel's send timeout ends a send into a full socket as a read timeout does."""
    import socket
    import time

    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (its connections' window: small)
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        url = f"http://127.0.0.1:{server.getsockname()[1]}/v1/chat/completions"
        session = loopback.take(url)
        start = time.monotonic()
        with pytest.raises(TimeoutError):
            session.post(url, data=b"x" * (1 << 20), timeout=(1.0, 0.1))
        assert time.monotonic() - start < 3
        session.close()


class _Arrived:
    """A socket whose bytes have all arrived: ``SocketReader`` over it shows them at once."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    def recv(self, size: int) -> bytes:
        data, self.raw = self.raw[:size], self.raw[size:]
        return data


def _arrived_conn(raw: bytes) -> _Conn:
    """A connection whose reply has all arrived, read through ``SocketReader``."""
    conn = _Conn(b"")
    conn.fp = SocketReader(_Arrived(raw))
    return conn


@each_form("head", [
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n"
    b"Content-Length: 5\r\nX-Odd:  spaced value \r\nno colon here\r\n: empty name\r\n\r\n",
    b"HTTP/1.1 200 OK\r\n\r\n",
    b"HTTP/1.1 200 OK\nContent-Length: 5\nX-A: 1\n\n",  # bare LFs: read line by line
    b"HTTP/1.1 200 OK\r\nContent-Length: 5\nX-A: 1\r\n\r\n",  # one bare LF among CRLFs
    b"HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 5\r\n\r\n",  # a lone CR inside a value
])
def test_headers_that_arrived_whole_are_read_as_line_by_line(head):
    """The header block taken at once when it has arrived gives what the lines read one by one
    give (the line-by-line read is what a reader without a look at its buffer gets)."""
    raw = head + b"hello"
    whole = http11.Body(_arrived_conn(raw), "GET")
    by_line = http11.Body(_Conn(raw), "GET")
    assert dict(whole.headers) == dict(by_line.headers)
    assert whole.read() == by_line.read()


def test_a_reply_head_that_arrived_whole_costs_no_line_read_per_header(monkeypatch):
    """Each header was a line read and a check (about half of a token count's reply's CPU)."""
    raw = (b"HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nContent-Type: application/json\r\n"
           b"Access-Control-Allow-Origin: *\r\nKeep-Alive: timeout=5\r\nContent-Length: 2\r\n\r\n{}")
    reads: list = []
    real = SocketReader.readline
    monkeypatch.setattr(SocketReader, "readline", lambda self, *a: reads.append(a) or real(self, *a))

    reply = http11.Body(_arrived_conn(raw), "POST")
    assert reply.headers.get("content-length") == "2" and reply.read() == b"{}"
    assert len(reads) == 1  # the status line

