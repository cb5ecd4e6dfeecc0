"""Effect: a file's data cut away in place, at its end or in its middle, by any tool that sizes files.

``truncate -s 0 invoices.csv``, ``truncate -s -512M archive.tar``, ``truncate -s '<1G' x.db`` (at most:
it shrinks), ``truncate -s /4K x`` (rounded down); ``fallocate`` punching, zeroing or collapsing a range
(``--punch-hole``, ``--zero-range``, ``--collapse-range``); ``qemu-img resize --shrink``.  What is cut is
gone: medium on a file of one's own, including a project's (the truncate rule leaves a plain size on a
project's file low).  Logs, temp and build output, growing (``+1G``), ``--dig-holes`` (only zeros are
given back) and a new size for a file being made stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, describe, parse_opts, target
from aish.safety.lazy_regex import lazy

# Sizes that can only keep less: zero, minus, "at most", rounded down.
_SHRINKS = lazy(r"^(0+[KMGTPEZY]?(i?B)?|-\d.*|<.*|/.*)$", re.IGNORECASE)
_ROUTINE = lazy(r"\.(log|out|err|pid|lock|tmp|part|swp)$|(^|/)(nohup\.out|logs?/.*)$", re.IGNORECASE)
_CUTS = {"-p": "punches a hole in", "--punch-hole": "punches a hole in", "-z": "zeroes a range of",
         "--zero-range": "zeroes a range of", "-c": "collapses a range out of", "--collapse-range":
         "collapses a range out of"}
_FALLOCATE_VALUED = frozenset({"-o", "--offset", "-l", "--length"})


def _own_files(c: Ctx, names: list) -> list:
    """The names that hold data of one's own: not temp, build output or a log."""
    return [w for w in names if target(w).kind not in ("output", "temp", "sink") and
            not _ROUTINE.search(w.text.strip("'\""))]


def rule_truncate_shrinks(c: Ctx) -> Optional[tuple]:
    _, values, names = parse_opts(c.args, frozenset({"-s", "--size", "-r", "--reference"}))
    size = (values.get("-s") or values.get("--size") or "").strip("'\"")
    if (values.get("-r") or values.get("--reference")) == "/dev/null":
        size = "0"  # the size of nothing
    if not _SHRINKS.match(size):
        return None
    own = _own_files(c, names)
    if not own:
        return None
    return MEDIUM, f"truncate -s {size} cuts the data of {describe(target(own[0]))} away ({c.text})"


def rule_fallocate_cuts(c: Ctx) -> Optional[tuple]:
    flags, _, names = parse_opts(c.args, _FALLOCATE_VALUED)
    cut = next((_CUTS[f] for f in ("-p", "--punch-hole", "-z", "--zero-range", "-c", "--collapse-range")
                if f in flags or f.lstrip("-") in flags), None)
    own = _own_files(c, names) if cut else []
    if not own:
        return None
    return MEDIUM, f"fallocate {cut} {own[0].text}: the data there is gone ({c.text})"


def rule_image_shrunk(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if texts[:1] == ["resize"] and "--shrink" in texts:
        return MEDIUM, f"qemu-img resize --shrink cuts the end of the disk image away ({c.text})"
    return None


def rule_end_of_file_set(c: Ctx) -> Optional[tuple]:
    """Windows' ``fsutil file seteof FILE 0``: the file's end put at its start."""
    lowered = [t.lower() for t in c.texts]
    if lowered[:2] == ["file", "seteof"] and len(lowered) >= 4 and lowered[3] == "0":
        return MEDIUM, f"fsutil file seteof cuts {c.args[2].raw} to nothing ({c.text})"
    return None


RULES = {"truncate": [rule_truncate_shrinks], "fsutil": [rule_end_of_file_set], "fallocate": [rule_fallocate_cuts],
         "qemu-img": [rule_image_shrunk]}
