"""MCP servers the MCP tests run against (official SDK, plus a plain-JSON one), and
helpers to start the SDK one as a subprocess on a free loopback port.

In a pytest session the SDK servers are forked from one process that imported the SDK once
(fork_server.py; tests/conftest.py names its directory): a server's command is then
``python -I -S launch.py SOCKET SCRIPT ARGS``, a process that stands for the server."""
from __future__ import annotations

import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
SDK_SERVER = HERE / "sdk_server.py"
OAUTH_SERVER = HERE / "oauth_server.py"  # demands OAuth (python oauth_server.py PORT)
FORKS_ENV = "AISH_TEST_MCP_FORKS"  # "DIR:OWNER_PID" of this session's fork server
_owned: Optional[str] = None
_started: list = []  # the fork server this process started (kept: it outlives no test, see end_session)


def start_session(early: bool = False) -> None:
    """Name this session's fork server directory (the controller, before xdist's workers
    start, so they inherit it); the first server a test starts starts the fork server, or,
    ``early``, this call: a run that holds the MCP tests (tests/conftest.py) has it import the
    SDK (~0.55 s of CPU) while the run starts, when one core is mostly idle (the controller
    configures, xdist's template imports the test modules), not amid the cases, where the
    first MCP case waited for it (tests/mcp/test_bridge.py's set-up, 1.5 s)."""
    global _owned
    if os.environ.get(FORKS_ENV) or not hasattr(os, "pidfd_open"):
        return
    _owned = tempfile.mkdtemp(prefix="aish-mcp-forks-")
    os.environ[FORKS_ENV] = f"{_owned}:{os.getpid()}"
    if early:
        _fork_socket()


def end_session() -> None:
    global _owned
    if _owned is None:
        return
    try:
        os.kill(int((Path(_owned) / "pid").read_text()), signal.SIGTERM)
    except (OSError, ValueError):
        pass
    shutil.rmtree(_owned, ignore_errors=True)
    os.environ.pop(FORKS_ENV, None)
    _owned = None


def _fork_socket() -> Optional[str]:
    """The fork server's socket, starting the server if this session has none yet."""
    directory, _, owner = os.environ.get(FORKS_ENV, "").rpartition(":")
    if not directory or not os.path.isdir(directory):
        return None
    with open(os.path.join(directory, "lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pid_file = Path(directory) / "pid"
        if not pid_file.exists():
            with open(os.path.join(directory, "log"), "ab") as log:
                proc = subprocess.Popen([sys.executable, str(HERE / "fork_server.py"), directory, owner],
                                        stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd="/",
                                        start_new_session=True)
            _started.append(proc)
            pid_file.write_text(str(proc.pid))
    return os.path.join(directory, "sock")


def server_argv(script: Path, *args: str) -> list[str]:
    """The command that runs ``python SCRIPT ARGS``: forked from the session's fork server
    when there is one."""
    sock = _fork_socket()
    if sock is None:
        return [sys.executable, str(script), *args]
    return [sys.executable, "-I", "-S", str(HERE / "launch.py"), sock, str(script), *args]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stdio_argv() -> list[str]:
    return server_argv(SDK_SERVER, "stdio")


class SdkHttpServer:
    """``sdk_server.py http PORT [flags]`` (or ``sse PORT``) running until ``stop()``."""

    def __init__(self, *flags: str, port: int | None = None, mode: str = "http",
                 script: Path = SDK_SERVER) -> None:
        self.flags = flags
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/" + ("sse" if mode == "sse" else "mcp")
        self._err = tempfile.TemporaryFile()  # a pipe nobody reads could fill and stall the server
        words = [str(self.port), *flags] if script != SDK_SERVER else [mode, str(self.port), *flags]
        self.proc = subprocess.Popen(server_argv(script, *words),
                                     stdout=subprocess.DEVNULL, stderr=self._err)
        self._wait_ready(60.0)  # a loaded machine starts the SDK slowly

    def _wait_ready(self, limit: float) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._err.seek(0)
                err = self._err.read().decode(errors="replace")
                raise RuntimeError(f"SDK server exited early: {err[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.01)
        self.stop()
        raise RuntimeError("SDK server did not start listening in time")

    def stop(self) -> None:
        """Killed at once: every test stops its server when it is done with it (nothing of the
        server's own shutdown is checked), and uvicorn's graceful one took 0.12-0.3 s (it
        waits for open streams and abandoned tools).  Killing the stand-in makes the fork
        server kill the server it stands for (launch.py)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self._err.close()
