"""Helpers the test modules share: running the real `aish` entry point, and config snippets.

Fixtures live in ``conftest.py``; plain functions live here so a test module
imports exactly what it uses.
"""
from __future__ import annotations

import os
import socket
import subprocess
import time
from typing import Callable, Iterator, Optional


# Whether the running case is on the real wire (marked e2e or shell): set for each case by
# tests/conftest.py.  The unit part starts no `aish` process, so that it stays fast.
ON_THE_WIRE = True


def aish(*args: str, input: str | None = None, env: dict | None = None,
         timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the real `aish` entry point in a process of its own (its main() owns errors and exit
    codes), forked from a Python that has imported aish already (tests/warm_aish.py)."""
    from tests import warm_aish

    assert ON_THE_WIRE, ("the unit part starts no aish process: aish_here() for what the CLI answers "
                         "itself or, with the wired fixture, sends to a daemon; the service fixture for a "
                         "verb or an ask; or a case in tests/e2e")

    return warm_aish.run(list(args), input=input, env={**os.environ, **(env or {})}, timeout=timeout)


def aish_here(*args: str, env: dict | None = None, stdin=None,
              cwd: os.PathLike | None = None) -> subprocess.CompletedProcess:
    """The ``aish`` command run in this process: the console entry (``aish.entry.main``) with
    this argv, ``env`` over the environment, ``stdin`` (a file object; default /dev/null, as a
    script's) and ``cwd``, its output and exit status captured as ``aish`` would print them.

    For what the CLI answers itself (config, doctor, init, help, a bad option); and for a
    daemon verb or an ask when a daemon serves from this process (the ``wired`` fixture:
    the real server on a thread, the real service), which the CLI then reaches as it reaches
    any daemon, through its FIFOs.  Otherwise a daemon verb goes through ``aish()``."""
    import atexit
    import contextlib
    import io
    import sys
    import threading

    from aish import entry
    from aish.daemon import runtime

    if entry.needs_daemon(list(args)):
        assert runtime.is_running() == os.getpid(), (
            f"aish {' '.join(args)} talks to the daemon: the wired fixture, or aish() on the real wire")
    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_argv, saved_stdin, saved_cwd = dict(os.environ), sys.argv, sys.stdin, os.getcwd()
    closers: list = []  # what the command left for its exit (its client's reply FIFO), run after it
    os.environ.update(env or {})
    sys.argv = ["aish", *args]
    devnull = open(os.devnull) if stdin is None else None
    sys.stdin = stdin if stdin is not None else devnull
    real_register, caller = atexit.register, threading.get_ident()

    def register(func, *a, **kw):  # this command's (the daemon's threads keep theirs)
        if threading.get_ident() != caller:
            return real_register(func, *a, **kw)
        closers.append((func, a, kw))
        return func

    atexit.register = register  # type: ignore[assignment]
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                entry.main()
                status = 0
            except SystemExit as done:
                status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        atexit.register = real_register  # type: ignore[assignment]
        for func, a, kw in closers:
            func(*a, **kw)
        os.chdir(saved_cwd)
        sys.argv, sys.stdin = saved_argv, saved_stdin
        if devnull is not None:
            devnull.close()
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["aish", *args], status, out.getvalue(), err.getvalue())


def here_ok(*args: str, **kw) -> subprocess.CompletedProcess:
    """``aish_here(...)`` that must succeed."""
    result = aish_here(*args, **kw)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


def stop_daemon() -> None:
    """What `aish daemon stop` does, in this process: a test's teardown need not start a
    Python for it (most in-process tests never started a daemon at all)."""
    from aish.daemon import runtime

    runtime.stop()


def ok(*args: str, **kw) -> subprocess.CompletedProcess:
    """`aish(...)` that must succeed."""
    result = aish(*args, **kw)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


_HELD_PORTS: list[socket.socket] = []


def closed_port_url() -> str:
    """A loopback URL that refuses connections: a port bound but never listened on, and held
    for the life of this process, so a test running beside it cannot take it and answer."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    _HELD_PORTS.append(sock)
    return f"http://127.0.0.1:{sock.getsockname()[1]}"


def model_toml(name: str, url: str, model: str, extra: str = "") -> str:
    """One `[models.NAME]` table."""
    return f'[models."{name}"]\nendpoint = "{url}"\nmodel = "{model}"\n{extra}'


def question(content: str) -> str:
    """A user turn's question without the shell context that travels in front of it."""
    return content.split("\n\n[question]\n", 1)[-1]


def pauses(first: float = 0.01, longest: float = 0.1) -> Iterator[float]:
    """The pauses between two looks at a condition: short at first (most waits end within
    a few tens of milliseconds), then growing to ``longest``.  A look can cost a process
    (``tmux capture-pane``), and on a busy machine a wait lasts seconds: a fixed 20 ms
    made a slow wait cost hundreds of them."""
    pause = first
    while True:
        yield pause
        pause = min(pause * 1.5, longest)


def wait_until(test: Callable[[], Optional[object]], timeout: float = 10.0, what: str = "") -> object:
    """Poll ``test`` until it returns something true (and return that); fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    for pause in pauses():
        value = test()
        if value:
            return value
        if time.monotonic() >= deadline:
            break
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
    raise AssertionError(f"timed out after {timeout}s waiting for {what or test}")
