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

_FILE = "trust.json"


def file_hash(path: Path) -> Optional[str]:
    import hashlib  # here: most asks have no project file to hash, and hashlib loads OpenSSL

    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


class TrustStore:
    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / _FILE
        self._lock = threading.Lock()

    def _load(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def is_trusted(self, path: Path) -> bool:
        digest = file_hash(path)
        return digest is not None and self._load().get(str(path.resolve())) == digest

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
