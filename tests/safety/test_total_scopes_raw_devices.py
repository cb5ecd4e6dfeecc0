"""Scope words that make a stop, a cancel or a logout total (rules/total_scopes.py), network daemons switched off by
their own control tools, and raw devices and one-time memory written by any program (rules/raw_devices.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "mmumount all -a",
    "mjobctl -c ALL",
    "arkmanager stop @all",
    "gameserverctl stop @all",
    "iscsiadm -m node --logoutall=all",
    "nodectl --disconnectall=all",
    "chanctl --close_list=all --force",
    "lnd-cli --close-all --force",
    "yarnctl app -kill -filter status=RUNNING",
    "jobctl cancel --filter state=RUNNING",
    "canceljob ALL",
    "gpfs_umount_all",
    "condorctl off -all",
    "sparkctl kill all",
    "ovs-appctl -t ovs-vswitchd exit",
    "ovn-appctl -t ovn-controller exit --restart",
    "hostapd_cli -i wlan0 disable",
    "gobgp neighbor 10.0.0.2 disable",
    "routerd_cli disable",
    "fs_cli -x 'fsctl shutdown'",
])
def test_a_scope_that_takes_every_one_makes_a_stop_total(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "mmlsmount all -L",
    "mjobctl -q diag ALL",
    "arkmanager status @all",
    "gameserverctl start @all",
    "iscsiadm -m node --loginall=all",
    "jobctl list --filter state=RUNNING",
    "docker ps --filter status=running",
    "ovs-appctl -t ovs-vswitchd version",
    "hostapd_cli -i wlan0 enable",
    "hostapd_cli -i wlan0 status",
    "pulumi logout --all",
    "vzdump --all --mode suspend --mailto root",
    "dunstctl close-all",
    "mako --close-all",
])
def test_starts_logins_listings_and_soft_verbs_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "ntfswipe --all /dev/sdc1",
    "sg_raw -s 512 -i /dev/zero /dev/sg2 2a 00 00 00 00 00 00 00 01 00",
    "sg_write_same --10 --lba=0 --num=0 --in=/dev/zero /dev/sg1",
    "nandtest -p 2 /dev/mtd4",
    "ubiupdatevol /dev/ubi0_1 -t",
    "ubirmvol /dev/ubi0 -n 1",
    "luksformat -t ext4 /dev/sdd1",
    "tcplay -c -d /dev/sdb",
    "nvmectl write-zeroes /dev/nvme0n1 -s 0 -c 65535",
    "flash_otp_write -u /dev/mtd0 0",
    "flash_otp_lock -u /dev/mtd0 0 64",
    "espefuse.py --port /dev/ttyUSB0 burn_efuse JTAG_DISABLE 1 --do-not-confirm",
    "imxotp --burn 0x6 0x10",
    "chipctl otp_write 0x10 0xdeadbeef",
    "sunxi-fel spiflash-write 0 zeros.bin",
    "fw_setenv bootcmd",
    "uboot-env set bootcmd",
    "otptool --write-otp 3 0xffff",
])
def test_raw_devices_and_one_time_memory_written_by_any_program(command: str) -> None:
    assert reaches(command, "high"), judged(command)


@each_form("command", [
    "nanddump -f dump.bin /dev/mtd4",
    "flash_read /dev/mtd2 out.bin",
    "flash_otp_info -u /dev/mtd0",
    "flash_otp_dump -u /dev/mtd0 0",
    "sg_inq /dev/sg2",
    "sg_raw -r 96 /dev/sg0 12 00 00 00 60 00",
    "espefuse.py --port /dev/ttyUSB0 summary",
    "sunxi-fel spiflash-info",
    "mtd_debug read /dev/mtd0 0 4096 dump.bin",
    "fw_setenv bootdelay 3",
    "fw_printenv",
    "imgctl flash-info /dev/mmcblk0",
    "uboot-env print",
    "otptool --read-otp 3",
])
def test_reading_the_same_devices_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
