"""A pty relay that remembers what the last few commands printed, for `aish shell`.

Plain terminals cannot tell the daemon what a command printed, so the shell
runs on a pty this process owns: every byte is copied both ways unchanged
(keys in, screen out), and the output between the OSC 133 marks ``C`` (the
command starts) and ``D;<exit>`` (it finished) is kept, in memory only, for
the last few commands (``context.marks`` cuts the stream; the daemon's tmux
tap cuts its panes' streams the same way).  Keys passed in while the pty echoes
them (typed ahead while a command runs) mark that command: their echo is among
its output, which is then not what it printed, and is not sent.
The daemon asks for them on a private unix socket in the runtime dir; the
shell names it in ``$AISH_RECORDER`` and sends it with each request.

It lives in ``cli`` because it is a process the user starts, not part of the
daemon: the two share only the socket's line-and-JSON contract
(``context.sources.recorder`` is the reading side).

Native feel: the outer tty is raw (restored on every exit path), window
sizes follow SIGWINCH, the child is a session leader with the pty as its
controlling tty (so job control, Ctrl-C and Ctrl-Z work inside it) and its
exit status is this process's.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import select
import signal
import socket
import sys
import termios
import tty
from typing import Optional

from aish.context.marks import CommandLog


def socket_path(rundir: str) -> str:
    return os.path.join(rundir, f"recorder-{os.getpid()}.sock")


def _listen(path: str) -> socket.socket:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        server.bind(path)
    finally:
        os.umask(old)
    server.listen(4)
    server.setblocking(False)
    return server


def _answer(server: socket.socket, log: CommandLog) -> None:
    """One short query from the daemon: ``last`` or ``back N`` -> that command as JSON."""
    try:
        conn, _ = server.accept()
    except OSError:
        return
    with conn:
        try:
            conn.settimeout(0.5)
            words = conn.recv(64).split()
            if words == [b"last"]:
                conn.sendall(json.dumps(log.last()).encode("ascii"))
            elif len(words) == 2 and words[0] == b"back" and words[1].isdigit():
                conn.sendall(json.dumps(log.back(int(words[1]))).encode("ascii"))
        except OSError:
            pass


def _copy_winsize(src: int, dst: int) -> None:
    try:
        size = fcntl.ioctl(src, termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(dst, termios.TIOCSWINSZ, size)
    except OSError:
        pass


def _write_all(fd: int, data: bytes) -> None:
    while data:
        try:
            n = os.write(fd, data)
        except InterruptedError:
            continue
        except BlockingIOError:
            select.select([], [fd], [])
            continue
        data = data[n:]


def _echoed(master: int, keys: bytes) -> bool:
    """The pty will echo these keys into the output stream: it has ECHO on (a command reading
    a line, or none reading yet: keys typed ahead), and they are not only the keys that send a
    signal (Ctrl-C, Ctrl-\\, Ctrl-Z: the ``^C`` they echo marks where a command was stopped).
    A program that reads keys itself (a line editor, vim, a password prompt) turns ECHO off."""
    try:
        attrs = termios.tcgetattr(master)  # the pty's settings, as the shell and its programs set them
    except termios.error:
        return False
    if not attrs[3] & termios.ECHO:
        return False
    if attrs[3] & termios.ISIG:
        signals = {attrs[6][termios.VINTR], attrs[6][termios.VQUIT], attrs[6][termios.VSUSP]}
        return any(keys[i:i + 1] not in signals for i in range(len(keys)))
    return True


def relay(argv: list, env: dict, sock: Optional[str]) -> int:
    """Run ``argv`` on a new pty, relay until it exits, return its exit status."""
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    log = CommandLog()
    server = _listen(sock) if sock else None
    if sock:
        env = {**env, "AISH_RECORDER": sock}
    pid, master = os.forkpty()
    if pid == 0:  # child: the pty is its controlling tty and it leads its own session
        try:
            os.execvpe(argv[0], argv, env)
        except OSError as exc:
            os.write(2, f"aish: cannot start {argv[0]}: {exc.strerror}\n".encode())
        os._exit(127)
    is_tty = os.isatty(stdin)
    saved = termios.tcgetattr(stdin) if is_tty else None
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)

    def on_winch(signum, frame):
        try:
            os.write(wake_w, b"w")
        except OSError:
            pass

    old_winch = signal.signal(signal.SIGWINCH, on_winch)
    try:
        if is_tty:
            _copy_winsize(stdin, master)
            tty.setraw(stdin, termios.TCSANOW)
        watched = [master, wake_r] + ([server] if server else [])
        stdin_open = True
        while True:
            try:
                ready, _, _ = select.select(watched + ([stdin] if stdin_open else []), [], [])
            except InterruptedError:
                continue
            if master in ready:
                try:
                    data = os.read(master, 65536)
                except OSError as exc:
                    if exc.errno != errno.EIO:
                        raise
                    data = b""
                if not data:  # the child and everything holding the pty are gone
                    break
                _write_all(stdout, data)
                log.feed(data)
            if stdin_open and stdin in ready:
                data = os.read(stdin, 65536)
                if data:
                    if _echoed(master, data):
                        log.keys_echoed()
                    _write_all(master, data)
                else:
                    stdin_open = False
            if wake_r in ready:
                os.read(wake_r, 64)
                if is_tty:
                    _copy_winsize(stdin, master)
            if server is not None and server in ready:
                _answer(server, log)
    finally:
        if saved is not None:
            termios.tcsetattr(stdin, termios.TCSAFLUSH, saved)
        signal.signal(signal.SIGWINCH, old_winch)
        if server is not None and sock:
            server.close()
            try:
                os.unlink(sock)
            except OSError:
                pass
        for fd in (wake_r, wake_w, master):
            os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
