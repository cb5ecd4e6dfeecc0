"""Which install of aish this process runs, so a daemon outlived by a reinstall notices.

The README's two commands in order (``pip install .``, then ``pip install -e '.[test]'``)
keep the version number but replace the files under a daemon started in between: its
next lazy import fails, and every question became ``internal error``.  The version alone
cannot tell; the install can.  Every install, editable or not, writes a fresh
``aish-<version>.dist-info/RECORD`` beside the packages it put on the import path, so the
RECORD's identity (inode, mtime, size) names the install, and checking it again costs one
``stat``.  A process run from a source tree with no install has no RECORD: it never
counts as reinstalled.
"""
from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from typing import Iterable, Optional

from aish.version import __version__


@dataclass(frozen=True)
class Install:
    """The install this process loaded: the package's directory and its RECORD's identity."""

    package: str
    record: Optional[str]
    stamp: str

    @classmethod
    def find(cls, paths: Optional[Iterable[str]] = None) -> "Install":
        """What the import path holds now (first match wins, as imports do)."""
        import aish

        package = os.path.dirname(os.path.realpath(aish.__file__))
        record = _record_path(sys.path if paths is None else paths)
        return cls(package, record, _stamp(record))

    @property
    def identity(self) -> str:
        """A short name for this install, written beside the version in daemon.pid."""
        text = "\0".join((__version__, self.package, self.record or "", self.stamp))
        return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]

    def changed(self) -> bool:
        """Was aish reinstalled (or removed) since this process loaded it?  One ``stat``."""
        return self.record is not None and _stamp(self.record) != self.stamp


def _record_path(paths: Iterable[str]) -> Optional[str]:
    name = f"aish-{__version__}.dist-info"
    for entry in paths:
        record = os.path.join(entry or os.curdir, name, "RECORD")
        if os.path.isfile(record):
            return os.path.realpath(record)
    return None


def _stamp(record: Optional[str]) -> str:
    if record is None:
        return ""
    try:
        st = os.stat(record)
    except OSError:
        return "gone"
    return f"{st.st_ino}:{st.st_mtime_ns}:{st.st_size}"
