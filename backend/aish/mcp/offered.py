"""The tools offered to the model, under the names a chat API accepts: ``Offered``.

Why a value of its own: the manager rebuilds it whenever a server connects, leaves, or
changes its tools or its config, and a request thread reads it while that happens.  Each
``Offered`` is built whole and never changed after, so the manager swaps it under its lock
and a reader holds one consistent table (a wire name resolves to the tool that was offered
with it) without taking that lock.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from aish.mcp import names
from aish.mcp.tools import McpTool

PROVIDER_TOOL_LIMIT = 128  # OpenAI's limit on `tools`; others are near it


@dataclass(frozen=True)
class Offered:
    wire: dict[str, McpTool] = field(default_factory=dict)  # wire name -> tool
    user: dict[str, str] = field(default_factory=dict)  # user name (alias.tool) -> wire name

    @classmethod
    def build(cls, tools: Iterable[McpTool]) -> "Offered":
        """The table of ``tools`` (each already filtered and carrying its server's trust)."""
        by_user = {tool.user_name: tool for tool in tools}
        mapping = names.build(by_user)
        return cls({wire: by_user[user] for user, wire in mapping.items()}, mapping)

    def __len__(self) -> int:
        return len(self.wire)

    @property
    def over_limit(self) -> bool:
        """More tools than many providers accept in one request."""
        return len(self.wire) > PROVIDER_TOOL_LIMIT

    def openai_tools(self) -> list[dict]:
        """The ``tools`` field of a chat request ([] when there are none: omit the field)."""
        out = []
        for wire, tool in sorted(self.wire.items()):
            params = dict(tool.input_schema)
            params.setdefault("type", "object")
            if params.get("type") == "object":
                params.setdefault("properties", {})
            function = {"name": wire, "description": tool.description or tool.user_name,
                        "parameters": params}
            out.append({"type": "function", "function": function})
        return out

    def resolve(self, name: str) -> Optional[McpTool]:
        """The tool behind a wire name; a dotted user name is accepted too (models echo them)."""
        tool = self.wire.get(name)
        if tool is None and name in self.user:
            tool = self.wire.get(self.user[name])
        return tool

    def wire_name(self, user_name: str) -> Optional[str]:
        return self.user.get(user_name)

    def tools(self) -> list[McpTool]:
        return sorted(self.wire.values(), key=lambda t: t.user_name)
