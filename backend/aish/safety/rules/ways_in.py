"""Effect: a way into the network opened from inside, by any tunnel, relay or pivot agent.

A reverse forward asks another host to listen and to carry what reaches it back through this machine to a host
and port here: ``ssh -R 8445:10.1.1.5:445 vps``, ``plink -R 3389:127.0.0.1:3389 h``, ``chisel client H
R:3389:10.1.1.5:3389``, ``wstunnel client -R tcp://2222:10.1.1.5:22 wss://h``, ``gost -L rtcp://:2222/10.1.1.5:22
-F …``, ``frpc tcp --local_ip 10.1.1.5 --local_port 3389 …``; a reverse SOCKS proxy (``ssh -R 1080 h``, ``chisel
client H R:socks``) and a pivot agent (ligolo-ng's ``agent -connect H:P``, ``revsocks -connect``, ``iox proxy -r``,
rpivot's ``client.py --server-ip``, Stowaway's agent) hand the far side the whole network.  A relay listening on
every address (``socat TCP-LISTEN:2222,fork TCP:10.1.1.5:22``, ``netsh interface portproxy add … connectaddress=…
connectport=3389``, ``redir --caddr … --cport 3389``, ``ncat -l 2222 --sh-exec "ncat 10.1.1.5 22"``) publishes
another host's port here.

High when what is reached is a way in (SSH, telnet, RPC, SMB, RDP, VNC, WinRM) or the whole network (SOCKS, a
pivot agent); medium when a reverse forward reaches another host's other port.  This machine's own services
published (``ssh -R 2222:localhost:22``, ``ngrok tcp 22``) are ``exposure``'s.  Quiet: ``ssh -L`` and ``ssh -D``
(a way out, for the user), ``ssh -R 8080:localhost:3000 devbox`` (a local web app), a relay to loopback or to a
web port (``netsh interface portproxy add … connectport=3000 connectaddress=172.20.10.2``, WSL's everyday
form), ``chisel server``, ``sshuttle``, ``kubectl port-forward``.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.exposure import ssh_reverse_specs
from aish.safety.rules.triggers import triggered_by

# Ports that are ways in: SSH, telnet, RPC, NetBIOS, SMB, RDP, VNC, WinRM (and SSH's usual other port).
_WAY_IN_PORTS = frozenset({"22", "23", "135", "139", "445", "2222", "3389", "5900", "5901", "5985", "5986"})
_LOOPBACK = lazy(r"^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]|0)$", re.IGNORECASE)
_SSH_LIKE = frozenset({"ssh", "autossh", "plink", "dbclient", "sshpass", "wstunnel"})
# Pivot agents: the far side gets a route or a SOCKS proxy into every host this machine reaches.
_PIVOT_AGENTS = lazy(r"^(ligolo(-ng)?[-_]?agent|agent|revsocks|rsocx|rsockstun|stowaway[-_]?agent|"
                     r"venom[-_]?agent|ssf|reverse[-_]?socks\w*)$", re.IGNORECASE)
_RELAY_LISTEN = lazy(r"^(tcp|tcp4|tcp6)-listen:(\d+)(,.*)?$", re.IGNORECASE)
_RELAY_TARGET = lazy(r"^(tcp|tcp4|tcp6|tcp-connect|tcp4-connect|openssl|openssl-connect|ssl):([^:,]+):(\d+)",
                     re.IGNORECASE)
_WORDS = ("ssh", "plink", "dbclient", "wstunnel", " r:", "rtcp", "rudp", "-listen", "portproxy", "--caddr",
          "--sh-exec", "-connect", "--server-ip", "proxy", "stowaway", "agent", "socks", "frpc", "local_ip",
          "local_port", "nc -l", "ncat", "netcat")
# Programs read for relays and forwards by name (any other is read only for chisel-style `R:` specs and gost's rtcp)
_READ = _SSH_LIKE | {"socat", "netsh", "redir", "ncat", "nc", "netcat", "frpc", "iox", "client"}


def _spec_target(spec: str) -> tuple:
    """(host, port, socks) that a reverse forward's spec reaches from here: ``[bind:]port:host:hostport``,
    ``tcp://port:host:hostport``, ``R:socks``, a lone port (ssh's reverse SOCKS)."""
    spec = re.sub(r"^(R:|tcp://|udp://)", "", spec.strip("'\""), flags=re.IGNORECASE)
    if re.match(r"^(socks5?://|socks$)", spec, re.IGNORECASE) or re.fullmatch(r"(\S+:)?socks", spec, re.IGNORECASE):
        return "", "", True
    parts = re.split(r":(?![^\[]*\])", spec)
    if len(parts) >= 3:
        return parts[-2].strip("[]"), parts[-1], False
    if len(parts) == 2 and parts[0].isdigit():  # chisel's R:2222:22 is not a form; `R:8080:3000`? host is local
        return "localhost", parts[1], False
    return "", "", False


def _reverse_specs(c: Ctx, lowered: list) -> list:
    """The specs of the reverse forwards a command asks for, for any tunnel client."""
    texts = c.texts
    prog = c.prog.lower().removesuffix(".exe")
    specs = [t for t in texts if re.match(r"^R:(\d|socks|[\w.\[\]-]+:\d)", t, re.IGNORECASE)]
    if prog in _SSH_LIKE or "ssh" in lowered:
        specs += ssh_reverse_specs(texts)
    for t in texts:  # gost's remote forward: -L rtcp://[bind]:port/host:hostport
        m = re.match(r"^r(tcp|udp)://[^/]*/([^:/]+):(\d+)", t, re.IGNORECASE)
        if m:
            specs.append(f"0:{m.group(2)}:{m.group(3)}")
    if prog == "frpc" and lowered[:1] in (["tcp"], ["stcp"], ["xtcp"]):  # frpc tcp --local_ip H --local_port P
        values = {t.lstrip("-").replace("-", "_"): texts[k + 1] for k, t in enumerate(lowered[:-1])}
        specs.append(f"0:{values.get('local_ip', values.get('i', 'localhost'))}:"
                     f"{values.get('local_port', values.get('l', ''))}")
    return specs


def _relay_target(c: Ctx, lowered: list) -> tuple:
    """(host, port) a relay listening here on every address forwards to, or ("", "")."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    if prog == "socat":
        listen = next((m for m in map(_RELAY_LISTEN.match, texts) if m), None)
        target = next((m for m in map(_RELAY_TARGET.match, texts) if m), None)
        if listen and target and not re.search(r"(bind|range)=(127\.|localhost|::1)", listen.group(3) or ""):
            return target.group(2), target.group(3)
    if prog == "netsh" and "portproxy" in lowered and "add" in lowered:
        values = dict(t.split("=", 1) for t in lowered if "=" in t)
        if not _LOOPBACK.match(values.get("listenaddress", "0.0.0.0")):
            return values.get("connectaddress", ""), values.get("connectport", values.get("listenport", ""))
    if prog == "redir":
        values = dict(t.lstrip("-").split("=", 1) for t in lowered if t.startswith("--") and "=" in t)
        if not _LOOPBACK.match(values.get("laddr", "0.0.0.0")):
            return values.get("caddr", ""), values.get("cport", "")
    if prog in ("ncat", "nc", "netcat") and any(re.fullmatch(r"-[a-z]*l[a-z]*|--listen", t) for t in lowered):
        for k, t in enumerate(lowered[:-1]):
            if t in ("--sh-exec", "-c", "--exec", "-e"):
                inner = texts[k + 1].split()
                if len(inner) >= 3 and inner[0].rsplit("/", 1)[-1] in ("ncat", "nc", "netcat"):
                    return inner[-2], inner[-1]
    return "", ""


@triggered_by(_WORDS)
def rule_way_in(c: Ctx) -> Optional[tuple]:
    """A tunnel, relay or pivot agent that lets another host reach into this network (see the module's doc)."""
    texts = c.texts
    if not texts or len(texts) > 64:
        return None  # tunnels and relays take a few words: a command with thousands (`rm -rf …`) is not one
    prog = c.prog.lower().rsplit("\\", 1)[-1].removesuffix(".exe").removesuffix(".py")
    low = c.lowered
    if prog not in _READ and "r:" not in low and "ssh" not in low and "rtcp" not in low and "rudp" not in low and \
            not prog.startswith("python") and not _PIVOT_AGENTS.match(prog):
        return None  # most lines leave here (a long `rm -rf …` wakes every rule)
    lowered = [t.lower() for t in texts]
    shown = fragment([c.prog] + texts, 70)
    if _PIVOT_AGENTS.match(prog) and any(t in ("-connect", "--connect") or t in ("-c", "-r") and prog != "agent"
                                         for t in lowered) or \
            prog == "iox" and lowered[:1] == ["proxy"] and "-r" in lowered or \
            "--server-ip" in lowered and (prog == "client" or prog.startswith("python")):
        return HIGH, (f"connects a pivot agent out to another host: whoever runs it reaches every machine this one "
                      f"can ({shown})")
    best: Optional[tuple] = None
    for spec in _reverse_specs(c, lowered):
        host, port, socks = _spec_target(spec)
        if socks or re.fullmatch(r"\d+", spec.strip("'\"")) and (c.prog in _SSH_LIKE or "ssh" in lowered):
            return HIGH, f"opens a reverse SOCKS proxy: another host reaches every machine on this network ({shown})"
        if port in _WAY_IN_PORTS and host:
            where = "this machine's" if _LOOPBACK.match(host) else f"{host}'s"
            return HIGH, f"publishes {where} remote login or file sharing (port {port}) on another host ({shown})"
        if host and not _LOOPBACK.match(host) and port:
            best = (MEDIUM, f"lets another host reach {host}:{port} inside this network through a reverse tunnel "
                            f"({shown})")
    host, port = _relay_target(c, lowered)
    if port in _WAY_IN_PORTS and host and not _LOOPBACK.match(host):
        return HIGH, (f"relays every address's port here to {host}'s remote login or file sharing (port {port}) "
                      f"({shown})")
    return best
