"""What a file or directory was when something was read from it: kept results stay true.

An ask looks at its project's files (are ``AISH.md`` and ``.aish.toml`` there, trusted, what
they say), and fifty shells asking at once each did it afresh: two stats, a read and a hash of
each file, a read and a parse of the trust records.  What was found is kept with the stamp of
what it was found in (``stat``: device, inode, size, modification and change times to the
nanosecond, mode) and used again while a new stat gives the same stamp: one stat instead of
the reads.

A change made in the same tick of the file system's clock as the stamp leaves the times as
they were (git's "racily clean" entries), so a stamp taken within ``RACY_NS`` of its own
times is not kept: what was found there is looked for again on the next use, until the file
has been left alone for that long.  Any later change moves its change time past the stamp.
"""
from __future__ import annotations

import os
import time
from typing import Optional

RACY_NS = 2_000_000_000  # a stamp this close to its own modification or change time is not kept
now_ns = time.time_ns  # the wall clock the file system's times are compared with (tests move it)

Stamp = tuple
MISSING: Stamp = ()  # the stamp of nothing there (made later, it has a stamp of its own)


def stamp(path: str) -> Optional[Stamp]:
    """``path``'s stamp (``MISSING`` when there is nothing there), or None when it cannot be
    kept (unreadable, or changed too lately to tell a change in the same tick from none)."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return MISSING
    except (OSError, ValueError):
        return None
    return settled(st)


def settled(st: os.stat_result) -> Optional[Stamp]:
    """The stamp of ``st`` if it can be kept (see ``stamp``)."""
    if now_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)
