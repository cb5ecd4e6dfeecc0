"""The user's home directory as the judge reads it: HOME, read cheaply at every judgement.

Rules ask whose path a target is (``~``, ``$HOME``, ``/home/NAME``) several times a command; reading HOME
through ``os.environ.get`` each time is a measurable share of a judgement, and caching it for good would miss
a test's or a daemon client's change of HOME.  So this module keeps the decoded value beside the bytes it came
from and reads it again only when those bytes change."""
from __future__ import annotations

import os


def my_home() -> str:
    """The user's home, as HOME gives it (read at each call: tests and a daemon's client may change it).

    ``os.environ.get`` encodes the name and decodes the value on every call (~1 µs, asked a few times a command);
    on POSIX the environment's own bytes are read instead and the decoded home kept while they are the same
    object (setting HOME stores new bytes; a mapping that is not ``os._Environ`` is read as a mapping)."""
    global _home_seen
    data = getattr(os.environ, "_data", None)
    raw = data.get(b"HOME") if type(data) is dict else None  # (Windows keys it by str: None, read as a mapping)
    if raw is not None and raw is _home_seen[0]:
        return _home_seen[1]
    home = os.environ.get("HOME", "").rstrip("/")
    if raw is not None:
        _home_seen = (raw, home)
    return home


_home_seen: tuple = (None, "")  # (HOME's bytes in os.environ, the home read from them)
