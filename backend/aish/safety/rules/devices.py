"""Writes to devices and machines that a program's own words announce: a flasher given a disk
(``bmaptool copy img /dev/sdc``), a phone or board flasher (``fastboot -w``), an updater told to
reboot (``updatectl --reboot update``)."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.any_case import AnyCase
from aish.safety.rules.common import HIGH, MEDIUM, PARTITION_PLACEHOLDER, Ctx, is_device
from aish.safety.rules.disk_names import BARE_DISK, DEVICE, DEVICE_PARTS, DEVICE_PLACEHOLDER
from aish.safety.rules import firmware_writes
from aish.safety.rules.triggers import triggered_by
from aish.safety.verbs import DEVICE_PROGRAMS, DEVICE_WRITE_BY_PROGRAM, DEVICE_WRITE_OPTIONS, FLASH
from aish.safety.lazy_regex import lazy

_COPIERS_TO_DEVICE = {"ddrescue", "gddrescue", "dd_rescue", "pv", "bmap-tools"}

_REBOOT_OPTIONS = {"--reboot", "--auto-reboot", "--restart", "-autoreboot", "--reboot-after", "--autoreboot"}
# Any spelling of "and then reboot" (`--restart-now`, `--force-reboot`, `--reboot-if-required`); not a setting of it
# (`--reboot-timeout`, `--no-reboot`).
_REBOOT_OPTION = re.compile(r"^--?(auto-?|force-?)?(reboot|restart)(-(now|after|when-done|if-required|if-needed|"
                            r"required|immediately))?$")
_UPDATE_WORDS = {"update", "upgrade", "install", "apply", "dist-upgrade", "full-upgrade", "deploy", "switch"}


def update_with_reboot(c: Ctx) -> Optional[tuple]:
    """Any updater told to restart the machine when done (``updatectl --reboot update``), or any tool that
    resets or cleans told to (``cloud-init clean --logs --reboot``)."""
    lowered = [t.lower() for t in c.texts]
    if _UPDATE_WORDS.isdisjoint(lowered) and _RESET_WORDS.isdisjoint(lowered):
        return None  # neither an update nor a reset: a reboot alone is judged elsewhere
    if not set(lowered) & _REBOOT_OPTIONS and any(_REBOOT_OPTION.match(t) for t in lowered):
        lowered.append("--reboot")
    if set(lowered) & _REBOOT_OPTIONS and set(lowered) & _UPDATE_WORDS:
        return MEDIUM, f"{c.prog} installs updates and restarts the machine ({c.text})"
    if set(lowered) & _REBOOT_OPTIONS and set(lowered) & _RESET_WORDS:
        return MEDIUM, f"{c.prog} resets what it manages and restarts the machine ({c.text})"
    return None


_RESET_WORDS = {"clean", "reset", "rollback", "wipe", "deprovision", "uninstall", "remove", "purge", "rebuild"}


def device_program(c: Ctx, verb: str) -> Optional[tuple]:
    """Flashers of phones, boards and chips: their device is implied (``fastboot -w``, ``esptool erase_flash``)."""
    words = DEVICE_PROGRAMS.get(c.prog)
    if words is None:
        return None
    said = next((t for t in c.texts if t in words), None) or ("*" if "*" in words else None)
    if said is None:
        return None
    return HIGH, f"{c.prog} {said if said != '*' else ''} erases or rewrites the device's storage ({c.text})"


def device_write(c: Ctx, options: set) -> Optional[tuple]:
    """A disk device on the line, and a word that writes an image or a filesystem onto it."""
    if c.prog in _COPIERS_TO_DEVICE:  # ddrescue IN OUT [MAP]: the second operand is written
        ops = [w.text for w in c.args if not w.text.startswith("-")]
        if len(ops) >= 2 and is_device(ops[1]):
            return HIGH, f"{c.prog} writes onto the device {ops[1]}: what it holds is lost ({c.text})"
        return None
    low = c.lowered
    if not any(part in low for part in DEVICE_PARTS):
        return None  # no word can name a disk: nothing below can find one
    into = _output_to_device(c.texts)
    if into:
        return HIGH, f"{c.prog} writes its output onto the device {into}: what it holds is lost ({c.text})"
    by_program = DEVICE_WRITE_BY_PROGRAM.get(c.prog)
    any_part = by_program is not None and "*" in by_program  # `pvcreate /dev/sdb1`: a partition is written over too
    dev = next((w.text for w in c.args if is_device(w.text.split("=", 1)[-1]) and
                (any_part or (not re.search(r"\d$", w.text.removeprefix("/dev/nvme0n1")) or
                              _NUMBERED_DISK.match(w.text.split("=", 1)[-1])) and
                 not PARTITION_PLACEHOLDER.match(w.text)) or
                w.text[:1] == "\\" and re.fullmatch(r"\\\\\.\\PhysicalDrive\d+", w.text, re.IGNORECASE)), None)
    if dev is None:
        return None
    words = {t.lower() for t in c.texts if not t.startswith("-")}
    if by_program is not None and ("*" in by_program or options & by_program or words & by_program) or \
            options & DEVICE_WRITE_OPTIONS and not c.prog.endswith("mount") or words & FLASH:  # `pmount -w`: writable
        return HIGH, f"{c.prog} writes onto the device {dev}: what it holds is lost ({c.text})"
    return None


# Options and keys that name where a program writes (`partclone -o /dev/sdb2`, `ntfsclone --overwrite
# /dev/sda1`, `fsarchiver restfs x.fsa id=0,dest=/dev/sdb1`, `dc3dd wipe=/dev/sdb`): a partition too.
_OUTPUT_OPTIONS = {"-o", "--output", "-O", "--overwrite", "--dest", "--destination", "--target", "--device-out"}
_OUTPUT_KEY = re.compile(r"(?:^|,)(?:of|dest|destination|wipe|hwipe|output|out|target)=(/dev/[^,\s]+)")


def _output_to_device(texts: list) -> str:
    for k, t in enumerate(texts):
        if t in _OUTPUT_OPTIONS and k + 1 < len(texts) and is_device(texts[k + 1]):
            return texts[k + 1]
        m = _OUTPUT_KEY.search(t)
        if m and is_device(m.group(1)):
            return m.group(1)
    return ""


# Words that build something new over the disks they are given: a pool, an array, a cache, a filesystem.
_BUILDS = {"create", "add", "attach", "replace", "format", "init", "initialize", "make", "new", "build", "zap",
           "labelclear", "mkfs", "--create", "--add", "--format", "--init", "--filesystem", "make-bcache"}
_MAKES_FS = lazy(r"^(mk\w*fs|mkfs\w*|make-\w+|mk(raid|swap|udf\w*|exfat\w*|hfs\w*|jfs|reiser\w*|"
                 r"bcache|lvm\w*))$")
_IMAGE = lazy(r"\.(iso|img|raw|wic|bin|ipsw|dmg|hddimg|sdcard|rpi-sdimg)(\.(xz|gz|zst|bz2|zip))?$", re.IGNORECASE)
_READS_ONLY = {"status", "list", "ls", "show", "info", "iostat", "stats", "get", "check", "-l", "--list", "scan",
               "import", "export", "--help", "-h", "--version", "--dry-run"}
# Firmware images, and programs named for restoring or upgrading a device from one (`sysupgrade x.bin`,
# `idevicerestore -e x.ipsw`).
_FIRMWARE = AnyCase(r"\.(ipsw|bin|img|hex|uf2|fw|rom|cap|itb|trx|chk|dfu|ffu|ftf|tar\.md5)$")
_FIRMWARE_READS = {"read", "dump", "backup", "save", "verify", "--verify", "--test", "-T", "--read", "info",
                   "--save", "-save", "/O", "ri"}  # `nvflash --save x.rom`, `afulnx_64 x.rom /O`
# A flasher's abbreviated read (`xflash r 0x0 0x1000 dump.bin`, `upgrade_tool rl …`): the image is its output.
_READ_LETTERS = {"r", "rl", "rd", "rf", "rb"}
_FIRMWARE_TOOL = lazy(r"restore|sysupgrade|flash|firmware|fwupd|dfu|recovery")
# Whole disks whose names end in a number (a partition of them has a letter or a suffix after it): the BSDs'
# (`/dev/ada2`, `/dev/da3`, `/dev/nvd0`), Solaris' disk without a slice, replicated and network block devices.
_NUMBERED_DISK = lazy(r"^/dev/((ada|da|nda|nvd|vtbd|mfid|mmcsd|xbd)\d+|r?dsk/c\d+t\d+d\d+|drbd\d+|rbd\d+)$")
# A Windows drive by its letter (`E:`, `F:\`), and the words that format one.
_DRIVE_LETTER = lazy(r"^[A-Za-z]:\\?$")
_FORMATS = frozenset({"format", "--format", "/format", "-format", "reformat", "--reformat"})
# Programs named for formatting drives (`sdformatter`, `usbformat`, `fat32format`), not text (`clang-format`).
_DRIVE_FORMATTER = lazy(r"(usb|sd|disk|drive|fat\d*|ntfs|exfat|card|flash|media|hdd|ssd|lowlevel)[-_]?format|"
                        r"format[-_]?(usb|disk|drive|card)")
_PARTITIONERS = lazy(r"^(gpart|gpt|disklabel|bsdlabel)$")
# Options that name the disk a program writes to (`bootiso -d /dev/sdc x.iso`).
_DEVICE_OPTIONS = {"-d", "--device", "-t", "--target", "-o", "--output", "--dest", "--drive", "--disk", "-D"}


@triggered_by(_FIRMWARE, DEVICE, DEVICE_PLACEHOLDER, _BUILDS)
def rule_device_given(c: Ctx, known: bool) -> Optional[tuple]:
    """A disk given to a program that builds over it (``zpool add -f tank /dev/sde``, ``vdo create
    --device=/dev/sdb``, ``make-bcache -B /dev/sdb``, ``mkexfatfs /dev/sdc1``), or an image given
    with a whole disk to a program no rule names (``mkusb-nox ubuntu.iso /dev/sdc``)."""
    texts = c.texts
    if set(t.lower() for t in texts) & _READS_ONLY:
        return None
    operands = [t for t in texts if not t.startswith("-")]
    letter = next((t for t in operands if _DRIVE_LETTER.match(t)), None)
    if letter and not known and ({t.lower() for t in texts} & _FORMATS or _DRIVE_FORMATTER.search(c.prog.lower())):
        return HIGH, f"{c.prog} formats the drive {letter} (what it holds is lost) ({c.text})"  # `fsctl format E: -y`
    firmware = next((t for t in operands if _FIRMWARE.occurs_in(t)), None)
    if not known and firmware and _FIRMWARE_TOOL.search(c.prog.lower()) and not set(texts) & _FIRMWARE_READS and \
            not firmware_writes.saves_a_copy([t.lower() for t in texts], firmware) and \
            not re.search(r"read|dump|info|backup|save", c.prog.lower()) and \
            not _written_not_read(texts, operands, firmware):  # `flash_read /dev/mtd2 out.bin`
        return HIGH, f"{c.prog} rewrites the device's firmware from {firmware}: what it holds may go ({c.text})"
    devs = [t.split("=", 1)[-1] for t in texts if is_device(t.split("=", 1)[-1])]
    if not devs and texts[:1] and texts[0] in _BUILDS:  # `zpool create tank ada1 ada2`: disks by their bare names
        devs = [t for t in texts[1:] if BARE_DISK.match(t)]
    if not devs:
        return None
    prog = c.prog.lower()
    if _MAKES_FS.match(prog) and not prog.startswith(("mkdir", "mkfifo", "mknod", "mkinitcpio", "mktemp")):
        return HIGH, f"{c.prog} writes a new filesystem onto {devs[0]}: what it holds is lost ({c.text})"
    own_rule = known and c.prog in ("mdadm", "cryptsetup", "sgdisk", "parted") or \
        _PARTITIONERS.match(prog) and texts[0] in ("add", "create") and not {"-f", "-F"} & set(texts)
    # (`gpart add -t freebsd-ufs ada0`: a partition made in free space; `gpt create wd0` refuses a used disk)
    # `systemd-cryptsetup attach name /dev/sdb1`, `geli attach /dev/gpt/data0`: an encrypted volume opened
    opens = re.search(r"crypt|geli|gbde|cgd|luks|vera|tcplay", prog) is not None and "attach" in texts
    if {t.split("=", 1)[0] for t in texts} & _BUILDS and not own_rule and not opens:
        return HIGH, f"{c.prog} builds over the device {devs[0]}: what it holds is lost ({c.text})"
    into = [t for k, t in enumerate(texts) if t in devs and (k and texts[k - 1] in _DEVICE_OPTIONS or
                                                             operands[-1:] == [t])]
    whole = [d for d in into if not re.search(r"\d$", d.removeprefix("/dev/nvme0n1")) or _NUMBERED_DISK.match(d) or
             re.match(
        r"^/dev/(mmcblk\d+|nvme\d+n\d+|disk\d+|rdisk\d+)$", d)]
    if not known and whole and c.prog not in _COPIERS_TO_DEVICE and any(_IMAGE.search(t) for t in texts):
        return HIGH, f"{c.prog} writes an image onto the device {whole[0]}: what it holds is lost ({c.text})"
    return None


def _written_not_read(texts: list, operands: list, image: str) -> bool:
    """The image is what the tool writes (`thin_restore -i x.xml -o meta.bin`, `xflash r 0x0 N dump.bin`), or no
    target is given."""
    k = texts.index(image) if image in texts else -1
    if k > 0 and texts[k - 1] in ("-i", "--input") and operands == [image]:
        return True  # `xfs_mdrestore -i /tmp/metadump.img`: no target given (-i shows what the image holds)
    return k > 0 and texts[k - 1] in ("-o", "--output") or bool(operands) and operands[0].lower() in _READ_LETTERS
