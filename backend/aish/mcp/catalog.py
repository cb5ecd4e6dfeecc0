"""Resources and prompts of the connected servers, as text for the shell and the model.

``? :mcp resources`` lists what the servers offer, ``? :mcp resource URI``
attaches one to the next question (as ``? :tree`` does), ``? :mcp prompts``
lists the prompts and ``? :mcp prompt NAME [ARG=VALUE...]`` asks the model
with one.  Servers that offer neither are skipped quietly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from aish.errors import AishError, ToolError
from aish.ipc.cancel import CancelToken
from aish.mcp import results

MAX_ITEMS = 200  # per server and kind: a listing is for reading, not for dumping


@dataclass
class Entry:
    alias: str
    name: str  # a resource's URI, a prompt's name
    title: str = ""
    description: str = ""
    arguments: tuple = ()  # a prompt's (name, required) pairs


def _capable(manager: Any, alias: str, kind: str) -> bool:
    caps = manager.capabilities(alias)
    return caps is None or getattr(caps, kind, None) is not None


def _connected(manager: Any) -> list[str]:
    return [s.alias for s in manager.servers() if s.state == "connected"]


def resources(manager: Any, cancel: Optional[CancelToken] = None) -> tuple[list[Entry], list[str]]:
    """Every server's resources (and resource templates), and one line per server that failed."""
    out, problems = [], []
    for alias in _connected(manager):
        if not _capable(manager, alias, "resources"):
            continue
        try:
            listed = manager.request(alias, "list_resources", cancel=cancel)
        except AishError as err:
            problems.append(f"{alias}: {err.one_line(prefix=False)}")
            continue
        for item in (listed.get("resources") or [])[:MAX_ITEMS]:
            out.append(Entry(alias, str(item.get("uri", "")), str(item.get("title") or item.get("name") or ""),
                             " ".join(str(item.get("description") or "").split())))
    return out, problems


def read_resource(manager: Any, uri: str, alias: Optional[str] = None,
                  cancel: Optional[CancelToken] = None) -> tuple[str, str]:
    """(alias, text) of one resource; the server is the one that listed the URI, or ``alias``."""
    owner = alias
    if owner is None:
        listed, _ = resources(manager, cancel)
        owner = next((e.alias for e in listed if e.name == uri), None)
        if owner is None:
            servers = [a for a in _connected(manager) if _capable(manager, a, "resources")]
            if len(servers) != 1:
                raise ToolError(f"no server lists the resource '{uri}'",
                                hint="'? :mcp resources' lists them; name the server: ALIAS:URI")
            owner = servers[0]
    result = manager.request(owner, "read_resource", cancel=cancel, uri=uri)
    parts = []
    for block in result.get("contents") or []:
        if isinstance(block.get("text"), str):
            parts.append(block["text"])
        else:
            parts.append(results.summarize_block({"type": "resource", "resource": block}))
    return owner, "\n".join(parts)


def prompts(manager: Any, cancel: Optional[CancelToken] = None) -> tuple[list[Entry], list[str]]:
    out, problems = [], []
    for alias in _connected(manager):
        if not _capable(manager, alias, "prompts"):
            continue
        try:
            listed = manager.request(alias, "list_prompts", cancel=cancel)
        except AishError as err:
            problems.append(f"{alias}: {err.one_line(prefix=False)}")
            continue
        for item in (listed.get("prompts") or [])[:MAX_ITEMS]:
            args = tuple((str(a.get("name")), bool(a.get("required"))) for a in item.get("arguments") or [])
            out.append(Entry(alias, str(item.get("name", "")), str(item.get("title") or ""),
                             " ".join(str(item.get("description") or "").split()), args))
    return out, problems


def get_prompt(manager: Any, name: str, arguments: dict, cancel: Optional[CancelToken] = None) -> str:
    """The prompt's messages as one question (``ALIAS.NAME`` or a name only one server has)."""
    listed, _ = prompts(manager, cancel)
    alias, _, bare = name.partition(".") if "." in name else ("", "", name)
    matches = [e for e in listed if e.name == bare and (not alias or e.alias == alias)]
    if not matches:
        raise ToolError(f"no prompt named '{name}'", hint="'? :mcp prompts' lists them")
    if len(matches) > 1:
        raise ToolError(f"'{name}' is a prompt of {', '.join(e.alias for e in matches)}",
                        hint=f"name one: {matches[0].alias}.{bare}")
    entry = matches[0]
    missing = [a for a, required in entry.arguments if required and a not in arguments]
    if missing:
        raise ToolError(f"the prompt {entry.alias}.{bare} needs {', '.join(missing)}",
                        hint=f"? :mcp prompt {entry.alias}.{bare} " + " ".join(f"{a}=..." for a in missing))
    result = manager.request(entry.alias, "get_prompt", cancel=cancel, name=bare,
                             arguments={k: str(v) for k, v in arguments.items()} or None)
    texts = []
    for message in result.get("messages") or []:
        block = message.get("content") or {}
        text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
        texts.append(text if isinstance(text, str) else results.summarize_block(block))
    return "\n\n".join(t for t in texts if t)
