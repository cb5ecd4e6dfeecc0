"""The daemon's tap on a tmux pane: the bytes the shell writes, cut at aish's own marks.

A tmux screen cannot say where a command's output starts: a right prompt sits
on the command's row, a two-line prompt adds a row, zle and readline wrap a
long command themselves (``capture-pane -J`` does not join that), ``clear``
wipes the command line, and tmux before 3.7 keeps no trace of OSC 133 marks.
So the daemon reads the pane's output stream instead, with tmux's own
``pipe-pane -O``: tmux copies every byte the shell writes into ``cat``, which
writes them into a FIFO in the private runtime dir that the daemon reads, and
``context.marks`` cuts the stream at the ``C`` and ``D`` marks the hooks print.
The output is then exact, unwrapped (a secret is never split in two) and the
same as the recorder's.

A pane is tapped the first time a request comes from it; what ran before is
unknown ("could not tell where it starts"), never guessed.  The tap is named
in the pane option ``@aish_tap`` so a later daemon knows its predecessor's
pipe from a pipe of the user's (which is left alone: the pane's output is then
not read).  Everything is kept in memory only, bounded per pane.
"""
from __future__ import annotations

import itertools
import logging
import os
import select
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from aish.context.marks import CommandLog, Entry

Runner = Callable[[list, dict], Optional[bytes]]
OPTION = "@aish_tap"
NOT_YET = "could not tell where it starts: aish reads this tmux pane from now on"
NOT_SEEN = "could not tell where it starts: aish began reading this tmux pane after it ran"
USERS_PIPE = "this tmux pane's output already goes to a pipe-pane of yours"
SETTLE = 0.3  # seconds to wait for a command's D mark still on its way through cat
CATCH_UP = 2.0  # seconds to wait for the D mark a request says the shell printed
_serial = itertools.count(1)


@dataclass
class Tap:
    """One pane's stream: the FIFO ``cat`` writes into, and the commands cut from it."""

    socket: str
    pane: str
    path: str
    fd: int
    log: CommandLog = field(default_factory=CommandLog)
    lock: threading.Lock = field(default_factory=threading.Lock)
    closed: bool = False
    before: int = 0  # the count of the shell's D marks printed before the tap began

    def drain(self) -> None:
        """Read what is waiting (the reader thread may be a moment behind)."""
        with self.lock:
            while not self.closed:
                try:
                    data = os.read(self.fd, 65536)
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    return
                if not data:
                    return
                self.log.feed(data)


@dataclass
class Found:
    """The n-th last command's entry, or why there is none."""

    entry: Optional[Entry] = None
    note: str = ""


class Taps:
    """Every tapped pane of this daemon, read by one thread."""

    def __init__(self, rundir: Path, log: Optional[logging.Logger] = None) -> None:
        self.rundir = Path(rundir)
        self.log = log or logging.getLogger("aish")
        self._taps: dict[tuple, Tap] = {}
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        for fd in (self._wake_r, self._wake_w):
            os.set_blocking(fd, False)
            os.set_inheritable(fd, False)
        self._thread: Optional[threading.Thread] = None
        self._closed = False
        _remove_orphans(self.rundir)

    # ------------------------------------------------------------ the source
    def find(self, socket: str, pane: str, runner: Runner, back: int = 1,
             ended: Optional[int] = None) -> Found:
        """The ``back``-th last command of the pane, tapping it first if it is not yet;
        ``ended``: the shell's count of commands it ended when it asked (its last D mark)."""
        key = (socket, pane)
        with self._lock:
            tap = self._taps.get(key)
        state = _pane_state(socket, pane, runner)
        if state is None:
            return Found(note="tmux did not answer")
        piped, owner = state
        if tap is None or not piped or owner != tap.path:
            if tap is not None:
                self._drop(key)
            if piped and not owner:
                return Found(note=USERS_PIPE)
            note = self._attach(socket, pane, runner, stale=piped, before=ended or 0)
            return Found(note=note or NOT_YET)
        tap.drain()
        if ended is not None and max(tap.log.ended, tap.before) < ended:
            # The shell printed that D before it asked: tmux and cat have not passed it on yet
            # (a shell's report right after a command, on a loaded host).
            deadline = time.monotonic() + CATCH_UP
            while max(tap.log.ended, tap.before) < ended and time.monotonic() < deadline:
                time.sleep(0.02)
                tap.drain()
        deadline = time.monotonic() + SETTLE
        while tap.log.current is not None and time.monotonic() < deadline:
            time.sleep(0.02)  # the last command's D is still on its way through cat
            tap.drain()
        entry = tap.log.entry(back)
        if entry is None or entry.unsure:
            return Found(note=NOT_SEEN)
        return Found(entry=entry)

    def watch(self, socket: str, pane: str, runner: Runner, ended: Optional[int] = None) -> None:
        """Tap the pane now unless a tap of this daemon reads it already: the shell's first
        prompt asks, and so does every request from the pane (a verb, a task step);
        ``ended``: the shell's count of D marks so far (printed before the tap)."""
        with self._lock:
            if (socket, pane) in self._taps:
                return
        found = self.find(socket, pane, runner, ended=ended)
        if found.note not in (NOT_YET, NOT_SEEN):
            self.log.info("tmux pane %s not read: %s", pane, found.note)

    # ------------------------------------------------------------ attaching
    def _attach(self, socket: str, pane: str, runner: Runner, stale: bool, before: int = 0) -> str:
        base = _base(socket)
        if stale:  # a pipe of an earlier daemon of ours: its reader is gone
            runner(base + ["pipe-pane", "-t", pane], {})
        self._forget_gone(socket, runner)
        path = str(self.rundir / f"tap-{os.getpid()}-{next(_serial)}.fifo")
        try:
            os.mkfifo(path, 0o600)
            # read-write: never blocks, and never sees EOF while cat comes and goes
            fd = os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as err:
            self.log.warning("tap of %s: %s", pane, err)
            return f"could not read the tmux pane ({err.strerror})"
        import shlex  # (when a pane is first watched, not at import)

        command = "exec cat > " + shlex.quote(path).replace("#", "##")  # tmux expands #{...}
        if runner(base + ["pipe-pane", "-O", "-o", "-t", pane, command], {}) is None:
            os.close(fd)
            _unlink(path)
            return "tmux refused to pipe the pane's output"
        runner(base + ["set-option", "-p", "-t", pane, OPTION, path], {})
        tap = Tap(socket, pane, path, fd, before=before)
        with self._lock:
            self._taps[(socket, pane)] = tap
            self._start()
        self._wake()
        self.log.info("reading tmux pane %s through %s", pane, path)
        return ""

    def _forget_gone(self, socket: str, runner: Runner) -> None:
        """Taps of panes that closed on this tmux server go (their cat has exited)."""
        listed = runner(_base(socket) + ["list-panes", "-a", "-F", "#{pane_id}"], {})
        if listed is None:
            return
        alive = set(listed.decode("ascii", "replace").split())
        with self._lock:
            gone = [key for key in self._taps if key[0] == socket and key[1] not in alive]
        for key in gone:
            self._drop(key)

    def _drop(self, key: tuple) -> None:
        with self._lock:
            tap = self._taps.pop(key, None)
        if tap is not None:
            with tap.lock:
                tap.closed = True
                os.close(tap.fd)
            _unlink(tap.path)
            self._wake()

    # ------------------------------------------------------------ reading
    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._read_loop, name="tmux-taps", daemon=True)
            self._thread.start()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"w")
        except OSError:
            pass

    def _read_loop(self) -> None:
        while not self._closed:
            with self._lock:
                taps = {tap.fd: tap for tap in self._taps.values()}
            try:
                ready, _, _ = select.select([self._wake_r, *taps], [], [])
            except (OSError, ValueError):  # a tap closed under us: look again
                time.sleep(0.01)
                continue
            for fd in ready:
                if fd == self._wake_r:
                    try:
                        os.read(self._wake_r, 4096)
                    except OSError:
                        pass
                elif fd in taps:
                    taps[fd].drain()

    def close(self, runner: Optional[Runner] = None) -> None:
        """Stop reading; with ``runner``, close each pane's pipe too (cat exits)."""
        self._closed = True
        with self._lock:
            keys = list(self._taps)
        for socket, pane in keys:
            if runner is not None:
                runner(_base(socket) + ["pipe-pane", "-t", pane], {})
                runner(_base(socket) + ["set-option", "-p", "-u", "-t", pane, OPTION], {})
            self._drop((socket, pane))
        self._wake()


def _base(socket: str) -> list:
    return ["tmux", "-S", socket] if socket else ["tmux"]


def _pane_state(socket: str, pane: str, runner: Runner) -> Optional[tuple]:
    """(is the pane's output piped, the tap path the pane option names) or None."""
    out = runner(_base(socket) + ["display-message", "-p", "-t", pane,
                                  "#{pane_pipe} #{" + OPTION + "}"], {})
    if out is None:
        return None
    piped, _, owner = out.decode("utf-8", "replace").strip().partition(" ")
    return piped == "1", owner.strip()


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _remove_orphans(rundir: Path) -> None:
    """FIFOs of a daemon that died without closing its taps (``tap-<pid>-<n>.fifo``)."""
    for path in rundir.glob("tap-*-*.fifo"):
        pid = path.name.split("-")[1]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            _unlink(str(path))
        except OSError:
            pass
