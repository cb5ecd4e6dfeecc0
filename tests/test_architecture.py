"""The layering of docs/architecture.md, enforced: an AST walk over every module of backend/aish.

A rule broken here is a design decision to make in the open (change the rule
and docs/architecture.md together), never a convention quietly eroded.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "backend" / "aish"

LEAVES = {"errors", "paths", "version", "install"}  # import nothing of aish but each other
FEATURES = {"chat", "context", "llm", "cost", "safety", "mcp"}
# a feature may import another feature's type modules only
TYPE_MODULES = {"aish.llm.events", "aish.safety.secrets"}
# which top-level parts of aish each part may import (besides itself)
ALLOWED = {
    "errors": set(), "version": set(), "paths": {"errors"}, "install": {"version"},
    "config": {"errors", "paths"},
    "ipc": {"errors"},
    "net": {"errors", "ipc"},
    **{feature: {"config", "errors", "ipc", "paths", "version", "net"} for feature in FEATURES},
    "app": {"config", "errors", "ipc", "paths", "version", "net", *FEATURES},
    "daemon": {"errors", "ipc", "paths", "version", "install", "config"},
    "cli": {"daemon", "ipc", "config", "errors", "paths", "version", "install"},
    "entry": {"cli", "daemon", "ipc"}, "__main__": {"entry"},
}
# the seams where a lower part reaches a higher one, lazily, by design
SEAMS = {("aish.daemon.__main__", "aish.app.service")}
CLI_MAY_USE = {"aish.llm.detect",  # finding a model needs no daemon
               "aish.context.marks"}  # the recorder cuts its stream as the tmux tap does
HTTP_PACKAGES = ("requests", "urllib3")


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(("aish", *parts)).removesuffix(".__init__")
        yield name, path


def part_of(module: str) -> str:
    return module.split(".")[1] if module.count(".") >= 1 else ""


def imports(path: Path):
    """(imported module, line) for every import in the file, at any depth."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:  # `from aish.llm import detect` imports aish.llm.detect
                package = PACKAGE.joinpath(*node.module.split(".")[1:])
                is_package = node.module.startswith("aish") and package.is_dir()
                yield (f"{node.module}.{alias.name}" if is_package else node.module), node.lineno


def violations():
    found = []
    for name, path in modules():
        src = part_of(name)
        for target, line in imports(path):
            where = f"{name}:{line} imports {target}"
            if target.split(".")[0] in HTTP_PACKAGES and src != "net":
                found.append(f"{where}: only aish.net imports requests/urllib3")
            if not target.startswith("aish."):
                continue
            dst = part_of(target)
            if dst == src or (name, target) in SEAMS:
                continue
            if src in FEATURES and dst in FEATURES:
                if not any(target == t or target.startswith(t + ".") for t in TYPE_MODULES):
                    found.append(f"{where}: features import each other's type modules only")
                continue
            if src == "cli" and target in CLI_MAY_USE:
                continue
            if dst not in ALLOWED.get(src, set()):
                found.append(f"{where}: {src} may not import {dst}")
    return found


def test_every_part_has_a_rule():
    parts = {part_of(name) for name, _ in modules()} - {""}
    assert parts <= set(ALLOWED), parts - set(ALLOWED)


def test_imports_follow_the_layering():
    assert violations() == []


def test_the_walk_sees_a_broken_rule(tmp_path, monkeypatch):
    """The checker itself can fail: a feature importing app is reported."""
    fake = tmp_path / "aish"
    (fake / "chat").mkdir(parents=True)
    (fake / "chat" / "bad.py").write_text("from aish.app import service\nimport requests\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "PACKAGE", fake)
    found = violations()
    assert any("chat may not import app" in v or "type modules only" in v for v in found)
    assert any("only aish.net imports requests" in v for v in found)


@pytest.mark.parametrize("name,path", [(n, p) for n, p in modules() if p.name == "__init__.py"])
def test_every_package_init_is_a_docstring_only(name, path):
    body = ast.parse(path.read_text(encoding="utf-8")).body
    assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), name
