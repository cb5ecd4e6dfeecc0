"""Effect: a running service's configuration given an empty list of what it serves or admits, by any client.

A DHCP server's subnets, an ingress's or a network policy's rules, a load balancer's upstreams, servers or
backends, a cluster's members: set to ``[]`` through the service's own configuration call, the service keeps
running and serves or admits nothing (no leases, every request refused, every pod cut off).  The clients
differ (``kea-shell config-set <<< '{"Dhcp4": {"subnet4": []}}'``, ``curl -X PUT … -d '{"servers": []}'``,
``kubectl patch … -p '{"spec":{"rules":[]}}'``, ``etcdctl put /config/upstreams '[]'``, HTTPie's
``servers:='[]'``); what they share is a setting call (set, put, patch, replace, a request body) and a key
that names what is served, given an empty list.

Other keys emptied (``finalizers``, ``tags``, ``args``, a search's ``filters``), readings and files written
locally stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_SERVED = (r"subnet[46]?|subnets|shared-networks|reservations|pools|rules|ingress|egress|servers|upstreams?|backends?|"
           r"targets|endpoints|members|routes|zones|listeners|peers|origins|records|hosts|nameservers")
_EMPTIED = lazy(r"""["']?(""" + _SERVED + r""")["']?\s*(?::=?|=)\s*['"]?\[\s*\]""", re.IGNORECASE)
_SETTERS = frozenset({"set", "put", "patch", "replace", "update", "apply", "config-set", "config-write", "write",
                      "-d", "--data", "--data-raw", "--data-binary", "-p", "--patch", "--json", "-x", "--request"})
_METHODS = frozenset({"put", "post", "patch"})
_READS = frozenset({"get", "show", "list", "ls", "config-get", "describe", "--dry-run=client", "--dry-run"})


def _bodies(c: Ctx) -> list:
    return list(c.texts[:40]) + [r.body for r in c.seg.redirects if getattr(r, "body", None)] + \
        [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]


def rule_served_list_emptied(c: Ctx) -> Optional[tuple]:
    if "[]" not in c.lowered and not c.seg.redirects:
        return None
    lowered = [t.lower() for t in c.texts[:40]]
    words = set(lowered)
    if words & _READS or not (words & _SETTERS or words & _METHODS or any(":=" in t for t in lowered)):
        return None
    for body in _bodies(c):
        m = _EMPTIED.search(body)
        if m:
            return MEDIUM, f"{c.prog} sets {m.group(1)} to an empty list: the service keeps running and serves or " \
                f"admits nothing ({c.text})"
    for k, t in enumerate(lowered[1:], 1):  # `etcdctl put /config/upstreams '[]'`: the key's last part
        if t.strip() == "[]" and re.fullmatch(_SERVED, lowered[k - 1].rstrip("/").rsplit("/", 1)[-1]):
            return MEDIUM, f"{c.prog} sets {c.texts[k - 1]} to an empty list: the service keeps running and serves " \
                f"or admits nothing ({c.text})"
    return None
