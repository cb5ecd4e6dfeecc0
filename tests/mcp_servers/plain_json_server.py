"""A plain-JSON MCP server like the seed's lmcp: one POST, one JSON answer, no sessions.

Runs in the test process (a thread), so tests can read what it received:
``server.requests`` holds (method, headers) for every POST and DELETE.
It checks a bearer token when given one, paginates ``tools/list`` by
``page_size``, and answers an unknown tool with a JSON-RPC error, as lmcp does.
With ``sessions=True`` it hands out ``Mcp-Session-Id`` and answers a request with an
unknown id as the TypeScript SDK's servers do (400, "No valid session ID provided");
``forget_sessions()`` is a restart.
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional

from tests.prompt_stop import PromptStop

class _Server(PromptStop, ThreadingHTTPServer):
    daemon_threads = True


BASE_TOOLS = [
    {"name": "echo", "description": "Echo the text back.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "sleep", "description": "Sleep, then answer.",
     "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}}},
    {"name": "fail", "description": "Fails with isError.", "inputSchema": {"type": "object"}},
]


class PlainServer:
    def __init__(self, token: Optional[str] = None, page_size: Optional[int] = None,
                 extra_tools: int = 0, names: tuple = (), sessions: bool = False) -> None:
        self.token = token
        self.sessions: Optional[set] = set() if sessions else None
        self.page_size = page_size
        self.tools = BASE_TOOLS + [
            {"name": f"tool_{i:03d}", "description": f"Generated tool {i}.",
             "inputSchema": {"type": "object"}} for i in range(extra_tools)] + [
            {"name": name, "description": f"Tool {name}.", "inputSchema": {"type": "object"},
             "annotations": {"readOnlyHint": True}} for name in names]
        self.requests: list[tuple[str, dict]] = []
        self._httpd = _Server(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/mcp"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def methods(self) -> list[str]:
        return [method for method, _ in self.requests]

    def forget_sessions(self) -> None:
        if self.sessions is not None:
            self.sessions.clear()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def answer(self, msg: dict) -> dict:
        method, params, rid = msg.get("method"), msg.get("params") or {}, msg.get("id")
        if method == "initialize":
            return {"jsonrpc": "2.0", "id": rid, "result": {
                "protocolVersion": "2025-03-26", "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "plain", "version": "0.1"}}}
        if method == "tools/list":
            start = int(params.get("cursor") or 0)
            size = self.page_size or len(self.tools)
            result: dict = {"tools": self.tools[start:start + size]}
            if start + size < len(self.tools):
                result["nextCursor"] = str(start + size)
            return {"jsonrpc": "2.0", "id": rid, "result": result}
        if method == "tools/call":
            name, args = params.get("name"), params.get("arguments") or {}
            if not any(tool["name"] == name for tool in self.tools):
                return {"jsonrpc": "2.0", "id": rid,
                        "error": {"code": -32602, "message": f"Unknown tool: {name}"}}
            if name == "echo":
                return _text(rid, str(args.get("text", "")))
            if name == "sleep":
                time.sleep(float(args.get("seconds", 0)))
                return _text(rid, "slept")
            if name == "fail":
                return {"jsonrpc": "2.0", "id": rid, "result": {
                    "content": [{"type": "text", "text": "Error: disk on fire"}], "isError": True}}
            return _text(rid, f"called {name}")
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"Method not found: {method}"}}

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet tests
                pass

            def _send(self, status: int, body: Optional[dict] = None, session: str = "") -> None:
                data = json.dumps(body).encode() if body is not None else b""
                try:
                    self.send_response(status)
                    if session:
                        self.send_header("Mcp-Session-Id", session)
                    if body is not None:
                        self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                    pass

            def do_DELETE(self) -> None:
                server.requests.append(("DELETE", dict(self.headers)))
                self._send(405)

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                msg = json.loads(body)
                server.requests.append((msg.get("method") or "response", dict(self.headers)))
                if server.token and self.headers.get("Authorization") != f"Bearer {server.token}":
                    self._send(401, {"error": "unauthorized"})
                    return
                session = ""
                if server.sessions is not None:
                    if msg.get("method") == "initialize":
                        session = uuid.uuid4().hex
                        server.sessions.add(session)
                    elif self.headers.get("Mcp-Session-Id") not in server.sessions:
                        self._send(400, {"jsonrpc": "2.0", "id": msg.get("id"), "error": {
                            "code": -32000, "message": "Bad Request: No valid session ID provided"}})
                        return
                if "id" not in msg:
                    self._send(202)
                    return
                self._send(200, server.answer(msg), session)

        return Handler


def _text(rid, text: str) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": text}]}}
