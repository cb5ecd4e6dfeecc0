"""``python -I -S launch.py [--or-python] SOCKET ARGS...``: run ``python ARGS`` (a script and its
arguments, or xdist's ``-u -c BOOTSTRAP``) as a child of the fork server listening on SOCKET
(fork_server.py, tests/fork_workers.py), standing in for it; with ``--or-python``, in this
process when that server is gone.

Stdlib only and run without ``site``: it starts in a few milliseconds.  It hands over its
stdin, stdout and stderr, its environment and working directory; passes on SIGTERM, SIGINT,
SIGHUP and SIGQUIT; and exits as the child did (a child killed by a signal kills this process
with the same signal).  When it is killed itself (SIGKILL to its process group), the fork
server sees its end of the socket close and kills the child.
"""
import array
import json
import os
import signal
import socket
import struct
import sys
import time

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
WAIT_FOR_SERVER = 60.0  # the fork server imports the SDK first: a loaded machine is slow at it


def connect(path: str, wait: bool = True) -> "socket.socket | None":
    deadline = time.monotonic() + WAIT_FOR_SERVER
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except (FileNotFoundError, ConnectionRefusedError):
            sock.close()
            if not wait:
                return None
            if time.monotonic() > deadline:
                sys.exit(f"launch.py: no MCP fork server at {path}")
            time.sleep(0.02)


def run_here(argv: list) -> None:
    """``python ARGS`` in this process, as if no server had been asked."""
    os.execv(sys.executable, [sys.executable, *argv])


def main(argv: list) -> None:
    # --or-python: the server's socket was made before this process started (tests/fork_workers.py),
    # so a refused connection or one closed unanswered means the server is gone: run it here instead
    or_python = argv[:1] == ["--or-python"]
    argv = argv[1:] if or_python else argv
    sock = connect(argv[0], wait=not or_python)
    if sock is None:
        return run_here(argv[1:])
    body = json.dumps({"argv": argv[1:], "env": dict(os.environ), "cwd": os.getcwd()}).encode()
    reader = sock.makefile("rb")
    try:
        sock.sendmsg([struct.pack("!I", len(body))],
                     [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]).tobytes())])
        sock.sendall(body)
        started = reader.readline()
    except OSError:  # reset: the server went away before it read the request
        started = b""
    if not started:
        if or_python:
            run_here(argv[1:])
        sys.exit("launch.py: the MCP fork server did not start the server")
    pid = json.loads(started)["pid"]
    for sig in FORWARDED:
        signal.signal(sig, lambda number, _frame: os.kill(pid, number))
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # the child holds the pipes now; their ends are its alone
        os.dup2(null, fd)
    os.close(null)
    ended = reader.readline()
    if not ended:
        sys.exit("launch.py: the MCP fork server went away")
    code = json.loads(ended)["exit"]
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    sys.exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
