"""Classes of destructive commands as documentation writes them: disks named by placeholder
(``/dev/sdX``, ``/dev/usb_drive``), programs called by their Windows file name (``shred.exe``),
DDL statements typed at a database prompt (``DROP SEQUENCE ids;``), file transfer clients
told what to run (``lftp -e 'mrm …'``), containers removed with their volumes.  Each class has
forms from programs and phrasings of our own, and quiet counterparts."""
from __future__ import annotations

import pytest

from tests.safety.test_long_tail import judged, reaches, stays_quiet


# ------------------------------------------------------ disks named the way manuals name them
@pytest.mark.parametrize("command", [
    "sudo zpool create tank /dev/sdX",
    "sudo mkusb-nox ubuntu.iso /dev/sdX",
    "sudo bootiso -d /dev/usb_drive debian.iso",
    "sudo ntfsclone --overwrite /dev/sdXN backup.img",
    "sudo partclone.ext4 -r -s disk.img -o /dev/sdXY",
    "sudo pvcreate /dev/sdX",
    "sudo vgcreate data /dev/sdX /dev/sdY",
    "sudo bcachefs format /dev/disk_device",
    "sudo make-bcache -B /dev/target_disk",
])
def test_disks_named_by_placeholder_are_disks(command):
    assert reaches(command, "high"), judged(command)


@pytest.mark.parametrize("command", [
    "sudo smartctl -a /dev/sdX",
    "sudo mount /dev/sdXN /mnt/usb",
    "sudo dd if=/dev/sdX of=disk-backup.img status=progress",
    "sudo hdparm -I /dev/sdX",
    "lsblk -f /dev/sdX",
    "sudo fdisk -l /dev/disk_device",
    "sudo blkid /dev/sdXY",
    "sudo pmount -t exfat -w /dev/sdc camera",
    "sudo systemd-cryptsetup attach vault /dev/sdb2 none discard",
    "sudo qm disk import 101 images/win.qcow2 local-lvm --format qcow2",
])
def test_reading_a_placeholder_disk_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ programs called by their Windows file name
@pytest.mark.parametrize("command,at_least", [
    ('rm.exe -rf "$HOME"', "high"),
    ("shred.exe -u ~/notes.txt", "medium"),
    ("git.exe push --force origin main", "high"),
    ("RMDIR.EXE /s /q C:\\Users\\me\\Documents", "medium"),
    ("wsl.exe --unregister Ubuntu", "medium"),
])
def test_a_program_called_with_exe_is_judged_as_itself(command, at_least):
    assert reaches(command, at_least), judged(command)


@pytest.mark.parametrize("command", [
    "git.exe status",
    "rm.exe -f build\\out.o",
    "shred.exe --help",
    "kubectl.exe get pods -A",
    "setup.exe /quiet",
])
def test_harmless_exe_forms_stay_quiet(command):
    assert stays_quiet(command), judged(command)
