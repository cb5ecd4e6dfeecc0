"""Firmware, EEPROM and NIC/controller flash written by any vendor's tool: a `burn` of an image, an
EEPROM write, a downgrade forced through, a flasher told not to ask; and the same tools' reads, queries
and backups that stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("flint -d /dev/mst/mt4119_pciconf0 -i fw-ConnectX5.bin burn", "medium"),
    ("mstflint -d 04:00.0 -i fw.bin burn", "medium"),
    ("flint -d 04:00.0 -i fw.bin -y burn", "medium"),
    ("mstflint -d 04:00.0 -i fw.bin -y b", "medium"),
    ("mlxburn -fw fw-ConnectX3.mlx -d /dev/mst/mt4099_pci_cr0", "medium"),
    ("mlxfwmanager -u -y", "medium"),
    ("ethtool -E eth0 magic 0x15b38086 offset 0x10 value 0xff", "medium"),
    ("ethtool --change-eeprom eth0 magic 0x10ec8168 offset 0 length 4", "medium"),
    ("ethtool -f eth0 fw.bin", "medium"),
    ("ethtool --flash enp1s0f0 firmware.bin", "medium"),
    ("devlink dev flash pci/0000:01:00.0 file mlxfw.bin", "medium"),
    ("fwupdtool install --allow-older --force fw.cab", "medium"),
    ("fwupdmgr install firmware.cab --allow-older --force", "medium"),
    ("fwupdmgr downgrade --force", "medium"),
    ("fwupdmgr install fw.cab --allow-reinstall --allow-older -y", "medium"),
    ("sas2flash -o -e 6", "medium"),
    ("sas3flash -o -f SAS9300_8i_IT.bin -b mptsas3.rom", "medium"),
    ("megarec -cleanflash 0", "medium"),
    ("storcli /c0 download file=mr3108fw.rom noverchk", "medium"),
    ("nvflash -6 modded.rom", "medium"),
    ("nvflash --protectoff", "medium"),
    ("amdvbflash -p 0 bios.rom -f", "medium"),
    ("atiflash -f -p 0 card.rom", "medium"),
    ("afulnx_64 bios.rom /P /B /N /K", "medium"),
    ("fptw64 -f bios.bin -bios", "medium"),
    ("sum -c UpdateBios --file X11DPi.bin", "medium"),
    ("sum -c UpdateBmc --file BMC.bin", "medium"),
    ("ipmitool hpm upgrade fw.img force", "medium"),
    ("bnxtnvm -dev=eth0 install fw.pkg -y", "medium"),
    ("nvmupdate64e -u -l -o update.xml -b -c nvmupdate.cfg", "medium"),
    ("eeupdate64e /NIC=1 /D image.bin", "medium"),
    ("bootutil64e -NIC=1 -FE", "medium"),
    ("rpi-eeprom-update -d -f pieeprom.bin", "medium"),
    ("sg_write_buffer --mode=dmc_offs_defer --in=fw.bin /dev/sg1", "medium"),
    ("sysupgrade -n -F openwrt-sysupgrade.bin", "medium"),
    ("futility update --force -i image.bin", "medium"),
    # neighbours: a drive's firmware committed, an EEPROM on the I2C bus, BIOS updaters, Secure Boot's keys
    ("nvme fw-download /dev/nvme0 --fw=fw.bin", "medium"),
    ("nvme fw-commit /dev/nvme0 --slot=1 --action=1", "medium"),
    ("i2cset -y 0 0x50 0x00 0xff", "medium"),
    ("i2cset -y -f 1 0x57 0x10 0x00 b", "medium"),
    ("BIOS.BIN -f -q", "medium"),
    ("./BIOS_5XK2T_WN64_1.12.0.EXE /s /f", "medium"),
    ("sbctl reset", "medium"),
    ("efi-updatevar -f PK.auth PK", "medium"),
])
def test_firmware_writes_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "flint -d /dev/mst/mt4119_pciconf0 query",
    "mstflint -d 04:00.0 q",
    "mstflint -d 04:00.0 ri backup.bin",
    "mlxfwmanager --query",
    "ethtool -e eth0",
    "ethtool -i eth0",
    "ethtool -m eth0",
    "ethtool -s eth0 speed 1000 duplex full",
    "devlink dev info",
    "fwupdmgr get-devices",
    "fwupdmgr get-updates",
    "fwupdmgr refresh --force",
    "fwupdmgr update",
    "fwupdtool get-devices",
    "sas2flash -listall",
    "sas3flash -list",
    "storcli /c0 show",
    "nvflash --save backup.rom",
    "nvflash --list",
    "amdvbflash -i",
    "afulnx_64 backup.rom /O",
    "sum -c GetBiosInfo",
    "ipmitool hpm check",
    "rpi-eeprom-update",
    "sg_inq /dev/sg1",
    "sysupgrade --test openwrt.bin",
    "futility show image.bin",
    "flashrom -p internal -r backup.rom",
    "nvme fw-log /dev/nvme0",
    "i2cget -y 0 0x50 0x00",
    "i2cset -y 1 0x20 0x06 0x00",
    "i2cdetect -y 1",
    "sbctl status",
    "sbctl verify",
    "efi-readvar",
    "biosdecode",
    "sbctl enroll-keys -m",
])
def test_firmware_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
