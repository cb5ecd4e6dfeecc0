"""Stream a chat completion from any OpenAI-compatible server.

Why it looks like this:
- Errors are the typed classes of ``errors.py`` (``HttpStatusError``,
  ``ConnectRefused``, ``ApiError``, ``BrokerError``...); the cloud fallback
  decides on the class, the user reads the documented one-line message.
- Cancel must cut a *blocking* read within 200 ms: each call registers its
  socket watch with the cancel token, and the watch shuts the socket down.
- Latency is a feature: the body is encoded once and nothing is imported
  lazily; sessions are pooled and drained for keep-alive.
The HTTP plumbing (pooled sessions, cancellable sockets, mapping requests and
urllib3 failures to aish errors) lives in ``aish.net.transport``; the wire rules for
chunks (reasoning, tool-call fragments, usage) and error envelopes in
``chunks.py``; ``<think>`` splitting in ``reasoning.py``.
"""
from __future__ import annotations

import json
import time
from typing import Iterator, Optional, Union

from aish.ipc.cancel import CancelToken
from aish.config.schema import ModelConfig
from aish.errors import ApiError, BrokerError, Cancelled, HttpStatusError, ReadTimeout
from aish.llm.events import BrokerEvent, Outgoing, TextDelta, TextWasReasoning, Usage
from aish.llm.chunks import ChunkDecoder, completion_events, http_error, malformed
from aish.net.sse import EventParser
from aish.net.transport import (Response, Watch, chunks, cut_error, drain, env_settings, error_body, failures,
                                give_session, take_session, watched_post)

Timeout = Union[float, tuple[float, float]]

__all__ = ["chat_stream", "chat_once", "chat_complete", "list_models"]



# ---------------------------------------------------------------- public API

def chat_stream(model: ModelConfig, messages: list[dict], *, tools: Optional[list[dict]] = None,
                max_tokens: Optional[int] = None, cancel: Optional[CancelToken] = None,
                timeout: Optional[Timeout] = None,
                answer_param: str = "max_tokens") -> Iterator[BrokerEvent]:
    """Yield TextDelta/ReasoningDelta/ToolCallDelta/Usage events, then one Finish.

    Raises a TransportError subclass, ApiError, BrokerError or Cancelled (never a requests
    exception).  Stopping the iteration closes the HTTP stream, and so does any failure:
    the server sees the client leave and stops generating.  The read timeout counts the
    model's silence on content: keep-alive comments do not hold an answer open.
    ``answer_param`` names the answer cap (``max_completion_tokens`` for OpenAI's newer models).
    """
    key = _check_model(model)
    body = _body(model, messages, tools, max_tokens, answer_param, stream=True)
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream",
               "Accept-Encoding": "identity"}  # compression would hold tokens back
    if key:
        headers["Authorization"] = f"Bearer {key}"
    yield from _stream(model, body, headers, key, _timeouts(model, timeout), cancel)


def chat_once(model: ModelConfig, messages: list[dict], *, max_tokens: int = 1,
              timeout: Optional[Timeout] = None,
              answer_param: str = "max_tokens") -> tuple[str, Optional[Usage]]:
    """One non-streamed completion: the text and the usage the server reported.

    For measuring (the chat template's tokens) and asking a server why a stream came back
    empty: servers that end a stream silently answer a plain request with the typed error
    (``ContextOverflow`` with its window).  Raises like ``chat_stream``."""
    key = _check_model(model)
    body = _body(model, messages, None, max_tokens, answer_param, stream=False)
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    parts: list[str] = []
    usage: Optional[Usage] = None
    for event in _stream(model, body, headers, key, _timeouts(model, timeout), None):
        if type(event) is TextDelta:
            parts.append(event.text)
        elif type(event) is Usage:
            usage = event
    return "".join(parts), usage


def _body(model: ModelConfig, messages: list[dict], tools: Optional[list[dict]], max_tokens: Optional[int],
          answer_param: str, *, stream: bool) -> dict:
    body: dict = {"model": model.model, "messages": messages, "stream": stream}
    if tools:
        body["tools"] = tools
    limit = max_tokens if max_tokens is not None else model.max_tokens
    if limit is not None:
        body[answer_param] = limit
    if model.temperature is not None:
        body["temperature"] = model.temperature
    if model.include_usage and stream:
        body["stream_options"] = {"include_usage": True}
    return body


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once: json.dumps with
# options builds an encoder per call (a dozen calls per ask: each message, each key of the body)


def _dumps(value: object) -> str:
    return _ENCODER.encode(value)


_MADE: dict[tuple, bytes] = {}  # (type, value) or ("system", text) -> its JSON, as encode_parts uses it
_MADE_KEPT = 256


def _made(key: tuple, value: object) -> bytes:
    """``_dumps(value)`` as UTF-8, kept by ``key``: a request's keys, its model, flags, limits
    and system message are the same from one ask to the next (a dozen encodings per ask)."""
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_KEPT:
            _MADE.clear()
        made = _MADE[key] = _dumps(value).encode("utf-8")
    return made


def _scalar(value: object) -> bytes:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return _made((kind, value), value)
    return _dumps(value).encode("utf-8")


def _head(message: object) -> bytes:
    """The system message's JSON (its role and text, in that order: kept by its text)."""
    if type(message) is dict and tuple(message) == ("role", "content") and message["role"] == "system" \
            and type(message["content"]) is str:
        return _made(("system", message["content"]), message)
    return _dumps(message).encode("utf-8")


def encode_body(body: dict) -> bytes:
    """The request body as sent: ``json.dumps`` of it, byte for byte (``encode_parts`` joined)."""
    return b"".join(encode_parts(body))


def encode_parts(body: dict) -> list[bytes]:
    """The request body as sent, in pieces that join to ``json.dumps`` of it, byte for byte.
    A conversation's messages that grew from the last ones sent (``Outgoing``) are encoded from
    the JSON kept for those (in their ``memo``: a few pieces, merged as they grow) plus the new
    messages: a long conversation is neither encoded nor copied on every ask (a server on this
    machine is sent the pieces where they lie, ``loopback._send``)."""
    messages = body.get("messages")
    if not isinstance(messages, Outgoing) or not messages:
        return [_dumps(body).encode("utf-8")]
    base = messages.grown()
    kept = base.memo.get("json") if base is not None else None
    new = ",".join(_dumps(m) for m in (messages.new if kept is not None else messages[1:])).encode("utf-8")
    pieces = [*kept, new] if kept and new else (list(kept) if kept else ([new] if new else []))
    while len(pieces) > 1 and len(pieces[-2]) < 2 * len(pieces[-1]):  # each piece twice the next at
        pieces[-2:] = [pieces[-2] + b"," + pieces[-1]]  # least: a few pieces, not one per ask so far
    messages.memo["json"] = pieces
    out: list[bytes] = []
    for key, value in body.items():
        out.append(b"," if out else b"{")
        out.append(_scalar(key) + b":")
        if key != "messages":
            out.append(_scalar(value))
            continue
        out.append(b"[" + _head(messages[0]))
        for piece in pieces:
            out.append(b",")
            out.append(piece)
        out.append(b"]")
    out.append(b"}")
    return out


def chat_complete(model: ModelConfig, messages: list[dict], *, max_tokens: Optional[int] = None,
                  cancel: Optional[CancelToken] = None,
                  timeout: Optional[Timeout] = None) -> tuple[str, Optional[Usage]]:
    """The whole answer text (reasoning left out) and the last usage reported."""
    parts: list[str] = []
    usage: Optional[Usage] = None
    for event in chat_stream(model, messages, max_tokens=max_tokens, cancel=cancel, timeout=timeout):
        if isinstance(event, TextDelta):
            parts.append(event.text)
        elif isinstance(event, TextWasReasoning):
            parts.clear()
        elif isinstance(event, Usage):
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
    session = take_session()
    try:
        proxies, verify = env_settings(url)
        with failures(endpoint, timeouts):
            resp = session.get(url, headers=headers, timeout=timeouts, proxies=proxies, verify=verify)
            try:
                if resp.status_code >= 400:
                    raise http_error(resp.status_code, resp.reason, error_body(resp), endpoint, api_key)
                body = resp.json()
            except ValueError:
                raise ApiError(f"malformed reply from {endpoint}: /v1/models did not return JSON") from None
            finally:
                resp.close()
    finally:
        give_session(session)
    items = body.get("data") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise ApiError(f"malformed reply from {endpoint}: /v1/models has no 'data' list")
    return [item["id"] for item in items if isinstance(item, dict) and isinstance(item.get("id"), str)]


# ---------------------------------------------------------------- one streamed call

def _stream(model: ModelConfig, body: dict, headers: dict, key: Optional[str],
            timeouts: tuple[float, float], cancel: Optional[CancelToken]) -> Iterator[BrokerEvent]:
    endpoint = model.endpoint
    data = encode_parts(body)
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
    watch = Watch()
    unregister = cancel.on_cancel(watch.fire) if cancel is not None else None
    session = take_session(model.chat_url)
    resp = None
    clean = False  # the reply ended as the protocol says: its connection may be reused
    try:
        url = model.chat_url
        proxies, verify = env_settings(url)
        with failures(endpoint, timeouts, cancel=cancel):
            resp = watched_post(session, url, watch, data=data, headers=headers, stream=True,
                                timeout=timeouts, proxies=proxies, verify=verify, allow_redirects=False)
        _raise_if_cancelled(cancel)
        if resp.status_code >= 400:
            raise http_error(resp.status_code, resp.reason, error_body(resp), endpoint, key, model, body)
        if resp.status_code >= 300:  # following it would turn the POST into a GET
            raise HttpStatusError(f"HTTP {resp.status_code}: redirected to {resp.headers.get('Location', '?')}",
                                  status=resp.status_code,
                                  hint="set endpoint to the address it redirects to")
        ctype = resp.headers.get("Content-Type", "").lower()
        if "json" in ctype:
            yield from _whole_reply(resp, endpoint, timeouts, cancel)
        elif "html" in ctype:
            raise ApiError(f"malformed reply from {endpoint}: expected an event stream, got {ctype}",
                           hint="is the endpoint an OpenAI-compatible server?")
        else:
            yield from _events(resp, watch, endpoint, timeouts, cancel)
        clean = True
    finally:
        if unregister is not None:
            unregister()
        watch.detach()
        if resp is not None:
            resp.close()
        if clean:
            give_session(session)
        else:  # a server that failed a reply may drop its connection a moment later: never reuse it
            session.close()


def _events(resp: Response, watch: Watch, endpoint: str, timeouts: tuple[float, float],
            cancel: Optional[CancelToken]) -> Iterator[BrokerEvent]:
    """The stream's events; the text of events that arrived together (one read: the body reader
    gives every chunk already received) goes on as one delta per run of text, so the daemon
    writes it to the shell as one frame, not one per event (issue 26, many shells).  Each event
    is decoded, checked for a cancel and timed as before; only the text's grouping changes."""
    decoder = ChunkDecoder()
    eof = [False]
    source = chunks(resp.raw, eof)
    heard = [time.monotonic()]  # when the last event (not a comment) arrived
    parser = EventParser()

    def batches() -> Iterator[list[str]]:
        """The events of each read of the body (for a server that sends only comments
        (``: ping``) for longer than the read timeout, a silence like no bytes at all), then the
        half event where the body ended."""
        for data in source:
            if time.monotonic() - heard[0] > timeouts[1]:
                raise ReadTimeout(f"Timeout was reached ({endpoint} sent only keep-alive comments for "
                                  f"{timeouts[1]:g}s, no answer; the server may be busy with another request)",
                                  partial_text=decoder.partial_text)
            yield parser.feed(data)
        yield parser.end()

    done = cut = False
    with failures(endpoint, timeouts, cancel=cancel, partial=lambda: decoder.partial_text, streaming=True):
        for batch in batches():
            text: list[TextDelta] = []  # this read's text not handed on yet
            bad = None
            for payload in batch:
                heard[0] = time.monotonic()
                if payload == "[DONE]":
                    done = True
                    break
                try:
                    chunk = _json(payload)
                except ValueError:
                    if eof[0]:  # half an event where the connection ended: a cut, reported below
                        cut = True
                        break
                    chunk = None
                if type(chunk) is not dict:
                    bad = payload
                    break
                for event in decoder.feed(chunk):
                    if type(event) is TextDelta:
                        text.append(event)
                        continue
                    if text:
                        yield _joined(text)
                        text = []
                    yield event
                if cancel is not None and cancel.cancelled:
                    break
            if text:
                yield _joined(text)
            if bad is not None:
                raise malformed(endpoint, bad, decoder.partial_text)
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            if done or cut:
                break
    _raise_if_cancelled(cancel)
    if done:
        drain(source, watch, resp.raw)
        watch.detach()  # the connection is back in the pool: a late cancel must not touch it
    elif decoder.finish_reason is None:
        raise cut_error(endpoint, decoder.partial_text)
    yield from decoder.finish()


_scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # the C scanner json.loads ends in (called ~10 times per answer)


def _json(payload: str) -> object:
    """``json.loads(payload)``: an event's data is one JSON value with nothing around it, which the
    scanner reads at once; anything else (whitespace, a second value, garbage) goes the whole way,
    so it fails or reads as ``json.loads`` has it."""
    try:
        value, end = _scan(payload, 0)
    except (StopIteration, ValueError):
        return json.loads(payload)
    return value if end == len(payload) else json.loads(payload)


def _joined(text: list[TextDelta]) -> TextDelta:
    return text[0] if len(text) == 1 else TextDelta("".join(event.text for event in text))


def _whole_reply(resp: Response, endpoint: str, timeouts: tuple[float, float],
                 cancel: Optional[CancelToken]) -> Iterator[BrokerEvent]:
    """A server that ignored ``stream: true`` (or a JSON error with status 200)."""
    with failures(endpoint, timeouts, cancel=cancel, streaming=True):
        raw = resp.content
    try:
        body = json.loads(raw)
    except ValueError:
        raise malformed(endpoint, raw.decode("utf-8", "replace"), "") from None
    if not isinstance(body, dict):
        raise malformed(endpoint, raw.decode("utf-8", "replace"), "")
    yield from completion_events(body)


# ---------------------------------------------------------------- cancellation

def _raise_if_cancelled(cancel: Optional[CancelToken]) -> None:
    if cancel is not None and cancel.cancelled:
        raise Cancelled()


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

