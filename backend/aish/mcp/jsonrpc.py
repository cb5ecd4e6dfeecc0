"""JSON-RPC 2.0 message shapes shared by both transports.

Why a module of its own: the HTTP and stdio transports must agree exactly on
what counts as "the answer to my request" and on how a server's error envelope
becomes an exception, because the bridge treats a JSON-RPC error differently
from a tool that reports ``isError``.
"""
from __future__ import annotations

import itertools
import threading
from typing import Any, Optional

from aish.errors import ToolError

# Versions reachable through the initialize handshake, newest first.  We offer
# the newest and accept whatever of these the server counter-offers.
PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
LATEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[0]

METHOD_NOT_FOUND = -32601


class JsonRpcError(ToolError):
    """The server answered a request with a JSON-RPC ``error`` object."""

    def __init__(self, message: str, *, code: Any = None, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


class SessionExpired(ToolError):
    """HTTP 404 on a request that carried a session id: initialize again."""


class _Ids:
    """Request ids unique per process (a server only needs them unique per session)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._lock = threading.Lock()

    def next(self) -> int:
        with self._lock:
            return next(self._counter)


_ids = _Ids()


def request(method: str, params: Optional[dict] = None) -> dict:
    msg: dict = {"jsonrpc": "2.0", "id": _ids.next(), "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def notification(method: str, params: Optional[dict] = None) -> dict:
    msg: dict = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def is_response(msg: Any) -> bool:
    return isinstance(msg, dict) and "id" in msg and ("result" in msg or "error" in msg) \
        and "method" not in msg


def is_server_request(msg: Any) -> bool:
    return isinstance(msg, dict) and "method" in msg and "id" in msg


def answer_server_request(msg: dict) -> dict:
    """Answer what a server may ask of us: ``ping`` gets ``{}``, the rest "not supported".

    aish offers no client capabilities (sampling, roots, elicitation), so a
    well-behaved server only pings; anything else is refused rather than left
    hanging, which would stall the server's own request.
    """
    if msg.get("method") == "ping":
        return {"jsonrpc": "2.0", "id": msg.get("id"), "result": {}}
    return {"jsonrpc": "2.0", "id": msg.get("id"),
            "error": {"code": METHOD_NOT_FOUND, "message": f"aish does not support {msg.get('method')}"}}


def result_of(msg: dict) -> Any:
    """The ``result`` of a response, or raise ``JsonRpcError`` with the server's message."""
    if "error" in msg and msg["error"] is not None:
        err = msg["error"]
        if isinstance(err, dict):
            text = str(err.get("message") or "error without a message")
            raise JsonRpcError(text, code=err.get("code"), data=err.get("data"))
        raise JsonRpcError(str(err))
    return msg.get("result")


def same_id(a: Any, b: Any) -> bool:
    """Ids compare as strings: some servers echo a numeric id back as text."""
    return a is not None and b is not None and str(a) == str(b)
