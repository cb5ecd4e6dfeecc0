"""aish's modules parsed once per process: the static checks (layering and circles, who exits,
who imports HTTP libraries, the safety package's imports) each walk every module, and parsing
all of backend/aish costs about 0.8 s of CPU."""
from __future__ import annotations

import ast
import functools
import os
from pathlib import Path


def parsed(path: Path) -> ast.Module:
    """The module's syntax tree, shared between the checks: read it, never change it."""
    stat = os.stat(path)
    return _parse(os.path.realpath(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=None)
def _parse(path: str, _mtime_ns: int, _size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"))
