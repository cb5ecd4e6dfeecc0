"""`aish` commands for the real-process tests, forked from a Python that has imported aish.

Why: every ``python -m aish ...`` a shell or end-to-end case runs pays an interpreter start and
aish's imports (about 75 ms of CPU for the CLI), and the daemon it starts then imports the
service (about 150 ms more): measured, two thirds of a shell case's CPU.  A server started once
per test process imports those modules and forks one child per command.  The child is a real
process running the real entry point (``aish.entry.main``) with the command's argv,
environment, working directory and standard streams, and it exits with the command's status; a
daemon it starts is the real daemon, forked the way ``aish`` forks it, with fresh dirs per test
as before.  What the fork skips is the interpreter's own start and aish's imports: cases about
those (lazy imports, a start-up path) run ``python -m aish`` as before.

Two clients: ``run`` (the test process: helpers.aish) and this file run as a script,
``python -S -E warm_aish.py SOCKET ARGS...`` (the ``aish`` the shells call for ``daemon start``;
no site, no imports beyond builtins, ~10 ms).  The wire: one length-prefixed request carrying the
three standard fds (SCM_RIGHTS); the answer is the child's pid, then its exit status.
"""
from __future__ import annotations

import os
import sys

import _socket

SEP = "\0"


def _encode(argv: list, env: dict, cwd: str, session: str) -> bytes:
    fields = [cwd, session, str(len(argv)), *argv, *(f"{k}={v}" for k, v in env.items())]
    body = SEP.join(fields).encode("utf-8", "surrogateescape")
    return len(body).to_bytes(8, "big") + body


def _decode(body: bytes) -> tuple:
    fields = body.decode("utf-8", "surrogateescape").split(SEP)
    cwd, session, count = fields[0], fields[1], int(fields[2])
    argv = fields[3:3 + count]
    env = dict(item.split("=", 1) for item in fields[3 + count:] if "=" in item)
    return argv, env, cwd, session


def send(socket_path: str, argv: list, env: dict, cwd: str, fds: tuple, session: str = ""):
    """Ask the server for a child; returns the connected socket (its pid then its status
    arrive on it)."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.connect(socket_path)
    data = _encode(argv, env, cwd, session)
    ancillary = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in fds)
    sent = sock.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, ancillary)])
    if sent < len(data):
        sock.sendall(data[sent:])
    return sock


def read_lines(sock, buffer: bytes = b"") -> tuple:
    """The next line of the answer (``None`` at the end), and what is left after it."""
    while b"\n" not in buffer:
        chunk = sock.recv(64)
        if not chunk:
            return None, buffer
        buffer += chunk
    line, _, rest = buffer.partition(b"\n")
    return line.decode(), rest


def main() -> None:
    """The shells' ``aish daemon start``: this process's stdio, env and cwd go to the child."""
    sock = send(sys.argv[1], sys.argv[2:], dict(os.environ), os.getcwd(), (0, 1, 2))
    pid, rest = read_lines(sock)
    status, _ = read_lines(sock, rest)
    os._exit(int(status) if status not in (None, "") else 1)


# ------------------------------------------------------------------ the test process's side
class Server:
    """The forking server of one test process and one set of imports, started at first use."""

    def __init__(self, directory: str, flavor: str) -> None:
        import subprocess

        self.path = os.path.join(directory, f"warm-aish-{flavor}-{os.getpid()}.sock")
        self.env = dict(os.environ)
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", self.path, str(os.getpid()),
                                      flavor], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, cwd="/")
        ready = self.proc.stderr.readline()  # the server says so once its imports are done
        if ready.strip() != b"ready":
            raise RuntimeError(f"the warm aish server did not start: {ready!r} "
                               f"{self.proc.stderr.read().decode(errors='replace')}")
        self.proc.stderr.close()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        for remove, path in ((os.unlink, self.path), (os.rmdir, os.path.dirname(self.path))):
            try:  # its private directory goes with it (a run left one per worker in the tmp dir)
                remove(path)
            except OSError:
                pass

    def serves(self, env: dict) -> bool:
        """Whether a fork of the server is the same Python the command would start: the
        interpreter's own settings (PYTHON*) as the server started with them."""
        def python(e: dict) -> dict:
            return {k: v for k, v in e.items() if k.startswith("PYTHON")}
        return self.proc.poll() is None and python(env) == python(self.env)


_servers: dict = {}


def server(flavor: str = "aish") -> Server:
    """``aish``: what a command and its daemon import; ``mcp``: the MCP SDK's client too
    (for the cases that configure a server: a daemon imports it then, ~1 s of CPU)."""
    found = _servers.get(flavor)
    if found is None or found.proc.poll() is not None:
        import atexit
        import tempfile

        found = _servers[flavor] = Server(tempfile.mkdtemp(prefix="aish-warm-"), flavor)
        atexit.register(found.close)
    return found


def wanted() -> bool:
    """``AISH_TEST_WARM=0`` runs every command on a fresh interpreter (to tell a fault of the
    fork from one of the command)."""
    return os.environ.get("AISH_TEST_WARM", "1") != "0"


def socket_path(flavor: str = "aish") -> "str | None":
    """For the ``aish`` the shells call (tests/shell/shellenv.py)."""
    return server(flavor).path if wanted() else None


class Child:
    """A command forked by the server: its pid, and its exit status once it ends."""

    def __init__(self, sock, argv: list) -> None:
        self.sock, self.argv = sock, argv
        pid, self._rest = read_lines(sock)
        self.pid = int(pid) if pid else None
        self.returncode: "int | None" = None

    def wait(self, timeout: "float | None" = None) -> int:
        import subprocess

        if self.returncode is None:
            self.sock.settimeout(timeout)
            try:
                status, _ = read_lines(self.sock, self._rest)
            except TimeoutError:
                raise subprocess.TimeoutExpired(self.argv, timeout) from None
            self.sock.close()
            self.returncode = int(status) if status else -9
        return self.returncode

    def poll(self) -> "int | None":
        import select

        if self.returncode is None and select.select([self.sock], [], [], 0)[0]:
            return self.wait()
        return self.returncode

    def kill(self) -> None:
        if self.pid and self.returncode is None:
            try:
                os.kill(self.pid, 9)
            except OSError:
                pass


def spawn(args: list, *, env: dict, cwd: "str | None", fds: tuple, session: str = "",
          flavor: str = "aish") -> "Child | None":
    """``python -m aish ARGS`` with these three fds as its stdio, forked warm; ``session``
    "new" (setsid) or "tty" (setsid, and fd 0 its controlling terminal).  None when the warm
    server is not the same Python (or not wanted): then start one as before."""
    warm = server(flavor) if wanted() else None
    if warm is None or not warm.serves(env):
        return None
    sock = send(warm.path, args, env, os.path.abspath(cwd or os.getcwd()), fds, session)
    return Child(sock, [sys.executable, "-m", "aish", *args])


def run(args: list, *, input: "str | None" = None, env: dict, cwd: "str | None" = None,
        timeout: float = 60, stdin: "int | None" = None, new_session: bool = False,
        flavor: str = "aish"):
    """``subprocess.run([python, "-m", "aish", *args], capture_output=True, text=True)``, on a
    fork of the warm server when it is the same Python, else on a fresh one."""
    import subprocess
    import threading

    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    in_r = in_w = None
    if input is not None:
        in_r, in_w = os.pipe()
        child_in = in_r
    else:
        child_in = os.open(os.devnull, os.O_RDONLY) if stdin in (None, subprocess.DEVNULL) else stdin
    child = spawn(args, env=env, cwd=cwd, fds=(child_in, out_w, err_w),
                  session="new" if new_session else "", flavor=flavor)
    for fd in (out_w, err_w) + ((child_in,) if child_in != stdin else ()):
        os.close(fd)
    if child is None:
        for fd in (out_r, err_r) + ((in_w,) if in_w is not None else ()):
            os.close(fd)
        kw = {"input": input} if input is not None else {"stdin": stdin}
        return subprocess.run([sys.executable, "-m", "aish", *args], capture_output=True, text=True,
                              env=env, cwd=cwd, timeout=timeout, start_new_session=new_session, **kw)
    if in_w is not None:
        def feed() -> None:
            try:
                os.write(in_w, input.encode())
            except OSError:
                pass
            finally:
                os.close(in_w)
        threading.Thread(target=feed, daemon=True).start()
    outputs: dict = {}

    def drain(fd: int, name: str) -> None:
        with open(fd, "rb") as stream:
            outputs[name] = stream.read()
    readers = [threading.Thread(target=drain, args=(fd, name), daemon=True)
               for fd, name in ((out_r, "out"), (err_r, "err"))]
    for reader in readers:
        reader.start()
    try:
        status = child.wait(timeout)
        for reader in readers:
            reader.join(timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        raise

    def text(name: str) -> str:  # as text=True decodes: the locale's encoding, universal newlines
        import io
        import locale

        stream = io.TextIOWrapper(io.BytesIO(outputs.get(name, b"")),
                                  encoding=locale.getpreferredencoding(False), newline=None)
        return stream.read()
    return subprocess.CompletedProcess(child.argv, status, text("out"), text("err"))


# ------------------------------------------------------------------ the server
# What a command and the daemon it starts import, sooner or later (the daemon defers some until
# after its first answer: importing them here changes when, not what); the MCP SDK is left out
# of "aish": a daemon imports it only for a configured server (tests/e2e/test_first_answer_imports.py).
# A name that is gone is skipped: the fork is then slower, never different.
WARM_IMPORTS = ("aish.entry", "aish.cli.quick", "aish.cli.main", "aish.daemon.__main__",
                "aish.daemon.spawn", "aish.app.service", "aish.app.ask", "aish.net.pooled")
FLAVORS = {"aish": WARM_IMPORTS,
           "mcp": WARM_IMPORTS + ("aish.mcp.manager", "aish.mcp.connection", "aish.mcp.stdio",
                                  "aish.mcp.http_transport", "mcp.client.streamable_http")}


def serve(path: str, parent: int, flavor: str) -> None:
    import importlib

    sys.path[0] = os.getcwd()  # not this file's directory (tests/mcp would hide the SDK's mcp)
    try:
        from aish.app.daemon_state import LATER  # what the daemon imports after its first answer
    except ImportError:
        LATER = ()
    for name in FLAVORS[flavor] + tuple(LATER):
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    listener = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    listener.settimeout(1.0)
    os.write(2, b"ready\n")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    while os.getppid() == parent:  # ends with the test process
        _reap()
        try:
            conn_fd, _ = listener._accept()
        except TimeoutError:
            continue
        conn = _socket.socket(fileno=conn_fd)
        conn.settimeout(None)
        try:
            request, fds = _receive(conn)
        except Exception:
            conn.close()
            continue
        if os.fork() == 0:
            listener.close()
            _watch(conn, request, fds)
        conn.close()
        for fd in fds:
            os.close(fd)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _receive(conn) -> tuple:
    import array

    fds = array.array("i")
    data, ancillary, _, _ = conn.recvmsg(1 << 16, _socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, payload in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
    while len(data) < 8:
        data += conn.recv(1 << 16)
    size = int.from_bytes(data[:8], "big")
    body = data[8:]
    while len(body) < size:
        chunk = conn.recv(1 << 16)
        if not chunk:
            raise EOFError
        body += chunk
    return _decode(body), list(fds)


def _watch(conn, request: tuple, fds: list) -> None:
    """The server's child: forks the command, says its pid, waits, says its status."""
    code = 1
    try:
        child = os.fork()
        if child == 0:
            conn.close()
            _become(request, fds)
        for fd in fds:
            os.close(fd)
        conn.sendall(f"{child}\n".encode())
        _, status = os.waitpid(child, 0)
        conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
        code = 0
    finally:
        os._exit(code)


def _become(request: tuple, fds: list) -> None:
    """Turn this fork into ``python -m aish ARGV`` run by the client; never returns."""
    import io
    import signal
    import traceback

    argv, env, cwd, session = request
    code = 1
    try:
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        os.closerange(3, 1024)
        if session:
            os.setsid()
        if session == "tty":
            import fcntl
            import termios

            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        sys.argv = [os.path.join(os.path.dirname(_aish_file()), "__main__.py"), *argv]
        sys.path[0] = cwd  # as `python -m` puts it
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        unbuffered = bool(env.get("PYTHONUNBUFFERED"))
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)),
                                     encoding="utf-8", errors="surrogateescape")
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
                                      encoding="utf-8", errors="surrogateescape",
                                      line_buffering=os.isatty(1), write_through=unbuffered)
        sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
                                      encoding="utf-8", errors="backslashreplace",
                                      line_buffering=True)
        sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
        try:
            from aish.entry import main as aish_main

            aish_main()
            code = 0
        except SystemExit as done:
            code = _exit_code(done.code)
        except KeyboardInterrupt:
            code = 130
        except BaseException:
            traceback.print_exc()
            code = 1
        import atexit

        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
    finally:
        os._exit(code)


def _aish_file() -> str:
    import aish

    return aish.__file__


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        main()
