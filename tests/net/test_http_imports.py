"""Only ``aish.net`` imports requests or urllib3 (a local check; the package-wide import
rules live in the architecture test)."""
from __future__ import annotations

import ast
from pathlib import Path

import aish

PACKAGE = Path(aish.__file__).parent
HTTP_LIBRARIES = {"requests", "urllib3"}


def _imported_roots(tree: ast.AST):
    for node in ast.walk(tree):
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
        for line, root in _imported_roots(ast.parse(path.read_text(encoding="utf-8"))):
            if root in HTTP_LIBRARIES:
                found.append(f"{rel}:{line} imports {root}")
    assert found == [], "go through aish.net (client.HttpClient, transport) instead"
