"""The daemon's dataclass methods, compiled once and kept over restarts, as ``.pyc`` files are.

Why: ``@dataclass`` writes each class's ``__init__``, ``__repr__`` and ``__eq__`` (and a frozen
class's ``__setattr__``, ``__delattr__``, ``__hash__``) as source text and compiles it when
the class is made, one ``exec`` per method.  A cold daemon makes ~50 classes before its first
answer (the config's sections, the broker's events, the request...): parsing and compiling
those texts was about a third of its CPU before the first byte (docs/performance.md).  The
texts are the same on every start, so their compiled code is kept: keyed by the exact text,
for this interpreter's bytecode (its magic number), in the state dir (0600, beside the log),
read once at start and written after the first answer when something new was compiled.

How: ``install`` gives the ``dataclasses`` module an ``exec`` of its own that looks the text up
before compiling it (compiled as that module's own ``exec`` would: no ``__future__`` flags
inherited); everything else ``dataclasses`` does is unchanged, and a text it never saw, a
missing or unreadable file, or another interpreter's file means only that it compiles as
before.  The file is this user's, like the bytecode caches of the installed code.
"""
from __future__ import annotations

import builtins
import marshal
import os
import sys
import threading
from pathlib import Path
from typing import Any, Optional

FILE = "dataclass-methods.bin"
_MAGIC = getattr(sys.modules.get("_frozen_importlib_external"), "MAGIC_NUMBER", b"")


class MethodCache:
    """Compiled code by source text; ``used`` is what this process needed (what ``save`` keeps,
    so the file follows the installed code instead of growing with every upgrade)."""

    def __init__(self, path: Optional[Path]) -> None:
        self.path = path
        self.codes: dict[str, Any] = _read(path)
        self.used: dict[str, Any] = {}
        self.compiled = 0  # texts compiled by this process (not found in the file)
        self._lock = threading.Lock()

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:  # noqa: A002 - exec's own names
        """``exec`` for ``dataclasses``: a text's code from the file, else compiled and kept."""
        if not isinstance(source, str):
            builtins.exec(source, globals, locals)
            return
        code = self.used.get(source) or self.codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled += 1
        self.used[source] = code
        builtins.exec(code, globals, locals)

    def save(self) -> None:
        """Write what this process used, if anything had to be compiled (never raises)."""
        if self.path is None or not self.compiled:
            return
        with self._lock:
            data = marshal.dumps((_MAGIC, dict(self.used)))
            self.compiled = 0
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, self.path)
        except OSError:
            try:
                tmp.unlink()
            except OSError:
                pass


def _read(path: Optional[Path]) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        with open(path, "rb") as f:
            magic, codes = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return codes if magic == _MAGIC and _MAGIC and isinstance(codes, dict) else {}


_installed: Optional[MethodCache] = None


def install(state_dir: Optional[Path]) -> MethodCache:
    """Make ``dataclasses`` use the cache in ``state_dir`` (None: in memory only); once per
    process, before the daemon's own modules are imported."""
    global _installed
    if _installed is None:
        import dataclasses

        _installed = MethodCache(state_dir / FILE if state_dir is not None else None)
        dataclasses.exec = _installed.exec  # type: ignore[attr-defined]  # (shadows the builtin there only)
    return _installed


def save() -> None:
    """Keep what this daemon compiled (after its first answer)."""
    if _installed is not None:
        _installed.save()
