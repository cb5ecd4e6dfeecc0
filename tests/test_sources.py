"""tests/sources.py: the static checks' shared syntax trees give what ``ast.walk`` gives, and a module's
nodes are gone over once however many kinds of node the checks ask for."""
from __future__ import annotations

import ast
import functools
import gc
import operator
import os
from pathlib import Path

from tests import sources
from tests.safety.forms import each_form

PACKAGE = Path(__file__).resolve().parents[1] / "backend" / "aish"
SOME_MODULES = [PACKAGE / "safety" / "assess.py", PACKAGE / "safety" / "rules" / "table.py", PACKAGE / "__init__.py"]
KINDS = [(ast.Import, ast.ImportFrom), (ast.If,), (ast.Name, ast.Attribute), (ast.Call, ast.Raise),
         (ast.For, ast.comprehension), (ast.expr,), (ast.stmt, ast.Name), (ast.AST,), (ast.Global,)]


@functools.cache
def _walked_afresh(path: Path) -> tuple:
    return tuple(ast.walk(sources.parsed(path)))


@each_form("kinds", KINDS)
def test_the_nodes_of_some_kinds_are_those_a_walk_finds_in_its_order(kinds):
    for path in SOME_MODULES:
        expected = [node for node in _walked_afresh(path) if isinstance(node, kinds)]
        found = sources.nodes_of(path, *kinds)
        assert len(found) == len(expected) and all(map(operator.is_, found, expected)), (path.name, kinds)
    everything = _walked_afresh(SOME_MODULES[1])
    assert len(everything) > 1_000 and all(map(operator.is_, sources.walked(SOME_MODULES[1]), everything))


def test_a_module_is_gone_over_once_whatever_kinds_the_checks_ask_for(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import os\nif os:\n    x = [y for y in os.sep]\n")
    for kinds in KINDS:
        sources.nodes_of(module, *kinds)
    sources.walked(module)
    assert sources.PASSES[os.path.realpath(module)] == 1
    assert [type(node) for node in sources.nodes_of(module, ast.Import, ast.If)] == [ast.Import, ast.If]
    module.write_text("import os\n\n\nimport sys\n")  # changed: read again
    assert [node.lineno for node in sources.nodes_of(module, ast.Import)] == [1, 4]


def test_trees_set_aside_are_kept_out_of_the_collectors_passes(tmp_path):
    """After the static checks (tests/conftest.py), the trees stay for the rest of the process out of the
    collector's full passes (freed instead, aish's million nodes took ~0.13 s of CPU)."""
    module = tmp_path / "m.py"
    module.write_text("x = [1, 2]\n" * 50)
    nodes = sources.walked(module)
    frozen = gc.get_freeze_count()
    sources.set_aside()
    assert gc.get_freeze_count() - frozen >= len(nodes) > 300
    assert sources.walked(module) is nodes  # kept, not parsed again
