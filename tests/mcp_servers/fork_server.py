"""Starts the test MCP servers from one process that has already imported the SDK.

Importing the official SDK (pydantic, starlette, uvicorn, anyio) is about 1 s of CPU, and the
MCP tests start a fresh server for most cases: that was a third of the unit suite's CPU.  This
process imports it all once, then forks a child per server.  ``launch.py`` (a stdlib-only
script, the command a test configures) hands the child its stdin, stdout and stderr, its
arguments, environment and working directory, passes on the signals it gets, and exits with
the child's status: to the client under test the server is still a process it started, with
its own pipes, exit status, crash and kill (tests/mcp/test_fork_server.py).  A real
``python sdk_server.py`` start stays tested: tests/mcp/test_stdio.py's home-directory case and
tests/e2e run the script themselves.

    python fork_server.py DIR OWNER_PID     listens on DIR/sock until OWNER_PID exits

The child runs the script as ``python SCRIPT ARGS`` would: its module as this process ran it
once before forking, then its ``main(ARGS)``; a script with no ``main`` as ``__main__`` (``runpy``).
"""
from __future__ import annotations

import array
import atexit
import gc
import json
import os
import random
import runpy
import selectors
import signal
import socket
import struct
import sys
import traceback
from pathlib import Path
from typing import Callable, Optional

HERE = Path(__file__).resolve().parent
SCRIPTS = (HERE / "sdk_server.py", HERE / "oauth_server.py")
# imported when a server runs, not when its script is read (measured: sys.modules of each mode)
RUN_TIME_MODULES = ("anyio._backends._asyncio", "uvicorn.lifespan.on", "uvicorn.protocols.http.h11_impl",
                    "uvicorn.protocols.http.auto", "uvicorn.protocols.websockets.auto")
HEADER = struct.Struct("!I")  # the length of the JSON request that follows the three descriptors


# each script's module, run once here up to its ``main`` (the SDK server built, its tools
# registered: ~30 ms of CPU a child saved); a forked child calls ``main`` on its own copy, as
# fresh as a new ``python SCRIPT`` (it changes nothing this process keeps)
PRELOADED: dict[str, dict] = {}


def preload() -> None:
    """Import what the scripts and their servers import, without running a server."""
    argv = sys.argv
    for script in SCRIPTS:
        sys.argv = [str(script)]
        PRELOADED[str(script)] = runpy.run_path(str(script), run_name="fork_server_preload")
    sys.argv = argv
    for name in RUN_TIME_MODULES:
        try:
            __import__(name)
        except ImportError:  # another version of a package: that child imports it itself
            pass


def receive(conn: socket.socket) -> tuple[list[int], dict]:
    """The launcher's stdin, stdout and stderr, and its request: argv, env, cwd."""
    fds = array.array("i")
    data, ancdata, _flags, _addr = conn.recvmsg(HEADER.size, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
    (size,) = HEADER.unpack(data)
    body = b""
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            raise ConnectionError("the launcher went away mid-request")
        body += chunk
    return list(fds), json.loads(body)


def run_child(fds: list[int], request: dict, keep_closed: list) -> None:
    """In the forked child: become the server process the launcher stands for; never returns."""
    become_child(fds, request, keep_closed, _run_script)


def _run_script(request: dict) -> None:
    sys.argv = list(request["argv"])
    script = PRELOADED.get(os.path.realpath(sys.argv[0]), {})
    if callable(script.get("main")):
        script["main"](sys.argv[1:])
    else:
        runpy.run_path(sys.argv[0], run_name="__main__")


def become_child(fds: list[int], request: dict, keep_closed: list, run: Callable[[dict], None],
                 exit_handlers: bool = False) -> None:
    """In a forked child: take the launcher's standard streams, the signal handlers a fresh
    interpreter has, its own random state, the launcher's working directory and environment; then
    ``run(request)`` and leave with the status an interpreter would (``exit_handlers``: after the
    ``atexit`` handlers, as an interpreter's end runs them); never returns.  The one place both
    kinds of child (an MCP server, an xdist worker) start, so they stay alike."""
    code = 1
    try:
        for thing in keep_closed:
            thing.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        random.seed()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        run(request)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    except BaseException:  # noqa: B036 - as the interpreter reports an uncaught one
        traceback.print_exc()
    finally:
        try:
            if exit_handlers:
                atexit._run_exitfuncs()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)


class Closable:
    """A bare descriptor (a pidfd) the child closes like a socket."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd

    def close(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


def listen(directory: Path) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(directory / "sock.new"))
    listener.listen(64)
    os.rename(directory / "sock.new", directory / "sock")  # whole: a launcher never meets a half-made one
    return listener


def serve(listener: socket.socket, owner: int, become: Callable[[list[int], dict, list], None] = run_child,
          prepare: Optional[Callable[[dict], None]] = None) -> None:
    """Fork a child per launcher that connects to ``listener`` (``become`` turns it into what the
    launcher stands for, and never returns) until ``owner`` exits; the children are killed then.
    ``prepare`` gets the first request before its child is forked."""
    selector = selectors.DefaultSelector()
    owner_fd = Closable(os.pidfd_open(owner))
    children: dict[int, tuple[socket.socket, Closable]] = {}  # pid -> (launcher, pidfd)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        selector.register(listener, selectors.EVENT_READ, ("accept", None))
        selector.register(owner_fd, selectors.EVENT_READ, ("owner", None))
        while True:
            for key, _events in selector.select():
                what, pid = key.data
                if what == "owner":
                    return
                if what == "accept":
                    conn, _ = listener.accept()
                    try:
                        fds, request = receive(conn)
                    except (OSError, ValueError, struct.error):
                        conn.close()
                        continue
                    if prepare is not None:
                        prepare(request)
                        prepare = None
                    pid = os.fork()
                    if pid == 0:
                        become(fds, request, [selector, listener, owner_fd, *(
                            thing for pair in children.values() for thing in pair), conn])
                    for fd in fds:
                        os.close(fd)
                    pidfd = Closable(os.pidfd_open(pid))
                    children[pid] = (conn, pidfd)
                    try:
                        conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
                    except OSError:
                        os.kill(pid, signal.SIGKILL)
                    selector.register(conn, selectors.EVENT_READ, ("launcher", pid))
                    selector.register(pidfd, selectors.EVENT_READ, ("child", pid))
                elif what == "launcher":  # anything but the end is unexpected: the launcher was killed
                    os.kill(pid, signal.SIGKILL)
                    selector.unregister(children[pid][0])
                elif what == "child":
                    _, status = os.waitpid(pid, 0)
                    conn, pidfd = children.pop(pid)
                    try:
                        conn.sendall(json.dumps({"exit": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
                    except OSError:
                        pass
                    for thing in (conn, pidfd):
                        try:
                            selector.unregister(thing)
                        except (KeyError, ValueError):
                            pass
                        thing.close()
    finally:
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def main(argv: list[str]) -> None:
    directory, owner = Path(argv[0]), int(argv[1])
    preload()
    # what the children inherit stays out of their garbage collector's sight: a collection in
    # a child would walk (and write to, copying their pages) every object the SDK's import made
    gc.freeze()
    serve(listen(directory), owner)


if __name__ == "__main__":
    main(sys.argv[1:])
