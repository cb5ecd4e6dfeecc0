"""Old runs' temporary directories deleted while this run works, not after its last case.

pytest keeps the directories of the last ``tmp_path_retention_count`` runs and deletes older
ones at the session's end, in the controller, after every case has finished: one unit run
leaves ~2,500 directories and ~3,500 files (the cases' ``tmp_path`` and ``aish_env``), and
deleting them took 0.7-3 s of wall time on this disk under load (little CPU: the time is the
file system's), the last thing a run waits for.  The controller makes its own directory at
the session's start instead and deletes the old ones on a thread while the workers start and
the cases run; pytest's own pass at the end then finds nothing left.  Concurrent runs are safe
as with pytest's pass (the same function: a run's lock file keeps its directory, a directory is
renamed before it is deleted)."""
from __future__ import annotations

import threading
from typing import Optional

from _pytest.pathlib import LOCK_TIMEOUT, cleanup_numbered_dir

_PREFIX = "pytest-"  # pytest's numbered directories under /tmp/pytest-of-USER
_thread: Optional[threading.Thread] = None


def start(config) -> None:
    """In the controller (or a run without workers), at the session's start."""
    global _thread
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is None or config.getoption("basetemp") or config.getoption("collectonly"):
        return  # a --basetemp is emptied by pytest at its start and never numbered
    if config.getini("tmp_path_retention_policy") == "none":
        return  # pytest deletes this run's directory too at the end: nothing to bring forward
    keep = int(config.getini("tmp_path_retention_count"))
    basetemp = factory.getbasetemp()  # this run's numbered directory, with its lock
    dead_before = basetemp.stat().st_mtime - LOCK_TIMEOUT  # pytest's rule for a stale lock
    _thread = threading.Thread(target=cleanup_numbered_dir, name="old-runs-cleanup", daemon=True,
                               args=(basetemp.parent, _PREFIX, keep, dead_before))
    _thread.start()


def finish() -> None:
    """Before pytest's own pass at the session's end (long done in a run of any length)."""
    global _thread
    if _thread is not None:
        _thread.join()
        _thread = None
