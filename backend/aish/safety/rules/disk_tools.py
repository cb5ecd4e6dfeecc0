"""Effect: volumes and filesystems changed below the files by tools whose other forms are routine:
``lvresize`` to a size that may be smaller (``-L 10G``, ``-L -20G``; growing with ``+`` or into ``100%FREE``,
and shrinking with ``--resizefs``, which shrinks the filesystem first, are routine),
``mdadm --create`` over member disks (what they held is lost), and ``debugfs -w`` told to remove
or clear inodes (``-R 'rm /etc/fstab'``, ``kill_file``, ``clri``); ``debugfs`` without ``-w``
only reads."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, classify, is_device
from aish.safety.lazy_regex import lazy

_SIZES = ("-L", "-l", "--size", "--extents")


def _size_may_shrink(texts: list) -> bool:
    """``lvresize -L 10G`` sets the size whatever it was; ``-L -20G`` shrinks; ``-L +10G`` grows.  Without
    ``--resizefs`` the filesystem is cut, not shrunk first (as ``lvreduce`` is judged)."""
    resizes_fs = not {"-r", "--resizefs"}.isdisjoint(texts)
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if name in _SIZES:
            value = value if eq else texts[k + 1] if k + 1 < len(texts) else ""
        elif t[:2] in ("-L", "-l") and len(t) > 2:
            value = t[2:]
        else:
            continue
        if not value.startswith("+") and not value.endswith("%FREE") and not resizes_fs:
            return True  # `-l 100%FREE` is how growing into the free space is written
    return False


def rule_lvresize(c: Ctx) -> Optional[tuple]:
    if _size_may_shrink(c.texts):
        return MEDIUM, f"lvresize may shrink the volume: data past the new end is lost ({c.text})"
    return None


def rule_mdadm_create(c: Ctx) -> Optional[tuple]:
    """``mdadm -C /dev/md1 -l 5 -n 3 /dev/sdb /dev/sdc /dev/sdd --force``."""
    texts = c.texts
    members = [t for t in texts if is_device(t) and not t.startswith("/dev/md")]
    if not members or not any(t in ("--create", "-C", "--build", "-B") or t.startswith("--create=") for t in texts):
        return None
    forced = not {"--force", "-f", "--run", "-R"}.isdisjoint(texts)
    return (HIGH if forced else MEDIUM), f"mdadm builds an array over {members[0]}: what it holds is lost ({c.text})"


# debugfs requests that remove or clear (its manual: rm, kill_file, unlink, clri, freei, freeb, rmdir, punch, zap).
_DEBUGFS_REMOVES = lazy(r"^\s*(rm|kill_file|unlink|clri|freei|freeb|rmdir|punch|truncate|zap_block|zap|"
                        r"set_inode_field|sif|mi|modify_inode)\b")


def rule_debugfs(c: Ctx) -> Optional[tuple]:
    """``debugfs -w -R 'rm /etc/fstab' /dev/sda1``: a file removed below the filesystem, no trash, no checks."""
    texts = c.texts
    if not any(t == "-w" or re.fullmatch(r"-[a-zA-Z]*w[a-zA-Z]*", t) for t in texts):
        return None
    requests = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-R", "--request")]
    for request in requests:
        for line in request.split(";"):
            m = _DEBUGFS_REMOVES.match(line)
            if m is None:
                continue
            path = line.split()[1] if len(line.split()) > 1 else ""
            serious = classify(path) in ("root", "system-top", "critical", "system", "home", "dot-critical")
            return (HIGH if serious else MEDIUM), f"debugfs -w {m.group(1)} changes the filesystem below its " \
                f"files: {path or 'what it names'} is lost, nothing checks it ({c.text})"
    return None


RULES: dict = {"lvresize": [rule_lvresize], "mdadm": [rule_mdadm_create], "debugfs": [rule_debugfs]}
