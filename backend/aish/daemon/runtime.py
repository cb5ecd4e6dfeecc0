"""The daemon's files in the runtime dir: single instance, liveness, stop (starting one is
``spawn.start``).

Liveness is "a process reads daemon.fifo and daemon.pid names a live process":
a pidfile alone lies after a crash or pid reuse, and a zombie still answers
``kill -0``, while a FIFO without a reader is refused at once (ENXIO).  Single
instance is an ``flock`` on daemon.lock held for the daemon's whole life; the
kernel drops it when the process dies, so there is nothing stale to clean.
"""
from __future__ import annotations

import errno
import fcntl
import os
import stat
import time
from pathlib import Path

from aish import paths

FIFO = "daemon.fifo"
PIDFILE = "daemon.pid"
LOCK = "daemon.lock"
START_LOCK = "start.lock"
POLL = 0.02  # readiness polling interval, as the shells do


def rundir_path(rundir: os.PathLike | None = None) -> Path:
    """The checked runtime dir (``paths.runtime_dir`` rules apply to an explicit one too)."""
    if rundir is None:
        return paths.runtime_dir()
    path = Path(rundir)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    paths.check_runtime_dir(path)
    return path


log_problem: str | None = None  # set by the daemon when its log cannot be written


def log_path() -> Path:
    """Where the daemon logs; computed even when the state dir cannot be made."""
    try:
        return paths.state_dir() / "daemon.log"
    except OSError:
        return Path(os.environ.get("AISH_STATE_DIR") or paths.default_state_dir()) / "daemon.log"


def internal_error_message() -> str:
    """The user's one line for an unexpected failure: where the details are, or, when
    even the log cannot be written, which directory to fix."""
    if log_problem:
        return f"internal error (no details: {log_problem})"
    return f"internal error (details in {log_path()})"


def read_version(rundir: Path) -> str | None:
    """The running daemon's aish version: daemon.pid's second line (None: older daemon)."""
    return _pidfile_line(rundir, 1)


def read_install(rundir: Path) -> str | None:
    """The identity of the install the running daemon loaded (``aish.install``): daemon.pid's
    third line (None: a daemon older than that line)."""
    return _pidfile_line(rundir, 2)


def _pidfile_line(rundir: Path, index: int) -> str | None:
    try:
        with open(rundir / PIDFILE, encoding="ascii") as fh:
            lines = fh.read(4096).split("\n")
    except (OSError, ValueError):
        return None
    if len(lines) <= index:
        return None
    return lines[index].strip() or None


def outdated(rundir: Path) -> str | None:
    """Why the running daemon is not this aish (None: it is, or none runs): another version,
    or the same version from an earlier install (a reinstall replaced its files)."""
    from aish.install import Install
    from aish.version import __version__

    version = read_version(rundir)
    if version != __version__:
        return f"is version {version or 'unknown'}, this aish is {__version__}"
    if read_install(rundir) != Install.find().identity:
        return f"loaded an earlier install of aish {version} (reinstalled since it started)"
    return None


def read_pid(rundir: Path) -> int | None:
    try:
        with open(rundir / PIDFILE, encoding="ascii") as fh:
            return int(fh.readline().strip())
    except (OSError, ValueError):
        return None


def pid_alive(pid: int) -> bool:
    """``kill -0`` says the pid is ours and exists (a zombie still does)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pid reused by another user's process
        return False
    return True


def fifo_has_reader(rundir: Path) -> bool:
    try:
        fd = os.open(rundir / FIFO, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:  # ENXIO: no reader; ENOENT: no FIFO
        return False
    try:
        return stat.S_ISFIFO(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def is_running(rundir: os.PathLike | None = None) -> int | None:
    """The daemon's pid if it is alive and reading its FIFO, else None."""
    path = Path(rundir) if rundir is not None else paths.runtime_dir()
    if not fifo_has_reader(path):
        return None
    pid = read_pid(path)
    # a zombie still answers kill -0: a new daemon's FIFO can be up while daemon.pid
    # still names the old, killed one that nobody has reaped
    return pid if pid and not pid_exited(pid) else None


# ------------------------------------------------------------------ daemon side
ready_fd = -1  # a forked daemon's end of the pipe its starter waits on (spawn.fork_daemon)


def announce_ready() -> None:
    """Close the pipe the process that forked this daemon waits on: it wakes at once (EOF)
    instead of polling for the FIFO and pidfile.  Once; nothing when started otherwise."""
    global ready_fd
    fd, ready_fd = ready_fd, -1
    if fd >= 0:
        try:
            os.close(fd)
        except OSError:
            pass


def acquire_instance(rundir: Path, wait: float = 1.0) -> int | None:
    """Lock daemon.lock for this process's life; None when another daemon holds it.

    Waits a little, because a daemon that was just told to stop may still be
    removing its files while a client already starts the next one.  Not for a daemon
    that serves: this one is surplus (racing cold starts) and must not take over when
    that one is stopped, which is what the user asked for."""
    fd = os.open(rundir / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                os.close(fd)
                raise
        if time.monotonic() > deadline or is_running(rundir):
            os.close(fd)
            return None
        time.sleep(POLL)


def lock_held(rundir: Path) -> bool:
    """Does a daemon (alive, maybe shutting down) hold daemon.lock?"""
    try:
        fd = os.open(rundir / LOCK, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing drops our probe lock at once
    return False


def make_fifo(rundir: Path) -> int:
    """Create daemon.fifo afresh (we hold the lock, so any old one is stale); open it O_RDWR."""
    path = rundir / FIFO
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    os.mkfifo(path, 0o600)
    return os.open(path, os.O_RDWR | os.O_CLOEXEC)


def write_pidfile(rundir: Path, version: str = "", install: str = "") -> None:
    """``<pid>``, ``<version>`` and ``<install identity>`` lines (the shells read only the first)."""
    tmp = rundir / f".{PIDFILE}.{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(f"{os.getpid()}\n{version}\n{install}\n")
    os.replace(tmp, rundir / PIDFILE)


def unlink_quietly(path: Path) -> None:
    """Remove ``path`` if it is there; a file already gone is what we wanted."""
    try:
        os.unlink(path)
    except OSError:
        pass


def remove_files(rundir: Path, fifo_fd: int = -1, owner: int | None = None) -> None:
    """Remove the FIFO and pidfile of this daemon (``fifo_fd``: the FIFO it reads) or of the
    daemon ``owner`` (killed by a stop), never a successor's: after a retire, or a stop that
    a waiting daemon followed, a new daemon owns the names.  The lock file stays: unlinking
    it would split the lock."""
    owner = owner or os.getpid()
    if fifo_fd < 0 and read_pid(rundir) not in (owner, None):
        return
    try:
        if fifo_fd < 0 or os.stat(rundir / FIFO).st_ino == os.fstat(fifo_fd).st_ino:
            os.unlink(rundir / FIFO)
    except OSError:
        pass
    if read_pid(rundir) in (owner, None):
        unlink_quietly(rundir / PIDFILE)


def replace_outdated(rundir: Path, wait: float = 3.0) -> None:
    """A daemon of another aish version or install runs (an upgrade or a reinstall): ask
    it to retire (it gives up daemon.fifo at once and exits when its running answers are
    done), so the caller starts one of its own.  A daemon too old to know ``retire`` is
    stopped instead."""
    pid = is_running(rundir)
    if not pid or not outdated(rundir):
        return
    try:
        fd = os.open(rundir / FIFO, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            os.write(fd, f"retire {pid}\n".encode("ascii"))
        finally:
            os.close(fd)
    except OSError:
        return
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if is_running(rundir) != pid:
            return
        time.sleep(POLL)
    stop(rundir=rundir)


# ------------------------------------------------------------------ client side
def tail(path: Path, lines: int = 1) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 4096))
            text = fh.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return ""
    return " / ".join(line.strip() for line in text[-lines:])


def pid_exited(pid: int | None) -> bool:
    """The process is gone or a zombie (an orphan whose reaper is slow)."""
    if not pid:
        return False
    if not pid_alive(pid):
        return True
    try:  # an orphan whose reaper is slow still answers kill -0 as a zombie
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return False


def stop(timeout: float = 3.0, rundir: os.PathLike | None = None) -> bool:
    """SIGTERM the daemon and wait until it is gone; SIGKILL after ``timeout``."""
    import signal

    path = rundir_path(rundir)
    pid = is_running(path)
    if not pid:
        return False
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return True
    # Gone means this pid exited (and with it its lock), whatever runs after it.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pid_exited(pid):
            return True
        time.sleep(POLL)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    remove_files(path, owner=pid)
    return True


def status(rundir: os.PathLike | None = None) -> dict:
    path = rundir_path(rundir)
    pid = is_running(path)
    return {"running": pid is not None, "pid": pid, "rundir": str(path),
            "version": read_version(path) if pid else None,
            "fifo": str(path / FIFO), "log": str(log_path())}
