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

import os
import sys
import zlib
from collections.abc import Iterable

from aish.version import __version__


class Install:
    """The install this process loaded: the package's directory and its RECORD's identity.

    A plain class, and a checksum rather than hashlib: every ``aish ask`` checks the running
    daemon's install, and those imports were a tenth of its process."""

    __slots__ = ("package", "record", "stamp")

    def __init__(self, package: str, record: str | None, stamp: str) -> None:
        self.package, self.record, self.stamp = package, record, stamp

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Install) and (self.package, self.record, self.stamp) == (
            other.package, other.record, other.stamp)

    def __hash__(self) -> int:
        return hash((self.package, self.record, self.stamp))

    @classmethod
    def find(cls, paths: Iterable[str] | None = None) -> "Install":
        """What the import path holds now (first match wins, as imports do)."""
        import aish

        package = os.path.dirname(os.path.realpath(aish.__file__))
        record = _record_path(sys.path if paths is None else paths)
        return cls(package, record, _stamp(record))

    @property
    def identity(self) -> str:
        """A short name for this install, written beside the version in daemon.pid."""
        data = "\0".join((__version__, self.package, self.record or "", self.stamp)).encode("utf-8", "surrogateescape")
        return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"  # names an install; not a secret

    def changed(self) -> bool:
        """Was aish reinstalled (or removed) since this process loaded it?  One ``stat``."""
        return self.record is not None and _stamp(self.record) != self.stamp


def _record_path(paths: Iterable[str]) -> str | None:
    name = f"aish-{__version__}.dist-info"
    for entry in paths:
        record = os.path.join(entry or os.curdir, name, "RECORD")
        if os.path.isfile(record):
            return os.path.realpath(record)
    return None


def _stamp(record: str | None) -> str:
    if record is None:
        return ""
    try:
        st = os.stat(record)
    except OSError:
        return "gone"
    return f"{st.st_ino}:{st.st_mtime_ns}:{st.st_size}"
