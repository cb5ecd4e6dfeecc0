"""Effect: a device written below its filesystem, said by the shape of any tool's call.

Raw, flash and firmware tools are many and each is known to few: what they do to a device is read from
how they are called, for any program.

- A verb that writes, erases or clears given with a device by any path (``blkzone reset /dev/sdh``,
  ``partedUtil mklabel /vmfs/devices/disks/naa.…``, ``sg_persist --out --clear … /dev/sdc``,
  ``thin_restore -i x.xml -o /dev/vg0/pool_tmeta``): ``/dev/VG/LV``, ``/vmfs/devices/disks/…`` and
  ``\\\\.\\PhysicalDrive1`` are devices too.  A verb fused into the name counts (``zbc_reset_zone``), and a known
  program's subcommand whose parts erase or delete (``nvme write-zeroes /dev/nvme0n1``, ``nvme ns-delete``).
- A flash tool's abbreviated verb (``rkflashtool e 0x0 0x200000``, ``upgrade_tool wl 0x0 x.img``):
  ``e``/``w`` and their pairs before an address; a full verb before an address (``fwtool write 0x0 fw.bin``).
- A command string judged as what it does (``xfs_io -c 'fpunch 0 4k' FILE``, ``-c 'pwrite …' /dev/sdd``):
  holes punched, ranges zeroed or collapsed lose what the file held; a scratch file created with ``-f`` or
  under a temporary directory stays quiet.
- Pass-through commands whose operation code writes (SCSI CDBs: FORMAT UNIT ``04``, WRITE ``2a``, UNMAP
  ``42``, SANITIZE ``48``…; NVMe ``--opcode=0x80`` format, ``0x84`` sanitize, io ``0x01``/``0x08``).
- Hardware registers and physical memory written (``setpci -s 00:17.0 COMMAND=0000``, ``wrmsr``,
  ``devmem2 ADDR w VALUE``, ``iotools mmio_write32 A V``, ``memtool mw A V``): the value takes effect at once.

Reading a device (a report, a dump, an identify, a read letter, a register read with no value) stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, is_device
from aish.safety.lazy_regex import lazy

# Devices beyond disk_names.DEVICE: an LVM volume (`/dev/vg0/data`), ESXi's disks, Windows' physical drives.
_OTHER_DEVICE = LazyRegex(r"^(/vmfs/devices/disks/\S+|\\\\\.\\physicaldrive\d+|/dev/(?!(pts|shm|fd|net|input|snd|"
                          r"dri|bus|char|cpu|mqueue|hugepages|v4l|serial|vfio|usb|hidraw|dma_heap|tty|log|"
                          r"bsg|block|disk|mapper|tcp|udp|infiniband|xen|vboxusb|nvidia-caps|accel|sgx|gpio|iio|"
                          r"media|dvb)/)[a-z][\w.-]*(/[\w.+:-]+)+)$", re.IGNORECASE)
_VERBS = frozenset({"write", "erase", "format", "restore", "mklabel", "setptbl", "clear", "wipe", "zero", "zeroout",
                    "discard", "sanitize", "overwrite", "destroy", "purge", "fill", "reset", "labelclear", "zap"})
# A known program's subcommand whose parts say the device loses its blocks (`nvme write-zeroes`, `nvme ns-delete`).
_STRONG_PARTS = frozenset({"erase", "wipe", "zero", "zeroes", "zeroout", "sanitize", "delete", "destroy"})
# A flasher's full verb before an address (`fwtool write 0x0 fw.bin`, `spiflash erase 0x0 0x1000`).
_ADDRESS_VERBS = frozenset({"write", "erase", "program"})
_OPTION_VERBS = frozenset({"--clear", "--erase", "--wipe", "--format", "--zero", "--zeroout", "--sanitize",
                           "--overwrite", "--preempt-abort", "--preempt", "--write-same", "--fill"})
_READS = frozenset({"report", "info", "list", "ls", "show", "status", "read", "dump", "get", "getptbl", "query",
                    "print", "capacity", "--in", "--read", "-n", "--dry-run", "--help", "-h", "stat", "check",
                    "verify", "identify", "-l", "--list", "--report", "--info", "--show", "--status"})
_OUTPUTS = frozenset({"-o", "--output", "--dest", "--target", "--device", "-d"})
# A flasher's abbreviated verbs: erase, write and their pairs (write LBA, erase flash).
_SHORT_VERBS = frozenset({"e", "w", "wl", "ef", "el", "we", "ew", "er", "wr", "wf", "eb"})
_NUMBER = lazy(r"^(0x[0-9a-f]+|\d+)$", re.IGNORECASE)
# In-tool operations that lose a file's or a device's content, and those that write blocks.
_LOSING_OPS = frozenset({"fpunch", "fzero", "fcollapse", "finsert", "zero", "punch", "fallocate-punch"})
_WRITING_OPS = frozenset({"pwrite", "write", "truncate"})
_COMMAND_OPTIONS = frozenset({"-c", "--command", "--cmd"})
_SCRATCH = lazy(r"^(/tmp/|/var/tmp/|\./|[^/])")
# SCSI operation codes that write the medium: FORMAT UNIT, REASSIGN, WRITE(6/10/12/16), WRITE AND VERIFY,
# WRITE BUFFER (firmware), WRITE LONG, WRITE SAME, UNMAP, SANITIZE, PERSISTENT RESERVE OUT.
_SCSI_WRITES = frozenset({0x04, 0x07, 0x0A, 0x2A, 0x2E, 0x3B, 0x3F, 0x41, 0x42, 0x48, 0x5F, 0x8A, 0x8E, 0x93,
                          0xAA, 0xAE})
_HEX_BYTE = lazy(r"^(0x)?[0-9a-f]{1,2}$", re.IGNORECASE)
# NVMe operation codes: admin format, sanitize, namespace management, firmware download/commit; I/O write,
# write uncorrectable, write zeroes, dataset management (deallocate).
_NVME_ADMIN = frozenset({0x80, 0x84, 0x0D, 0x10, 0x11})
_NVME_IO = frozenset({0x01, 0x04, 0x08, 0x09})
_OPCODE_OPTIONS = frozenset({"--opcode", "-o", "--opc", "-c", "--cdb"})
# A register written: `NAME=VALUE` (setpci's `COMMAND=0000`, `CAP_EXP+10.w=0`) given with a PCI address.
_REGISTER_VALUE = LazyRegex(r"^[a-z_][\w+.]*(\.[bwl])?=[0-9a-fx:,]+$", re.IGNORECASE)
_PCI_ADDRESS = LazyRegex(r"^([0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$|^[0-9a-f]{4}:[0-9a-f]{4}$", re.IGNORECASE)
# Names and subcommands that write a register, a port or memory (`wrmsr`, `writemem`, `mmio_write32`, `outb`, `mw`).
_WRITER_NAME = LazyRegex(r"^(wr|write|poke)[-_]?(msr|mem|reg|io|port|pci|mmio|phys|efuse|fuse|otp)\w*$|"
                         r"^(msr|mem|reg|mmio|io|port|pci|phys|cfg)[-_]?(write|wr|poke)\d*[bwlq]?$|"
                         r"^out[bwl]$|^m[wm](\.[bwlq])?$|^poke\d*$", re.IGNORECASE)
_WIDTH = frozenset({"b", "h", "w", "l", "q", "8", "16", "32", "64", "byte", "word", "halfword", "dword"})
_WRITE_LETTERS = frozenset({"-w", "--write"})


def may_write(c: Ctx) -> bool:
    """Cheap: a device path, an address, a pass-through or a register value on the line."""
    line = c.lowered
    return "/dev/" in line or "0x" in line or "/vmfs/" in line or "physicaldrive" in line or "passthru" in line \
        or "=" in line and ":" in line or bool(c.texts and c.texts[0] in _SHORT_VERBS) or \
        "-c" in c.texts and any(op in line for op in ("punch", "zero", "collapse", "finsert", "write", "truncate"))


def other_device(word: str) -> bool:
    return bool(_OTHER_DEVICE.match(word))


def _device(word: str) -> bool:
    return is_device(word) or other_device(word)


def rule_device_written(c: Ctx, unknown: bool) -> Optional[tuple]:
    texts = c.texts
    prog = c.prog.lower()
    if prog in ("busybox", "toybox") and texts:
        prog, texts = texts[0].lower(), texts[1:]
    if not texts:
        return None
    lowered = [t.lower() for t in texts]
    return (_passthrough(c, prog, lowered) or _register(c, prog, lowered) or _command_string(c, lowered) or
            (_verb_on_device(c, prog, texts, lowered) or _short_verb(c, lowered) if unknown else
             _known_subcommand(c, texts, lowered)))


def _known_subcommand(c: Ctx, texts: list, lowered: list) -> Optional[tuple]:
    parts = set(lowered[0].split("-")) if "-" in lowered[0][1:] and not lowered[0].startswith("-") else set()
    verb = next(iter(sorted(parts & _STRONG_PARTS)), None)
    device = next((t for t in texts[1:] if _device(t)), None)
    if verb is None or device is None or set(lowered) & _READS - {"-n"}:  # nvme's -n: the namespace
        return None
    return HIGH, f"{c.prog} {texts[0]} writes {device} below its filesystem: what it holds is lost ({c.text})"


def _verb_on_device(c: Ctx, prog: str, texts: list, lowered: list) -> Optional[tuple]:
    if set(lowered) & _READS:
        return None
    devices = [t.split("=", 1)[-1] for t in texts if _device(t.split("=", 1)[-1])]
    if not devices:
        return None
    name_parts = set(re.split(r"[-_.]", prog)[1:])  # `zbc_reset_zone`, `thin_restore`: not the first part
    operands = [t for t in lowered if not t.startswith("-")]
    verb = next((t for t in operands[:2] if t in _VERBS), None) or \
        next((t for t in lowered if t in _OPTION_VERBS), None) or next(iter(sorted(name_parts & _VERBS)), None)
    if verb is None:
        return None
    line = prog + " " + " ".join(lowered)
    if verb == "reset" and "zone" not in line:
        return None  # `sg_reset /dev/sg1`, `nvme reset /dev/nvme0`: the device restarts, its blocks stay
    if verb == "restore" and not any(t in _OUTPUTS and k + 1 < len(texts) and _device(texts[k + 1])
                                     for k, t in enumerate(lowered)) and not _device(operands[-1]):
        return None  # restored into a file; a device read from
    return HIGH, f"{c.prog} {verb} writes {devices[0]} below its filesystem: what it holds is lost ({c.text})"


def _short_verb(c: Ctx, lowered: list) -> Optional[tuple]:
    if lowered[0] in _ADDRESS_VERBS and len(lowered) > 2 and lowered[1].startswith("0x") and \
            not set(lowered) & _READS:
        return MEDIUM, f"{c.prog} {lowered[0]} at {lowered[1]} rewrites the flash there ({c.text})"
    if lowered[0] not in _SHORT_VERBS or not any(_NUMBER.match(t) for t in lowered[1:3]):
        return None
    what = "erases" if lowered[0].startswith("e") else "writes"
    return HIGH, f"{c.prog} {lowered[0]} {what} the flash at the address given: what it held is lost ({c.text})"


def _command_string(c: Ctx, lowered: list) -> Optional[tuple]:
    texts = c.texts
    for k, t in enumerate(texts[:-1]):
        if t not in _COMMAND_OPTIONS:
            continue
        op = texts[k + 1].split()[:1]
        op_word = op[0].lower() if op else ""
        if op_word not in _LOSING_OPS and op_word not in _WRITING_OPS:
            continue
        target = next((x for x in reversed(texts) if not x.startswith("-") and x != texts[k + 1]), "")
        if not target or target == texts[k + 1]:
            continue
        if _device(target):
            return HIGH, f"{c.prog} {op_word} writes {target} below its filesystem: what it holds is lost ({c.text})"
        if op_word in _WRITING_OPS and op_word != "truncate" or "-f" in texts or _SCRATCH.match(target):
            continue  # blocks written into a file, a scratch file made for the test, a relative path
        return MEDIUM, f"{c.prog} {op_word} destroys the content of {target} in place ({c.text})"
    return None


def _code(word: str) -> Optional[int]:
    word = word.split("=", 1)[-1]
    try:
        return int(word, 16) if _HEX_BYTE.match(word) or word.lower().startswith("0x") else None
    except ValueError:
        return None


def _passthrough(c: Ctx, prog: str, lowered: list) -> Optional[tuple]:
    line = prog + " " + " ".join(lowered[:2])
    if "passthru" in line or "pass-through" in line or "passthrough" in line:  # NVMe
        code = None
        for k, t in enumerate(lowered):
            key = t.split("=", 1)[0]
            if key in _OPCODE_OPTIONS:
                code = _code(t) if "=" in t else (_code(lowered[k + 1]) if k + 1 < len(lowered) else None)
                break
        admin = "admin" in line
        io = "io-" in line or "io_" in line
        writes = (_NVME_ADMIN if admin else set()) | (_NVME_IO if io else set()) or {0x80, 0x84}
        if code is not None and code in writes:
            return HIGH, f"{c.prog} sends operation {code:#04x}, which formats or writes the drive ({c.text})"
        return None
    # SCSI: a device, then the CDB's bytes (`sg_raw /dev/sdb 04 00 …`), or a CDB option (`-c 0x04 0 0 …`).
    for k, t in enumerate(lowered):
        if _device(c.texts[k] if k < len(c.texts) else t) or t in ("-c", "--cdb"):
            rest = lowered[k + 1:k + 7]
            if len(rest) >= 6 and all(_HEX_BYTE.match(b) for b in rest):
                code = _code(rest[0])
                if code in _SCSI_WRITES:
                    return HIGH, f"{c.prog} sends SCSI command {code:#04x}, which formats or writes the medium " \
                                 f"({c.text})"
    return None


def _register(c: Ctx, prog: str, lowered: list) -> Optional[tuple]:
    texts = c.texts
    if any(_PCI_ADDRESS.match(t) for t in texts):
        value = next((t for t in texts if _REGISTER_VALUE.match(t)), None)
        if value:
            return MEDIUM, f"{c.prog} writes the device's register {value}: the hardware acts on it at once " \
                           f"({c.text})"
    numbers = [k for k, t in enumerate(lowered) if _NUMBER.match(t)]
    if not numbers:
        return None
    writer = prog if _WRITER_NAME.match(prog) else next((t for t in lowered[:2] if _WRITER_NAME.match(t)), None)
    after = [t for t in lowered if _NUMBER.match(t)]
    if writer and len(after) >= 2:
        return MEDIUM, f"{c.prog} {writer} writes a register or physical memory: the hardware acts on it at once " \
                       f"({c.text})"
    if set(lowered) & _WRITE_LETTERS and len(after) >= 2 and "0x" in c.lowered:
        return MEDIUM, f"{c.prog} writes a register or physical memory: the hardware acts on it at once ({c.text})"
    for k in numbers:  # `devmem2 ADDR w VALUE`, `devmem ADDR 32 VALUE`: an address, a width, then a value
        if lowered[k].startswith("0x") and k + 2 < len(lowered) and lowered[k + 1] in _WIDTH and \
                _NUMBER.match(lowered[k + 2]):
            return MEDIUM, f"{c.prog} writes {lowered[k + 2]} at {lowered[k]}: the hardware acts on it at once " \
                           f"({c.text})"
    return None
