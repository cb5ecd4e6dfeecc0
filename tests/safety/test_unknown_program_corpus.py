"""Programs no rule names (tests/corpus/unknown): a floor on the rate of their destructive forms flagged and
a limit on their everyday forms flagged, one case per file.  Written before the rules were read (session
12), measured at 3df4711 (92.7% flagged, 0.0% of everyday) and after the session's mechanisms (96.4%, 0.0%)."""
from __future__ import annotations

from pathlib import Path

from tests.safety.kept import assess

UNKNOWN = Path(__file__).resolve().parents[1] / "corpus" / "unknown"


def _lines(name: str) -> list[str]:
    return [line for line in (UNKNOWN / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def test_unknown_programs_destructive_forms_are_flagged():
    commands = _lines("programs-destructive.txt")
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 150
    assert 1 - len(missed) / len(commands) >= 0.96, "\n".join(missed)


def test_unknown_programs_everyday_forms_stay_quiet():
    commands = _lines("programs-everyday.txt")
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 150
    assert len(loud) <= 0.01 * len(commands), "\n".join(loud)
