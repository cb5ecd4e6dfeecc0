"""aish's modules parsed and walked once per process: the static checks (layering and circles,
who exits, who imports HTTP libraries, the safety package's imports) each look at every module;
parsing all of backend/aish costs about 0.6 s of CPU and each ``ast.walk`` over it about 0.2 s
(the checks walked it six times), so the walk is kept too, as a flat list per module."""
from __future__ import annotations

import ast
import functools
import os
from pathlib import Path


def parsed(path: Path) -> ast.Module:
    """The module's syntax tree, shared between the checks: read it, never change it."""
    return _parse(*_key(path))


def walked(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the module, in ``ast.walk``'s order (shared, read-only)."""
    return _walk(*_key(path))


def nodes_of(path: Path, *types: type) -> tuple[ast.AST, ...]:
    """The module's nodes of these types, in ``ast.walk``'s order (shared, read-only)."""
    return _of_types(*_key(path), types)


def forget() -> None:
    """Drop every kept tree (the next check parses again)."""
    for cache in (_parse, _walk, _of_types):
        cache.cache_clear()


def _key(path: Path) -> tuple[str, int, int]:
    stat = os.stat(path)
    return os.path.realpath(path), stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=None)
def _parse(path: str, _mtime_ns: int, _size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def _walk(path: str, mtime_ns: int, size: int) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(_parse(path, mtime_ns, size)))


@functools.lru_cache(maxsize=None)
def _of_types(path: str, mtime_ns: int, size: int, types: tuple[type, ...]) -> tuple[ast.AST, ...]:
    return tuple(node for node in _walk(path, mtime_ns, size) if isinstance(node, types))
