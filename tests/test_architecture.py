"""The layering of docs/architecture.md, enforced: an AST walk over every module of backend/aish.

A rule broken here is a design decision to make in the open (change the rule
and docs/architecture.md together), never a convention quietly eroded.
"""
from __future__ import annotations

import ast
from pathlib import Path


from tests.safety.forms import each_form
from tests.sources import nodes_of, parsed

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
SEAMS = {("aish.daemon.__main__", "aish.app.service"), ("aish.daemon.__main__", "aish.app.early")}
CLI_MAY_USE = {"aish.llm.detect",  # finding a model needs no daemon
               "aish.context.marks",  # the recorder cuts its stream as the tmux tap does
               "aish.mcp.login"}  # an OAuth sign-in needs this terminal (and a browser), never the daemon
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
    for node in nodes_of(path, ast.Import, ast.ImportFrom):
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


def runtime_imports(path: Path):
    """``imports`` without those under ``if TYPE_CHECKING:`` (never executed: no circle)."""
    skipped = set()
    # (a test is read back as text only in a module that names TYPE_CHECKING: ast.unparse of
    # every `if` of aish was half of this check's CPU)
    for node in nodes_of(path, ast.If) if "TYPE_CHECKING" in path.read_text(encoding="utf-8") else ():
        if "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for child in node.body for inner in ast.walk(child))
    for node in nodes_of(path, ast.Import, ast.ImportFrom):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                package = PACKAGE.joinpath(*node.module.split(".")[1:])
                is_package = node.module.startswith("aish") and package.is_dir()
                yield (f"{node.module}.{alias.name}" if is_package else node.module), node.lineno


def import_graph() -> dict[str, set[str]]:
    """module -> the aish modules it imports when it runs (at any depth: a lazy import is an
    edge too; a type-only one under ``if TYPE_CHECKING:`` is not)."""
    names = {name for name, _ in modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules():
        targets = set()
        for target, _ in runtime_imports(path):
            while target and target not in names:  # `from aish.x.y import Name` -> aish.x.y
                target = target.rpartition(".")[0]
            if target and target != name and target != "aish":
                targets.add(target)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_circles_anywhere():
    """Not between packages and not inside one: a circle means two modules that cannot be
    understood, tested or moved apart."""
    assert circles(import_graph()) == []


def test_the_circle_check_can_fail(tmp_path, monkeypatch):
    fake = tmp_path / "aish"
    (fake / "daemon").mkdir(parents=True)
    (fake / "daemon" / "a.py").write_text("from aish.daemon import b\n")
    (fake / "daemon" / "b.py").write_text("def f():\n    from aish.daemon.a import x\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "PACKAGE", fake)
    assert circles(import_graph()) == [["aish.daemon.a", "aish.daemon.b"]]


# Pairs whose names already say which is which, or that are on their way out.
SAME_NAME_KEPT = {
    # a newer pair, to be renamed by the package that added the second one
    "verbs": "ipc/verbs.py (aish's verb table) and safety/verbs.py (destructive words of any program)",
}


def test_modules_in_different_packages_have_names_that_tell_them_apart():
    """app/project.py beside context/project.py read as one thing in two places; a verb's
    handler module may carry its verb's name (app/verbs/memory.py beside context/memory.py)."""
    from aish.ipc.verbs import BY_NAME

    seen: dict[str, list[str]] = {}
    for name, path in modules():
        verb_module = name.startswith("aish.app.verbs.") and path.stem in BY_NAME
        if path.name not in ("__init__.py", "__main__.py") and not verb_module:
            seen.setdefault(path.stem, []).append(name)
    assert {stem: names for stem, names in seen.items() if len(names) > 1} == \
        {stem: names for stem, names in seen.items() if stem in SAME_NAME_KEPT and len(names) > 1}


@each_form("name,path", [(n, p) for n, p in modules() if p.name == "__init__.py"])
def test_every_package_init_is_a_docstring_only(name, path):
    body = parsed(path).body
    assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), name
