"""Effect: a server's DNS forwarders, or the resolvers its DHCP hands out, pointed at a public address.

A DNS server's forwarders answer for every name its clients look up, and a DHCP server's DNS option
tells every client which resolver to ask: set to an address outside the private ranges, whoever runs
that address can answer for any name (the update server, the bank, the domain controller) for every
machine on the network.  Each server says it its own way (``Set-DnsServerForwarder -IPAddress``,
``Add-DnsServerForwarder``, ``dnscmd /ResetForwarders``, ``unbound-control forward``,
``Set-DhcpServerv4OptionValue -DnsServer``, a DHCP option 6 or ``domain-name-servers``, dnsmasq's
``server=``); what they share is a forwarder's or a handed-out resolver's key and a public IPv4 address.

Private, loopback and link-local addresses, one machine's own resolver (``Set-DnsClientServerAddress``,
``resolvectl dns``, ``nmcli … ipv4.dns``) and readings stay quiet.
"""
from __future__ import annotations

import ipaddress
import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# A forwarder (any spelling), a DHCP server's DNS option, dnsmasq's upstream server.
_FORWARDER = lazy(r"forward", re.IGNORECASE)
_HANDED_OUT = lazy(r"^-?dnsservers?$|domain-?name-?servers|dhcp[-_]?option.*\b6\b|^option:?dns-server|"
                   r"dnsmasq.*\bserver\b", re.IGNORECASE)
_ADDRESS = lazy(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.]|/\d)")
# Addresses inside a network (RFC 1918, loopback, link-local, shared address space, this network).
_LOCAL = tuple(ipaddress.IPv4Network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8",
                                                  "169.254.0.0/16", "100.64.0.0/10", "0.0.0.0/8"))
_READS = frozenset({"get", "show", "list", "print", "status", "off", "--get", "-get", "remove", "delete", "del"})


@triggered_by("forward", "dnsserver", "domain-name-servers", "domain_name_servers", "dhcp_option",
              "dhcp-option", "dnsmasq", "dns-server", otherwise=False)
def may_point_resolvers(c: Ctx) -> bool:
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in ("forward", "dnsserver", "domain-name-servers", "domain_name_servers",
                                   "dhcp_option", "dhcp-option", "dnsmasq", "dns-server"))


def public_address(text: str) -> Optional[str]:
    """The first IPv4 address in ``text`` outside the private, loopback and link-local ranges."""
    for m in _ADDRESS.finditer(text):
        try:
            address = ipaddress.IPv4Address(m.group(1))
        except ValueError:
            continue
        if not any(address in net for net in _LOCAL) and not address.is_multicast:
            return m.group(1)
    return None


def rule_resolvers_outside(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if prog.startswith(("get-", "test-", "remove-")):
        return None
    texts = c.texts[:32]
    if {t.lower() for t in texts} & _READS:
        return None
    dhcp = "dhcp" in prog or any("dhcp" in t.lower() for t in texts)
    keyed = _FORWARDER.search(prog) and ("dns" in prog or "dnscmd" in prog) or \
        any(_FORWARDER.search(t) and not t.lower().startswith(("--forward", "-forwarding")) for t in texts) and \
        ("dns" in prog or "unbound" in prog or "dnscmd" in prog or any("resetforwarders" in t.lower() for t in texts))
    if not keyed:
        keyed = any(_HANDED_OUT.search(t) for t in texts) and (dhcp or any("dnsmasq" in t.lower() for t in texts))
    if not keyed:
        return None
    address = next((a for a in map(public_address, texts) if a), None)
    if address is None:
        return None
    return MEDIUM, f"{c.prog} sends every client's name lookups to {address}, outside the network: whoever answers " \
        f"there can send them anywhere ({c.text})"
