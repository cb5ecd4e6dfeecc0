"""Only ``aish.net`` imports requests or urllib3 (a local check; the package-wide import
rules live in the architecture test)."""
from __future__ import annotations

import ast
from pathlib import Path

import aish
from tests.sources import nodes_of

PACKAGE = Path(aish.__file__).parent
HTTP_LIBRARIES = {"requests", "urllib3"}


def _imported_roots(path: Path):
    for node in nodes_of(path, ast.Import, ast.ImportFrom):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


def test_only_net_imports_requests_or_urllib3():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("net/"):
            continue
        for line, root in _imported_roots(path):
            if root in HTTP_LIBRARIES:
                found.append(f"{rel}:{line} imports {root}")
    assert found == [], "go through aish.net (client.HttpClient, transport) instead"


MAPPERS = {"transport_error", "ERRORS", "STREAM_ERRORS"}


def test_http_failures_are_mapped_at_one_boundary():
    """requests/urllib3 failures become aish errors in one place (``transport.failures``),
    as httpx maps httpcore's: no caller catches the library's exceptions or maps them itself."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "net/transport.py":
            continue
        for node in nodes_of(path, ast.Name, ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
            if name in MAPPERS:
                found.append(f"{rel}:{node.lineno} uses {name}")
    assert found == [], "wrap the HTTP call in `with transport.failures(...)` instead"


def test_the_boundary_maps_a_refused_connection_and_a_cancel():
    import socket

    import pytest

    from aish.errors import Cancelled, ConnectRefused
    from aish.ipc.cancel import CancelToken
    from aish.net import transport

    with pytest.raises(ConnectRefused):
        with transport.failures("http://127.0.0.1:9", (1.0, 1.0)):
            raise ConnectionRefusedError(111, "Connection refused")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):  # the socket was shut by the cancel: not a network failure
        with transport.failures("http://127.0.0.1:9", (1.0, 1.0), cancel=token):
            raise socket.timeout("timed out")
