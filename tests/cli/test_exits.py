"""The aish command's exit statuses, and that only ``main()`` exits."""
from __future__ import annotations

import ast
from pathlib import Path

import aish
from aish.cli.exit_status import ExitStatus
from tests.helpers import aish_here as run_aish
from tests.sources import nodes_of, parsed

PACKAGE = Path(aish.__file__).parent
# the daemon is its own process with its own ``python -m aish.daemon`` entry, and a forked
# child must never return into its parent's stack
ALLOWED = {("cli/main.py", "main"), ("entry.py", "main"),  # the console entry, and main() for scripts
           ("daemon/__main__.py", "<module>"), ("daemon/spawn.py", "fork_daemon"),
           ("cli/recorder.py", "relay"),  # its forked child, when the program cannot be started
           ("cli/mcp_server.py", "serve")}  # after SIGTERM: the SDK's stdin reader cannot be woken


def _is_exit(node: ast.AST) -> bool:
    """sys.exit / exit() / os._exit, or raise SystemExit / click exit."""
    if isinstance(node, ast.Call):
        func = node.func
        return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in ("exit", "_exit")
    if isinstance(node, ast.Raise) and node.exc is not None:
        target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return getattr(target, "id", "") == "SystemExit" or getattr(target, "attr", "") in ("SystemExit", "Exit")
    return False


def _exits(tree: ast.AST):
    """(function name, line) of every exit in the tree (see ``_is_exit``)."""
    def walk(node, where):
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            if _is_exit(child):
                yield where, child.lineno
            yield from walk(child, name)
    yield from walk(tree, "<module>")


def test_only_main_exits():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not any(map(_is_exit, nodes_of(path, ast.Call, ast.Raise))):
            continue  # nothing exits here: no need for the walk that names the functions
        for where, line in _exits(parsed(path)):
            if (rel, where) not in ALLOWED:
                found.append(f"{rel}:{line} in {where}")
    assert found == [], "raise aish.cli.exit_status.Exit(ExitStatus.X) instead"


def test_exit_statuses_are_the_documented_numbers():
    assert [(s.name, int(s)) for s in ExitStatus] == [
        ("OK", 0), ("FAILURE", 1), ("USAGE", 2), ("NOT_RUNNING", 3), ("NOT_FOUND", 4), ("CONFIG", 5),
        ("TRANSPORT", 6), ("TIMEOUT", 7), ("API", 8), ("DAEMON", 9), ("TOOL", 10), ("CONTEXT", 11),
        ("COST", 12), ("INTERNAL", 70),
        ("INTERRUPTED", 130)]


def test_every_error_kind_has_the_exit_status_the_docs_table_names():
    """docs/verbs.md's table of exit statuses is the mapping the CLI uses, row for row."""
    import re

    from aish.cli.exit_status import for_kind
    from aish.errors import KINDS

    table = (PACKAGE.parents[1] / "docs" / "verbs.md").read_text(encoding="utf-8").split("## Exit statuses", 1)[1]
    documented = {kind: int(code) for code, kind in re.findall(r"^\| `?(\d+)`? \| `(\w+)`", table, re.M)}
    assert set(KINDS) | {"cancelled", "internal"} <= set(documented)
    assert {kind: int(for_kind(kind)) for kind in documented} == documented


def test_errors_carry_their_kind_and_cancelled_is_not_an_error():
    from aish import errors

    assert not issubclass(errors.Cancelled, errors.AishError)
    assert errors.Cancelled().partial_text == ""
    assert errors.ConfigError("x").kind == errors.BrokerError("x").kind == "config"
    assert errors.ConnectRefused("x").kind == "transport" and errors.ReadTimeout("x").kind == "timeout"
    assert errors.ContextOverflow("x", status=400).kind == "context"
    assert errors.CostCapReached("x").kind == "cost" and errors.EmptyAnswer("x").kind == "api"
    assert errors.NotFound("x").kind == "not_found" and errors.AishError("x").kind == "error"


def test_usage_error_and_help_statuses(aish_env):
    assert run_aish("--no-such-option").returncode == ExitStatus.USAGE
    assert run_aish("--help").returncode == ExitStatus.OK
