"""A server's tools as aish keeps them: ``McpTool``, and which of them a config lets through.

Annotations are the server's own claims: ``trusted`` (the user's flag in the
config, read afresh on every config change) decides whether a read-only
claim may skip a question.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Optional


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

    def with_trust(self, trusted: bool) -> "McpTool":
        return self if trusted == self.trusted else replace(self, trusted=trusted)


def read_only_hint(annotations: Optional[dict]) -> bool:
    """The server says the tool changes nothing (MCP ``readOnlyHint``).

    A claim, not a proof: only a server the user marked trusted may let it skip
    the approval question; for the others it is just shown.
    """
    return annotations is not None and annotations.get("readOnlyHint") is True


def from_sdk(alias: str, raw: Any) -> Optional[McpTool]:
    """An SDK ``Tool`` (or its JSON) -> ``McpTool``; None for one without a usable name."""
    data = raw.model_dump(by_alias=True, mode="json", exclude_none=True) if hasattr(raw, "model_dump") else raw
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not data["name"]:
        return None
    schema = data.get("inputSchema")
    if not isinstance(schema, dict):
        schema = {"type": "object", "properties": {}}
    annotations = data.get("annotations")
    return McpTool(alias=alias, name=data["name"], description=str(data.get("description") or ""),
                   input_schema=schema, annotations=annotations if isinstance(annotations, dict) else None)


def allowed(name: str, enabled: Iterable[str], disabled: Iterable[str]) -> bool:
    """``enabled_tools`` (when given) lists the tools offered; ``disabled_tools`` removes some.
    Both take shell-style patterns (``read_*``)."""
    enabled = list(enabled or [])
    if enabled and not any(fnmatch.fnmatchcase(name, p) for p in enabled):
        return False
    return not any(fnmatch.fnmatchcase(name, p) for p in disabled or [])
