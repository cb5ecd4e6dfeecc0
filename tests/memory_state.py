"""Aish's state directory of every case on a memory file system, when the host has one.

The state directory holds what aish keeps durable: the cost ledger (SQLite in WAL mode: four
fsyncs to open one) and the session logs (an fsync at compaction).  ~220 cases a unit run open
a ledger; on this disk under load each open took ~50 ms of wall time and ~3 ms of CPU, on a
memory file system ~4 ms and ~1 ms.  What aish writes and reads there is the same; only the
cases about durability itself would care where it lands, and they name their own paths.

Only the state directory moves: the cases' own directory (a working directory the judge reads,
and ``/dev/...`` is rightly a device to it), the config and the runtime directory stay under
pytest's temporary directory.  Each process makes one private directory (0700, a random name)
and removes it at its exit; one left by a process that died is removed by the next run's first
process that makes one."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

MEMORY = Path("/dev/shm")
PREFIX = "aish-test-state-"
_made: list[Path] = []  # this process's directory, once made
_maker: list[int] = []  # its pid (a child forked from it inherits the exit handler, not the directory)
_unavailable: list[bool] = []


def directory() -> Optional[Path]:
    """This process's directory on the memory file system (made on first use), or None where
    there is none to write to."""
    if _made:
        return _made[0]
    if _unavailable:
        return None
    try:
        _remove_leftovers()
        made = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=MEMORY))
    except OSError:
        _unavailable.append(True)
        return None
    _made.append(made)
    _maker.append(os.getpid())
    # registered after tests/conftest.py's worker exit (os._exit): atexit runs this one first
    atexit.register(remove)
    return made


def remove() -> None:
    if _maker and _maker[0] != os.getpid():
        return
    while _made:
        shutil.rmtree(_made.pop(), ignore_errors=True)


def _remove_leftovers() -> None:
    """The directories of this user's processes that are gone (a killed run)."""
    for path in MEMORY.glob(f"{PREFIX}*"):
        pid = path.name[len(PREFIX):].split("-", 1)[0]
        try:
            if path.stat().st_uid != os.getuid() or not pid.isdigit() or _alive(int(pid)):
                continue
        except OSError:
            continue
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
