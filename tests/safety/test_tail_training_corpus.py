"""The s12-tail training set (tests/corpus/effects/tail_s12): programs no earlier corpus or rule named, written
before the rules were read.  One case per file: a floor on the destructive forms flagged (listing the misses)
and a limit on the everyday forms flagged.  Measured at 3df4711: 52.5% flagged, 0.8% of everyday; after the
s12-tail readings 89.5%, 0.8%."""
from __future__ import annotations

import re
from pathlib import Path

from tests.safety.kept import assess

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "tail_s12"


def _commands(name: str) -> list[str]:
    lines = [line for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    return [re.sub(r"^\[[\w-]+\]\s*", "", line) for line in lines]


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def test_tail_destructive_forms_are_flagged():
    commands = _commands("destructive.txt")
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 160
    assert 1 - len(missed) / len(commands) >= FLOOR, "\n".join(missed)


def test_tail_everyday_forms_stay_quiet():
    commands = _commands("everyday.txt")
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 160
    assert len(loud) <= 0.02 * len(commands), "\n".join(loud)


FLOOR = 0.88
