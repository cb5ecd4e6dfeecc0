"""A machine or a platform stopped in its manager's own words (rules/machine_stops.py), one table per
mechanism, and the forms written for it (tests/corpus/effects/stop-w2) with floors.

The line (docs/safety.md): one service or container stopped stays quiet, and so does one guest (a VM, an
instance, a cloud server) stopped gently, as every everyday corpus has it (`virsh shutdown web01`,
`vagrant halt`, `Stop-VM -Name web`, `aws ec2 stop-instances --instance-ids i-0abc`); a host, a node, an
appliance, a device or a whole platform stopped, reset or suspended is medium, and so are guests stopped
by force, reset, or several at once.  stop-w2 (with section G's classic shapes, test_loops_and_records.py)
at 026a724: 49.4% of 79 destructive lines, 75.9% after machine_stops, 96.2% after both; 0.6% of 165 everyday
lines loud before and after (brew services stop postgresql, an older rule's verdict)."""
from __future__ import annotations

import re
from pathlib import Path

from tests.safety.kept import assess

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "stop-w2"


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def _lines(name: str) -> list[str]:
    return [re.sub(r"^\[\w+\] ", "", line) for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


# A host, a node, a device or a system with any stop verb: separate, fused, or in the program's name.
HOSTS_STOPPED = ["hammer host stop --name web01", "ucloud uhost stop --uhost-id uhost-abc123", "ha host shutdown",
                 "iotedge system stop", "xe host-shutdown host=xs01", "Stop-VMHost -VMHost esx01",
                 "idevicediagnostics -u 00008030-001A restart", "Stop-ClusterResource -Name SQL",
                 "Stop-ClusterGroup -Name SQL", "crm resource stop webserver"]
# A guest by force, reset, or several at once: dotted, fused, bare, or by its API path.
GUESTS_FORCED = ["xo-cli vm.stop id=3f2a force=true", "acli vm.shutdown web-01,web-02", "docker-machine kill default",
                 "gcloud compute instances stop vm1 vm2 vm3", "Stop-VM -Name web -Force", "vmctl stop -a",
                 "onevm poweroff --hard 12", "pvesh create /nodes/pve1/lxc/101/status/stop"]
# A management call, a platform's stop option, a sleep letter, an address given a reset.
CALLS = ["squidclient mgr:shutdown", "hass-cli service call homeassistant.stop", "bbb-conf --stop",
         "upscmd -u admin -p x myups@localhost shutdown.stayoff", "acpitool -s", "apm -z",
         "sg_start --stop /dev/sda", "amttool 10.0.0.5 reset", "for h in a b; do yes | amttool $h powerdown; done",
         "hares -offline oradb_res -sys node1", "hagrp -offline oragrp -sys node1", "tcpdrop -a"]
# A program named for the end it brings, its end word fused to a vendor's prefix (ending_names.py).
FUSED_END_NAMES = ["synoshutdown -s", "synoshutdown -r", "ssh admin@nas 'sudo synopoweroff'"]
FUSED_END_QUIET = ["needsreboot", "checkreboot", "grubreboot 2", "autoshutdown --help"]
QUIET = ["virsh shutdown web01", "vagrant halt", "Stop-VM -Name web", "aws ec2 stop-instances --instance-ids i-0abc",
         "az vm deallocate -g dev -n scratch-vm", "xe vm-shutdown vm=web1", "podman machine stop",
         "pcs resource restart webserver", "hass-cli service call media_player.media_stop", "gradle --stop",
         "bazel shutdown", "jupyter server stop 8888", "npm run server:stop", "Stop-VM -Name web -WhatIf",
         "hammer host list", "iotedge system status", "sg_start --start /dev/sda", "amttool 10.0.0.5 powerup",
         "pvesh create /nodes/pve1/qemu/100/status/shutdown", "systemctl stop nginx", "docker stop web"]


def test_hosts_nodes_devices_and_systems_stopped_are_flagged():
    assert not [c for c in HOSTS_STOPPED if not _flagged(c)]


def test_guests_stopped_by_force_or_several_at_once_are_flagged():
    assert not [c for c in GUESTS_FORCED if not _flagged(c)]


def test_management_calls_stop_options_and_sleep_letters_are_flagged():
    assert not [c for c in CALLS if not _flagged(c)]


def test_an_end_word_fused_to_a_vendor_prefix_is_flagged():
    assert not [c for c in FUSED_END_NAMES if not _flagged(c)] + [c for c in FUSED_END_QUIET if _flagged(c)]


def test_one_guest_or_service_stopped_gently_and_readings_stay_quiet():
    assert not [c for c in QUIET if _flagged(c)]


def test_stop_w2_forms_hold_their_floors():
    destructive, everyday = _lines("destructive.txt"), _lines("everyday.txt")
    missed = [c for c in destructive if not _flagged(c)]
    loud = [c for c in everyday if _flagged(c)]
    assert len(destructive) >= 70 and len(everyday) >= 150
    assert 1 - len(missed) / len(destructive) >= 0.95 and len(loud) <= 0.01 * len(everyday), (missed, loud)
