"""A ``CallToolResult`` -> the one text the model reads in its tool turn.

Why: chat APIs take text tool results.  Text blocks pass through; every
other block becomes one summary line, so the model knows something was
there without a megabyte of base64 in the context; long results are cut with
a marker that says how much is missing.
"""
from __future__ import annotations

import json
from typing import Any


def _size(n_bytes: int) -> str:
    if n_bytes < 1024:
        return f"{n_bytes} B"
    if n_bytes < 1024 * 1024:
        return f"{n_bytes / 1024:.0f} KB"
    return f"{n_bytes / (1024 * 1024):.1f} MB"


def _b64_bytes(data: Any) -> int:
    return len(data) * 3 // 4 if isinstance(data, str) else 0


def summarize_block(block: Any) -> str:
    """One line for a non-text block, e.g. ``[image/png, 12 KB]``."""
    if not isinstance(block, dict):
        return "[unreadable content block]"
    kind = block.get("type")
    if kind in ("image", "audio"):
        mime = block.get("mimeType") or kind
        return f"[{mime}, {_size(_b64_bytes(block.get('data')))}]"
    if kind == "resource":
        raw = block.get("resource")
        res: dict = raw if isinstance(raw, dict) else {}
        uri = res.get("uri", "?")
        mime = res.get("mimeType")
        if isinstance(res.get("text"), str):
            size = len(res["text"].encode("utf-8"))
        else:
            size = _b64_bytes(res.get("blob"))
        return f"[resource {uri}" + (f" ({mime})" if mime else "") + f", {_size(size)}]"
    if kind == "resource_link":
        name = block.get("name") or ""
        return f"[resource link {block.get('uri', '?')}" + (f" {name}" if name else "") + "]"
    return f"[{kind or 'unknown'} content]"


def result_text(result: dict) -> str:
    """Text blocks joined; other blocks summarized; structured content when nothing else."""
    parts: list[str] = []
    for block in result.get("content") or []:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif isinstance(block, dict) and block.get("type") == "resource" \
                and isinstance((block.get("resource") or {}).get("text"), str):
            parts.append(summarize_block(block) + "\n" + block["resource"]["text"])
        else:
            parts.append(summarize_block(block))
    if not parts and result.get("structuredContent") is not None:
        parts.append(json.dumps(result["structuredContent"], ensure_ascii=False))
    return "\n".join(parts)


def cut(text: str, limit: int) -> tuple[str, int]:
    """(text cut to ``limit`` characters plus a marker, number of characters dropped)."""
    if limit <= 0 or len(text) <= limit:
        return text, 0
    dropped = len(text) - limit
    return f"{text[:limit]}\n[... cut: {dropped:,} more characters]", dropped
