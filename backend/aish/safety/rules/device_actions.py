"""Effect: a disk, a tape or a volume acted on by a tool no disk rule names, said by how the tool is told.

- A target given as a key (``targetdrive=/dev/sdc1``, ``targetdisk=``, ``drive=``): the device is written.
- A boot-stick installer told to install onto a disk (``Ventoy2Disk.sh -i /dev/sdc``, ``-I``, ``--install``).
- A partition table emptied by force (``systemd-repart --empty=force /dev/sdb``).
- A format or sanitize subcommand given a disk by any name (``nvmecontrol format nvme0``, ``camcontrol format
  da1``), and a RAID volume built over its chunks by force (``bioctl -C force -c 1 -l /dev/sd0a,...``).
- SCSI generic and tape devices written through their own tools (``sg_unmap``, ``sg_write_same``,
  ``sg_write_long`` on ``/dev/sgN``; ``mkltfs -f`` formats a tape; ``mt weof`` after a backup is how a tape
  is written, quiet).
- Volumes deactivated (``vgchange -an``, ``lvchange -a n``): the filesystems on them vanish under whatever uses
  them.  A filesystem resized by force to a given size (``resize2fs -f DEV 10G``, ``ntfsresize -f -s``): a size
  below what the files use loses them.  Repairs forced on a mounted root (``fsck -fy /``, ``e2fsck -fy
  /dev/mapper/…-root``): repairing a mounted filesystem corrupts it.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, is_device
from aish.safety.lazy_regex import lazy

_TARGET_KEY = lazy(r"^-{0,2}(target\w*|\w*drive|\w*disk|dest\w*)=(/dev/\S+)$", re.IGNORECASE)
_INSTALLER = lazy(r"ventoy|usb|boot|install|live|creator|maker|stick", re.IGNORECASE)
_SCSI = lazy(r"^/dev/(sg\d+|n?st\d+|bsg/\S+|sd[a-z]+)$")
_SG_WRITERS = lazy(r"^sg_(unmap|write_same|write_long|write_x|write_verify|compare_and_write)$")
_DISK_WORD = lazy(r"^(/dev/)?(nvme\d+(ns\d+)?|nvd\d+|nda\d+|ada\d+|da\d+|sd\d+|wd\d+)$")
_FORMATS = {"format", "sanitize", "secure-erase", "erase"}
_ROOT = lazy(r"^(/|/dev/mapper/\S*root\S*|/dev/\S+/root|LABEL=root|/dev/root)$")
# the first disk's system partitions, where the root usually is (`/dev/sda1`, `/dev/nvme0n1p2`, a Pi's mmcblk0p2)
_SYSTEM_PARTITION = lazy(r"^/dev/((sd|vd|xvd|hd)a[12]|nvme0n1p[12]|mmcblk0p2)$")
_SIZE = lazy(r"^\d+(\.\d+)?[KMGTPkmgtps]?$")
NAMES = frozenset({"systemd-repart", "bioctl", "mkltfs", "vgchange", "lvchange", "resize2fs", "ntfsresize",
                   "fsck", "e2fsck"})


def may_act(c: Ctx) -> bool:
    prog = c.prog.lower()
    return prog in NAMES or prog.startswith(("fsck.", "sg_")) or "/dev/" in c.lowered or \
        bool(c.texts and c.texts[0] in _FORMATS)


def rule_device_action(c: Ctx) -> Optional[tuple]:
    prog, texts = c.prog.lower(), c.texts
    for t in texts:
        m = _TARGET_KEY.match(t)
        if m and is_device(m.group(2)):
            return HIGH, f"{c.prog} writes onto the device {m.group(2)}: what it holds is lost ({c.text})"
    if _INSTALLER.search(prog):
        found = _installed(c)
        if found:
            return found
    if texts and texts[0] in _FORMATS:
        disk = next((t for t in texts[1:] if _DISK_WORD.match(t) or is_device(t)), None)
        if disk:
            return HIGH, f"{c.prog} {texts[0]} wipes {disk}: what it holds is lost ({c.text})"
    if _SG_WRITERS.match(prog):
        dev = next((t for t in texts if _SCSI.match(t) or is_device(t)), None)
        if dev:
            return HIGH, f"{c.prog} writes over the blocks of {dev}: what they held is lost ({c.text})"
    return _by_name(c, prog, texts)


def _installed(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    for k, t in enumerate(texts[:-1]):
        if t in ("-i", "-I", "--install", "-install") and is_device(texts[k + 1]):
            return HIGH, f"{c.prog} installs onto {texts[k + 1]}: what the disk holds is lost ({c.text})"
    if any(t in ("-i", "-I", "--install") for t in texts):
        dev = next((t for t in texts if is_device(t)), None)
        if dev:
            return HIGH, f"{c.prog} installs onto {dev}: what the disk holds is lost ({c.text})"
    return None


def _by_name(c: Ctx, prog: str, texts: list) -> Optional[tuple]:
    if prog == "systemd-repart" and "--empty=force" in texts:
        dev = next((t for t in texts if is_device(t)), "the disk")
        return HIGH, f"systemd-repart --empty=force erases the partition table of {dev} ({c.text})"
    if prog == "bioctl" and "-c" in texts and "-l" in texts:  # `-C force`: even over another volume's chunks
        chunks = texts[texts.index("-l") + 1] if texts.index("-l") + 1 < len(texts) else "its chunks"
        return HIGH, f"bioctl builds a RAID volume over {chunks}: what they hold is lost ({c.text})"
    if prog == "mkltfs" and ("-f" in texts or "--force" in texts):
        return HIGH, f"mkltfs -f formats the tape: what it holds is lost ({c.text})"
    if prog in ("vgchange", "lvchange") and _deactivates(texts):
        return MEDIUM, f"{c.prog} deactivates volumes: the filesystems on them vanish under what uses them ({c.text})"
    if prog in ("resize2fs", "ntfsresize") and any(re.fullmatch(r"-[A-Za-z]*f[A-Za-z]*|--force", t) for t in texts) \
            and any(_SIZE.match(t) for t in texts):
        return MEDIUM, f"{c.prog} resizes by force: a size below what the files use loses them ({c.text})"
    if prog in ("fsck", "e2fsck") or prog.startswith("fsck."):
        flags = "".join(t[1:] for t in texts if re.fullmatch(r"-[A-Za-z]+", t))
        repairs = ("y" in flags or "p" in flags or "a" in flags) and "n" not in flags
        root = next((t for t in texts if _ROOT.match(t)), None)
        if root and repairs:
            return HIGH, f"{c.prog} repairs {root} while it is mounted: repairing a live filesystem corrupts it " \
                         f"({c.text})"
        system = next((t for t in texts if _SYSTEM_PARTITION.match(t)), None)
        if system and repairs and "f" in flags:
            return MEDIUM, f"{c.prog} forces repairs on {system}, the system disk's partition: mounted, it is " \
                           f"corrupted ({c.text})"
    return None


def _deactivates(texts: list) -> bool:
    for k, t in enumerate(texts):
        if t in ("-an", "-aln", "-aen") or t.startswith(("--activate=n", "-a=n")):
            return True
        if t in ("-a", "--activate", "--available") and k + 1 < len(texts) and texts[k + 1] in ("n", "ln", "en"):
            return True
    return False

