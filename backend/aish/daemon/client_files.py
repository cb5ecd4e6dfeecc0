"""The files a client leaves in the runtime dir: which ones may be trusted, and when they go.

Anyone who can write a reply FIFO can put text on the user's prompt line, so a
reply path is used only when it is our own FIFO directly in our private dir.
"""
from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path
from typing import Callable

from aish.daemon import runtime
from aish.daemon.runtime import FIFO, POLL, pid_alive, pid_exited
from aish.errors import DaemonError, ProtocolError

# A client's files carry its pid: zsh-PID.fifo, bash-PID.fifo (and bash-PID.trap, where
# bash saves the user's INT trap without forking, and bash-PID.umask), py-PID-N.fifo, requests zsh-PID-....req,
# the variables a shell writes when a V frame asks (zsh-PID-....qN.vars), and the state a
# shell writes while an agent is connected (zsh-PID.state, docs/agents.md).  bash cannot
# remove its files at exit (a `trap EXIT` would clobber the user's), and a killed client
# removes nothing.
_CLIENT_FILE = re.compile(r"^(?:zsh|bash|py)-(\d+)(?:-[^/]*)?\.(?:fifo|req|trap|umask|vars|state)$")
AGENTS_MARKER = "agents"  # `PID NAME` lines: the agents connected (app/bridge/agents.py)


def read_own_file(path: Path, limit: int) -> str:
    """The text of a file a client wrote for us: a regular file of this user's (never a
    link or a FIFO, which could block), at most ``limit`` bytes.  One read takes it all: its
    size is known from the stat (a second read only to see the end was a system call, and a
    hand-off of the GIL, on every ask of 50 shells asking at once)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
            raise ProtocolError(f"{path} is not a regular file of yours")
        if st.st_size > limit:
            raise ProtocolError(f"{path} is larger than {limit} bytes")
        chunks = [os.read(fd, st.st_size + 1)]
        if len(chunks[0]) > st.st_size:  # it grew after the stat: the rest too
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8", "replace")


def _remove_files_of(rundir: Path, gone: Callable[[int], bool]) -> int:
    """Unlink every client file whose pid ``gone`` says is gone; returns how many."""
    try:
        names = os.listdir(rundir)
    except OSError:
        return 0
    removed = 0
    for name in names:
        match = _CLIENT_FILE.match(name)
        if match is None or not gone(int(match.group(1))):
            continue
        try:
            os.unlink(rundir / name)
            removed += 1
        except OSError:
            pass
    return removed


def prune_client_files(rundir: Path) -> int:
    """Remove reply FIFOs and request files whose client process is gone, and the agents'
    marker when every agent it names is gone (the shells then stop writing their state);
    returns how many."""
    me = os.getpid()
    removed = _remove_files_of(rundir, lambda pid: pid != me and not pid_alive(pid))
    marker = rundir / AGENTS_MARKER
    try:
        pids = [int(line.split(" ", 1)[0]) for line in marker.read_text(encoding="utf-8").splitlines()
                if line.split(" ", 1)[0].isdigit()]
    except OSError:
        return removed
    if not any(pid_alive(pid) for pid in pids):
        runtime.unlink_quietly(marker)
        removed += 1
    return removed


def remove_if_client_gone(rundir: Path, reply: str, wait: float = 1.0) -> int:
    """A request's client vanished (its FIFO lost its reader): once its process has
    exited, remove its files now rather than at the next sweep.  A process being
    killed closes its files before it is a zombie, hence the short wait; a client
    that only closed its FIFO (a shell after Ctrl-C) keeps it.  Returns how many."""
    match = _CLIENT_FILE.match(Path(reply).name)
    if match is None:
        return 0
    client = int(match.group(1))
    deadline = time.monotonic() + wait
    while not pid_exited(client):
        if time.monotonic() >= deadline:
            return 0
        time.sleep(POLL)
    return _remove_files_of(rundir, lambda pid: pid == client)


def check_reply_fifo(rundir: Path, reply: str) -> Path:
    """A reply path may be trusted only when it is our FIFO directly in our private dir."""
    if "\x00" in reply:
        raise DaemonError(f"reply path {reply!r} holds a NUL byte")
    path = Path(reply)
    parent = os.path.dirname(reply)  # the runtime dir as we name it is the same dir (no walk per ask)
    if (not os.path.isabs(reply) or (parent != str(rundir) and os.path.realpath(parent) != os.path.realpath(rundir))
            or path.name in (FIFO,)):
        raise DaemonError(f"reply FIFO {reply!r} is not inside the runtime dir {rundir}")
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise DaemonError(f"reply FIFO {reply}: {exc.strerror}") from None
    if not stat.S_ISFIFO(st.st_mode):
        raise DaemonError(f"reply path {reply} is not a FIFO")
    if st.st_uid != os.getuid():
        raise DaemonError(f"reply FIFO {reply} belongs to uid {st.st_uid}, not you")
    return path
