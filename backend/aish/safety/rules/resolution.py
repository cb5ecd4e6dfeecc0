"""Effect: name resolution pointed elsewhere.  Whoever answers the machine's name lookups decides
where ``github.com``, a package index or a bank's login really is: a line in ``/etc/hosts`` (or
Windows' ``drivers\\etc\\hosts``) giving a well-known name another address, a resolver nobody
knows written into ``resolv.conf``, systemd-resolved, dnsmasq or unbound, or set on a link with
``resolvectl``, ``nmcli``, ``networksetup``, ``Set-DnsClientServerAddress`` or ``netsh``.

Everyday forms stay quiet: a local name (``127.0.0.1 myapp.local``, ``192.168.1.10 nas``),
blocking a name (``0.0.0.0 ads.example``), the well-known public resolvers, private addresses
(the router, the office), and reading or resetting the settings.
"""
from __future__ import annotations

import ipaddress
import re
from typing import Optional

from aish.safety.rules.common import LOW, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

# Second-level names people log in to, install from or pay through: pointing one elsewhere is an attack.
_WELL_KNOWN = frozenset("""
google googleapis gstatic gmail youtube github githubusercontent gitlab bitbucket microsoft microsoftonline
windowsupdate windows live office office365 outlook azure azureedge msftauth apple icloud amazon amazonaws
cloudfront paypal stripe facebook instagram twitter whatsapp linkedin slack zoom dropbox okta auth0 onelogin
pypi pythonhosted python npmjs npm yarnpkg docker quay gcr ghcr rubygems crates golang proxy kernel ubuntu
canonical debian fedoraproject redhat centos archlinux alpinelinux mozilla anaconda conda hashicorp jfrog
cloudflare akamai digicert letsencrypt sectigo globalsign chase bankofamerica wellsfargo citi hsbc barclays
coinbase binance kraken steampowered epicgames yahoo bing duckduckgo wikipedia openai anthropic
""".split())
_TWO_PART_SUFFIX = lazy(r"\.(co|com|org|net|gov|ac)\.[a-z]{2}$")
# Resolvers anyone may point at: the big public ones and this machine's own stubs.
_PUBLIC_RESOLVERS = frozenset("""
8.8.8.8 8.8.4.4 1.1.1.1 1.0.0.1 9.9.9.9 149.112.112.112 208.67.222.222 208.67.220.220 94.140.14.14
94.140.15.15 76.76.2.0 76.76.10.0 64.6.64.6 64.6.65.6 185.228.168.9 2001:4860:4860::8888 2001:4860:4860::8844
2606:4700:4700::1111 2606:4700:4700::1001 2620:fe::fe 2620:fe::9
""".split())


# This machine and the networks a router or an office hands out; documentation ranges (203.0.113.0/24...)
# are not among them, though Python counts them private.
_LOCAL_NETWORKS = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
                                                     "127.0.0.0/8", "169.254.0.0/16", "0.0.0.0/8", "::1/128",
                                                     "fc00::/7", "fe80::/10", "::/128")]


def _address(text: str) -> Optional[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return ipaddress.ip_address(text.strip("[]").split("#", 1)[0].split("%", 1)[0])
    except ValueError:
        return None


def unknown_resolver(text: str) -> bool:
    """An address nobody knows as a resolver: not public, not this machine, not the local network."""
    addr = _address(text)
    if addr is None:
        return False
    return str(addr) not in _PUBLIC_RESOLVERS and not any(addr in net for net in _LOCAL_NETWORKS if
                                                          net.version == addr.version)


def well_known(name: str) -> bool:
    name = name.lower().rstrip(".")
    labels = _TWO_PART_SUFFIX.sub("", name).split(".")
    return len(labels) >= 2 and labels[-2] in _WELL_KNOWN


def _redirects_name(addr_text: str, names: list) -> str:
    """The first well-known name given an address that is neither blocking nor this machine."""
    addr = _address(addr_text)
    if addr is None or addr.is_unspecified or addr.is_loopback:
        return ""
    return next((n for n in names if well_known(n)), "")


class _Lines:
    """A content matcher (``.search(text)``) for ``meaning``'s table of files."""

    def __init__(self, judge) -> None:
        self.judge = judge

    def search(self, text: str) -> str:
        for line in text.splitlines()[:200]:
            found = self.judge(line.split("#", 1)[0].strip())
            if found:
                return found
        return ""


def _hosts_line(line: str) -> str:
    parts = line.split()
    return _redirects_name(parts[0], parts[1:]) if len(parts) >= 2 else ""


def _resolv_line(line: str) -> str:
    m = re.match(r"^(?:nameserver\s+|name_servers\s*=\s*[\"']?)([^\s\"']+)", line)
    return m.group(1) if m and unknown_resolver(m.group(1)) else ""


def _dnsmasq_line(line: str) -> str:
    m = re.match(r"^(?:address|host-record)\s*=\s*/?([^/\s]+(?:/[^/\s]+)*)/([\w.:]+)$", line)
    if m:
        return _redirects_name(m.group(2), m.group(1).split("/"))
    m = re.match(r"^server\s*=\s*(?:/[^/]*/)?([\w.:]+)", line)
    return m.group(1) if m and unknown_resolver(m.group(1)) else ""


def _unbound_line(line: str) -> str:
    m = re.match(r"""^local-data:\s*["']?(\S+)\s+(?:\d+\s+)?(?:IN\s+)?(?:A|AAAA)\s+([\w.:]+)""", line, re.IGNORECASE)
    if m:
        return _redirects_name(m.group(2), [m.group(1)])
    m = re.match(r"^forward-addr:\s*([\w.:]+)", line)
    return m.group(1) if m and unknown_resolver(m.group(1)) else ""


def _any_resolver_line(line: str) -> str:
    """dhclient's ``supersede domain-name-servers``, NetworkManager's ``servers=``, netplan's ``addresses:``
    under ``nameservers``: the first unknown resolver on a line that names resolvers."""
    if not re.search(r"domain-name-servers|servers\s*=|nameservers?|addresses|dns\s*=", line, re.IGNORECASE):
        return ""
    return next((a for a in re.findall(r"[\d.]{7,15}|[0-9a-f:]*:[0-9a-f:]+", line) if unknown_resolver(a)), "")


def _resolved_line(line: str) -> str:
    m = re.match(r"^(?:Fallback)?DNS\s*=\s*(.+)$", line)
    return next((a for a in m.group(1).split() if unknown_resolver(a)), "") if m else ""


_HIJACK = "points a well-known name at another address: whoever is there gets your logins and downloads"
_RESOLVER = "sends every name lookup to a resolver nobody knows: it can answer anything"
# (file pattern, [(content matcher, level, what it means)], level of any other write, what that means)
FILES = [
    (re.compile(r"^(/private)?/etc/hosts$|^(?i:([a-z]:|%systemroot%|%windir%|\$env:(systemroot|windir))?"
                r"[\\/]+(windows[\\/]+)?system32[\\/]+drivers[\\/]+etc[\\/]+hosts)$"),
     [(_Lines(_hosts_line), MEDIUM, _HIJACK)], None, ""),
    (re.compile(r"^(/private)?/etc/resolv\.conf$|^/run/systemd/resolve/resolv\.conf$|"
                r"^/etc/resolvconf/resolv\.conf\.d/(head|base|tail|original)$|^/etc/resolvconf\.conf$"),
     [(_Lines(_resolv_line), MEDIUM, _RESOLVER)], None, ""),
    (re.compile(r"^/etc/dnsmasq\.(conf|d/.*)$|^/etc/NetworkManager/dnsmasq(-shared)?\.d/.*$"),
     [(_Lines(_dnsmasq_line), MEDIUM, "changes what dnsmasq answers for a well-known name or where it asks")],
     None, ""),
    (re.compile(r"^/etc/unbound/.*$"),
     [(_Lines(_unbound_line), MEDIUM, "changes what unbound answers for a well-known name or where it asks")],
     None, ""),
    (re.compile(r"^/etc/systemd/resolved\.conf(\.d/.*)?$"), [(_Lines(_resolved_line), MEDIUM, _RESOLVER)], None, ""),
    (re.compile(r"^/etc/(dhcp/dhclient\.conf|dhclient\.conf|NetworkManager/(NetworkManager\.conf|conf\.d/.*)|"
                r"netplan/.*\.ya?ml|dhcpcd\.conf|network/interfaces(\.d/.*)?|systemd/network/.*\.network)$"),
     [(_Lines(_any_resolver_line), MEDIUM, _RESOLVER)], None, ""),
]


def rule_resolver_set(c: Ctx) -> Optional[tuple]:
    """A link's resolvers set to an address nobody knows."""
    p, texts = c.prog.lower(), c.texts
    lowered = [t.lower() for t in texts]
    addresses: list = []
    if p == "resolvectl" and lowered[:1] == ["dns"] or p == "systemd-resolve":
        addresses = texts[2:] if p == "resolvectl" else [t[len("--set-dns="):] for t in texts
                                                         if t.startswith("--set-dns=")] + \
            [texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "--set-dns"]
    elif p == "nmcli":
        gateways = {texts[k + 1] for k, t in enumerate(lowered[:-1]) if re.fullmatch(r"gw[46]|ipv[46]\.gateway", t)}
        addresses = [a for k, t in enumerate(lowered[:-1]) if re.fullmatch(r"\+?ipv[46]\.dns", t)
                     for a in re.split(r"[,\s]+", texts[k + 1]) if a not in gateways]  # the router answers
    elif p == "networksetup" and lowered[:1] == ["-setdnsservers"]:
        addresses = texts[2:]
    elif p in ("set-dnsclientserveraddress", "add-dnsclientnrptrule", "set-dnsclientnrptrule"):
        addresses = [a for k, t in enumerate(lowered[:-1])
                     if t in ("-serveraddresses", "-serveraddress", "-nameservers")
                     for a in re.split(r"[,\s()\"']+", texts[k + 1]) if a]
    elif p in ("reg", "reg.exe") and re.search(r"/v\s+(nameserver|dhcpnameserver)\b", " ".join(lowered)):
        addresses = [a for k, t in enumerate(lowered[:-1]) if t == "/d" for a in re.split(r"[,\s]+", texts[k + 1])]
    elif p in ("netsh", "netsh.exe") and re.search(r"\b(set|add)\s+(dns|dnsservers?)\b", " ".join(lowered)):
        addresses = [re.sub(r"^address=", "", t) for t in texts]
    found = next((a for a in addresses if unknown_resolver(a)), None)
    if found is None:  # a known resolver, or reset to what the network hands out: a note, not a warning
        return (LOW, f"sets the resolvers name lookups go to ({c.text})") if addresses else None
    return MEDIUM, f"{_RESOLVER} ({found}) ({c.text})"


RULES = {p: [rule_resolver_set] for p in ("resolvectl", "systemd-resolve", "nmcli", "networksetup",
                                          "set-dnsclientserveraddress", "add-dnsclientnrptrule",
                                          "set-dnsclientnrptrule", "netsh", "netsh.exe", "reg", "reg.exe")}
