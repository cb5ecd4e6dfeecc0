"""The judge's patterns are compiled when first used, not at import (``lazy_regex.lazy``): a new
process's first judgement (the daemon's first keypress) no longer waits for ~750 patterns that most
commands never reach.  A pattern that does not compile would now fail only where it is first used
(and ``assess`` turns a failure into no verdict), so every one is compiled here: in the slow part
(``.ci/run``), since compiling them all costs what importing them eagerly did."""
from __future__ import annotations

import gc
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import aish.safety.assess  # noqa: F401 - every rule module, loaded
from aish.safety.any_case import AnyCase
from aish.safety.lazy_regex import LazyRegex

ROOT = Path(__file__).resolve().parents[2]
# Compiled at import once the rule modules' patterns are lazy (~420): the ~90 asked on more than one
# command in ten (a lazy pattern's call costs a little more, and these are compiled within the first
# commands anyway), the few whose users need a real ``re.Pattern``, the ones built in loops (vendor rows,
# baseline keys), the standard library's own; with room for new rule modules' patterns.
# Compiled eagerly, importing the judge compiled 1,048.
_AT_IMPORT_AT_MOST = 600

_COUNT = r"""
import re, sys
compiled = []
original = re._compile
def counting(pattern, flags):
    compiled.append(pattern)
    return original(pattern, flags)
re._compile = counting
import aish.safety.assess
print(len(compiled))
"""


def test_importing_the_judge_compiles_few_patterns():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "backend"), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", _COUNT], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert int(run.stdout.split()[-1]) <= _AT_IMPORT_AT_MOST, run.stdout


@pytest.mark.slow
def test_every_lazy_pattern_of_the_judge_compiles():
    failed = []
    for name in sorted(n for n in sys.modules if n.startswith("aish.safety")):
        for attribute, value in vars(importlib.import_module(name)).items():
            patterns = [value] if isinstance(value, LazyRegex) else \
                [value._any, value._lower] if isinstance(value, AnyCase) else []
            for pattern in patterns:
                try:
                    assert pattern.compiled.pattern == pattern.pattern
                except Exception as error:  # re.error, and whatever else a broken pattern raises
                    failed.append(f"{name}.{attribute}: {error}")
    assert failed == [], "\n".join(failed)


def test_a_lazy_pattern_holds_nothing_but_its_text_until_first_used():
    """No bound method or partial per method slot: ~750 of them would each add objects (and reference cycles)
    for every full pass of the garbage collector to walk; a first long judgement paid ~12 ms for them."""
    lazy = LazyRegex(r"ab\d?", 0)
    held = [r for r in gc.get_referents(lazy) if not isinstance(r, (str, int, type(None), type))]
    assert held == []
    assert lazy.search("xab1") is not None and lazy.search == lazy.compiled.search  # bound once compiled
