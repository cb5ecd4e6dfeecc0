"""aish's modules parsed and walked once per process: the static checks (layering and circles,
who exits, who imports HTTP libraries, the safety package's imports, the rules' own checks) each
look at every module; parsing all of backend/aish costs about 0.5 s of CPU with the collector
paused (tests/collector_pauses.py) and ``ast.walk`` over it about 0.3 s, so the walk is kept too,
as a flat list per module, with the places of each kind of node in it: a check asking for some
kinds of node gets them from those places, not from another pass over the module's ~1,000 nodes
(five kinds of question went over all of aish's 550,000 nodes five times, ~0.05 s a pass)."""
from __future__ import annotations

import ast
import functools
import gc
import os
from pathlib import Path

PASSES: dict[str, int] = {}  # real path -> passes made over every node of its module (tests/test_sources.py)


def parsed(path: Path) -> ast.Module:
    """The module's syntax tree, shared between the checks: read it, never change it."""
    return _parse(*_key(path))


def walked(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the module, in ``ast.walk``'s order (shared, read-only)."""
    return _walk(*_key(path))[0]


def nodes_of(path: Path, *types: type) -> tuple[ast.AST, ...]:
    """The module's nodes of these types (``isinstance``), in ``ast.walk``'s order (shared, read-only)."""
    return _of_types(*_key(path), types)


def set_aside() -> None:
    """Keep the trees for the rest of the process out of the garbage collector's full passes
    (``gc.freeze``: everything the process holds now), as tests/conftest.py does after a run's
    last static check: the collector walked their ~1 million nodes at every full pass, and
    freeing them took ~0.13 s of CPU (an xdist worker ends with ``os._exit``, freeing nothing)."""
    gc.freeze()


def forget() -> None:
    """Drop every kept tree (the next check parses again)."""
    for cache in (_parse, _walk, _of_types, _real):
        cache.cache_clear()


def _key(path: Path) -> tuple[str, int, int]:
    real = _real(os.fspath(path))
    stat = os.stat(real)
    return real, stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=None)
def _real(path: str) -> str:
    """(``os.path.realpath`` looks at every directory of the path: ~12 us, ~5,000 calls a run)"""
    return os.path.realpath(path)


@functools.lru_cache(maxsize=None)
def _parse(path: str, _mtime_ns: int, _size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def _walk(path: str, mtime_ns: int, size: int) -> tuple[tuple[ast.AST, ...], dict[type, list[int]]]:
    """The nodes in ``ast.walk``'s order (breadth first, each node's children in the order of its
    ``_fields``), and where each type of node is among them; one pass, without ``ast.walk``'s
    generators (0.24 against 0.31 s over aish)."""
    PASSES[path] = PASSES.get(path, 0) + 1
    found: list[ast.AST] = [_parse(path, mtime_ns, size)]
    places: dict[type, list[int]] = {}
    add, node_type = found.append, ast.AST
    k = 0
    while k < len(found):
        node = found[k]
        places.setdefault(type(node), []).append(k)
        k += 1
        for name in node._fields:
            try:
                value = getattr(node, name)
            except AttributeError:
                continue
            if isinstance(value, node_type):
                add(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, node_type):
                        add(item)
    return tuple(found), places


@functools.lru_cache(maxsize=None)
def _of_types(path: str, mtime_ns: int, size: int, types: tuple[type, ...]) -> tuple[ast.AST, ...]:
    nodes, places = _walk(path, mtime_ns, size)
    chosen = [places[kind] for kind in places if issubclass(kind, types)]
    at = chosen[0] if len(chosen) == 1 else sorted(k for some in chosen for k in some)
    return tuple(nodes[k] for k in at)
