"""Effect: firmware, an EEPROM or a controller's flash written by any vendor's tool.

A network card, a RAID or HBA controller, a GPU, a BMC or the BIOS runs from its own flash; a wrong,
corrupt or interrupted image leaves the device dead (or the machine unbootable), and a downgrade forced
through brings back what the newer firmware fixed.  Vendors spell the write their own way: ``flint -i
fw.bin burn`` (``b``), ``ethtool -E``/``--change-eeprom`` (an EEPROM byte) and ``-f``/``--flash``,
``devlink dev flash``, ``storcli /c0 download file=…``, ``megarec -cleanflash``, ``nvflash --protectoff``,
``bootutil -FE``, ``sum -c UpdateBios``, ``racadm update -f``, ``ilorest flashfwpkg``, ``isdct load``,
``ipmitool hpm upgrade x.hpm``, ``fwupdmgr install --allow-older --force``, a flasher given an
image (``afulnx_64 bios.rom /P /B``, ``eeupdate /D image.bin``, ``rpi-eeprom-update -f x.bin``), a
vendor's BIOS updater run unattended (``BIOS.BIN -f -q``), a drive's firmware downloaded or committed
(``nvme fw-commit``), an EEPROM written on the I2C bus (``i2cset -y 0 0x50 …``: 0x50-0x57), Secure Boot's
keys reset or enrolled (``sbctl reset``, ``efi-updatevar -f PK.auth PK``).

Firmware tools are known by their names; their reads (``query``, ``q``, ``ri``, ``--save``, ``/O``,
``show``, ``list``, ethtool's ``-i`` and ``-e``: an EEPROM dump) stay quiet, and so does an
update that neither forces nor downgrades (``fwupdmgr update``).  A word that says "write the firmware"
(``UpdateBios``, ``flash-bmc``, ``burn_fw``) is read for any program.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# Programs that write firmware, by name (Mellanox/NVIDIA, Broadcom, Intel, LSI, AMI, GPU and board flashers).
FIRMWARE_TOOL = LazyRegex(r"flint|mlxburn|mlxfwmanager|ethtool|devlink|fwupd|sas\d?flash|megarec|storcli|perccli|"
                          r"nvflash|vbflash|atiflash|^afu|^fpt|nvmupdate|eeupdate|bootutil|bnxtnvm|niccli|"
                          r"rpi-eeprom|sg_write_buffer|sysupgrade|futility|^ipmitool$|^sum$|firmware|"
                          r"eeprom|biosupdate|flashupdate|^racadm$|^ilorest$|^isdct$|^intelmas$|^mlxup$", re.IGNORECASE)
# Words that write, for a firmware tool (lowered).
_WRITES = frozenset({"burn", "b", "flash", "--flash", "download", "-cleanflash", "--protectoff", "-protectoff",
                     "-fe", "-e", "--change-eeprom", "downgrade", "--allow-older", "noverchk", "upgrade", "-u",
                     "--update", "-update", "/d", "/p", "write", "--write", "-w", "program", "--program"})
# Server management tools (Dell's racadm, HPE's ilorest, Intel's SSD tools): their subcommands that write firmware.
_SERVER_TOOLS = frozenset({"racadm", "ilorest", "isdct", "intelmas", "mlxup"})
_SERVER_WRITES = frozenset({"update", "load", "flashfwpkg", "fwupdate", "uploadcomp", "-u", "--update"})
# ethtool's own letters: -E writes an EEPROM byte, -f flashes (its -e and -i only read).
_ETHTOOL_WRITES = frozenset({"-E", "--change-eeprom", "-f", "--flash"})
# Words that only read, query or save.
_READS = frozenset({"query", "q", "ri", "rom", "--save", "-save", "save", "/o", "show", "list", "-list", "-listall",
                    "--list", "info", "--query", "check", "status", "verify", "--verify", "--test", "-t", "dump",
                    "read", "--read", "-r", "backup", "get-devices", "get-updates", "refresh", "get-details",
                    "--help", "-h", "inventory", "--inventory", "-?"})
# A flasher's letter that saves the current image (`atiflash -s 0 backup.rom`, `nvflash -b orig.rom`, `fptw64 -d
# dump.bin`) into a file named as a copy: the device is read, not written.
_SAVE_LETTERS = frozenset({"-s", "-b", "-d", "--dump", "--backup", "-dump", "-backup"})
_SAVED_COPY = LazyRegex(r"(backup|bak|dump|orig|stock|saved?|copy|old)[^/]*$", re.IGNORECASE)
_IMAGE = LazyRegex(r"\.(bin|rom|img|cab|fw|mlx|pkg|hex|cap|fd|signed|upd|ima|itb|nvm|fwpkg|mfa|hpm)$", re.IGNORECASE)
# fwupd's install of a file is what it is for: only a forced downgrade or reinstall counts.
_FWUPD_FORCED = frozenset({"--allow-older", "downgrade", "--allow-reinstall", "--force"})
# A word that writes firmware by itself, for any program (`sum -c UpdateBios`, `flash-bmc`).
_WRITE_WORD = LazyRegex(r"^(update|flash|burn|program|write|upgrade|downgrade|load)(bios|bmc|uefi|cpld|firmware|fw|"
                        r"rom|eeprom|nvm|nvram|fpga|microcode)$|^(bios|bmc|firmware|fw|eeprom)(flash|burn|write|"
                        r"downgrade|download|commit|activate)$")
# What every firmware-writing word holds.
_WRITE_NOUN = LazyRegex(r"bios|bmc|uefi|cpld|firmware|fw|rom|eeprom|nvm|nvram|fpga|microcode")
# Vendors' BIOS updaters, named for the BIOS they carry (`BIOS.BIN -f -q`, `BIOS_5XK2T_WN64_1.12.0.EXE /s /f`).
_BIOS_UPDATER = LazyRegex(r"(^|/)bios([-_.]\w[\w.-]*)?(\.(bin|exe))?$", re.IGNORECASE)  # `.exe` is taken off the name
# EEPROMs on the I2C/SMBus sit at 0x50-0x57 (memory modules' SPD among them): i2cset's own warning.
_EEPROM_ADDRESS = LazyRegex(r"^0x5[0-7]$", re.IGNORECASE)
# Secure Boot's keys written or reset (a wrong PK or db leaves the machine unable to boot its own loader).
# (`sbctl enroll-keys` is how Secure Boot is set up, and checks the keys first: it stays quiet.)
_SECURE_BOOT = {"sbctl": {"reset"}, "efi-updatevar": {"*"}, "mokutil": {"--reset"}}


# Asked on every unflagged command: each finding needs a firmware noun in the line (the word that writes), a
# firmware tool's or BIOS updater's name (their own forms), or an EEPROM or Secure Boot tool's name; a line with none
# is skipped.
@triggered_by(_WRITE_NOUN, FIRMWARE_TOOL, _BIOS_UPDATER, ("i2cset", "i2ctransfer"), tuple(_SECURE_BOOT))
def rule_firmware_written(c: Ctx, tool: bool = True) -> Optional[tuple]:
    """A firmware image, an EEPROM or a flash written by a firmware tool, or a firmware-writing word (``tool``:
    read the firmware tools' own forms too; False for programs whose own rules judge them, `nvme`)."""
    said = next((t for t in c.texts if _WRITE_WORD.match(re.sub(r"[-_.]", "", t.lower()))), None) \
        if _WRITE_NOUN.search(c.lowered) else None  # one search of the line before a reading of every word
    if said is None and tool and (FIRMWARE_TOOL.search(c.prog) or _BIOS_UPDATER.search(c.prog)):
        said = _tool_writes(c)
    if said is None and tool:
        said = _eeprom_or_keys(c)
    if said is None:
        return None
    return MEDIUM, f"{c.prog} {said} writes the device's firmware: a wrong or interrupted image leaves it " \
        f"dead or the machine unbootable ({c.text})"


def _tool_writes(c: Ctx) -> Optional[str]:
    prog = c.prog.lower().removesuffix(".exe")
    lowered = [t.lower() for t in c.texts]
    values = [t.split("=", 1)[-1] for t in c.texts]
    image = next((v for v in values if _IMAGE.search(v)), None)
    if prog == "ethtool":
        return next((t for t in c.texts if t in _ETHTOOL_WRITES), None)
    if prog.startswith("fwupd"):
        return next((t for t in lowered if t in _FWUPD_FORCED), None) if \
            {"install", "downgrade", "local-install", "update"} & set(lowered) else None
    if prog in _SERVER_TOOLS:
        return next((t for t in lowered if t in _SERVER_WRITES and (t != "-u" or prog == "mlxup")), None)
    if prog in ("sum", "ipmitool"):  # coreutils' sum, ipmitool's many readings: only an image with a write
        return next((t for t in lowered if t in _WRITES), None) if image else None
    write = next((t for t in lowered if t in _WRITES and (t != "b" or image)), None)
    if write is not None:
        return write
    if image and not set(lowered) & _READS and not saves_a_copy(lowered, image):
        return image
    if _BIOS_UPDATER.search(c.prog) and set(lowered) & {"-f", "/f", "-q", "/s", "/q", "-s"}:
        return "-f"  # a vendor's BIOS updater told to run unattended
    return None


def saves_a_copy(lowered: list, image: str) -> bool:
    """``atiflash -s 0 backup.rom``: a flasher's save letter and a file named as a copy (the device is read)."""
    return bool(set(lowered) & _SAVE_LETTERS) and bool(_SAVED_COPY.search(image))


def _eeprom_or_keys(c: Ctx) -> Optional[str]:
    prog = c.prog.lower()
    if prog in ("i2cset", "i2ctransfer"):
        return next((t for t in c.texts if _EEPROM_ADDRESS.match(t)), None)
    words = _SECURE_BOOT.get(prog)
    if words is None:
        return None
    return next((t for t in c.texts if t.lower() in words), None) or ("Secure Boot keys" if "*" in words and
                                                                     c.texts else None)

