"""The file of learned token counts a daemon leaves for the next one (the state dir's
``token-counts.bin``): 20-byte records, a text's 16-byte digest then its count (4 bytes,
little-endian).

Why a file of its own format: it holds digests and numbers only, never a text, so it can
outlive the conversation it came from without keeping a word of it; it is written 0600
and replaced whole (a torn write leaves the old file or none), and read back bounded.
"""
from __future__ import annotations

import os
from typing import Any, Iterable

RECORD = 20


def write(path: Any, counts: Iterable[tuple[bytes, int]]) -> None:
    """Replace the file with ``counts`` (digest, count); never raises."""
    if path is None:
        return
    replace_private(path, b"".join(digest + n.to_bytes(4, "little") for digest, n in counts if 0 <= n < 1 << 32))


def replace_private(path: Any, data: bytes) -> None:
    """Replace the file with ``data``, 0600, whole (a torn write leaves the old file or none);
    never raises."""
    tmp = f"{path}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        return


def read(path: Any, limit: int) -> list[tuple[bytes, int]]:
    """At most ``limit`` (digest, count) records; a missing or unreadable file: none."""
    if path is None:
        return []
    try:
        with open(path, "rb") as handle:
            data = handle.read(RECORD * limit)
    except OSError:
        return []
    return [(data[at:at + 16], int.from_bytes(data[at + 16:at + RECORD], "little"))
            for at in range(0, len(data) - RECORD + 1, RECORD)]
