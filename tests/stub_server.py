"""A real loopback OpenAI-compatible model server for end-to-end tests and benchmarks.

Why a real server and not mocks: the daemon, the CLI subprocesses and the
benchmarks all talk HTTP over a socket, and what breaks in practice (chunk
boundaries, keep-alive, cut connections, a server that hangs, cancellation)
only shows on a real socket.

Shapes:
- ``llamacpp``: llama.cpp server style chunks (``reasoning_content``), a ping
  comment first, the usage chunk (``choices: []``) only when the request asks
  for ``stream_options.include_usage``, then ``data: [DONE]``.
- ``openrouter``: ``: OPENROUTER PROCESSING`` comments first, reasoning as
  ``delta.reasoning``, usage always in the last chunk with ``cost``.

Usage::

    with StubServer(shape="openrouter") as stub:
        stub.queue(Reply(text="hi\\nCMD: ls"), Reply(status=503))
        ... point a model at stub.url ...
        stub.requests[-1]["body"]["messages"]

Standalone (benchmarks, manual checks)::

    python tests/stub_server.py --port 8080 --shape llamacpp
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import select
import socket
import socketserver
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional, Union

from requests.structures import CaseInsensitiveDict

try:
    from tests.prompt_stop import PromptStop
except ImportError:  # run as a script (python tests/stub_server.py): tests/ itself is on the path
    from prompt_stop import PromptStop  # type: ignore[no-redef]

DEFAULT_TEXT = "Sure.\nCMD: ls -la"
COST_PER_TOKEN = 0.000001  # openrouter shape: dollars per token, prompt and completion alike


@dataclass
class Reply:
    """One scripted answer.

    With ``tool_calls`` and the default ``text``, no text is sent (a model that
    only calls tools); give ``text`` explicitly to send both.  Counts in
    ``stream_error_after`` / ``cut_after`` are content (text) chunks.
    ``first_byte_delay`` holds back everything, the status line included; so does ``until``,
    until the test sets that event (a wait on what the test saw, not on a guess of seconds).
    """

    text: str = DEFAULT_TEXT
    chunk_size: int = 8
    chunks: Optional[list[str]] = None
    reasoning: str = ""
    tool_calls: list[dict] = field(default_factory=list)
    usage: Union[dict, None, str] = "auto"
    status: int = 200
    error_body: Optional[dict] = None
    stream_error_after: Optional[int] = None
    cut_after: Optional[int] = None
    delay: float = 0.0
    first_byte_delay: float = 0.0
    until: Optional[threading.Event] = None
    hang: bool = False
    ping_every: float = 0.0  # with ``hang``: a ``: ping`` comment this often, and nothing else
    together: bool = False  # the whole stream in one write: every event already buffered at the client


def count_tokens(text: str) -> list[int]:
    """The stub's tokenizer: words and punctuation, with stable ids."""
    return [zlib.crc32(piece.encode()) % 32000 for piece in re.findall(r"\w+|[^\w\s]", text)]


def prompt_tokens(messages: list) -> int:
    """What the stub counts for a prompt: its tokens plus a "template" of 4 per message."""
    return sum(len(count_tokens(_message_text(m))) + 4 for m in messages)


def _message_text(message: Any) -> str:
    if not isinstance(message, dict):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def _warm_up(body: dict) -> bool:
    """aish's warm-up of a local server after a fold: the conversation for one token, ending
    with an answer (the scripted replies are for the asks)."""
    messages = body.get("messages") or [{}]
    return body.get("max_tokens") == 1 and isinstance(messages[-1], dict) and messages[-1].get("role") == "assistant"


class _Gone(Exception):
    """The client went away or the stub is stopping: end this response."""


class StubServer:
    def __init__(self, shape: str = "llamacpp", tokenize: Optional[str] = "llamacpp",
                 default: Optional[Reply] = None, models: Optional[list[str]] = None,
                 port: int = 0, host: str = "127.0.0.1", owned_by: str = "stub") -> None:
        if shape not in ("llamacpp", "openrouter"):
            raise ValueError(f"unknown shape {shape!r}: use 'llamacpp' or 'openrouter'")
        if tokenize not in (None, "llamacpp", "llama-cpp-python"):
            raise ValueError(f"unknown tokenize {tokenize!r}: use None, 'llamacpp' or 'llama-cpp-python'")
        self.shape = shape
        self.tokenize = tokenize
        self.default = default or Reply()
        self.models = list(models) if models is not None else None
        self.owned_by = owned_by  # /v1/models' owned_by: "llamacpp", "me", "vllm"... name a server family
        self.models_delay = 0.0  # /v1/models answers this late (llama-cpp-python busy generating)
        self.gateway = False  # answers /v1/model/info as a LiteLLM proxy does
        self.refuse_tools: Optional[str] = None  # "llama.cpp" / "vLLM": refuse requests offering tools
        self.requests: list[dict] = []  # streamed chat requests (what the scripted replies answer)
        self.plain_requests: list[dict] = []  # non-streamed ones (measuring, asking why a reply was empty)
        self.warm_ups: list[dict] = []  # the folded conversation for one token, after a fold (answered "x")
        self.n_ctx: Optional[int] = None  # a context window: longer prompts fail as ``overflow`` says
        self.overflow = "llama.cpp"  # "llama.cpp": a 400 naming n_ctx; "llama-cpp-python": an
        #                              empty 200 stream (and a 400 in words when not streamed);
        #                              "in words": a 400 naming no number
        # llama-cpp-python whose context (llama.cpp's KV cache) holds only this many tokens, fewer
        # than n_ctx (prefix reuse leaves cells it cannot place): see ``_no_room``
        self.room: Optional[int] = None
        self.tokenize_calls = 0
        self.disconnects = 0  # responses the client abandoned before they were complete
        self.connections = 0  # TCP connections accepted (keep-alive reuse keeps this low)
        self.inflight = 0  # chat requests being answered now
        self.max_inflight = 0  # the most answered at once
        self.gate: Optional[threading.Barrier] = None  # streamed chat requests wait here before answering
        self._host, self._port = host, port
        self._queue: collections.deque = collections.deque()
        self._plain: collections.deque = collections.deque()
        self._cond = threading.Condition()
        self._stopping = threading.Event()
        self._conns: set = set()
        self._httpd: Optional[_Server] = None
        self._thread: Optional[threading.Thread] = None
        self.url = ""

    # -------------------------------------------------------------- lifecycle

    def start(self) -> "StubServer":
        self._httpd = _Server((self._host, self._port), _Handler)
        self._httpd.stub = self
        port = self._httpd.server_address[1]
        self.url = f"http://{self._host}:{port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, name=f"stub-server-{port}",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; hanging and idle keep-alive connections are cut, nothing waits on them."""
        if self._httpd is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        with self._cond:
            conns = list(self._conns)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._httpd = None

    def __enter__(self) -> "StubServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -------------------------------------------------------------- scripting

    def queue(self, *replies: Reply) -> None:
        with self._cond:
            self._queue.extend(replies)

    def wait_requests(self, n: int, timeout: float = 5) -> list[dict]:
        """Block until ``n`` chat requests arrived; returns a copy of them."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.requests) >= n, timeout):
                raise TimeoutError(f"stub got {len(self.requests)} chat requests, expected {n}")
            return list(self.requests)

    def wait_disconnects(self, n: int = 1, timeout: float = 5) -> int:
        """Block until ``n`` responses were abandoned by their client."""
        with self._cond:
            if not self._cond.wait_for(lambda: self.disconnects >= n, timeout):
                raise TimeoutError(f"stub saw {self.disconnects} client disconnects, expected {n}")
            return self.disconnects

    # -------------------------------------------------------------- internals

    def _next_reply(self) -> Reply:
        with self._cond:
            return self._queue.popleft() if self._queue else self.default

    def _record(self, entry: dict) -> None:
        with self._cond:
            (self.warm_ups if _warm_up(entry["body"]) else self.requests if entry["body"].get("stream") is not False
             else self.plain_requests).append(entry)
            self._cond.notify_all()

    def _next_plain(self) -> Reply:
        with self._cond:
            return self._plain.popleft() if self._plain else self.default

    def queue_plain(self, *replies: Reply) -> None:
        """Replies for non-streamed requests (by default they get the default reply)."""
        with self._cond:
            self._plain.extend(replies)

    def _count_disconnect(self) -> None:
        with self._cond:
            self.disconnects += 1
            self._cond.notify_all()

    def _track(self, conn: socket.socket, add: bool) -> None:
        with self._cond:
            (self._conns.add if add else self._conns.discard)(conn)


class _Server(PromptStop, ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64
    stub: StubServer

    def server_bind(self) -> None:  # skip HTTPServer's reverse DNS lookup of the host
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up, or a response ended because of it or of the stub's stop
        (``_Gone``), is normal here; anything else is a stub bug worth seeing."""
        if not isinstance(sys.exc_info()[1], (OSError, _Gone)):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, chunked streams: like the real servers
    disable_nagle_algorithm = True
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.stub._track(self.connection, True)
        with self.server.stub._cond:
            self.server.stub.connections += 1

    def finish(self) -> None:
        self.server.stub._track(self.connection, False)
        try:
            super().finish()
        except OSError:
            pass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet tests
        pass

    # -------------------------------------------------------------- routes

    def do_GET(self) -> None:  # noqa: N802
        stub = self.server.stub
        path = self.path.split("?")[0]
        if path == "/health":
            self._json(200, {"status": "ok"})
        elif path == "/props" and stub.shape == "llamacpp":
            self._json(200, {"default_generation_settings": {"n_ctx": stub.n_ctx or 4096}, "total_slots": 1})
        elif path == "/openapi.json" and stub.owned_by == "me":
            self._json(200, {"openapi": "3.1.0", "info": {"title": "\U0001f999 llama.cpp Python API"}})
        elif path == "/v1/model/info" and stub.gateway:
            names = stub.models if stub.models is not None else ["stub-model"]
            self._json(200, {"data": [{"model_name": n, "litellm_params": {"model": f"openai/{n}"},
                                       "model_info": {"max_input_tokens": stub.n_ctx}} for n in names]})
        elif path in ("/v1/models", "/models"):
            self._pause(stub.models_delay)
            names = stub.models if stub.models is not None else ["stub-model"]
            self._json(200, {"object": "list",
                             "data": [{"id": n, "object": "model", "owned_by": stub.owned_by,
                                       **({"max_model_len": stub.n_ctx} if stub.owned_by == "vllm" else {})}
                                      for n in names]})
        else:
            self._json(404, {"error": {"code": 404, "message": f"no route {path}", "type": "not_found_error"}})

    def do_POST(self) -> None:  # noqa: N802
        stub = self.server.stub
        path = self.path.split("?")[0]
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._json(400, {"error": {"code": 400, "message": "request body is not JSON"}})
            return
        if path in ("/v1/chat/completions", "/chat/completions"):
            stub._record({"path": path, "headers": CaseInsensitiveDict(self.headers.items()), "body": body})
            with stub._cond:
                stub.inflight += 1
                stub.max_inflight = max(stub.max_inflight, stub.inflight)
            try:
                if stub.gate is not None and body.get("stream") is not False:
                    try:  # every request waits until gate.parties of them are in flight
                        stub.gate.wait()
                    except threading.BrokenBarrierError:
                        pass
                self._chat(body)
            finally:
                with stub._cond:
                    stub.inflight -= 1
        elif (path == "/tokenize" and stub.tokenize == "llamacpp") or (
                path == "/extras/tokenize" and stub.tokenize == "llama-cpp-python"):
            with stub._cond:
                stub.tokenize_calls += 1
            text = body.get("content" if path == "/tokenize" else "input", "")
            self._json(200, {"tokens": count_tokens(text if isinstance(text, str) else "")})
        else:
            self._json(404, {"error": {"code": 404, "message": f"no route {path}", "type": "not_found_error"}})

    # -------------------------------------------------------------- chat

    def _chat(self, body: dict) -> None:
        stub = self.server.stub
        model = body.get("model")
        if stub.models is not None and model not in stub.models:
            self._json(404, {"error": {"code": "model_not_found", "message": f"model '{model}' not found"}})
            return
        plain = body.get("stream") is False
        if stub.n_ctx is not None and self._over_window(body, plain):
            return
        if stub.room is not None and self._no_room(body, plain):
            return
        if stub.refuse_tools and body.get("tools"):
            if stub.refuse_tools == "vLLM":
                self._json(400, {"object": "error", "type": "BadRequestError", "code": 400,
                                 "message": '"auto" tool choice requires --enable-auto-tool-choice and '
                                            '--tool-call-parser to be set'})
            else:
                self._json(500, {"error": {"code": 500, "message": "tools param requires --jinja flag",
                                           "type": "server_error"}})
            return
        reply = Reply(text="x") if _warm_up(body) else stub._next_plain() if plain else stub._next_reply()
        try:
            self._pause(reply.first_byte_delay)
            self._hold(reply.until)
            if reply.status != 200:
                error = reply.error_body or {"error": {"code": reply.status,
                                                       "message": HTTPStatus(reply.status).phrase}}
                self._json(reply.status, error)
                return
            if plain:
                self._whole(body, reply)
                return
            self._stream(body, reply)
        except _Gone:
            self.close_connection = True

    def _stream(self, body: dict, reply: Reply) -> None:
        stub = self.server.stub
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if reply.hang:
            self._hang(reply.ping_every)
            return
        self._held = [] if reply.together else None
        openrouter = stub.shape == "openrouter"
        created = int(time.time())
        base = {"id": f"{'gen' if openrouter else 'chatcmpl'}-stub-{len(stub.requests)}",
                "object": "chat.completion.chunk", "created": created, "model": body.get("model") or "stub"}
        if openrouter:
            base["provider"] = "Stub"
            self._send(b": OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\n")
        else:
            self._send(b": ping\n\n")

        def chunk(delta: dict, finish: Optional[str] = None) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
            return b"data: " + json.dumps({**base, "choices": [choice]}).encode() + b"\n\n"

        text = reply.text
        if reply.tool_calls and text == DEFAULT_TEXT and reply.chunks is None:
            text = ""
        pieces = reply.chunks if reply.chunks is not None else _split(text, reply.chunk_size)
        self._send(chunk({"role": "assistant", "content": None if reply.reasoning else ""}))
        for piece in _split(reply.reasoning, reply.chunk_size):
            self._pause(reply.delay)
            self._send(chunk({"reasoning" if openrouter else "reasoning_content": piece}))
        for n, piece in enumerate(pieces):
            if reply.stream_error_after is not None and n == reply.stream_error_after:
                self._stream_error(reply)
                return
            if reply.cut_after is not None and n == reply.cut_after:
                self._cut()
                return
            self._pause(reply.delay)
            self._send(chunk({"content": piece}))
        if reply.stream_error_after is not None and reply.stream_error_after >= len(pieces):
            self._stream_error(reply)
            return
        if reply.cut_after is not None and reply.cut_after >= len(pieces):
            self._cut()
            return
        calls = _tool_call_chunks(reply.tool_calls, reply.chunk_size, len(stub.requests))
        for delta in calls:
            self._pause(reply.delay)
            self._send(chunk({"tool_calls": [delta]}))
        self._pause(reply.delay)
        self._send(chunk({}, "tool_calls" if reply.tool_calls else "stop"))
        usage = self._usage(body, reply, text)
        if usage is not None and (openrouter or (body.get("stream_options") or {}).get("include_usage")):
            self._send(b"data: " + json.dumps({**base, "choices": [], "usage": usage}).encode() + b"\n\n")
        self._send(b"data: [DONE]\n\n", last=True)

    def _over_window(self, body: dict, plain: bool) -> bool:
        """A prompt longer than ``n_ctx`` fails as the server ``overflow`` names does."""
        stub = self.server.stub
        prompt = prompt_tokens(body.get("messages") or [])
        if prompt < stub.n_ctx:
            return False
        if stub.overflow == "llama-cpp-python" and not plain:  # 200, then the stream just ends
            self._empty_stream()
            return True
        if stub.overflow == "in words":  # a 400 that names neither the window nor the prompt's count
            error = {"message": "the prompt is longer than the model's maximum context length",
                     "type": "invalid_request_error", "code": "context_length_exceeded"}
        elif stub.overflow == "llama-cpp-python":
            message = (f"This model's maximum context length is {stub.n_ctx} tokens. However, you requested "
                       f"{prompt} tokens ({prompt} in the messages, None in the completion). "
                       "Please reduce the length of the messages or completion.")
            error = {"message": message, "type": "invalid_request_error", "param": "messages",
                     "code": "context_length_exceeded"}
        else:
            error = {"code": 400, "type": "exceed_context_size_error", "n_prompt_tokens": prompt,
                     "n_ctx": stub.n_ctx, "message": f"request ({prompt} tokens) exceeds the available "
                                                     f"context size ({stub.n_ctx} tokens), try increasing it"}
        self._json(400, {"error": error})
        return True

    def _no_room(self, body: dict, plain: bool) -> bool:
        """llama-cpp-python whose context holds only ``room`` tokens (llama.cpp's KV cache, its cells
        fragmented by prefix reuse: seen at 980 of n_ctx 1024): a prompt that fits n_ctx but leaves
        no room for one more token fails that token's decode, "llama_decode returned 1".  Streamed,
        a 200 whose stream just ends; plain, a 500 naming it, unless one token is all it asks (that
        one is sampled from the prompt, never decoded: it passes)."""
        stub = self.server.stub
        if prompt_tokens(body.get("messages") or []) < stub.room:
            return False
        if plain and (body.get("max_tokens") or body.get("max_completion_tokens") or 0) <= 1:
            return False
        if plain:
            self._json(500, {"error": {"message": "llama_decode returned 1", "type": "internal_server_error",
                                       "param": None, "code": None}})
        else:
            self._empty_stream()
        return True

    def _empty_stream(self) -> None:
        """llama-cpp-python's stream when its generation failed before the first chunk: a 200, then
        the chunked body ends; then, as uvicorn does after the app failed, it drops the connection."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.write(b"0\r\n\r\n")  # the end of an empty chunked body
        self.wfile.flush()
        time.sleep(0.2)
        self._cut()

    def _whole(self, body: dict, reply: Reply) -> None:
        """A plain (non-streamed) ``chat.completion``, usage included, as every server sends it."""
        text = "" if reply.tool_calls and reply.text == DEFAULT_TEXT else reply.text
        limit = body.get("max_tokens") or body.get("max_completion_tokens")
        if isinstance(limit, int) and limit > 0:
            text = " ".join(text.split(" ")[:limit])
        message: dict = {"role": "assistant", "content": text}
        if reply.tool_calls:
            message["tool_calls"] = [{"id": c.get("id") or f"call_{n}", "type": "function",
                                      "function": {"name": c["name"], "arguments": str(c.get("arguments", ""))}}
                                     for n, c in enumerate(reply.tool_calls)]
        payload = {"id": f"chatcmpl-stub-{len(self.server.stub.requests)}", "object": "chat.completion",
                   "created": int(time.time()), "model": body.get("model") or "stub",
                   "choices": [{"index": 0, "message": message,
                                "finish_reason": "tool_calls" if reply.tool_calls else "stop"}]}
        usage = self._usage(body, reply, text)
        if usage is not None:
            payload["usage"] = usage
        self._json(200, payload)

    def _usage(self, body: dict, reply: Reply, text: str) -> Optional[dict]:
        if reply.usage is None or isinstance(reply.usage, dict):
            return reply.usage
        prompt = prompt_tokens(body.get("messages") or [])
        produced = text + reply.reasoning + "".join(str(c.get("arguments", "")) for c in reply.tool_calls)
        completion = len(count_tokens(produced)) or 1
        usage: dict = {"prompt_tokens": prompt, "completion_tokens": completion,
                       "total_tokens": prompt + completion}
        if self.server.stub.shape == "openrouter":
            usage["cost"] = round((prompt + completion) * COST_PER_TOKEN, 9)
            usage["is_byok"] = False
        return usage

    def _stream_error(self, reply: Reply) -> None:
        error = (reply.error_body or {}).get("error") or {"code": 502, "message": "provider returned error mid-stream"}
        self._send(b"data: " + json.dumps({"error": error}).encode() + b"\n\n", last=True)

    def _cut(self) -> None:
        """Drop the connection mid-body, like a crashed server: no [DONE], no chunk terminator."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _hang(self, ping_every: float = 0.0) -> None:
        """Send nothing (or only keep-alive comments) until the stub stops or the client goes away."""
        self.close_connection = True
        stopping = self.server.stub._stopping
        next_ping = time.monotonic() + ping_every
        while not stopping.is_set():
            if ping_every and time.monotonic() >= next_ping:
                next_ping += ping_every
                self._send(b": ping\n\n")  # raises _Gone (counted) once the client left
            readable, _, _ = select.select([self.connection], [], [], 0.05)
            if readable:
                try:
                    if not self.connection.recv(1, socket.MSG_PEEK):
                        self.server.stub._count_disconnect()
                        return
                except OSError:
                    self.server.stub._count_disconnect()
                    return

    # -------------------------------------------------------------- wire helpers

    def _send(self, data: bytes, last: bool = False) -> None:
        frame = b"%x\r\n%s\r\n" % (len(data), data)
        if last:
            frame += b"0\r\n\r\n"
        held = getattr(self, "_held", None)
        if held is not None:  # ``Reply.together``: written at the last frame, all at once
            held.append(frame)
            if not last:
                return
            frame, self._held = b"".join(held), None
        try:
            self.wfile.write(frame)
        except OSError:
            if not self.server.stub._stopping.is_set():
                self.server.stub._count_disconnect()
            raise _Gone() from None

    def _hold(self, until: Optional[threading.Event]) -> None:
        while until is not None and not until.wait(0.05):
            if self.server.stub._stopping.is_set():
                raise _Gone()

    def _pause(self, seconds: float) -> None:
        if seconds > 0 and self.server.stub._stopping.wait(seconds):
            raise _Gone()

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _split(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[i:i + size] for i in range(0, len(text), size)]


def _tool_call_chunks(calls: list[dict], size: int, request_no: int) -> list[dict]:
    """OpenAI fragments: an opening one with id/type/name, then the arguments in pieces."""
    deltas = []
    for index, call in enumerate(calls):
        args = call.get("arguments", "")
        args = args if isinstance(args, str) else json.dumps(args)
        call_id = call.get("id") or f"call_{request_no}_{index}"
        deltas.append({"index": index, "id": call_id, "type": "function",
                       "function": {"name": call["name"], "arguments": ""}})
        deltas.extend({"index": index, "function": {"arguments": piece}}
                      for piece in _split(args, max(size, 4)))
    return deltas


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description="Loopback OpenAI-compatible stub model server")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--shape", choices=("llamacpp", "openrouter"), default="llamacpp")
    parser.add_argument("--tokenize", choices=("none", "llamacpp", "llama-cpp-python"), default="llamacpp")
    parser.add_argument("--text", default=DEFAULT_TEXT, help="the answer every request gets")
    parser.add_argument("--reasoning", default="")
    parser.add_argument("--chunk-size", type=int, default=8)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between chunks")
    parser.add_argument("--models", default=None, help="comma-separated served model names")
    args = parser.parse_args(argv)
    default = Reply(text=args.text.replace("\\n", "\n"), reasoning=args.reasoning,
                    chunk_size=args.chunk_size, delay=args.delay)
    stub = StubServer(shape=args.shape, tokenize=None if args.tokenize == "none" else args.tokenize,
                      default=default, models=args.models.split(",") if args.models else None,
                      port=args.port)
    stub.start()
    print(stub.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        stub.stop()


if __name__ == "__main__":
    main()
