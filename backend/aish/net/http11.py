"""HTTP/1.1 replies read from a socket: the status line, the header lines, and a body framed
by ``Content-Length``, by chunks, or by the end of the connection.

Why its own module: ``loopback`` decides which calls go the direct way and keeps their
connections; reading what a server sends back is the part that must hold up against every
server users run (llama.cpp, Ollama, vLLM, gateways), so it stands apart and is tested on
raw bytes (tests/net/test_loopback.py).  Every error here is an ``OSError``, which
``transport.failures`` maps, as it does requests' own.
"""
from __future__ import annotations

from typing import Any, Optional, Protocol

MAX_HEADERS = 100  # as http.client: a server that sends more is not one we talk to
MAX_LINE = 65536
_READ = 65536


class ProtocolError(OSError):
    """The server broke HTTP/1.1 (a bad status line, header or chunk); an ``OSError``, so the
    failure map takes it as it takes a broken connection."""


class BadStatusLine(ProtocolError):
    pass


class LineTooLong(ProtocolError):
    pass


class IncompleteRead(ProtocolError):
    """The connection ended inside a body (a cut, or a cancel that shut the socket)."""


class InvalidURL(ProtocolError):
    pass


class RemoteDisconnected(ConnectionResetError):
    """The server closed the connection before any status line."""


class ConnectTimedOut(OSError):
    """No connection within the connect timeout (told apart from a read timeout)."""


class Headers(dict):
    """A reply's headers by lower-cased name (the first of repeated ones, as ``email`` gives):
    the ``get``/``get_all``/``items`` the callers use."""

    def get(self, name: str, default: Any = None) -> Any:
        return dict.get(self, name.lower(), default)

    def get_all(self, name: str, default: Any = None) -> Any:
        value = dict.get(self, name.lower())
        return default if value is None else [value]

    def __getitem__(self, name: str) -> Any:
        return dict.get(self, name.lower())


def _line(fp: Any) -> bytes:
    line = fp.readline(MAX_LINE + 1)
    if len(line) > MAX_LINE:
        raise LineTooLong("header line")
    return line


def _read_headers(fp: Any) -> Headers:
    whole = _arrived_headers(fp)
    if whole is not None:
        return whole
    headers = Headers()
    for _ in range(MAX_HEADERS + 1):
        line = _line(fp)
        if line in (b"\r\n", b"\n", b""):
            return headers
        name, colon, value = line.decode("iso-8859-1").partition(":")
        if colon:
            headers.setdefault(name.strip().lower(), value.strip())
    raise ProtocolError(f"got more than {MAX_HEADERS} headers")


def _arrived_headers(fp: Any) -> Optional[Headers]:
    """The header lines taken at once when all of them have arrived (the usual case: a reply's
    head comes in one receive), from a reader that shows its buffer (``SocketReader``); None
    leaves them to the line-by-line read (a head still on its way, a bare LF, a line or a count
    over the limits: that read says what is wrong).  A line read and a check per header was
    about half of a short loopback reply's CPU (the token count's, a stream's start)."""
    look = getattr(fp, "lookahead", None)
    if look is None:
        return None
    buf, pos = look()
    if buf.startswith(b"\r\n", pos):
        fp.advance(2)
        return Headers()
    end = buf.find(b"\r\n\r\n", pos)
    if end < 0 or end - pos > MAX_LINE:
        return None
    block = buf[pos:end]
    if block.count(b"\n") != block.count(b"\r\n"):  # a bare LF
        return None
    lines = block.decode("iso-8859-1").split("\r\n")
    if len(lines) > MAX_HEADERS:
        return None
    headers = Headers()
    for line in lines:
        name, colon, value = line.partition(":")
        if colon:
            headers.setdefault(name.strip().lower(), value.strip())
    fp.advance(end + 4 - pos)
    return headers


def _status(fp: Any) -> tuple[str, int, str]:
    line = _line(fp)
    if not line:
        raise RemoteDisconnected("Remote end closed connection without response")
    version, _, rest = line.decode("iso-8859-1").strip().partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/") or len(code) != 3 or not code.isdigit():
        raise BadStatusLine(repr(line[:80]))
    return version, int(code), reason.strip()



_HEX = b"0123456789abcdefABCDEF"


def _take_whole_chunks(fp: Any, parts: list, room: int) -> int:
    """Take the data of every plain chunk already whole in ``fp``'s buffer (a size line of hex
    digits and CRLF, the data, CRLF), at most ``room`` bytes, in one pass over the buffer: the
    chunks of a stream's events that arrived together, without a line read and a check per
    chunk.  Anything else (an extension, the last chunk and its trailers, a bare LF, a chunk
    not all here) is left where it is for the careful reads.  Returns the bytes taken."""
    lookahead = getattr(fp, "lookahead", None)
    if lookahead is None:
        return 0
    buf, pos = lookahead()
    start, got = pos, 0
    while True:
        end = buf.find(b"\r\n", pos, pos + 10)
        if end <= pos or buf[pos:end].strip(_HEX):
            break
        size = int(buf[pos:end], 16)
        data = end + 2
        stop = data + size
        if not size or got + size > room or buf[stop:stop + 2] != b"\r\n":
            break
        parts.append(buf[data:stop])
        got += size
        pos = stop + 2
    if pos != start:
        fp.advance(pos - start)
    return got


def _next_chunk_here(fp: Any) -> bool:
    """Is the next chunk already whole in ``fp``'s buffer (its size line, its data and their
    end; for the last chunk, the blank line after it)?  Never receives: a chunk on its way is
    read by the next call, so nothing that arrived waits for what has not."""
    lookahead = getattr(fp, "lookahead", None)
    if lookahead is None:  # a reader with no look at its buffer: a chunk at a time
        return False
    buf, pos = lookahead()
    end = buf.find(b"\n", pos)
    if end < 0:
        return False
    try:
        size = int(buf[pos:end].split(b";", 1)[0].strip(), 16)
    except ValueError:
        return True  # not a size: read it, and fail on it, now
    if size == 0:
        return buf.find(b"\n\r\n", end) >= 0 or buf.find(b"\n\n", end) >= 0
    return len(buf) - end - 1 >= size + 2


class Connection(Protocol):
    """What a reply reads from: a buffered reader (``net/socket_reader.py``; any reader with
    ``readline`` and ``read1`` will do, a chunk at a time), and a way to close the socket."""

    fp: Any

    def close(self) -> None: ...


class Body:
    """A reply's status, headers and body bytes as they arrive (what requests calls ``raw``):
    ``read1`` gives what one receive brought (of a chunked body, every chunk already whole in
    the buffer: the events a server wrote together are read together, and the daemon writes
    their text to the shell at once), ``read`` all of it or up to a size.  Reaching the end
    frees the connection for the next call, or closes it when the server said it would."""

    def __init__(self, conn: Connection, method: str) -> None:
        fp = conn.fp
        while True:
            version, status, reason = _status(fp)
            headers = _read_headers(fp)
            if status != 100:  # (a 100 Continue is followed by the real reply)
                break
        if not version.startswith("HTTP/1."):
            raise BadStatusLine(f"unknown protocol {version}")
        self.status, self.reason, self.headers = status, reason, headers
        self.version = 10 if version == "HTTP/1.0" else 11
        self.chunked = (headers.get("transfer-encoding") or "").lower() == "chunked"
        connection = (headers.get("connection") or "").lower()
        self.will_close = "close" in connection if self.version == 11 else "keep-alive" not in connection
        self.length: Optional[int] = None
        declared = headers.get("content-length")
        if declared and not self.chunked:
            try:
                self.length = int(declared) if int(declared) >= 0 else None
            except ValueError:
                self.length = None
        if status in (204, 304) or 100 <= status < 200 or method == "HEAD":
            self.length, self.chunked = 0, False
        if not self.chunked and self.length is None:
            self.will_close = True  # the body ends with the connection
        self._conn: Optional[Connection] = conn
        self._chunk_left = 0  # bytes of the current chunk not read yet (chunked)
        if not self.chunked and self.length == 0:
            self._end()

    def isclosed(self) -> bool:
        """The body was read to its end (or the reply closed)."""
        return self._conn is None

    def read1(self, n: int = _READ) -> bytes:
        conn = self._conn
        if conn is None or n <= 0:
            return b""
        if self.chunked:
            return self._read_chunks(conn, n)
        if self.length is not None:
            n = min(n, self.length)
        data = conn.fp.read1(n)
        if not data:
            if self.length is not None:
                raise IncompleteRead("the connection ended inside the body")
            self._end()
            return b""
        if self.length is not None:
            self.length -= len(data)
            if not self.length:
                self._end()
        return data

    def _read_chunks(self, conn: Connection, n: int) -> bytes:
        """The data of the current chunk (waiting for it if none is here), then of each next
        chunk already whole in the buffer, up to ``n`` bytes; the last chunk ends the body."""
        parts: list[bytes] = []
        got = 0
        while True:
            if not self._chunk_left and not self._next_chunk():
                break
            data = conn.fp.read1(min(n - got, self._chunk_left))
            if not data:
                raise IncompleteRead("the connection ended inside the body")
            parts.append(data)
            got += len(data)
            self._chunk_left -= len(data)
            if self._chunk_left:
                break
            self._crlf()
            got += _take_whole_chunks(conn.fp, parts, n - got)
            if got >= n or not _next_chunk_here(conn.fp):
                break
        return b"".join(parts) if len(parts) != 1 else parts[0]

    def read(self, n: Optional[int] = None) -> bytes:
        """The rest of the body, or up to ``n`` bytes of it."""
        parts, got = [], 0
        while n is None or got < n:
            data = self.read1(_READ if n is None else min(_READ, n - got))
            if not data:
                break
            parts.append(data)
            got += len(data)
        return b"".join(parts)

    def close(self) -> None:
        """Done with the reply: a body not read to its end closes its connection (the next
        call would get its leftovers)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def _next_chunk(self) -> bool:
        """Read the next chunk's size line; at the last (size 0) read the trailers and end."""
        assert self._conn is not None
        line = _line(self._conn.fp)
        try:
            size = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise IncompleteRead("a chunk without its size") from None
        if size < 0:
            raise ProtocolError("a chunk of negative size")
        if size == 0:
            _read_headers(self._conn.fp)  # trailers, to the blank line
            self._end()
            return False
        self._chunk_left = size
        return True

    def _crlf(self) -> None:
        assert self._conn is not None
        line = _line(self._conn.fp)
        if not line:
            raise IncompleteRead("the connection ended inside the body")
        if line not in (b"\r\n", b"\n"):
            raise ProtocolError("a chunk longer than its size")

    def _end(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and self.will_close:
            conn.close()
