"""The chat templates a daemon measured, left for the next one (the state dir's
``chat-templates.bin``): 32-byte records, a 16-byte digest of what was measured (endpoint, model
and what its server told of itself, ``Limits``), then the template's tokens per message and per
request (two little-endian doubles).

Why: a daemon measures a local model's template with two one-token chats before its first
answer that needs it; a restarted one did it again (or, finding its token counts kept, guessed
the template until some ask found the tokenizer, then measured on that ask's way).  Digests and
numbers only: no endpoint (it may hold a password) or model name; written 0600 and replaced
whole, read back bounded, as ``token_file``.
"""
from __future__ import annotations

import math
import struct
from typing import Any, Iterable

from aish.llm import token_file

try:  # hashlib's own blake2b, without hashlib: its import loads OpenSSL (~2 ms of a cold first ask)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

_RECORD = struct.Struct("<16sdd")
LIMIT = 64  # records kept: endpoints and models in use, not every one ever measured


def digest(*parts: str) -> bytes:
    """The 16-byte digest a record is found by."""
    return blake2b("\0".join(parts).encode("utf-8", "replace"), digest_size=16).digest()


def write(path: Any, templates: Iterable[tuple[bytes, float, float]]) -> None:
    """Replace the file with ``templates`` (digest, per message, per request); never raises."""
    if path is None:
        return
    token_file.replace_private(path, b"".join(_RECORD.pack(key, per_message, fixed)
                                              for key, per_message, fixed in templates))


def read(path: Any) -> list[tuple[bytes, float, float]]:
    """At most ``LIMIT`` records; a missing or unreadable file, or a value out of reason: none."""
    if path is None:
        return []
    try:
        with open(path, "rb") as handle:
            data = handle.read(_RECORD.size * LIMIT)
    except OSError:
        return []
    records = [_RECORD.unpack_from(data, at) for at in range(0, len(data) - _RECORD.size + 1, _RECORD.size)]
    return [(digest, per_message, fixed) for digest, per_message, fixed in records
            if all(math.isfinite(n) and 0 <= n < 1e4 for n in (per_message, fixed))]
