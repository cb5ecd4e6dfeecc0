"""Streamable HTTP transport (MCP spec 2025-03-26 and later) and plain-JSON servers.

One POST per message.  The server answers a request either with
``application/json`` or with an SSE stream whose ``message`` events carry
JSON-RPC; we read until the response with our id arrives, answering anything
the server asks on the way (``ping``).  Servers that answer plain JSON without
sessions (plain-JSON servers) are the same code path with no session id.

HTTP goes through ``aish.net`` (proxy/CA policy, typed errors) and the
event stream is read by sseclient-py, as the chat broker reads its own.

Why the header rules matter: the official SDK refuses a POST whose ``Accept``
lacks either type (406), a request without the session id (400), and an
expired session answers 404, which the session layer turns into one
re-initialize.
"""
from __future__ import annotations

import json
import logging
import time
from typing import Any, Iterator, Optional
from urllib.parse import urlsplit, urlunsplit

from sseclient import SSEClient

from aish.errors import (AishError, ConnectFailed, ConnectTimeout, DnsFailure, ReadTimeout, TlsError,
                         ToolError)
from aish.mcp import jsonrpc
from aish.net.client import HttpClient, body_chunks

ACCEPT = "application/json, text/event-stream"
CONNECT_TIMEOUT = 5.0


def display_url(url: str) -> str:
    """The URL without user info or query: either may carry a token."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<invalid url>"
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


class HttpTransport:
    def __init__(self, url: str, bearer: Optional[str] = None,
                 log: Optional[logging.Logger] = None) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ToolError(f"'{display_url(url)}' is not an http(s) URL",
                            hint="give the server's MCP endpoint, e.g. http://127.0.0.1:8000/mcp")
        self.url = url
        self.shown = display_url(url)
        self._bearer = bearer
        self.log = log or logging.getLogger("aish.mcp")
        self.session_id: Optional[str] = None
        self.protocol_version: Optional[str] = None
        self._http = HttpClient()

    def reset(self) -> None:
        """Forget the session (before a re-initialize)."""
        self.session_id = None
        self.protocol_version = None

    # ---------------------------------------------------------------- calls
    def request(self, msg: dict, timeout: float) -> dict:
        """POST a request; return the JSON-RPC response carrying its id."""
        deadline = time.monotonic() + timeout
        resp = self._post(msg, timeout)
        try:
            if msg.get("method") == "initialize":
                self.session_id = resp.headers.get("Mcp-Session-Id") or None
            ctype = resp.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if ctype == "text/event-stream":
                return self._from_stream(resp, msg["id"], deadline)
            body = self._body(resp, msg, timeout)
            if not body.strip():
                raise ToolError(f"{self.shown} sent an empty answer (HTTP {resp.status_code}) "
                                f"to {msg.get('method')}", hint="is this an MCP endpoint?")
            return self._from_json(body, msg["id"])
        finally:
            resp.close()

    def notify(self, msg: dict, timeout: float) -> None:
        """POST a notification or a response; the server answers 202 without a body."""
        self._post(msg, timeout).close()

    def close(self, timeout: float = 3.0) -> None:
        """End the session with DELETE (405 means the server does not allow it: fine)."""
        try:
            if self.session_id:
                try:
                    self._http.delete(self.url, headers=self._headers(json_body=False), shown=self.shown,
                                      timeout=(min(CONNECT_TIMEOUT, timeout), timeout)).close()
                except AishError as exc:
                    self.log.info("mcp: DELETE %s failed: %s", self.shown, type(exc).__name__)
        finally:
            self.reset()
            self._http.close()

    # ---------------------------------------------------------------- details
    def _headers(self, json_body: bool = True) -> dict:
        headers = {"Accept": ACCEPT}
        if json_body:
            headers["Content-Type"] = "application/json"
        if self._bearer:
            headers["Authorization"] = f"Bearer {self._bearer}"
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        return headers

    def _post(self, msg: dict, timeout: float) -> Any:
        had_session = bool(self.session_id)
        try:
            resp = self._http.post(self.url, data=json.dumps(msg).encode("utf-8"),
                                   headers=self._headers(), stream=True, shown=self.shown,
                                   timeout=(min(CONNECT_TIMEOUT, timeout), timeout))
        except AishError as err:
            raise self._tool_error(err, msg, timeout) from None
        if resp.status_code < 400:
            return resp
        detail = _error_detail(resp)
        resp.close()
        status = resp.status_code
        if status == 404 and had_session:
            raise jsonrpc.SessionExpired(f"{self.shown}: session expired")
        if status in (401, 403):
            raise ToolError(f"{self.shown} refused the credentials (HTTP {status})",
                            hint="check auth_token / auth_env of this server")
        if status == 404:
            raise ToolError(f"{self.shown}: HTTP 404", hint="is this the MCP endpoint? it often ends in /mcp")
        text = f"{self.shown}: HTTP {status}" + (f": {detail}" if detail else "")
        raise ToolError(text)

    def _tool_error(self, err: AishError, msg: dict, timeout: float) -> ToolError:
        """What a failed request means for an MCP server, in words that say what to do."""
        if isinstance(err, ConnectTimeout):
            return ToolError(f"cannot reach {self.shown} within {min(CONNECT_TIMEOUT, timeout):g}s",
                             hint="is the server running?")
        if isinstance(err, ReadTimeout):
            return ToolError(f"{self.shown} did not answer {msg.get('method') or 'response'} within "
                             f"{timeout:g}s", hint="raise the server's timeout in the config")
        if isinstance(err, (ConnectFailed, DnsFailure, TlsError)):
            return ToolError(f"cannot connect to {self.shown}", hint="is the server running?")
        return ToolError(f"{self.shown}: {err.message}", hint=err.hint)

    def _body(self, resp: Any, msg: dict, timeout: float) -> bytes:
        """A JSON answer's whole body (a read that times out or breaks is a ToolError)."""
        try:
            return b"".join(body_chunks(resp, self.shown, timeout))
        except AishError as err:
            raise self._tool_error(err, msg, timeout) from None

    def _from_json(self, body: bytes, want_id: Any) -> dict:
        try:
            data = json.loads(body)
        except ValueError:
            raise ToolError(f"{self.shown} answered with something that is not JSON") from None
        for msg in data if isinstance(data, list) else [data]:
            if jsonrpc.is_response(msg) and jsonrpc.same_id(msg.get("id"), want_id):
                return msg
        raise ToolError(f"{self.shown} answered without a response to request {want_id}")

    def _from_stream(self, resp: Any, want_id: Any, deadline: float) -> dict:
        try:
            return self._read_stream(resp, want_id, deadline)
        except jsonrpc.JsonRpcError:
            raise
        except ToolError as err:
            if err.message.startswith(self.shown):
                raise
            raise ToolError(f"{self.shown}: {err.message}", hint=err.hint) from None

    def _read_stream(self, resp: Any, want_id: Any, deadline: float) -> dict:
        for event, data in _sse_events(resp, max(0.1, deadline - time.monotonic())):
            if event not in ("", "message") or not data:
                continue
            try:
                msg = json.loads(data)
            except ValueError:
                self.log.info("mcp: %s sent a non-JSON event", self.shown)
                continue
            if jsonrpc.is_response(msg) and jsonrpc.same_id(msg.get("id"), want_id):
                return msg
            if jsonrpc.is_server_request(msg):
                self._answer(msg, max(1.0, deadline - time.monotonic()))
            if time.monotonic() > deadline:
                break
        if time.monotonic() > deadline:
            raise ToolError(f"{self.shown} did not answer within the time-out",
                            hint="raise the server's timeout in the config")
        raise ToolError(f"{self.shown} closed the event stream before answering request {want_id}")

    def _answer(self, msg: dict, timeout: float) -> None:
        try:
            self.notify(jsonrpc.answer_server_request(msg), min(timeout, 10.0))
        except ToolError as err:
            self.log.info("mcp: answering %s to %s failed: %s", msg.get("method"), self.shown, err)


def _sse_events(resp: Any, timeout: float) -> Iterator[tuple[str, str]]:
    """(event, data) pairs of an SSE stream, read by sseclient-py."""
    try:
        for event in SSEClient(body_chunks(resp, "the server", timeout)).events():
            yield event.event, event.data
    except ReadTimeout:
        raise ToolError("the server stopped sending before it answered (time-out)",
                        hint="raise the server's timeout in the config") from None
    except AishError:
        raise ToolError("the connection broke before the server answered") from None


def _error_detail(resp: Any) -> str:
    """A short reason from an error body (JSON-RPC error message or first text line)."""
    try:
        body = resp.raw.read(4096, decode_content=True) if resp.raw is not None else b""
    except Exception:
        return ""
    try:
        data = json.loads(body)
        if isinstance(data, dict):
            err = data.get("error")
            if isinstance(err, dict) and err.get("message"):
                return str(err["message"])[:200]
            if isinstance(err, str):
                return err[:200]
    except ValueError:
        pass
    text = body.decode("utf-8", "replace").strip().splitlines()
    return text[0][:200] if text else ""
