"""Effect: a server that runs a command for each connection and hands its output (and its input) to whoever
connects: what that command prints goes to the network.

``websocketd --port=8080 env``, ``tcpserver 0 8080 printenv``, ``shell2http /env env``, ``ttyd -p 8080
printenv``, ``gotty env``, busybox's ``tcpsvd 0 9000 cat ~/.aws/credentials``, ``s6-tcpserver``,
``systemd-socket-activate -l 8080 --inetd env``, ``micro-inetd 8080 env``: the environment, a key or a
credential file is served to anyone who reaches the port, as ``ncat -lk -c env`` serves it
(``served_commands``).  A shell served that way runs whatever the other side types (ttyd's, gotty's and
websocketd's are judged by ``exposure``).  A server bound to the loopback address serves this machine only.
"""
from __future__ import annotations

import shlex
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.exfil import _segment_reads_secret, sent
from aish.safety.shell_words import segments

# Options that take a value, per server (the rest are flags or --name=value).
_VALUED = {
    "websocketd": {"--port", "--address", "--staticdir", "--cgidir", "--dir", "--header", "--cert", "--key",
                   "--passenv", "--loglevel", "--maxforks", "--origin", "--header-ws", "--header-http"},
    "ttyd": {"-p", "--port", "-i", "--interface", "-c", "--credential", "-u", "--uid", "-g", "--gid", "-s",
             "--signal", "-I", "--index", "-b", "--base-path", "-P", "--ping-interval", "-A", "--ssl-ca", "-C",
             "--ssl-cert", "-K", "--ssl-key", "-d", "--debug", "-t", "--client-option", "-T", "--terminal-type",
             "-m", "--max-clients", "-w", "--cwd", "-H", "--auth-header"},
    "gotty": {"-p", "--port", "-a", "--address", "-c", "--credential", "--title-format", "--tls-crt",
              "--tls-key", "--tls-ca-crt", "--index", "--width", "--height", "--ws-origin", "--term",
              "--close-signal", "--close-timeout", "--max-connection", "--timeout", "--config", "--path"},
    "tcpserver": {"-c", "-x", "-B", "-u", "-g", "-l", "-b", "-t"},
    "tcpsvd": {"-c", "-C", "-b", "-u", "-l"},
    "udpsvd": {"-c", "-C", "-b", "-u", "-l"},
    "s6-tcpserver": {"-c", "-C", "-b", "-u", "-g", "-G"},
    "systemd-socket-activate": {"-l", "--listen", "-E", "--setenv", "--fdname"},
    "micro-inetd": set(),
    "shell2http": {"-port", "-host", "-basic-auth", "-cert", "-key", "-timeout", "-shell", "-export-vars", "-log",
                   "-cache"},
}
# Servers given a host and a port before the program they run.
_HOST_PORT = frozenset({"tcpserver", "tcpsvd", "udpsvd", "s6-tcpserver", "s6-tcpserver4", "s6-tcpserver6"})
_LOOPBACK = lazy(r"^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$")
_LOOPBACK_OPTION = lazy(r"(^|=)(127\.\d+\.\d+\.\d+|localhost|::1)(:\d+)?$")
_SHELL = lazy(r"^(/\w+)*/?(ba|z|da|k|mk|fi|a)?sh$")
# Shells whose serving `exposure` judges already.
_JUDGED_ELSEWHERE = frozenset({"websocketd", "ttyd", "gotty"})


def _served(prog: str, texts: list) -> list:
    """The command line(s) the server runs for each connection."""
    name = "s6-tcpserver" if prog.startswith("s6-tcpserver") else prog
    valued = _VALUED.get(name, set())
    k = 0
    while k < len(texts) and texts[k].startswith("-") and texts[k] != "--":
        k += 2 if texts[k] in valued else 1
    if k < len(texts) and texts[k] == "--":
        k += 1
    rest = texts[k:]
    if prog == "shell2http":  # /path "command" pairs
        return [rest[j + 1] for j in range(0, len(rest) - 1, 2) if rest[j].startswith("/")][:4]
    if name in _HOST_PORT:
        if len(rest) < 3 or _LOOPBACK.match(rest[0]):
            return []
        rest = rest[2:]
    elif prog == "micro-inetd":
        rest = rest[1:]
    if not rest:
        return []
    return [rest[0] if len(rest) == 1 else " ".join(shlex.quote(t) for t in rest)]


def rule_served_output(c: Ctx) -> Optional[tuple]:
    """The command a per-connection server runs prints secrets, or is a shell."""
    if any(_LOOPBACK_OPTION.search(t) for t in c.texts):
        return None
    found = ""
    for command in _served(c.prog, c.texts):
        first = command.split(None, 1)[0] if command.strip() else ""
        if _SHELL.match(first) and c.prog not in _JUDGED_ELSEWHERE:
            return HIGH, f"serves a shell on the network: whoever connects runs commands here ({c.text})"
        for seg in segments(command[:2000])[:8]:
            seen = _segment_reads_secret(seg)
            found = "high" if "high" in (found, seen) else found or seen
    return sent(found, c, c.prog)


RULES: dict = {p: [rule_served_output] for p in (*_VALUED, "s6-tcpserver4", "s6-tcpserver6")}
