"""Effect: a service opened to everyone without a login, for any program, in its own flags.

- Listening on every address (``0.0.0.0``, ``::``, ``*``, ``--ip=*``, ``-localhost no``, ``tcp://0.0.0.0``)
  together with its login switched off (``--no-token``, ``--without-connection-token``, ``--no-auth``,
  ``--auth-none=1``, ``-nopw``, ``-SecurityTypes None``, ``--no-password``, a ``*_TOKEN_ENABLED=false``
  given in its environment): an editor, a notebook, a desktop or an admin page that runs code or reads
  files for whoever reaches the port (``openvscode-server --host 0.0.0.0 --without-connection-token``,
  ``marimo edit --host 0.0.0.0 --no-token``).
- A remote desktop server (``wayvnc``, ``x11vnc``, QEMU's ``-vnc``) told to listen on every address with no
  password option: VNC asks for none unless told to.
- A daemon's control socket put on TCP with no TLS (``buildkitd --addr tcp://0.0.0.0:1234``, ``podman system
  service tcp:0.0.0.0:8888``, ``dockerd -H tcp://0.0.0.0:2376 --tls=false``, ``dbus-daemon
  --address=tcp:host=0.0.0.0``, QEMU's ``-monitor tcp:0.0.0.0:4444,server``, ``distccd --allow 0.0.0.0/0``):
  whoever reaches it drives the daemon, which is root on most machines.

One half alone stays quiet: a dev server on ``0.0.0.0`` (``flask run --host 0.0.0.0``), a token switched off
on loopback, a TCP socket with ``--tlsverify`` and certificates.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_GATE_WORDS = ("0.0.0.0", "::", "ip=*", "-localhost", "tcp:", "securitytypes", "0/0", "tcp-listen", "tcp4-listen")
# An address that is every address: the whole word, or the host part of HOST:PORT, a URL or key=value.
_EVERY = LazyRegex(r"^(?:[\w-]+=|tcp:(?://)?|https?://|tcp:host=)?(?:0\.0\.0\.0|\[?::\]?)(?::\d+)?(?:[,/].*)?$|"
                   r"^--?ip=\*$", re.IGNORECASE)
# Words that switch the service's login off.
_NO_LOGIN = LazyRegex(r"^--?(no-?token|without-connection-token|no-?auth|noauth|disable-?auth\w*|skip-?auth\w*|"
                      r"no-?password|nopw|no-?secret|no-?login|unauthenticated|allow-unauthenticated|"
                      r"auth-?none(=(1|true|yes))?|auth(entication)?[= ](none|false|off|0)|"
                      r"disable-?ticketing|[\w-]*(token|password)=(''|\"\")?|[\w.]*\.(token|password)=(''|\"\")?)$",
                      re.IGNORECASE)
_SECURITY_NONE = LazyRegex(r"^-?-securitytypes(=none)?$", re.IGNORECASE)
# The environment a server reads at start: `LIVEBOOK_TOKEN_ENABLED=false`, `*_AUTH_ENABLED=false`.
_ENV_OFF = LazyRegex(r"^\w*(TOKEN|AUTH|PASSWORD|AUTHENTICATION)_?(ENABLED|REQUIRED)=(false|0|no)$", re.IGNORECASE)
# Remote desktop servers: no password unless one of these options gives it.
_VNC = LazyRegex(r"vnc", re.IGNORECASE)
_VNC_PASSWORD = LazyRegex(r"^-?-(rfbauth|passwd\w*|usepw|password\w*|rfbauth\w*|enable[-_]?auth|c|config|"
                          r"securitytypes|unixpw\w*|ssl\w*)(=.*)?$|password=on", re.IGNORECASE)
# A control socket on TCP (`tcp://0.0.0.0:1234`, `tcp:0.0.0.0:8888`, `tcp:host=0.0.0.0,port=1`, `tcp::4444`).
_TCP_EVERY = LazyRegex(r"(?:^|[=\s])tcp:(?://)?(?:host=)?(?:0\.0\.0\.0|\[?::\]?|\*)?[:,]", re.IGNORECASE)
_TLS_OFF = lazy(r"--tls(verify)?=(false|0|no)\b", re.IGNORECASE)
_TLS = LazyRegex(r"tls|ssl|cert|x509|--cacert", re.IGNORECASE)
_ALLOW_ALL = LazyRegex(r"^--?allow(ed)?[-_]?(hosts?|ips?|from|clients?)?[= ]?(0\.0\.0\.0/0|::/0)$",
                       re.IGNORECASE)
_TCP_LISTEN = LazyRegex(r"^tcp[46]?-listen:", re.IGNORECASE)
_DAEMON_SOCKET = LazyRegex(r"^unix(-connect|-client)?:\S*(docker|containerd|podman|buildkit|libvirt|crio|dbus|"
                           r"kubelet|\.X11-unix)", re.IGNORECASE)
_LOOPBACK = LazyRegex(r"127\.0\.0\.1|localhost|\[?::1\]?(?![\d:])", re.IGNORECASE)


@triggered_by(_GATE_WORDS, otherwise=False)
def may_open(c: Ctx) -> bool:
    """A cheap test of the line first: it names every address, a TCP socket or a login setting."""
    line = c.lowered
    return any(w in line for w in _GATE_WORDS)


def rule_open_listener(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not texts or any(t in ("-h", "--help", "--version") for t in texts):
        return None
    pairs = _joined(texts)
    every = any(_EVERY.match(t) for t in pairs) or "-localhost" in texts and "no" in texts
    no_login = any(_NO_LOGIN.match(t) for t in pairs) or any(_ENV_OFF.match(w.text) for w in c.seg.words[:4])
    vnc = _VNC.search(c.prog) or any(t.lower() == "-vnc" for t in texts)
    if every and no_login:
        return MEDIUM, f"{c.prog} listens on every address with its login switched off: whoever reaches the " \
                       f"port uses it as you ({c.text})"
    if vnc and (every or _security_none(texts) and "-localhost" not in texts) and \
            (_security_none(texts) or not any(_VNC_PASSWORD.search(t) for t in texts)):
        return MEDIUM, f"{c.prog} serves the desktop on every address with no password ({c.text})"
    line = " ".join(texts)
    tls = _TLS.search(_TLS_OFF.sub("", line))
    if _TCP_EVERY.search(line) and not tls and not _LOOPBACK.search(line) and _daemon(c):
        return HIGH, f"{c.prog} puts its control socket on TCP with no TLS: whoever reaches the port drives it " \
                     f"(as root, for most daemons) ({c.text})"
    relayed = _relayed_socket(texts)
    if relayed:
        return HIGH, f"{c.prog} relays {relayed} to a TCP port on every address: whoever reaches it drives the " \
                     f"daemon, as root for most ({c.text})"
    if any(_ALLOW_ALL.match(t) for t in pairs) and _daemon(c):
        return MEDIUM, f"{c.prog} accepts work from every address: anyone who reaches it runs jobs here ({c.text})"
    return None


def _relayed_socket(texts: list) -> str:
    """``socat TCP-LISTEN:2375,fork UNIX-CONNECT:/var/run/docker.sock``: a daemon's socket put on the network."""
    listen = next((t for t in texts if _TCP_LISTEN.match(t)), None)
    if listen is None or _LOOPBACK.search(listen):
        return ""
    return next((t.split(":", 1)[1].split(",", 1)[0] for t in texts if _DAEMON_SOCKET.match(t)), "")


def _joined(texts: list) -> list:
    """Each word, and each option joined to its value (`--host 0.0.0.0` -> `--host=0.0.0.0`, `--auth none`)."""
    out = list(texts)
    for k, t in enumerate(texts[:-1]):
        if t.startswith("-") and "=" not in t and not texts[k + 1].startswith("-"):
            out.append(f"{t}={texts[k + 1]}")
            out.append(f"{t} {texts[k + 1]}")
    return out


def _security_none(texts: list) -> bool:
    return any(_SECURITY_NONE.match(t) and (t.lower().endswith("=none") or
                                            k + 1 < len(texts) and texts[k + 1].lower() == "none")
               for k, t in enumerate(texts))


def _daemon(c: Ctx) -> bool:
    """A daemon or a program told to serve: `…d`, `*-daemon`, `system service`, QEMU's monitor."""
    prog = c.prog.lower()
    named = any(part.endswith("d") for part in re.split(r"[-_.]", prog)) or "daemon" in prog
    return named or "service" in c.texts[:3] or "serve" in c.texts[:2] or \
        prog.startswith("qemu") or any(t in ("-monitor", "-qmp", "-chardev") for t in c.texts)
