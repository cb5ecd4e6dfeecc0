"""Effect: a backup or an image put back over what is live: the root, a system directory, home or a
disk.  Restoring into an empty directory is routine (``restic restore latest --target /tmp/r``);
the same restore with ``--target /`` writes over the running system, and a disaster-recovery
tool's recover or an imaging tool's ``restoredisk`` writes over whole disks.  Read by
``said_elsewhere`` for programs no rule names."""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import HIGH, Ctx, Target, classify, describe, is_device
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_RESTORE_WORDS = frozenset({"restore", "recover", "restoredisk", "restoreparts", "restore-disk", "restore-parts",
                            "--restore", "-restore", "recovery"})
# Options whose value is where a restore writes.
_WHERE = frozenset({"--target", "-t", "--to", "--dest", "--destination", "--target-dir", "--restore-path",
                    "--into", "-C", "--directory", "--root", "--output-dir", "--path"})
_LIVE = frozenset({"root", "system-top", "home", "critical"})
# A disk by its kernel name, as imaging tools take it (`sda`, `sdb1`, `nvme0n1p2`, `mmcblk0`).
_DISK_NAME = lazy(r"^(?:[shv]d[a-z]{1,2}\d*|xvd[a-z]\d*|nvme\d+n\d+(?:p\d+)?|mmcblk\d+(?:p\d+)?|md\d+)$")
# Tools whose restore or recover writes whole disks (Relax-and-Recover, Clonezilla, Mondo, partimage).
_DISK_RESTORERS = frozenset({"rear", "ocs-sr", "ocs-onthefly", "mondorestore", "partimage", "partclone",
                             "redobackup", "rescuezilla", "fsarchiver", "clonezilla"})


@triggered_by(_RESTORE_WORDS)
def rule_restore_over(c: Ctx, verb: str) -> Optional[tuple]:
    """A restore or recover whose destination is live: root, system, home, a disk."""
    texts = c.texts
    words = [t for t in texts if not t.startswith("-") or t in _RESTORE_WORDS] + \
        ([c.prog.rsplit(".", 1)[0].split("-")[-1]] if c.prog.endswith(("restore", "recover")) else [])
    if not any(w.lower() in _RESTORE_WORDS for w in words):
        return None
    name = c.prog.split(".", 1)[0]
    for k, t in enumerate(texts):
        if is_device(t) or _DISK_NAME.match(t) and (name in _DISK_RESTORERS or k and texts[k - 1] in _WHERE):
            return HIGH, f"{c.prog} restores over the disk {t}: what it holds now is lost ({c.text})"
        value = texts[k + 1] if t in _WHERE and k + 1 < len(texts) else \
            t.split("=", 1)[1] if t.split("=", 1)[0] in _WHERE and "=" in t else ""
        if value and classify(value) in _LIVE:
            where = describe(Target(classify(value), value, value))
            return HIGH, f"{c.prog} restores over {where}: the running system's files are written over ({c.text})"
    if name in _DISK_RESTORERS and name in ("rear", "mondorestore") and \
            any(w in ("recover", "restore") for w in words):
        return HIGH, f"{c.prog} recovers the system over this machine's disks ({c.text})"
    return None
