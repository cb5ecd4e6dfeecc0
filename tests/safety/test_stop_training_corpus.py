"""The twelfth session's stopping training set (tests/corpus/effects/stop-s12), written before its rules
were read: one case per file, a floor on the rate, the misses listed on failure.  Measured on the start
tree 3df4711: 90.4% of 260 destructive lines flagged (stop 90%, api 89%, classic 93%), 0.8% of 240
everyday lines loud (one line later found mislabelled: `rm -- -rf ~/Pictures` removes no directory).

The thirteenth session's (tests/corpus/effects/stop-s13), written the same way with programs mostly outside what
the rules knew: on the start tree 55f5222 85.5% of 346 destructive lines (stop 82%, api 88%, classic 90%) and 0.7%
of 278 everyday lines loud; after session 13's stop rules 94.8% and 0.4%."""
from __future__ import annotations

import re
from pathlib import Path

from tests.safety.kept import assess

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "stop-s12"
CORPUS_S13 = CORPUS.parent / "stop-s13"


def _lines(name: str, corpus: Path = CORPUS) -> list[str]:
    return [re.sub(r"^\[\w+\] ", "", line) for line in (corpus / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def test_stop_training_destructive_rate():
    commands = _lines("destructive.txt")
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 250
    assert 1 - len(missed) / len(commands) >= 0.93, missed


def test_stop_training_everyday_rate():
    commands = _lines("everyday.txt")
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 200
    assert len(loud) <= 0.01 * len(commands), loud


def test_stop_s13_destructive_rate():
    commands = _lines("destructive.txt", CORPUS_S13)
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 340
    assert 1 - len(missed) / len(commands) >= 0.94, missed


def test_stop_s13_everyday_rate():
    commands = _lines("everyday.txt", CORPUS_S13)
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 270
    assert len(loud) <= 0.01 * len(commands), loud
