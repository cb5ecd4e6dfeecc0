"""Disks written over by programs no rule names: an image or copy tool whose target is a disk (Solaris's
/dev/rdsk, FreeBSD's ada/da names too), a disc blanked, array metadata cleared; RAID controller CLIs'
deletes in their own words; chip programmers told to erase; mkfs spelled with the filesystem first."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "e2image -ra -O 0 disk.e2i /dev/sdb",
    "e2image -rap /dev/sda1 /dev/sdb1",
    "xfs_copy /dev/sda1 /dev/sdc1",
    "fwup -d /dev/sdc firmware.fw",
    "prtvtoc /dev/rdsk/c0t0d0s2 | fmthard -s - /dev/rdsk/c0t1d0s2",
    "dd if=/dev/zero of=/dev/dsk/c1t0d0s0",
    "xorriso -outdev /dev/sdb -blank as_needed",
    "cdrecord dev=/dev/sr0 blank=all",
    "zpool create -f tank ada1 ada2",
    "gmirror clear ada1",
    "gconcat clear ada1 ada2",
    "rpi-imager --cli raspios.img /dev/mmcblk0",
    "make_ext4fs /dev/block/mmcblk0p2",
    "sudo e2image -ra -p fs.e2i /dev/vdb1",
    "sudo fwup -a -i firmware.fw -d /dev/mmcblk0 -t complete",
    "sudo growisofs -Z /dev/sr0=backup.iso",
    "sudo ocs-onthefly -g auto -e1 auto -e2 -r -j2 -sfsck -f sda -t sdb",
])
def test_images_and_copies_onto_disks_are_flagged(command: str) -> None:
    assert reaches(command, "medium"), judged(command)


@each_form("command", [
    "hpssacli ctrl slot=0 ld 2 delete forced",
    "ssacli ctrl slot=0 ld all delete forced",
    "hpacucli ctrl slot=0 ld 1 delete forced",
    "omconfig storage vdisk action=deletevdisk controller=0 vdisk=1",
    "omconfig storage controller action=resetconfig controller=0",
    "omconfig storage controller action=clearforeignconfig controller=0",
    "MegaCli -CfgLdDel -L1 -a0",
    "megacli -CfgClr -a0",
    "sudo MegaCli64 -CfgForeign -Clear -aALL",
])
def test_raid_controllers_deleting_drives_are_flagged(command: str) -> None:
    assert reaches(command, "high"), judged(command)


@each_form("command,at_least", [
    ("flashprog -p ch341a_spi -E", "high"),
    ("flashprog -p internal --erase", "high"),
    ("ch341prog -e", "medium"),
    ("arcconf delete 1 logicaldrive 1 noprompt", "medium"),
    ("bossac -e", "medium"),
    ("jfs_mkfs /dev/sdb1", "high"),
    ("jfs_mkfs -q /dev/sdb1", "high"),
    ("nilfs-mkfs /dev/sdb1", "high"),
    ("mkfs_xfs /dev/sdb1", "high"),
])
def test_chip_erases_and_mkfs_by_other_names_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "e2image -r /dev/sda1 disk.e2i",
    "e2image /dev/sdXN -",
    "xfs_copy /dev/sda1 fs.img",
    "fwup firmware.fw",
    "prtvtoc /dev/rdsk/c0t0d0s2",
    "cmp /dev/sda /dev/sdb",
    "zpool status",
    "gmirror status",
    "gmirror list",
    "storcli /c0 show",
    "ssacli ctrl all show config",
    "omreport storage vdisk",
    "MegaCli -LDInfo -Lall -aALL",
    "arcconf getconfig 1",
    "npm config delete init-author-name",
    "yolo task=init",
    "flashprog -p ch341a_spi -r dump.bin",
    "flashrom -p internal -r backup.bin",
    "bossac -e -w -v -b firmware.bin",
    "jfs_mkfs -h",
    "jfs_fsck /dev/sdb1",
    "newfs -N /dev/ada1p1",
    "mksquashfs dir out.sqfs",
    "sudo kpartx -d /dev/sdb",
    "sudo e2image -Q /dev/sda1 fs.qcow2",
    "mkfs -t xfs disk.img",
    "sudo MegaCli64 -CfgForeign -Scan -aALL",
    "cdrdao read-cd --device /dev/sr0 --datafile image.bin image.toc",  # reading a disc
    "cdrdao read-toc --device /dev/sr0 disc.toc",
])
def test_reading_listing_and_uploads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
