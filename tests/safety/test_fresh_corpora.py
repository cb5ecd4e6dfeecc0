"""Flag rates on corpora written after the rules (tests/corpus/fresh): floors, so a change that
loses ground on commands nobody tuned for fails here.  The measured rates are in docs/safety.md.

The destructive rounds are judged with every declared rule asked (``triggers.checked()``), which is
also the trigger index's check on them (``rules/triggers.py``: a rule that answers where its words
are absent fails the round): one reading of each line for both checks.  Where no rule answered out
of its words, the verdicts are those of the index (``test_triggers.py`` compares the two readings)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.safety.kept import assess
from aish.safety.rules import triggers

FRESH = Path(__file__).resolve().parents[1] / "corpus" / "fresh"


def _lines(name: str) -> list[str]:
    return [line for line in (FRESH / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _flagged(command: str) -> bool:
    verdict = assess(command.replace("⏎", "\n"))
    return verdict is not None and verdict.level in ("medium", "high")


DESTRUCTIVE_FLOORS = {"round1": 0.96, "round2": 0.96, "round3": 0.98, "round4": 0.99, "round5": 0.98, "round6": 0.99,
                      "round7": 0.99, "round8": 0.97, "round17": 0.95, "round18": 0.95, "round19": 0.85}


@pytest.mark.parametrize("round_,floor", DESTRUCTIVE_FLOORS.items())
def test_fresh_destructive_forms_are_flagged(round_, floor):
    commands = [re.sub(r"^\[\w+\] ", "", line) for line in _lines(f"{round_}-destructive.txt")]
    with triggers.checked() as unwoken:
        missed = [c for c in commands if not _flagged(c)]
    assert unwoken == [], "rules answered where their trigger words were absent (declare them)"
    assert len(commands) >= 150
    assert 1 - len(missed) / len(commands) >= floor, missed


# Rounds 6 and 7 were measured once before any change to them (round 6: 89.9%, 1.1%; round 7: 73.5%,
# 1.6%), then tuned on as classes (programs' own options and outputs; round 6: 99.4%, 0.4%; round 7:
# 99.6%, 0.0%). Round 8 was written blind and kept out of the repository until measured once at
# 5081147 (64.1%, 2.2%) and once at the main it landed on (71.1%, 2.5%), then tuned on as classes (97.2%, 2.2%):
# its floors are those rates, no longer blind. Round 17 (rounds 9-16 were never committed and are gone)
# was measured blind at 3df4711 (75.0%, 0.8%) and after the twelfth session's first wave (79.8%, 1.0%),
# then read as classes and built for them by a second wave (95.7%, 0.0%): its floors are those rates.
# Round 18 was measured blind at 55f5222 (78.5%, 0.7%) and after the thirteenth session's first wave (81.0%,
# 0.7%), then read as classes (95.3%, 0.3%). Round 19 was written during that session's second wave by a writer
# who never saw round 18, measured blind at 55f5222 (65.5%, 1.0%), after the first wave (68.3%) and after the
# second (69.5%, 1.3%), then read as classes by a third wave (85.2%, 0.3%): floors at those rates.
EVERYDAY_LIMITS = {"round1": 0.01, "round2": 0.01, "round3": 0.01, "round4": 0.01, "round5": 0.01, "round6": 0.01,
                   "round7": 0.01, "round8": 0.022, "round17": 0.005, "round18": 0.005, "round19": 0.005}


@pytest.mark.parametrize("round_,limit", EVERYDAY_LIMITS.items())
def test_fresh_everyday_commands_stay_quiet(round_, limit):
    commands = _lines(f"{round_}-everyday.txt")
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 200
    assert len(loud) <= limit * len(commands), loud


def test_every_round_is_held_to_its_floors():
    """A round's file with no floor would be judged by no case (nor checked for the trigger index)."""
    found = {path.name.rsplit("-", 1)[0] for path in FRESH.glob("*.txt")}
    assert found == set(DESTRUCTIVE_FLOORS) == set(EVERYDAY_LIMITS)
