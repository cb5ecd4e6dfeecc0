"""The daemon restarts itself in place when aish is reinstalled under it.

The shells talk to the daemon without Python, so nothing but the daemon itself can notice
that a reinstall (``pip install .`` then ``pip install -e .``: the same version number)
replaced the files it still imports lazily.  It checks its install on every request (one
``stat``, ``aish.install``); once it changed, new requests are held until the running
ones finish, then a fresh interpreter is exec'd over the process:

- the pid stays, so shells that watch it while they wait see no daemon die;
- daemon.fifo and daemon.lock stay open across the exec: control lines written meanwhile
  wait in the pipe, and no other daemon can take over;
- the held ``req`` lines are handed to the new process, which serves them first.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Optional, Sequence

FLAG = "--resume"


@dataclass
class Resume:
    """What a daemon exec'd over its predecessor takes over."""

    fifo_fd: int
    lock_fd: int
    lines: list = field(default_factory=list)  # held control lines, replayed first


def parse(argv: Sequence[str]) -> tuple:
    """``(argv without the resume part, Resume or None)``: ``--resume FIFO,LOCK LINE...`` comes last."""
    if FLAG not in argv:
        return list(argv), None
    at = list(argv).index(FLAG)
    try:
        fifo_fd, lock_fd = (int(n) for n in argv[at + 1].split(","))
    except (IndexError, ValueError):
        return list(argv), None
    return list(argv[:at]), Resume(fifo_fd, lock_fd, list(argv[at + 2:]))


def exec_over(resume: Resume, argv: Sequence[str] = ()) -> OSError:
    """Replace this process with ``python -m aish.daemon ARGV --resume ...`` (a normal
    start: the import path is found afresh, .pth files of an editable install included).
    Returns only when the exec failed."""
    for fd in (resume.fifo_fd, resume.lock_fd):
        os.set_inheritable(fd, True)
    command = [sys.executable, "-m", "aish.daemon", *argv, FLAG,
               f"{resume.fifo_fd},{resume.lock_fd}", *resume.lines]
    try:
        os.execv(sys.executable, command)
    except OSError as err:
        for fd in (resume.fifo_fd, resume.lock_fd):
            os.set_inheritable(fd, False)
        return err
    raise AssertionError("unreachable")  # pragma: no cover


def adopt(resume: Optional[Resume]) -> None:
    """The inherited descriptors go back to close-on-exec (no child of ours gets them)."""
    if resume is not None:
        for fd in (resume.fifo_fd, resume.lock_fd):
            os.set_inheritable(fd, False)
