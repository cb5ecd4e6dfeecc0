"""One MCP session: handshake, tool discovery, tool calls, over either transport.

Why the re-initialize lives here and not in the transport: a 404 on an expired
session means the whole handshake must run again (new session id, new
``notifications/initialized``) before the failed request is retried, and only
once, so a server that forgets every session cannot loop us.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol

from aish.version import __version__
from aish.ipc.cancel import CancelToken
from aish.errors import Cancelled, ToolError
from aish.mcp import jsonrpc

MAX_PAGES = 100  # tools/list pages; a server whose cursors never end must not hang us


class Transport(Protocol):
    session_id: Optional[str]
    protocol_version: Optional[str]

    def reset(self) -> None: ...
    def request(self, msg: dict, timeout: float) -> dict: ...
    def notify(self, msg: dict, timeout: float) -> None: ...
    def close(self, timeout: float = 3.0) -> None: ...


@dataclass
class McpTool:
    """A tool as its server describes it; ``trusted`` is the server's config flag."""

    alias: str
    name: str
    description: str = ""
    input_schema: dict = field(default_factory=lambda: {"type": "object", "properties": {}})
    annotations: Optional[dict] = None
    trusted: bool = False

    @property
    def user_name(self) -> str:
        return f"{self.alias}.{self.name}"

    @property
    def read_only(self) -> bool:
        return read_only_hint(self.annotations)


def read_only_hint(annotations: Optional[dict]) -> bool:
    """The server says the tool changes nothing (MCP ``readOnlyHint``).

    A claim, not a proof: only a server the user marked trusted may let it skip
    the approval question; for the others it is just shown.
    """
    return bool(annotations) and annotations.get("readOnlyHint") is True


class McpSession:
    def __init__(self, alias: str, transport: Transport, *, timeout: float = 30.0,
                 trusted: bool = False, log: Optional[logging.Logger] = None) -> None:
        self.alias = alias
        self.transport = transport
        self.timeout = timeout
        self.trusted = trusted
        self.log = log or logging.getLogger("aish.mcp")
        self.server_info: dict = {}
        self.protocol_version: Optional[str] = None
        self.tools: list[McpTool] = []
        self.reinitialized = 0  # how often an expired session was renewed (status, tests)
        self._reinit_lock = threading.Lock()

    def open(self) -> "McpSession":
        """Handshake and fetch the tool list (cached for the session; a server that changes it says listChanged)."""
        self._handshake()
        self.tools = self.list_tools()
        return self

    def list_tools(self) -> list[McpTool]:
        tools: list[McpTool] = []
        seen: set[str] = set()
        cursor: Optional[str] = None
        for _ in range(MAX_PAGES):
            result = self._request("tools/list", {"cursor": cursor} if cursor else None) or {}
            for raw in result.get("tools") or []:
                tool = self._tool(raw)
                if tool is not None and tool.name not in seen:
                    seen.add(tool.name)
                    tools.append(tool)
            cursor = result.get("nextCursor")
            if not cursor:
                return tools
        self.log.warning("mcp: %s: tools/list still paginating after %d pages; using what arrived",
                         self.alias, MAX_PAGES)
        return tools

    def call_tool(self, name: str, arguments: dict, cancel: Optional[CancelToken] = None) -> dict:
        """The raw ``CallToolResult``; JSON-RPC errors raise ``JsonRpcError``.

        The call runs on a helper thread so a cancel returns at once; the
        server is told with ``notifications/cancelled`` and the abandoned
        request ends with its own time-out.
        """
        params = {"name": name, "arguments": arguments}
        if cancel is None:
            return self._request("tools/call", params) or {}
        box: dict[str, Any] = {}
        done = threading.Event()
        msg = jsonrpc.request("tools/call", params)

        def work() -> None:
            try:
                box["result"] = self._send(msg)
            except BaseException as exc:  # handed to the waiting thread
                box["error"] = exc
            finally:
                done.set()

        unregister = cancel.on_cancel(done.set)
        try:
            threading.Thread(target=work, name=f"aish-mcp-{self.alias}", daemon=True).start()
            done.wait(self.timeout + 5.0)
        finally:
            unregister()
        if "result" in box:
            return box["result"] or {}
        if "error" in box:
            raise box["error"]
        if cancel.cancelled:
            self._notify_cancelled(msg["id"])
            raise Cancelled()
        raise ToolError(f"{self.alias}: no answer within {self.timeout:g}s",
                        hint=f"raise [mcp.servers.{self.alias}] timeout")

    def close(self) -> None:
        self.transport.close()

    # ---------------------------------------------------------------- details
    def _handshake(self) -> None:
        self.transport.reset()
        result = jsonrpc.result_of(self.transport.request(jsonrpc.request("initialize", {
            "protocolVersion": jsonrpc.LATEST_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "aish", "version": __version__},
        }), self.timeout)) or {}
        version = result.get("protocolVersion") or "2025-03-26"
        if version not in jsonrpc.PROTOCOL_VERSIONS:
            raise ToolError(f"{self.alias} speaks MCP protocol {version}, which aish does not know",
                            hint=f"aish speaks {', '.join(jsonrpc.PROTOCOL_VERSIONS)}")
        self.protocol_version = version
        self.transport.protocol_version = version
        self.server_info = result.get("serverInfo") or {}
        self.transport.notify(jsonrpc.notification("notifications/initialized"), self.timeout)

    def _request(self, method: str, params: Optional[dict]) -> Any:
        return self._send(jsonrpc.request(method, params))

    def _send(self, msg: dict) -> Any:
        used = self.transport.session_id
        try:
            response = self.transport.request(msg, self.timeout)
        except jsonrpc.SessionExpired:
            with self._reinit_lock:  # two threads that both saw the 404 renew it once
                if self.transport.session_id == used:
                    self.log.info("mcp: %s: session expired; initializing again", self.alias)
                    self._handshake()
                    self.reinitialized += 1
            try:
                response = self.transport.request(msg, self.timeout)
            except jsonrpc.SessionExpired:
                raise ToolError(f"{self.alias}: the server forgot the new session at once",
                                hint=f"try 'aish mcp connect {self.alias}'") from None
        return jsonrpc.result_of(response)

    def _notify_cancelled(self, request_id: Any) -> None:
        try:
            self.transport.notify(jsonrpc.notification("notifications/cancelled", {
                "requestId": request_id, "reason": "cancelled by the user"}), 3.0)
        except ToolError:
            pass

    def _tool(self, raw: Any) -> Optional[McpTool]:
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"]:
            return None
        schema = raw.get("inputSchema")
        if not isinstance(schema, dict):
            schema = {"type": "object", "properties": {}}
        annotations = raw.get("annotations")
        return McpTool(alias=self.alias, name=raw["name"], description=str(raw.get("description") or ""),
                       input_schema=schema,
                       annotations=annotations if isinstance(annotations, dict) else None,
                       trusted=self.trusted)
