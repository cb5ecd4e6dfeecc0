"""``alias.tool`` (what users read and configure) <-> the function name on the wire.

Chat APIs accept function names matching ``^[a-zA-Z0-9_-]{1,64}$``; cloud
providers reject the dot.  The wire name is ``alias__tool`` when that is
valid, unambiguous and short enough; otherwise it is cleaned, cut and given a
hash of the user name, so it stays the same from one request to the next and
two tools never share one.
"""
from __future__ import annotations

import hashlib
import re
from typing import Iterable

MAX_LEN = 64
SEP = "__"
_VALID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_BAD = re.compile(r"[^A-Za-z0-9_-]")


def is_valid(name: str) -> bool:
    return bool(_VALID.match(name))


def _plain(user_name: str) -> str:
    alias, _, tool = user_name.partition(".")
    return f"{alias}{SEP}{tool}"


def _hashed(user_name: str, digits: int) -> str:
    digest = hashlib.sha256(user_name.encode("utf-8")).hexdigest()[:digits]
    alias, _, tool = user_name.partition(".")
    base = _BAD.sub("_", f"{alias}{SEP}{tool}")
    return f"{base[:MAX_LEN - digits - 1]}_{digest}"


def build(user_names: Iterable[str]) -> dict[str, str]:
    """Map every user name to a distinct wire name.

    Deterministic for a given set: names are placed in sorted order, plain
    names first, so the mapping does not depend on which server connected
    first.
    """
    names = sorted(set(user_names))
    taken: set[str] = set()
    out: dict[str, str] = {}
    plain: dict[str, list[str]] = {}
    for name in names:
        candidate = _plain(name)
        if is_valid(candidate):
            plain.setdefault(candidate, []).append(name)
    for candidate, owners in plain.items():
        if len(owners) == 1:  # ambiguous plain names (a__b.c vs a.b__c) all get hashes
            out[owners[0]] = candidate
            taken.add(candidate)
    for name in names:
        if name in out:
            continue
        for digits in (8, 12, 16, 24, 32):
            candidate = _hashed(name, digits)
            if candidate not in taken:
                break
        out[name] = candidate
        taken.add(candidate)
    return out
