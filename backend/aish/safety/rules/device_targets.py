"""Effect: a disk is what a program writes onto or erases, said by where the program puts its output, for
programs no rule names.

- An image or copy tool whose target is a disk or a partition (``e2image -ra fs.e2i /dev/sdb``, ``xfs_copy
  /dev/sda1 /dev/sdc1``, ``fwup -d /dev/sdc x.fw``, ``fmthard -s - /dev/rdsk/c0t1d0s2``): the target is
  written over from its first block.  The same tools writing into a file stay quiet.
- A disc or disk blanked (``cdrecord dev=/dev/sr0 blank=all``, ``xorriso -outdev /dev/sdb -blank as_needed``).
- On-disk metadata cleared by a volume or RAID layer's own verb (``gmirror clear ada1``, ``gconcat clear
  ada1 ada2``): the array's members are forgotten, disks named the BSD way (``ada1``, ``da0``) too.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, is_device
from aish.safety.rules.disk_names import BARE_DISK
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# Program names that say they copy, image, clone, restore or write (`e2image`, `xfs_copy`, `fwup`, `fmthard`).
_COPIES = lazy(r"cop[yi]|image|img|clone|restore|flash|burn|write|fmt|format|fwup|record|dd$")
# Options and keys that name where a program writes.
_DEST_OPTIONS = {"-d", "--device", "-o", "--output", "-outdev", "-dev", "--drive", "--target", "--disk", "--dest",
                 "--destination", "-D", "--to", "-Z", "-t", "--dst"}
# Options whose name says destination outright: a device given one is written whatever the program is called
# (`chromeos-install --dst /dev/sda`, `somesetup --destination /dev/nvme0n1`).
_NAMED_DESTINATION = {"--dst", "--dest", "--destination", "--target"}
_SOURCE_OPTIONS = {"-f", "--from", "-s", "--source", "-i", "--input", "-if"}
_DEST_KEY = lazy(r"^-?(dev|of|outdev|target|dest)=(.+)$", re.IGNORECASE)
_IMAGE = lazy(r"\.(img|iso|raw|e2i|fw|bin|wic|qcow2|vhdx?|vmdk|xfs|ext[234]|sdcard|dd|image)"
              r"(\.(xz|gz|zst|bz2))?$", re.IGNORECASE)
_READS = {"status", "list", "show", "info", "-l", "--list", "--info", "--verify", "verify", "-n", "--dry-run",
          "scan", "print", "dump", "read"}
# Programs named for reading a device (a dump, an inquiry, a listing): the device is their input.
_READER_NAME = lazy(r"dump|read|info|inq|stat|show|list|scan|query|print|ident")
_BLANK = lazy(r"^-{0,2}blank(=\S+)?$", re.IGNORECASE)
_CLEARS = {"clear", "labelclear", "wipe", "zap", "zero", "erase"}


def _destination(texts: list) -> str:
    for k, t in enumerate(texts):
        if t in _DEST_OPTIONS and k + 1 < len(texts):
            return texts[k + 1]
        m = _DEST_KEY.match(t)
        if m:
            return m.group(2)
    operands = [t for t in texts if (t == "-" or not t.startswith("-")) and "=" not in t]  # `-`: standard output
    return operands[-1] if operands else ""


@triggered_by("/dev/", _DEST_OPTIONS, _CLEARS, "blank")
def rule_onto_device(c: Ctx) -> Optional[tuple]:
    """An image or copy written onto a disk, a disc blanked, a disk's array metadata cleared."""
    texts = c.texts
    if not any("/dev/" in t or t in _DEST_OPTIONS for t in texts) and texts[0].lower() not in _CLEARS and \
            not any("blank" in t for t in texts):
        return None  # no disk on the line: most commands leave here
    lowered = [t.lower() for t in texts]
    if set(lowered) & _READS or lowered[0].startswith("read") or _READER_NAME.search(c.prog.lower()) or \
            not lowered[0].startswith("-") and _READER_NAME.search(lowered[0]) and "/" not in lowered[0]:
        return None  # `cdrdao read-cd --device /dev/sr0`, `nanddump -f dump.bin /dev/mtd4`, `flash_otp_info`
    if lowered[:1] and lowered[0] in _CLEARS:
        disk = next((t for t in texts[1:] if is_device(t) or BARE_DISK.match(t)), None)
        if disk:
            return HIGH, f"{c.prog} {texts[0]} clears the metadata on {disk}: what it held is lost ({c.text})"
    dest = _destination(texts).split("=", 1)[0]  # growisofs's `-Z /dev/sr0=image.iso`
    from_disk = any(t in _SOURCE_OPTIONS and k + 1 < len(texts) and BARE_DISK.match(texts[k + 1])
                    for k, t in enumerate(texts))
    if BARE_DISK.match(dest) and from_disk:  # `ocs-onthefly -f sda -t sdb`: a disk cloned onto another
        return HIGH, f"{c.prog} copies a disk onto {dest}: what it holds is lost ({c.text})"
    if not dest or not is_device(dest):
        return None
    optical = bool(re.match(r"^/dev/(sr|cd|scd|dvd)\d", dest))
    if any(_BLANK.match(t) for t in texts):
        return (MEDIUM if optical else HIGH), f"{c.prog} blanks {dest}: what it holds is erased ({c.text})"
    sources = [t for t in texts if not t.startswith("-") and t != dest]
    named = any(t in _NAMED_DESTINATION and texts[k + 1:k + 2] == [dest] for k, t in enumerate(texts))
    if _COPIES.search(c.prog.lower()) or any(_IMAGE.search(t) for t in sources) or named:
        return (MEDIUM if optical else HIGH), (f"{c.prog} writes onto the device {dest}: what it holds is lost "
                                               f"({c.text})")
    return None
