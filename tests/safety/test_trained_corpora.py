"""Flag rates on the corpora rules engineers wrote to train on (tests/corpus/effects/trained): one case per
file, a floor on the rate, every miss named when it fails.  Unlike tests/corpus/effects/*.txt, a line here
may stay unflagged (the judge's policy leaves some forms quiet in the shell too, ``rm -f /srv/x``); the
rate may not fall.  unknown-s13-*: programs no rule names (session 13), written before the rules were read, and
the forms of that session's readings (bang verbs, payments, moves to a remote, options deleting the source,
uninstalls from production): at 55f5222 89.5% and 49.2% flagged, after 92.3% and 100%; everyday 0.0%."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.safety.kept import assess

TRAINED = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "trained"


def _commands(name: str) -> list[str]:
    lines = (TRAINED / name).read_text(encoding="utf-8").splitlines()
    return [re.sub(r"^\[[\w-]+\]\s*", "", line).replace("⏎", "\n") for line in lines
            if line.strip() and not line.startswith("#")]


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


@pytest.mark.parametrize("name,floor", [("code-destructive.txt", 0.95), ("code-destructive-2.txt", 0.97),
                                             ("code-destructive-3.txt", 0.96), ("code-destructive-4.txt", 0.97),
                                             ("code-destructive-5.txt", 0.95), ("unknown-s13-destructive.txt", 0.91),
                                             ("unknown-s13-readings.txt", 1.0), ("write-disk-destructive.txt", 0.92)])
def test_trained_destructive_forms_are_flagged(name: str, floor: float) -> None:
    commands = _commands(name)
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 70
    assert 1 - len(missed) / len(commands) >= floor, missed


@pytest.mark.parametrize("name,limit", [("code-everyday.txt", 0.01), ("unknown-s13-everyday.txt", 0.01),
                                        ("write-disk-everyday.txt", 0.02)])
def test_trained_everyday_commands_stay_quiet(name: str, limit: float) -> None:
    commands = _commands(name)
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 150
    assert len(loud) <= limit * len(commands), loud
