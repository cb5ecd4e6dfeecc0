"""Effect: a disk's layout or header rewritten, said by the verb or the object a program names, for any program.

``device_operands`` reads a disk given to a verb that takes it away (``kill``, ``zap``, ``clear``) and a drive
told to erase itself; ``device_targets`` a disk that a copy writes onto.  Two more shapes say the same loss:

- a disk (``/dev/sdb``, ``da1``, ``sd1``, ``disk2``) given a verb that writes a new layout or header over the
  old one: ``initialize``/``init``/``reinit``/``mklabel``/``newlabel``/``relabel`` in any spelling
  (``pdisk /dev/disk2 -initialize``, ``vxdisk -f init sdb``), the BSD label tools' write letter
  (``bsdlabel -w da1``, ``disklabel -w -r sd1 auto``), an in-place ``--encrypt``/``--decrypt``/``reencrypt``
  (every block rewritten; stopped half-way, the data is lost), a self-encrypting drive reverted to its factory
  state (``sedcli --revert /dev/nvme1n1``, ``--psid-revert``: its key and so its data are gone), a
  debugger's ``write`` into the filesystem's structures (``xfs_db -x -c 'write …'``, ``debugfs -w -R 'clri <2>'``);
- a storage object named in a subcommand path beside a verb that ends it, with or without a device name
  (``esxcli storage core device partition delete -d naa.…``, ``mvcli delete -o vd``, ``xcli vol_delete``,
  ``somecli lun destroy 3``, ``… partition-table wipe``): a partition, a virtual disk, a LUN, a volume or a
  pool and what it held are gone.

Listing, showing, adding and creating beside the same words, and the verbs on a plain file, stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.device_operands import disk_word
from aish.safety.rules.triggers import triggered_by

_LAYOUT_VERBS = LazyRegex(r"^-{0,2}(initiali[sz]e|init|re-?init|mklabel|newlabel|new-label|relabel|re-?encrypt|"
                          r"encrypt|decrypt|wipe-md|create-md|revert|revert-?tper|psid-?revert|revertsp|zap-?all|"
                          r"write-?label|init-?label)$", re.IGNORECASE)
_LABEL_TOOL = LazyRegex(r"label|part|fdisk|disk", re.IGNORECASE)
_DEBUG_WRITE = LazyRegex(r"^(write|clri|kill_file|freeb|set_super_value|ssv|set_inode_field|sif|zap_block)\b")
_OBJECTS = frozenset({"partition", "partitions", "part", "disk", "disks", "vdisk", "vd", "ld", "logicaldrive",
                      "logical-drive", "lun", "luns", "volume", "vol", "array", "raid", "pool", "lv", "vg", "pv",
                      "label", "partition-table", "partitiontable", "mbr", "gpt", "superblock", "namespace", "ns",
                      "virtualdisk", "virtual-disk", "storagepool", "diskgroup"})
# Objects whose names mean other things elsewhere (a GitHub label, a mirror site, a network namespace): only beside
# a disk.
_DISK_ONLY_OBJECTS = frozenset({"label", "mirror", "drive", "part", "array", "ns", "namespace", "dg", "gpt", "mbr"})
_OBJECTS = _OBJECTS - _DISK_ONLY_OBJECTS
_ENDERS = frozenset({"delete", "del", "remove", "rm", "destroy", "wipe", "erase", "format", "clear", "zap", "purge",
                     "kill", "drop", "delete-all", "deleteall", "wipeall", "erase-all"})
_READS = frozenset({"list", "ls", "show", "status", "info", "display", "get", "print", "dump", "query", "--help", "-h",
                    "help", "--list", "-l", "-n", "--dry-run", "--test", "verify", "check", "stat"})
_OBJECT_VERB = LazyRegex(r"^(vol|volume|lun|vdisk|disk|partition|part|pool|ld|vd|array)[-_](delete|del|remove|rm|"
                         r"destroy|wipe|erase|format|clear)$|"
                         r"^-{0,2}(delete|del|remove|destroy|wipe|erase|format|clear)[-_]?"
                         r"(vol|volume|lun|vdisk|disk|partition|part|pool|ld|vd|array|label)s?$", re.IGNORECASE)
_LAYOUT_PIECES = ("revert", "init", "label", "crypt", "-md", "zap", "write", "clri", "freeb", "ssv", "sif", "set_",
                  "kill_file")
_OBJECT_PIECES = ("part", "disk", "vd", "ld", "lun", "vol", "array", "raid", "pool", "lv", "vg", "pv", "mbr", "gpt",
                  "superblock", "namespace", "ns", "mirror", "drive", "dg", "label")


@triggered_by(_LAYOUT_PIECES + _OBJECT_PIECES, otherwise=False)
def may_rewrite(c: Ctx) -> bool:
    """Cheap: two words or more, and a layout verb's piece, or an ending verb beside a storage object's piece."""
    if len(c.texts) < 2:
        return False
    line = c.prog.lower() + " " + c.lowered
    if any(w in line for w in _LAYOUT_PIECES):
        return True
    if not any(w in line for w in _OBJECT_PIECES):
        return False
    low = c.lowered.split()
    return bool(set(low) & _ENDERS) or any(("-" in t or "_" in t) and _OBJECT_VERB.match(t) for t in low)


def _object_ended(low: list, disks: list) -> Optional[str]:
    for k, t in enumerate(low):
        if _OBJECT_VERB.match(t):
            return t
        if t in _OBJECTS or t in _DISK_ONLY_OBJECTS and disks:
            near = low[k + 1:k + 3] + low[max(0, k - 1):k]
            verb = next((v for v in near if v in _ENDERS), None)
            if verb:
                return f"{t} {verb}"
    return None


def rule_disk_layout(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    if set(low) & _READS:
        return None
    disks = [t for t in texts if not t.startswith("-") and disk_word(t)]
    if disks:
        verb = next((t for t in texts if _LAYOUT_VERBS.match(t)), None)
        if verb is None and _LABEL_TOOL.search(c.prog) and \
                any(re.match(r"^-[a-zA-Z]*w[a-zA-Z]*$", t) for t in texts):
            verb = "-w"
        if verb is None and any(_DEBUG_WRITE.match(t.strip("'\"")) for t in texts[1:]) and \
                any(re.match(r"^-[a-zA-Z]*[wx]$", t) for t in texts):
            verb = "write"
        if verb:
            return HIGH, f"{c.prog} {verb} {disks[0]}: the disk's layout or header is written over ({c.text})"
    ended = _object_ended(low, disks)
    if ended and (disks or c.prog.lower() not in _ENDERS):
        return MEDIUM, f"{c.prog} {ended}: a storage object and what it held are gone ({c.text})"
    return None
