"""Devices written by raw, flash and firmware tools (``rules/device_writes.py``), read from the call's shape for
any program, and the same programs reading, listing and querying (tests/corpus/effects/devices_w2): one case per
table, each listing its failures."""
from __future__ import annotations

import re
from pathlib import Path

from tests.safety.forms import flagged, table_holds

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "devices_w2"


VERB_ON_DEVICE = (
    ["blkzone reset /dev/sdh", "zonectl reset /dev/sdh", "zbc_reset_zone /dev/sdg 0",
     "partedUtil mklabel /vmfs/devices/disks/naa.600508b1001c4d4a msdos",
     "sg_persist --out --clear --param-rk=0x1 /dev/sdc", "blkdiscard-ng --zeroout /dev/vg0/data",
     "thin_restore -i x.xml -o /dev/vg0/pool_tmeta", "era_restore -i era.xml -o /dev/vg0/era_meta",
     "nvme write-zeroes /dev/nvme0n1 -s 0 -c 1000", "nvme ns-delete /dev/nvme0 -n 1",
     "zfs-tool labelclear /dev/zvol/tank/vol1"],
    ["blkzone report /dev/sdh", "partedUtil getptbl /vmfs/devices/disks/naa.600508b1001c4d4a",
     "sg_persist --in --read-keys /dev/sdc", "sg_reset -d /dev/sg1", "thin_restore -i x.xml -o /tmp/tmeta.bin",
     "cache_restore -i cache.xml -o cmeta.img", "blkid /dev/vg0/data", "xfs_mdrestore -i /tmp/metadump.img",
     "nvme id-ns /dev/nvme0 -n 1", "nvme list-ns /dev/nvme0", "zfs-tool list /dev/zvol/tank/vol1",
     "netprobe write /dev/tcp/10.0.0.1/80", "evtool clear /dev/input/by-id/usb-kbd-event"])
SHORT_VERBS = (
    ["rkflashtool e 0x0 0x200000", "rkflashtool w 0x2000 0x8000 < boot.img", "upgrade_tool wl 0x0 update.img",
     "xflash e 0x0 0x100000", "norflash-util e 0x0 0x10000", "fwtool write 0x0 fw.bin", "spiflash erase 0x0 0x10000"],
    ["rkflashtool r 0x0 0x2000 > parameter.img", "xflash r 0x0 0x100000 dump.bin", "flashdl r 0x400 0x2000 out.bin",
     "upgrade_tool rl 0x0 0x2000 out.img", "norflash-util id", "fwtool read 0x0 0x1000 out.bin"])
COMMAND_STRINGS = (
    ["xfs_io -d -c 'pwrite -S 0 0 1g' /dev/sdd", "xfs_io -c 'fpunch 0 4k' /srv/data/db.img",
     "xfs_io -c 'fzero 0 1m' /srv/pg/base/16384/1259", "xfs_io -x -c 'fcollapse 0 64k' /data/table.ibd"],
    ["xfs_io -c 'pread 0 4k' /dev/sdd", "xfs_io -f -c 'pwrite 0 1m' /tmp/test.img",
     "xfs_io -f -c 'fpunch 0 4k' ./scratch.img", "xfs_io -c 'fiemap -v' /srv/data/db.img"])
PASSTHROUGH = (
    ["sg_raw /dev/sdb 04 00 00 00 00 00", "sg_raw /dev/sg1 42 00 00 00 00 00 00 00 18 00",
     "nvme admin-passthru /dev/nvme0 --opcode=0x80 --cdw10=0x200", "nvme admin-passthru /dev/nvme0 -o 0x84",
     "nvme io-passthru /dev/nvme0n1 --opcode=0x08 --namespace-id=1", "scsi_cmd -d /dev/sg4 -c 0x04 0 0 0 0 0",
     "nvme-passthru /dev/nvme2 --opcode 0x80"],
    ["sg_raw -r 512 /dev/sg2 12 00 00 00 60 00", "sg_raw /dev/sdb 00 00 00 00 00 00",
     "nvme admin-passthru /dev/nvme0 --opcode=0x06 --data-len=4096 --read", "nvme io-passthru /dev/nvme0n1 "
     "--opcode=0x02 --data-len=4096 --read", "scsi_cmd -d /dev/sg4 -c 0x12 0 0 0 36 0"])
REGISTERS = (
    ["setpci -s 00:17.0 COMMAND=0000", "setpci -d 8086:1533 CAP_EXP+10.w=0", "wrmsr -a 0x19a 0x0",
     "devmem2 0xfe000000 w 0x0", "busybox devmem 0x20200000 32 0x0", "iotools mmio_write32 0xfed40000 0x0",
     "memtool mw 0x020e0000 0x5", "ioport outb 0xcf9 0x0e", "peekpoke -w 0x40000000 0x1",
     "pcimem /sys/bus/pci/devices/0000:01:00.0/resource0 0x100 w 0xdeadbeef"],
    ["setpci -s 00:17.0 COMMAND", "rdmsr -a 0x19a", "devmem2 0xfe000000 w", "busybox devmem 0x20200000",
     "iotools mmio_read32 0xfed40000", "memtool md 0x020e0000", "ioport inb 0x70", "lspci -vvv -s 00:17.0"])
SUITE_DELETES = (["mmdelnsd \"nsd1;nsd2\"", "lsdelnsd nsd4", "svctask rmvdisk -force vdisk7"],
                 ["mmlsnsd", "mmlsnode", "svcinfo lsvdisk"])


def test_a_verb_that_writes_with_a_device_by_any_path_writes_it():
    table_holds(VERB_ON_DEVICE)


def test_a_flashers_abbreviated_erase_or_write_before_an_address():
    table_holds(SHORT_VERBS)


def test_a_command_string_is_judged_as_what_it_does_to_a_device_or_file():
    table_holds(COMMAND_STRINGS)


def test_pass_through_commands_are_read_by_their_operation_code():
    table_holds(PASSTHROUGH)


def test_registers_and_physical_memory_written_with_a_value():
    table_holds(REGISTERS)


def test_a_suites_delete_fused_before_a_storage_object():
    table_holds(SUITE_DELETES)


def _commands(name: str) -> list:
    lines = [line for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    return [re.sub(r"^\[[\w-]+\]\s*", "", line) for line in lines]


def test_devices_w2_forms():
    """At 675683d: 34.0% of 94 flagged, everyday 5/103 loud; after: 95.7%, 0/103."""
    destructive, everyday = _commands("destructive.txt"), _commands("everyday.txt")
    missed = [c for c in destructive if not flagged(c)]
    loud = [c for c in everyday if flagged(c)]
    assert len(destructive) >= 90 and len(everyday) >= 100
    assert 1 - len(missed) / len(destructive) >= 0.94, "\n".join(missed)
    assert not loud, "\n".join(loud)
