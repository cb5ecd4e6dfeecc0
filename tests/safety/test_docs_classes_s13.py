"""Classes read from public command documentation labelled by its descriptions (session 13, s13-docs), as forms
of other programs written before the rules were read (tests/corpus/effects/docs_s13).  One case per file: a
floor on the destructive forms flagged (listing the misses) and a limit on the everyday forms flagged.
Measured at 55f5222: network 0/28, reboots 1/15, unpack 0/12 flagged; everyday 0 of 57."""
from __future__ import annotations

from pathlib import Path

from tests.safety.forms import corpus_floor, loud_and_quiet

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "docs_s13"


def _loud_and_quiet(name: str) -> tuple[list[str], list[str]]:
    return loud_and_quiet(CORPUS / name)


def _floor(name: str, floor: float) -> None:
    corpus_floor(CORPUS / name, floor, 12)


def test_network_objects_deleted_are_flagged():
    _floor("network.txt", 0.95)  # routes, rules, tunnels, namespaces, firewall rules, port mappings


def test_guests_and_devices_rebooted_are_flagged():
    _floor("reboots.txt", 0.95)  # a manager's own reboot verb: virsh, qm, adb, talosctl, ubus, xe…


def test_forced_unpacks_are_flagged():
    _floor("unpack.txt", 0.9)  # an unpacker told to force (atool -x -f: -f may name the archive, left)


def test_a_delete_letter_after_the_objects_letter_still_deletes():
    loud, missed = _loud_and_quiet("letters.txt")
    assert len(loud) >= 6 and not missed, "\n".join(missed)


def test_docs_everyday_forms_stay_quiet():
    loud, quiet = _loud_and_quiet("everyday.txt")
    assert len(loud) + len(quiet) >= 50
    assert not loud, "\n".join(loud)
