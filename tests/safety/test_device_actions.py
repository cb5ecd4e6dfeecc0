"""Disks, tapes and volumes acted on by tools no disk rule names, said by how the tool is told
(rules/device_actions.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("sudo mkusb targetdisk=/dev/sdd", "high"),
    ("sudo winusb-cli targetdrive=/dev/sdc1 win10.iso", "high"),
    ("sudo Ventoy2Disk.sh -i -g /dev/sdc", "high"),
    ("sudo Ventoy2Disk.sh -I /dev/sdb", "high"),
    ("sudo unetbootin-cli --install /dev/sdb", "high"),
    ("sudo systemd-repart --empty=force /dev/sdb", "high"),
    ("sudo systemd-repart --empty=force --dry-run=no /dev/nvme1n1", "high"),
    ("sudo nvmecontrol format nvme0", "high"),
    ("sudo nvmecontrol format nvme0ns1", "high"),
    ("sudo bioctl -C force -c 1 -l /dev/sd0a,/dev/sd1a softraid0", "high"),
    ("sudo sg_unmap --lba=0 --num=1000000 /dev/sg2", "high"),
    ("sudo sg_write_same --10 --lba=0 --num=0 /dev/sg1", "high"),
    ("sudo sg_write_long --lba=4096 /dev/sdb", "high"),
    ("sudo mkltfs -d /dev/sg3 -f", "high"),
    ("sudo resize2fs -f /dev/sdb1 10G", "medium"),
    ("sudo resize2fs -f /dev/mapper/vg0-root 5G", "medium"),
    ("sudo ntfsresize -f -s 10G /dev/sdb1", "medium"),
    ("sudo vgchange -an vg0", "medium"),
    ("sudo vgchange -a n rootvg", "medium"),
    ("sudo lvchange -an /dev/vg0/root", "medium"),
    ("sudo lvchange --activate n vg_data/lv_db", "medium"),
    ("sudo fsck -fy /", "high"),
    ("sudo e2fsck -fy /dev/mapper/ubuntu--vg-root", "high"),
    ("sudo fsck.xfs -fy /dev/mapper/rhel-root", "high"),
    ("sudo fsck.ext4 -fy /dev/sda1", "medium"),
    ("sudo e2fsck -fp /dev/nvme0n1p2", "medium"),
    ("sudo bioctl -c 1 -l /dev/sd1a,/dev/sd2a softraid0", "high"),
])
def test_devices_acted_on_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "sudo resize2fs /dev/sdb1",
    "sudo resize2fs /dev/vg0/data 200G",
    "sudo resize2fs -P /dev/sdb1",
    "sudo vgchange -ay vg0",
    "sudo lvchange -ay vg0/data",
    "sudo fsck -n /dev/sda1",
    "sudo fsck.ext4 -n /dev/sdb1",
    "sudo e2fsck -f /dev/sdb1",
    "sudo e2fsck -fy /dev/sdb1",
    "sudo fsck -y /dev/sda1",
    "sudo e2fsck -fn /dev/mapper/ubuntu--vg-root",
    "sudo nvmecontrol devlist",
    "sudo nvmecontrol identify nvme0",
    "sudo bioctl sd2",
    "sudo sg_inq /dev/sg0",
    "sudo sg_readcap /dev/sg1",
    "sudo systemd-repart --dry-run=yes /dev/sdb",
    "systemd-repart --help",
    "sudo ltfs -o devname=/dev/sg3 /mnt/ltfs",
    "sudo mkltfs --help",
    "mt -f /dev/nst0 status",
    "mt -f /dev/nst0 weof",
    "sudo Ventoy2Disk.sh -l /dev/sdc",
    "ventoy-list -d /dev/sdb",
    "clang-format -i main.c",
    "dotnet format whitespace src/app.csproj",
    "sudo camcontrol devlist",
])
def test_everyday_device_work_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
