"""How the daemon process comes to be: ``start`` (behind start.lock, so racing shells start
one), and its mechanics: a fork of the caller, or a fresh interpreter.

The mechanics are subtle in their own right: a fork must not copy a caller's threads,
the child must drop every inherited fd (start.lock above all), and a fresh interpreter
started with ``-S`` needs the caller's import path.  ``runtime`` (the daemon's files,
liveness, stop) is below this module and never imports it, so the daemon's entry
(``__main__``) can use ``runtime`` without a circle back to here.
"""
from __future__ import annotations

import fcntl
import os
import select
import sys
import time
from pathlib import Path

from aish.daemon import runtime
from aish.errors import DaemonError


_pending: dict = {}  # rundir -> (pid, ready pipe) of a daemon this process started, not yet seen ready


def start_early(rundir: os.PathLike | None = None) -> None:
    """Begin starting the daemon without waiting, so it loads while the caller
    still imports and parses (the CLI calls this first).  ``start()`` later waits
    for this child instead of starting another.  Never raises."""
    try:
        path = runtime.rundir_path(rundir)
        if runtime.is_running(path) or not can_fork():
            return
        fd = os.open(path / runtime.START_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if not runtime.is_running(path):
                _pending[str(path)] = fork_daemon(runtime.log_path(), with_ready=True)
        finally:
            os.close(fd)
    except Exception:  # start() reports the real problem, with its fix
        return


def start(wait: float = 15.0, rundir: os.PathLike | None = None) -> int:
    """Start the daemon unless it runs; behind start.lock so racing shells start one.

    ``wait`` is generous because it only bounds a start that neither succeeds nor
    fails: a ready daemon returns at once and a crashed one is reported at once, but
    a first start on a slow or busy machine (compiling bytecode) can take seconds."""
    path = runtime.rundir_path(rundir)
    pid = runtime.is_running(path)
    if pid:
        return pid
    log = runtime.log_path()
    deadline = time.monotonic() + wait
    fd = os.open(path / runtime.START_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise DaemonError("another process is starting the daemon and did not finish",
                                      hint=f"see {log}") from None
                time.sleep(runtime.POLL)
        pid = runtime.is_running(path)  # whoever held start.lock may have started it
        if pid:
            return pid
        forked = can_fork()
        child, ready = _pending.pop(str(path), (None, -1))
        if child is None or runtime.pid_exited(child):
            _close(ready)
            child, ready = fork_daemon(log, with_ready=True) if forked else (exec_daemon(log), -1)
        poll = runtime.POLL / 4 if forked else runtime.POLL  # a forked daemon is ready in a few ms
        return _wait_ready(path, child, ready, poll, deadline, log, wait)
    finally:
        os.close(fd)


def _wait_ready(path: Path, child: int | None, ready: int, poll: float, deadline: float,
                log: Path, wait: float) -> int:
    """Until the new daemon serves: woken by its ready pipe (``ready``, closed by the daemon
    once its FIFO and pidfile are up) rather than by a sleep; a poll still bounds each wait.
    Closes ``ready``."""
    try:
        while time.monotonic() < deadline:
            pid = runtime.is_running(path)
            if pid:
                return pid
            if runtime.pid_exited(child):
                pid = runtime.is_running(path)  # it lost a race to a daemon started by hand
                if pid:
                    return pid
                last = runtime.tail(log)
                raise DaemonError("the aish daemon exited at start" + (f": {last}" if last else ""),
                                  hint=f"see {log}")
            if ready < 0:
                time.sleep(poll)
            elif select.select([ready], [], [], poll)[0]:  # EOF: ready, or gone; poll from now on
                _close(ready)
                ready = -1
    finally:
        _close(ready)
    last = runtime.tail(log)
    raise DaemonError(f"the aish daemon did not start within {wait:g}s"
                      + (f": {last}" if last else ""), hint=f"see {log}")


def _close(fd: int) -> None:
    """Close a ready pipe's end (-1: none)."""
    if fd >= 0:
        try:
            os.close(fd)
        except OSError:
            pass


def exec_daemon(log: Path) -> int | None:
    """Start ``python -m aish.daemon`` detached: its own session, stdin /dev/null,
    output to the log, and orphaned at once (the ``sh`` exits) so no caller has
    a zombie child to reap and no terminal signal reaches it.  Returns its pid."""
    import subprocess  # only here: forking (the usual way) needs none of it

    log = _usable_log(log)
    script = 'exec "$0" -S -m aish.daemon </dev/null >>"$1" 2>&1 & echo $!'
    proc = subprocess.run(["/bin/sh", "-c", script, sys.executable, str(log)],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          start_new_session=True, close_fds=True, cwd="/", check=False, timeout=10,
                          env=_child_env())
    try:
        return int(proc.stdout.strip() or 0) or None
    except ValueError:
        return None


def can_fork() -> bool:
    """Fork only a single-threaded caller (the CLI, ``aish daemon start`` from a
    shell): a fork copies no other thread, so a lock held by one would never be
    released in the child.  ``AISH_DAEMON_SPAWN=exec`` forces a fresh interpreter."""
    import threading

    return (hasattr(os, "fork") and threading.active_count() == 1
            and os.environ.get("AISH_DAEMON_SPAWN", "fork") != "exec")


def fork_daemon(log: Path, with_ready: bool = False):
    """Become the daemon by forking this interpreter: it has Python and aish
    loaded already, which saves a whole interpreter start (~100+ ms) on a cold
    ask.  Double fork + setsid, stdio to /dev/null and the log, every inherited
    fd closed (start.lock above all), cwd ``/``.  Returns the daemon's pid; with
    ``with_ready``, ``(pid, fd)``: a pipe that reads EOF once the daemon serves
    (``runtime.announce_ready``), so the caller waits on it instead of sleeping."""
    read_end, write_end = os.pipe()
    ready_read, ready_write = os.pipe() if with_ready else (-1, -1)
    first = os.fork()
    if first == 0:  # pragma: no cover - runs in the child
        code = 1
        try:
            os.setsid()
            second = os.fork()
            if second:
                os.write(write_end, str(second).encode())
                os._exit(0)
            os.chdir("/")
            null = os.open(os.devnull, os.O_RDWR)
            out = os.open(_usable_log(log), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.dup2(null, 0)
            os.dup2(out, 1)
            os.dup2(out, 2)
            if ready_write >= 0:  # kept, at fd 3, for runtime.announce_ready; the rest closed
                os.dup2(ready_write, 3, inheritable=False)
                runtime.ready_fd = 3
            os.closerange(4 if ready_write >= 0 else 3, _max_fd())
            from aish.daemon import method_cache

            method_cache.install(_state_dir(log))  # before the daemon's modules make their classes
            from aish.daemon.__main__ import main

            code = main([])
        except BaseException:
            pass
        os._exit(code)
    os.close(write_end)
    if ready_write >= 0:
        os.close(ready_write)
        os.set_inheritable(ready_read, False)
    try:
        os.waitpid(first, 0)
        raw = os.read(read_end, 32)
    finally:
        os.close(read_end)
    try:
        pid = int(raw or 0) or None
    except ValueError:
        pid = None
    return (pid, ready_read) if with_ready else pid


def _state_dir(log: Path) -> Path | None:
    """Where the daemon keeps its files (the log's directory), None when it cannot hold them."""
    usable = _usable_log(log)
    return usable.parent if usable == log else None


def _usable_log(log: Path) -> Path:
    """The daemon's output file, or /dev/null when the state dir cannot hold it (the
    daemon still serves; it says what it cannot write)."""
    try:
        log.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600))
        return log
    except OSError:
        return Path(os.devnull)


def _max_fd() -> int:
    try:
        return min(os.sysconf("SC_OPEN_MAX"), 65536)
    except (ValueError, OSError):
        return 4096


def _child_env() -> dict:
    """The daemon runs with ``-S`` (no site processing: ~40-90 ms less on a cold
    start, more where site-packages hold many .pth files), so it gets this
    process's resolved import path instead, with aish's own parent first (that
    also covers an editable install, whose finder lives in a .pth file)."""
    import aish

    package_parent = str(Path(aish.__file__).resolve().parent.parent)
    entries = [package_parent] + [p for p in sys.path if p and os.path.isdir(p)]
    env = dict(os.environ)  # (__main__.restore_user_environment undoes the two names below)
    if "PYTHONPATH" in env:  # restored by the daemon, so MCP stdio servers see the user's own
        env["AISH_USER_PYTHONPATH"] = env["PYTHONPATH"]
    env["AISH_SPAWNED"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(entries))
    return env
