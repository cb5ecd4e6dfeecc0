"""Effect: a raw device or a chip's one-time memory written, for any program.

A disk, a raw flash (``/dev/mtd*``), a UBI volume, a SCSI generic node (``/dev/sg*``) given to a program
whose name or words say it writes, erases, wipes, formats, zeroes or burns (``ntfswipe --all /dev/sdc1``,
``nandtest -p 2 /dev/mtd4``: a test that erases every block, ``ubiupdatevol /dev/ubi0_1 -t``,
``luksformat -t ext4 /dev/sdd1``, ``nvmectl write-zeroes /dev/nvme0n1``) loses what the medium holds; so does
a zero or random source fed to a device (``sg_raw -s 512 -i /dev/zero /dev/sg2 2a …``: a SCSI WRITE).
One-time programmable memory and eFuses cannot be written twice (``espefuse.py burn_efuse``, ``flash_otp_write``,
``otp_write``, ``--burn``), a board's SPI flash written by its boot-ROM tool (``sunxi-fel spiflash-write``) is
what it boots from, and a boot variable set to nothing (``fw_setenv bootcmd``) leaves the board without its boot
command.  Programs named for reading a device (``nanddump``, ``flash_otp_info``, ``sg_inq``) and read, show or
dump words stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, is_device
from aish.safety.rules.triggers import triggered_by

# What writes, in a program's name or its words (fused: `ntfswipe`, `luksformat`, `write-zeroes`, `rmvol`).
_WRITES = lazy(r"wipe|erase|format|zero|burn|write|flashcp|nandtest|rmvol|updatevol|sanitize|destructive|"
               r"overwrite|shred|scrub")
# What only reads, lists or shows.
_READS = lazy(r"(^|[-_.])(dump|read|info|inq|stat|status|show|list|ls|scan|query|print|ident|summary|get|verify|"
              r"check|cat)([-_.]|$)")
_READER_NAME = lazy(r"dump|read|info|inq|stat|show|list|scan|query|print|ident")
_NOT_DOING = frozenset({"--no-action", "--dry-run", "--help", "-h", "--version", "-V"})
# Encrypted volumes created over a device (`tcplay -c -d /dev/sdb`, `veracrypt -t -c /dev/sdc`).
_CRYPT_NAME = lazy(r"crypt|luks|tcplay|zulu")
_CREATES = frozenset({"-c", "--create", "create", "--format", "format"})
# A source of zeros or random bytes handed to a program as its input.
_EMPTY_SOURCE = lazy(r"^(-i|--in|--input|if|--if|-if|in|--data|-d)?=?/dev/(zero|u?random)$")
# One-time memory and eFuses: written once, for ever.
_ONE_TIME = lazy(r"burn[-_]?(efuse|key|block|bit|custom|fuse)|efuse|otp[-_]?(write|lock|prog)|fuse[-_]?prog|"
                 r"(write|lock|prog|program|burn)[-_]?otp|"
                 r"write[-_]?protect[-_]?efuse|^--burn$|^burn$")
_ONE_TIME_NAME = lazy(r"efuse|otp|fuse")
_NAME_WRITES = lazy(r"write|lock|prog|burn")
# A board's SPI, NAND or eMMC flash written by a fused word (`spiflash-write`, `nand-erase`, `emmc_write`).
_FLASH_WORD = lazy(r"^(spi|nand|nor|emmc|mmc|qspi)[-_]?flash[-_]?(write|erase|program)|^(spi|nand|nor|emmc|qspi)"
                   r"[-_](write|erase|program)$|^(write|erase)[-_]?(spi|nand|nor|qspi)(flash)?$")
_BOOT_ENV = lazy(r"u-?boot|^fw[-_]|bootenv|bootloader")
_GATE = lazy(r"/dev/|path/to/|burn|efuse|otp|fuse|flash|setenv|nand|emmc|mmc|spi|nor[-_]|write|erase|boot")


@triggered_by(_GATE, otherwise=None)
def rule_raw_device(c: Ctx) -> Optional[tuple]:
    """A device written by a program whose words say it writes; one-time memory burnt; a boot variable cleared."""
    texts = c.texts
    if not texts or set(texts) & _NOT_DOING:
        return None
    name = c.prog.lower().rsplit("/", 1)[-1]
    lowered = [t.lower() for t in texts]
    operands = [t for t in lowered if not t.startswith("-")]
    if any(_READS.search(t) for t in operands[:2]) or _READER_NAME.search(name):
        return None
    return _one_time(c, name, lowered) or _boot_variable(c, name, texts) or _device_written(c, name, lowered)


def _device_written(c: Ctx, name: str, lowered: list) -> Optional[tuple]:
    devices = [t.split("=", 1)[-1] for t in c.texts if is_device(t.split("=", 1)[-1])]
    if not devices:
        return None
    empty = next((t for t in lowered if _EMPTY_SOURCE.match(t)), None)
    if empty is not None:
        return HIGH, f"{c.prog} writes {empty.split('=')[-1]} onto {devices[0]}: what it holds is lost ({c.text})"
    if _CRYPT_NAME.search(name) and set(lowered) & _CREATES:
        return HIGH, f"{c.prog} creates an encrypted volume over {devices[0]}: what it holds is lost ({c.text})"
    said = name if _WRITES.search(name) else next(
        (t for k, t in enumerate(lowered) if _WRITES.search(t.lstrip("-")) and "/" not in t and "." not in t and
         (t.startswith("-") or not k or not lowered[k - 1].startswith("-"))), None)  # not `-t write-exclusive`
    if said is None:
        return None
    return HIGH, f"{c.prog} {said if said != name else ''}writes over {devices[0]}: what it holds is lost " \
        f"({c.text})".replace("  ", " ")


def _one_time(c: Ctx, name: str, lowered: list) -> Optional[tuple]:
    said = next((t for t in lowered if _ONE_TIME.search(t) and (t != "--burn" and t != "burn" or
                                                                _ONE_TIME_NAME.search(name))), None)
    if said is None and _ONE_TIME_NAME.search(name) and _NAME_WRITES.search(name):
        said = name  # `flash_otp_write`, `flash_otp_lock`
    if said is None:
        said = next((t for t in lowered if _FLASH_WORD.match(t)), None)
        if said is not None:
            return HIGH, f"{c.prog} {said} writes the board's boot flash: what it boots from is replaced ({c.text})"
        return None
    return HIGH, f"{c.prog} {said if said != name else ''} writes one-time programmable memory or eFuses: it can " \
        f"never be undone ({c.text})".replace("  ", " ")


def _boot_variable(c: Ctx, name: str, texts: list) -> Optional[tuple]:
    """``fw_setenv bootcmd``: a boot loader's variable given no value is deleted."""
    operands = [t for t in texts if not t.startswith("-")]
    if name.endswith("setenv") and len(texts) == 1 and operands:
        variable = texts[0]
    elif _BOOT_ENV.search(name) and len(operands) == 2 and operands[0].lower() in ("set", "setenv") and \
            len(texts) == 2:  # `uboot-env set bootcmd`
        variable = operands[1]
    else:
        return None
    level = HIGH if variable.lower().startswith("boot") else MEDIUM
    return level, f"{c.prog} {variable} with no value deletes the boot loader's variable: the board may not " \
        f"boot ({c.text})"
