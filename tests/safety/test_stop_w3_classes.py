"""Round 19's stop classes read for any program (session 13, wave 3; tests/corpus/effects/stop_w3): a batch
scheduler's jobs held, vacated, requeued or killed for everyone or for a computed set.  One case per file: a floor on
the destructive forms flagged (listing the misses) and none of the everyday forms flagged.
Measured at 90a4704 (the wave's start): sched 8/23, fsfreeze 0/9, fused 3/12, code 5/16, win_pipes 5/10, reboot 7/8
flagged, everyday 1 of 96 loud (bstop 1234, left out of everyday.txt); each floor below failed on the main it was
written against and passes with its change."""
from __future__ import annotations

from pathlib import Path

from tests.safety.forms import corpus_floor, loud_and_quiet

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "stop_w3"


def test_scheduler_jobs_for_everyone_or_a_computed_set_are_flagged():
    corpus_floor(CORPUS / "sched.txt", 1.0, 6)  # -all, -u all, '*', $(qselect …), -w user=X, a status loop


def test_filesystem_suspended_or_frozen_is_flagged():
    corpus_floor(CORPUS / "fsfreeze.txt", 1.0, 6)  # suspend, --freeze, -f of a freeze tool, osd set pause, safemode


def test_fused_stops_of_several_or_forced_guests_are_flagged():
    corpus_floor(CORPUS / "fused.txt", 0.66, 6)  # euca-/ec2-/nova-stop-…, stop virtualmachine forced=true


def test_stop_calls_in_code_given_to_a_management_shell_are_flagged():
    corpus_floor(CORPUS / "code.txt", 0.85, 6)  # AdminControl.stopServer(…), shutdown(), init:stop(), rpc … init, stop


def test_every_item_a_where_only_listing_yields_stopped_or_logged_off_is_flagged():
    corpus_floor(CORPUS / "win_pipes.txt", 1.0, 6)  # Get-X -SqlInstance … | Stop-X, … | Invoke-RDUserLogoff


def test_updates_applied_with_the_reboot_switched_on_are_flagged():
    corpus_floor(CORPUS / "reboot.txt", 1.0, 6)  # -reboot=enable, /reboot, -AutoReboot, --restart on an update


def test_stop_w3_everyday_forms_stay_quiet():
    loud, quiet = loud_and_quiet(CORPUS / "everyday.txt")
    assert len(loud) + len(quiet) >= 50
    assert not loud, "\n".join(loud)
