"""Sessions 12 and 13's Windows training sets (tests/corpus/effects/windows_s12, windows_s13), written before the
rules were read: floors on their rates (one case a file), naming every line that misses."""
from __future__ import annotations

from pathlib import Path

from tests.safety.kept import assess

HERE = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "windows_s12"
S13 = HERE.parent / "windows_s13"


def _lines(name: str, home: Path = HERE) -> list[str]:
    return [line.replace("⏎", "\n") for line in (home / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def test_windows_destructive_training_set_is_flagged() -> None:
    commands = _lines("destructive.txt")
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 160
    assert 1 - len(missed) / len(commands) >= 0.915, "\n".join(missed)


def test_windows_everyday_training_set_stays_quiet() -> None:
    commands = _lines("everyday.txt")
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 160
    assert len(loud) <= 0.02 * len(commands), "\n".join(loud)


def test_windows_s13_destructive_training_set_is_flagged() -> None:
    commands = _lines("destructive.txt", S13)
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 460
    assert 1 - len(missed) / len(commands) >= 0.86, "\n".join(missed)


def test_windows_s13_everyday_training_set_stays_quiet() -> None:
    commands = _lines("everyday.txt", S13)
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 300
    assert len(loud) <= 0.01 * len(commands), "\n".join(loud)
