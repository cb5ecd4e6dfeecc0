"""Flag rates on the training corpora of tests/corpus/training (written before the rules they trained were
read): a floor on each destructive file and a ceiling on each everyday one, one case per file; a failure
names every line on the wrong side."""
from __future__ import annotations

from pathlib import Path

from tests.safety.kept import assess

TRAINING = Path(__file__).resolve().parents[1] / "corpus" / "training"


def _lines(name: str) -> list[str]:
    return [line for line in (TRAINING / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _flagged(command: str) -> bool:
    verdict = assess(command.replace("⏎", "\n"))
    return verdict is not None and verdict.level in ("medium", "high")


def _floor(name: str, floor: float) -> None:
    commands = _lines(name)
    missed = [c for c in commands if not _flagged(c)]
    assert len(commands) >= 150
    assert len(missed) <= (1 - floor) * len(commands), f"{len(missed)} of {len(commands)} missed:\n" + "\n".join(missed)


def _ceiling(name: str, ceiling: float) -> None:
    commands = _lines(name)
    loud = [c for c in commands if _flagged(c)]
    assert len(commands) >= 120
    assert len(loud) <= ceiling * len(commands), f"{len(loud)} of {len(commands)} flagged:\n" + "\n".join(loud)


def test_system_writes_are_flagged():
    _floor("system_writes.txt", 0.93)


def test_disk_forms_are_flagged():
    _floor("disk_forms.txt", 0.98)


def test_everyday_system_file_work_stays_quiet():
    _ceiling("system_writes_everyday.txt", 0.03)


def test_everyday_disk_work_stays_quiet():
    _ceiling("disk_forms_everyday.txt", 0.03)
