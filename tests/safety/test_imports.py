"""No import circle inside the safety package (imports inside functions count too): the rules
and the judge that calls them stay in one direction (assess -> rules -> common/unwrap)."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.sources import nodes_of

SAFETY = Path(__file__).resolve().parents[2] / "backend" / "aish" / "safety"


def _graph(root: Path) -> dict:
    modules = {".".join(("aish", "safety", *p.relative_to(root).with_suffix("").parts)).removesuffix(".__init__"): p
               for p in root.rglob("*.py")}
    graph: dict = {}
    for name, path in modules.items():
        deps = set()
        for node in nodes_of(path, ast.Import, ast.ImportFrom):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("aish.safety"):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    deps.add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name.startswith("aish.safety")}
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def _circle(graph: dict) -> list:
    """One import circle, as the modules on it, or [] when there is none."""
    state: dict = {}
    stack: list = []

    def visit(node: str) -> list:
        state[node] = "open"
        stack.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == "open":
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        state[node] = "done"
        stack.pop()
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_safety_package_has_no_import_circle():
    assert _circle(_graph(SAFETY)) == []


def test_the_check_sees_a_circle(tmp_path):
    (tmp_path / "a.py").write_text("from aish.safety.b import x\n")
    (tmp_path / "b.py").write_text("def f():\n    from aish.safety.a import y\n")
    assert _circle(_graph(tmp_path)) == ["aish.safety.a", "aish.safety.b", "aish.safety.a"]
