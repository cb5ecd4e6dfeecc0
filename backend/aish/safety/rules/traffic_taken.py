"""Effect: the network's traffic taken through somebody else, or dropped whole (round 19's hijack class).

Every program that moves traffic says it in the same few shapes, whatever its name:

* all traffic routed or announced elsewhere: the world prefix (``0.0.0.0/0``, ``::/0``, ``0/0``, or a
  ``default`` route replaced) beside a next hop (an address, ``via``, ``gw``, ``next-hop``) or an
  announcing word (``announce``, ``network``, ``originate``, ``advertise``):
  ``New-NetRoute -DestinationPrefix 0.0.0.0/0 -NextHop IP``, ``exabgpcli announce route 0.0.0.0/0``,
  ``bgpctl network add 0.0.0.0/0``, ``gobgp global rib add 0.0.0.0/0``, ``ip route replace default via IP``;
* the gateway's hardware address pinned by hand (a MAC beside an address ending ``.1``/``.254`` and an
  adding word or ``-s``): ``arp -s GW MAC``, ``ip neigh replace GW lladdr MAC``, ``New-NetNeighbor``;
* spoofing and poisoning in the program's or an option's own words (``arpspoof``, ``dns.spoof on``,
  ``arpcachepoison``, ``--spoof``, yersinia's ``-attack``, a ``--fake…`` address, a man-in-the-middle method
  ``-M arp:remote``);
* every packet dropped by a shaper: a loss of 100% (``--packet-loss=100%``, ``netem loss 100%``,
  ``loss --percent 100``).

Readings, removals of those routes and help stay quiet, as do routes to one network, anti-spoofing
checks (``spoofchk``, ``antispoof``) and a partial loss.  Everyday corpora decide two lines: a first
default route added (``ip route add default via GW``) and one's own traffic tunnelled through one's own
server (``sshuttle -r H 0.0.0.0/0``, a VPN) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_WORLD = frozenset({"0.0.0.0/0", "::/0", "0/0", "0.0.0.0/0.0.0.0"})
_HOP_WORDS = frozenset({"via", "gw", "gateway", "next-hop", "nexthop", "-nexthop", "--nexthop"})
_ANNOUNCING = frozenset({"announce", "network", "originate", "advertise", "default-originate", "rib"})
_ROUTE_VERBS = frozenset({"add", "replace", "change", "append", "announce", "network", "rib", "set"})
# A route named `default` taken over (`ip route replace default via IP`); adding the first one is how a
# machine is set up (`ip route add default via GW`, `route add default gw GW`: everyday in every cheat sheet).
_TAKING_OVER = frozenset({"replace", "change"})
_READS = frozenset({"show", "get", "list", "print", "del", "delete", "remove", "withdraw", "flush", "-h", "--help",
                    "--version", "query", "status", "lookup", "-d"})
_ADDRESS = lazy(r"^\d{1,3}(?:\.\d{1,3}){3}$")
_GATEWAY = lazy(r"^\d{1,3}(?:\.\d{1,3}){2}\.(?:1|254)$")
_MAC = lazy(r"^(?:[0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^[0-9a-f]{12}$", re.IGNORECASE)
_PINNING = frozenset({"-s", "--set", "add", "replace", "change", "new-netneighbor", "set-netneighbor", "neighbors",
                      "-linklayeraddress", "lladdr"})
_SPOOF = lazy(r"spoof|(?<!htt)poison", re.IGNORECASE)  # HTTPoison is an Elixir HTTP client
_NOT_SPOOF = lazy(r"spoofchk|anti-?spoof|no-?spoof|spoof-?check|detect|rp_filter|spoof-?protect",
                  re.IGNORECASE)
_FAKE_OPTION = lazy(r"^--?fake-?(?:ip|ipv6|dns|domains?|host|gateway|names?)", re.IGNORECASE)
_MITM = lazy(r"^(?:arp|icmp|dhcp|ndp|port)(?::|$)", re.IGNORECASE)
_LOSS = lazy(r"loss\S*?=?100(?:\.0+)?%?$", re.IGNORECASE)


_GATE = ("0/0", "::/0", "default", "spoof", "poison", "attack", "fake", "mitm", "loss", "arp", "neigh", "lladdr",
         "linklayeraddress")


@triggered_by(*_GATE, otherwise=False)
def may_take_traffic(c: Ctx) -> bool:
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _GATE)


def _world_route(c: Ctx, words: list) -> Optional[str]:
    if not any(w in _WORLD for w in words):
        if "default" not in words or not set(words) & _TAKING_OVER:
            return None
    prog = c.prog.lower()
    if not set(words) & _ROUTE_VERBS and not (prog.startswith(("new-", "set-", "add-")) and "route" in prog):
        return None
    addresses = [w for w in words if _ADDRESS.match(w)]
    if addresses or set(words) & _HOP_WORDS or set(words) & _ANNOUNCING or any(w.startswith("-nexthop") for w in words):
        return "sends all traffic (the default route, 0.0.0.0/0) through another next hop or announces it as its own"
    return None


def _gateway_pinned(words: list) -> Optional[str]:
    if not any(_MAC.match(w) for w in words) or not set(words) & _PINNING:
        return None
    gateway = next((w for w in words if _GATEWAY.match(w)), None)
    if gateway is None:
        return None
    return f"pins the gateway {gateway} to a hand-given hardware address: its traffic goes to that machine"


def _spoofing(c: Ctx, words: list) -> Optional[str]:
    for w in [c.prog.lower(), *words]:
        if _SPOOF.search(w) and not _NOT_SPOOF.search(w):
            return f"spoofs or poisons other machines' name or address answers ({w}) to take their traffic"
        if w == "-attack" or _FAKE_OPTION.match(w):
            return f"answers for other machines ({w}) to take their traffic"
    for i, w in enumerate(words[:-1]):
        if w in ("-m", "--mitm") and _MITM.match(words[i + 1]):
            return f"puts this machine in the middle of other machines' traffic ({w} {words[i + 1]})"
    return None


def _all_dropped(words: list) -> Optional[str]:
    for i, w in enumerate(words):
        if "loss" not in w:
            continue
        if _LOSS.search(w) or (i + 1 < len(words) and re.match(r"^100(?:\.0+)?%$", words[i + 1])) or \
                words[i + 1:i + 3] == ["--percent", "100"]:
            return "drops every packet (a loss of 100%): the link is cut"
    return None


def rule_traffic_taken(c: Ctx) -> Optional[tuple]:
    words = [t.lower() for t in c.texts[:40]]
    if set(words) & {"-h", "--help", "--version"}:
        return None
    reads = bool(set(words) & _READS) or c.prog.lower().startswith(("get-", "remove-", "test-", "show"))
    why = None
    if not reads:
        why = _world_route(c, words) or _gateway_pinned(words)
    why = why or _spoofing(c, words) or _all_dropped(words)
    if why is None:
        return None
    return MEDIUM, f"{c.prog} {why} ({c.text})"
