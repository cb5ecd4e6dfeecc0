"""Stream a chat completion from any OpenAI-compatible server.

Why it looks like this:
- Errors are the seed's A2 shapes (``transport: HTTP 503: ...``, ``transport:
  Connection refused (...)``, ``api: ...``, ``broker: ...``) because the cloud
  fallback matches on the text; see ``errors.py``.
- Cancel must cut a *blocking* read within 200 ms, which no flag check can do:
  the call's socket is recorded the moment the request is sent (a watched
  connection class, so even the wait for the status line can be cut) and the
  cancel callback shuts it down from the cancelling thread.
- Latency is a feature: sessions are pooled (keep-alive), the body is encoded
  once, nothing is imported lazily, and after ``[DONE]`` the chunked terminator
  is drained so the connection goes back to the pool instead of being closed.
The wire rules for chunks (reasoning, tool-call fragments, usage) and error
envelopes live in ``sse.py``; ``<think>`` splitting in ``reasoning.py``.
"""
from __future__ import annotations

import functools
import http.client
import json
import os
import socket
import ssl
import threading
from typing import Iterator, Optional, Union
from urllib.parse import urlparse

import requests
import urllib3.exceptions as u3
from requests.adapters import HTTPAdapter
from sseclient import SSEClient
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from aish.cancel import CancelToken
from aish.config import ModelConfig
from aish.errors import AishError, ApiError, BrokerError, Cancelled, TransportError
from aish.events import BrokerEvent, TextDelta, Usage
from aish.sse import ChunkDecoder, completion_events, cut_error, http_error, malformed

Timeout = Union[float, tuple[float, float]]

__all__ = ["chat_stream", "chat_complete", "list_models"]

_local = threading.local()  # .watch: the _Watch of the call this thread is making
_DRAIN_TIMEOUT = 0.25  # after [DONE], how long the chunked terminator may take


# ---------------------------------------------------------------- public API

def chat_stream(model: ModelConfig, messages: list[dict], *, tools: Optional[list[dict]] = None,
                max_tokens: Optional[int] = None, cancel: Optional[CancelToken] = None,
                timeout: Optional[Timeout] = None) -> Iterator[BrokerEvent]:
    """Yield TextDelta/ReasoningDelta/ToolCallDelta/Usage events, then one Finish.

    Raises TransportError, ApiError, BrokerError or Cancelled (never a requests
    exception).  Stopping the iteration closes the HTTP stream.
    """
    key = _check_model(model)
    body: dict = {"model": model.model, "messages": messages, "stream": True}
    if tools:
        body["tools"] = tools
    limit = max_tokens if max_tokens is not None else model.max_tokens
    if limit is not None:
        body["max_tokens"] = limit
    if model.temperature is not None:
        body["temperature"] = model.temperature
    if model.include_usage:
        body["stream_options"] = {"include_usage": True}
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream",
               "Accept-Encoding": "identity"}  # compression would hold tokens back
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    yield from _stream(model, data, headers, key, _timeouts(model, timeout), cancel)


def chat_complete(model: ModelConfig, messages: list[dict], *, max_tokens: Optional[int] = None,
                  cancel: Optional[CancelToken] = None,
                  timeout: Optional[Timeout] = None) -> tuple[str, Optional[Usage]]:
    """The whole answer text (reasoning left out) and the last usage reported."""
    parts: list[str] = []
    usage: Optional[Usage] = None
    for event in chat_stream(model, messages, max_tokens=max_tokens, cancel=cancel, timeout=timeout):
        kind = type(event)
        if kind is TextDelta:
            parts.append(event.text)
        elif kind is Usage:
            usage = event
    return "".join(parts), usage


def list_models(endpoint: str, *, api_key: Optional[str] = None, timeout: float = 0.5) -> list[str]:
    """Model ids served at ``{endpoint}/v1/models`` (for detection and ``aish doctor``)."""
    if not endpoint:
        raise BrokerError("model_cfg.endpoint required to list models")
    url = endpoint.rstrip("/") + "/v1/models"
    headers = {"Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    timeouts = (float(timeout), float(timeout))
    session = _take_session()
    try:
        proxies, verify = _env_settings(url)
        try:
            resp = session.get(url, headers=headers, timeout=timeouts, proxies=proxies, verify=verify)
        except (requests.RequestException, OSError, u3.HTTPError) as exc:
            raise _transport_error(exc, endpoint, timeouts) from None
        try:
            if resp.status_code >= 400:
                raise http_error(resp.status_code, resp.reason, _error_body(resp), endpoint, api_key)
            body = resp.json()
        except ValueError:
            raise ApiError(f"malformed reply from {endpoint}: /v1/models did not return JSON") from None
        except (requests.RequestException, OSError, u3.HTTPError) as exc:
            raise _transport_error(exc, endpoint, timeouts) from None
        finally:
            resp.close()
    finally:
        _give_session(session)
    items = body.get("data") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise ApiError(f"malformed reply from {endpoint}: /v1/models has no 'data' list")
    return [item["id"] for item in items if isinstance(item, dict) and isinstance(item.get("id"), str)]


# ---------------------------------------------------------------- one streamed call

def _stream(model: ModelConfig, data: bytes, headers: dict, key: Optional[str],
            timeouts: tuple[float, float], cancel: Optional[CancelToken]) -> Iterator[BrokerEvent]:
    endpoint = model.endpoint
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
    watch = _Watch()
    unregister = cancel.on_cancel(watch.fire) if cancel is not None else None
    session = _take_session()
    resp = None
    try:
        url = model.chat_url
        proxies, verify = _env_settings(url)
        _local.watch = watch
        try:
            resp = session.post(url, data=data, headers=headers, stream=True, timeout=timeouts,
                                proxies=proxies, verify=verify, allow_redirects=False)
        except (requests.RequestException, OSError, u3.HTTPError) as exc:
            _raise_if_cancelled(cancel)
            raise _transport_error(exc, endpoint, timeouts) from None
        finally:
            _local.watch = None
        if watch.sock is None:  # through a proxy, or a test double: find it on the response
            watch.attach(_response_socket(resp))
        _raise_if_cancelled(cancel)
        if resp.status_code >= 400:
            raise http_error(resp.status_code, resp.reason, _error_body(resp), endpoint, key, model)
        if resp.status_code >= 300:  # following it would turn the POST into a GET
            raise TransportError(f"HTTP {resp.status_code}: redirected to {resp.headers.get('Location', '?')}",
                                 kind="http", status=resp.status_code,
                                 hint="set endpoint to the address it redirects to")
        ctype = resp.headers.get("Content-Type", "").lower()
        if "json" in ctype:
            yield from _whole_reply(resp, endpoint, timeouts, cancel)
        elif "html" in ctype:
            raise ApiError(f"malformed reply from {endpoint}: expected an event stream, got {ctype}",
                           hint="is the endpoint an OpenAI-compatible server?")
        else:
            yield from _events(resp, watch, endpoint, timeouts, cancel)
    finally:
        if unregister is not None:
            unregister()
        watch.detach()
        if resp is not None:
            resp.close()
        _give_session(session)


def _events(resp: requests.Response, watch: "_Watch", endpoint: str, timeouts: tuple[float, float],
            cancel: Optional[CancelToken]) -> Iterator[BrokerEvent]:
    decoder = ChunkDecoder()
    eof = [False]
    source = _chunks(resp.raw, eof)
    done = False
    try:
        for event in SSEClient(source).events():
            payload = event.data
            if payload == "[DONE]":
                done = True
                break
            try:
                chunk = json.loads(payload)
            except ValueError:
                if eof[0]:  # half an event where the connection ended: a cut, reported below
                    break
                raise malformed(endpoint, payload, decoder.partial_text) from None
            if type(chunk) is not dict:
                raise malformed(endpoint, payload, decoder.partial_text)
            yield from decoder.feed(chunk)
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
    except (requests.RequestException, OSError, u3.HTTPError, http.client.HTTPException) as exc:
        _raise_if_cancelled(cancel)
        raise _transport_error(exc, endpoint, timeouts, decoder.partial_text, streaming=True) from None
    _raise_if_cancelled(cancel)
    if done:
        _drain(source, watch)
        watch.detach()  # the connection is back in the pool: a late cancel must not touch it
    elif decoder.finish_reason is None:
        raise cut_error(endpoint, decoder.partial_text)
    yield from decoder.finish()


def _whole_reply(resp: requests.Response, endpoint: str, timeouts: tuple[float, float],
                 cancel: Optional[CancelToken]) -> Iterator[BrokerEvent]:
    """A server that ignored ``stream: true`` (or a JSON error with status 200)."""
    try:
        raw = resp.content
    except (requests.RequestException, OSError, u3.HTTPError) as exc:
        _raise_if_cancelled(cancel)
        raise _transport_error(exc, endpoint, timeouts, streaming=True) from None
    try:
        body = json.loads(raw)
    except ValueError:
        raise malformed(endpoint, raw.decode("utf-8", "replace"), "") from None
    if not isinstance(body, dict):
        raise malformed(endpoint, raw.decode("utf-8", "replace"), "")
    yield from completion_events(body)


def _chunks(raw, eof: list) -> Iterator[bytes]:
    """Bytes as they arrive: one HTTP chunk at a time, or whatever one recv returns."""
    if getattr(raw, "chunked", False) and raw.supports_chunked_reads():
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


def _drain(source: Iterator[bytes], watch: "_Watch") -> None:
    """Read the end of the chunked body so the connection can be reused."""
    try:
        watch.settimeout(_DRAIN_TIMEOUT)
        for count, _ in enumerate(source):
            if count > 16:  # a server that keeps talking after [DONE]: just close it
                return
    except Exception:  # noqa: BLE001 - a failed drain only costs the keep-alive
        return


# ---------------------------------------------------------------- cancellation

class _Watch:
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


class _WatchedMixin:
    def getresponse(self, *args, **kwargs):  # type: ignore[no-untyped-def]
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
    def init_poolmanager(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}


def _response_socket(resp: requests.Response) -> Optional[socket.socket]:
    conn = getattr(resp.raw, "_connection", None)
    sock = getattr(conn, "sock", None)
    if sock is None:
        fp = getattr(getattr(resp.raw, "_fp", None), "fp", None)
        sock = getattr(getattr(fp, "raw", None), "_sock", None)
    return sock if isinstance(sock, socket.socket) else None


def _raise_if_cancelled(cancel: Optional[CancelToken]) -> None:
    if cancel is not None and cancel.cancelled:
        raise Cancelled()


# ---------------------------------------------------------------- sessions

_idle: list[requests.Session] = []  # one call owns a session at a time; list ops are atomic


def _take_session() -> requests.Session:
    try:
        return _idle.pop()
    except IndexError:
        session = requests.Session()
        session.trust_env = False  # proxies/CA read once per URL in _env_settings, never ~/.netrc
        adapter = _Adapter(pool_connections=4, pool_maxsize=4)
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        return session


def _give_session(session: requests.Session) -> None:
    if len(_idle) < 8:
        _idle.append(session)
    else:
        session.close()


@functools.lru_cache(maxsize=64)
def _env_settings(url: str) -> tuple[dict, Union[bool, str]]:
    host = (urlparse(url).hostname or "").lower()
    loopback = host in ("localhost", "::1") or host.startswith("127.")
    proxies = {} if loopback else requests.utils.get_environ_proxies(url)
    verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    return proxies, verify


# ---------------------------------------------------------------- errors

def _check_model(model: ModelConfig) -> Optional[str]:
    name = model.name or model.model or "?"
    if not model.endpoint or not model.model:
        missing = " and ".join(k for k in ("endpoint", "model") if not getattr(model, k))
        raise BrokerError(f"model_cfg.endpoint and .model required: [models.{name}] has no {missing}",
                          hint=f"set it in [models.{name}] of the config ('aish config path' shows where)")
    if not model.key_env:
        return None
    key = model.api_key()
    if not key:
        raise BrokerError(f"[models.{name}] needs an API key in ${model.key_env}, which is not set",
                          hint=f"export {model.key_env}=<your key> in your shell profile, then "
                               "'aish daemon stop' so the daemon starts again with it")
    return key


def _timeouts(model: ModelConfig, timeout: Optional[Timeout]) -> tuple[float, float]:
    if timeout is None:
        return float(model.connect_timeout), float(model.read_timeout)
    if isinstance(timeout, (int, float)):
        return float(timeout), float(timeout)
    return float(timeout[0]), float(timeout[1])


def _error_body(resp: requests.Response) -> bytes:
    try:
        return resp.raw.read(65536, decode_content=True) or b""
    except Exception:  # noqa: BLE001 - the status alone still says what happened
        return b""


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


def _transport_error(exc: BaseException, endpoint: str, timeouts: tuple[float, float],
                     partial: str = "", streaming: bool = False) -> AishError:
    chain = list(_causes(exc))

    def has(*types: type) -> bool:
        return any(isinstance(err, types) for err in chain)

    if has(requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
           requests.exceptions.InvalidSchema, u3.LocationParseError):
        return BrokerError(f"endpoint '{endpoint}' is not a valid http(s) URL",
                           hint="set it like endpoint = \"http://127.0.0.1:8080\"")
    if has(socket.gaierror, getattr(u3, "NameResolutionError", socket.gaierror)):
        host = urlparse(endpoint).hostname or endpoint
        return TransportError(f"Couldn't resolve host {host}", kind="dns")
    if has(ConnectionRefusedError):
        return TransportError(f"Connection refused ({endpoint})", kind="connect")
    # urllib3 files every failed connect (NewConnectionError) under ConnectTimeoutError
    connect_timeout = any(isinstance(e, u3.ConnectTimeoutError) and not isinstance(e, u3.NewConnectionError)
                          for e in chain)
    if (connect_timeout or has(requests.exceptions.ConnectTimeout)) and not streaming:
        return TransportError(f"Timeout was reached (connect timeout after {timeouts[0]:g}s, {endpoint})",
                              kind="timeout")
    if has(requests.exceptions.ReadTimeout, u3.ReadTimeoutError, socket.timeout):
        arrived = f"; {len(partial)} characters had arrived" if partial else ""
        return TransportError(f"Timeout was reached (read timeout after {timeouts[1]:g}s, "
                              f"{endpoint}){arrived}", kind="timeout", partial_text=partial)
    if has(ssl.SSLError, requests.exceptions.SSLError):
        reason = next((str(e) for e in chain if isinstance(e, ssl.SSLError)), "handshake failed")
        return TransportError(f"TLS error with {endpoint}: {reason}", kind="connect")
    if streaming:
        return cut_error(endpoint, partial)
    if has(http.client.RemoteDisconnected, ConnectionResetError, u3.ProtocolError):
        return TransportError(f"Server closed the connection before replying ({endpoint})",
                              kind="connect")
    reason = next((e.strerror for e in chain if isinstance(e, OSError) and e.strerror), None)
    return TransportError(f"Could not connect to {endpoint}: {reason or type(exc).__name__}",
                          kind="connect")
