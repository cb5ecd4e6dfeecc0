"""``python -I -S launch.py SOCKET SCRIPT ARGS...``: run ``python SCRIPT ARGS`` as a child of
the fork server listening on SOCKET (fork_server.py), standing in for it.

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


def connect(path: str) -> socket.socket:
    deadline = time.monotonic() + WAIT_FOR_SERVER
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except (FileNotFoundError, ConnectionRefusedError):
            sock.close()
            if time.monotonic() > deadline:
                sys.exit(f"launch.py: no MCP fork server at {path}")
            time.sleep(0.02)


def main(argv: list) -> None:
    sock = connect(argv[0])
    body = json.dumps({"argv": argv[1:], "env": dict(os.environ), "cwd": os.getcwd()}).encode()
    sock.sendmsg([struct.pack("!I", len(body))],
                 [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]).tobytes())])
    sock.sendall(body)
    reader = sock.makefile("rb")
    started = reader.readline()
    if not started:
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
