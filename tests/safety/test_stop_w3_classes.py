"""Round 19's stop classes read for any program (session 13, wave 3; tests/corpus/effects/stop_w3): a batch
scheduler's jobs held, vacated, requeued or killed for everyone or for a computed set.  One case per file: a floor on
the destructive forms flagged (listing the misses) and none of the everyday forms flagged.
Measured at 90a4704: sched 0/23 flagged; everyday 0 of 59 loud."""
from __future__ import annotations

from pathlib import Path

from tests.safety.forms import corpus_floor, loud_and_quiet

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "stop_w3"


def test_scheduler_jobs_for_everyone_or_a_computed_set_are_flagged():
    corpus_floor(CORPUS / "sched.txt", 1.0, 6)  # -all, -u all, '*', $(qselect …), -w user=X, a status loop


def test_stop_w3_everyday_forms_stay_quiet():
    loud, quiet = loud_and_quiet(CORPUS / "everyday.txt")
    assert len(loud) + len(quiet) >= 50
    assert not loud, "\n".join(loud)
