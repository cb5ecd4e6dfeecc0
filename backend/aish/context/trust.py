"""Trust in a repository's files, like direnv's allow: by path and content hash.

``aish trust`` records the SHA-256 of a project's ``AISH.md`` and ``.aish.toml``
in the state dir (0600).  A file is trusted only while its content hashes to
the recorded value: a pull that changes it needs trusting again.  Nothing here
decides what a trusted file may do (see project.py: never endpoints, keys, MCP
servers or approvals).
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Optional

from aish.context import stamps

_FILE = "trust.json"
_FILES_KEPT = 256  # project files whose bytes and verdict are kept (``TrustStore.check``)


def file_hash(path: Path) -> Optional[str]:
    import hashlib  # here: most asks have no project file to hash, and hashlib loads OpenSSL

    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


class TrustStore:
    """The trust records (``trust.json``) and the verdicts on project files.

    A verdict is kept with the stamps of the file and of the records it was made from
    (``stamps``): the next ask that finds both as they were uses it without reading, hashing
    or parsing anything; a change to either (an edit, ``aish trust`` or ``--revoke`` from any
    process) is seen by the next ask.  (A file reached through a renamed parent directory
    keeps its verdict while the file itself is unchanged: the content the user trusted.)"""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / _FILE
        self._lock = threading.Lock()
        self._records: Optional[tuple[stamps.Stamp, dict]] = None  # trust.json as last read
        # str(path) -> (the file's stamp, the records' stamp, verdict, bytes, digest)
        self._verdicts: dict[str, tuple] = {}

    def _load(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _current(self) -> tuple[Optional[stamps.Stamp], dict]:
        """The records and their stamp; read again only when the stamp changed (the stamp is
        taken first: what is read is at least as new as it)."""
        now = stamps.stamp(str(self.path))
        kept = self._records
        if now is not None and kept is not None and kept[0] == now:
            return now, kept[1]
        data = self._load()
        self._records = (now, data) if now is not None else None
        return now, data

    def is_trusted(self, path: Path) -> bool:
        return self.check(path)[0]

    def check(self, path: Path) -> tuple[bool, Optional[bytes], Optional[str]]:
        """Whether ``path`` is trusted, with the bytes the verdict is about and their digest
        (None, None: unreadable).  What the caller uses of the file is these bytes: the
        content trusted is the content sent, whatever changes on disk meanwhile."""
        key = str(path)
        file_stamp = stamps.stamp(key)
        records_stamp, records = self._current()
        kept = self._verdicts.get(key)
        if kept is not None and file_stamp is not None and records_stamp is not None \
                and kept[0] == file_stamp and kept[1] == records_stamp:
            return kept[2], kept[3], kept[4]
        try:
            data = path.read_bytes()
        except OSError:
            self._verdicts.pop(key, None)
            return False, None, None
        import hashlib  # here: most asks have no project file to hash, and hashlib loads OpenSSL

        digest = hashlib.sha256(data).hexdigest()
        trusted = records.get(str(path.resolve())) == digest
        if file_stamp is not None and records_stamp is not None:
            if len(self._verdicts) >= _FILES_KEPT:
                self._verdicts.clear()
            self._verdicts[key] = (file_stamp, records_stamp, trusted, data, digest)
        return trusted, data, digest

    def trust(self, path: Path) -> str:
        digest = file_hash(path)
        if digest is None:
            raise OSError(f"cannot read {path}")
        with self._lock:
            data = self._load()
            data[str(path.resolve())] = digest
            self._write(data)
        return digest

    def revoke(self, path: Path) -> bool:
        with self._lock:
            data = self._load()
            gone = data.pop(str(path.resolve()), None) is not None
            self._write(data)
        return gone

    def _write(self, data: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_name(f".{_FILE}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1, sort_keys=True)
        os.replace(tmp, self.path)
