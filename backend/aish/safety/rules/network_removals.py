"""Effect: a route, a routing rule, a tunnel, a network namespace, a firewall rule or a port mapping deleted.

Traffic that used a deleted route, rule, tunnel or namespace stops; a firewall rule deleted takes away the
filter it was (or the opening a service needed); a router's port mapping deleted cuts a service off from the
outside.  Tools spell it in a few shapes, whatever the program:

- an object then a deleting verb, abbreviations included (``ip -6 route del``, ``ip ro del``, ``ip ru d``,
  ``ip tunnel del``, ``ip l2tp del tunnel``, ``ip netns delete``), and a program named for routes told to
  delete one (``route del -net …``, ``route -n delete …``, Windows' ``route delete …``);
- a deleting verb then a rule or chain (``nft delete rule …``, ``nft delete chain …``, ``nft flush chain …``),
  IPsec's states and policies flushed (``ip xfrm state flush``), every route cleared (``route -f``);
- a packet filter of the ``*tables`` family told ``-D CHAIN`` (``ip6tables -D INPUT 4``, ``ebtables -t nat -D
  PREROUTING 1``, ``iptables-legacy -D OUTPUT …``);
- a long option that removes a rule, a forward or a route (``firewall-cmd --remove-rich-rule=…``,
  ``--remove-rule``, ``--remove-forward-port=…``) or deletes a zone, policy or service definition
  (``--delete-zone=dmz``);
- a port mapping deleted by number and protocol (``upnpc -d 51413 udp``).

An opening closed (a rule given whole whose target is ``ACCEPT``) is judged as a narrow deny is (quiet here).
Listing, checking (``iptables -C``), adding and an ARP or neighbour entry (learned again) stay quiet; the
default route and whole flushes are judged elsewhere (high).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verbs import PACKAGE_TOOLS
from aish.safety.lazy_regex import lazy

_DELETES = frozenset({"del", "delete", "remove", "rm"})
# Objects whose loss stops traffic, with the prefixes an `ip`-style parser accepts for them.
_OBJECTS = ("route", "rule", "tunnel", "tuntap", "netns", "l2tp", "mroute", "xfrm", "nexthop")
_VERB_OBJECTS = frozenset({"rule", "chain", "route", "tunnel"})  # `nft delete rule …`
_CHAIN = lazy(r"^[A-Za-z][A-Za-z0-9_-]*$")
_REMOVE_OPTION = lazy(r"^--(?:(?:remove|delete)-(rich-rule|rule|forward-port|route|passthrough)|"
                      r"delete-(zone|policy|ipset|service|helper|icmptype))(?:=|$)")
_PORT = lazy(r"^\d{1,5}$")
_GATE_WORDS = frozenset({"del", "delete", "remove", "rm", "d", "-d", "--delete", "flush"})


@triggered_by(_GATE_WORDS, ("route", "--remove-", "--delete-"), otherwise=False)
def may_remove(c: Ctx) -> bool:
    """Cheap: a word of the line says delete, remove or flush (or an option removes a rule), or ``route``."""
    if c.prog.lower() in ("route", "route.exe"):
        return bool(c.texts)
    low = c.lowered
    if "d" not in low and "rm" not in low and "flush" not in low:
        return False
    return any(t in _GATE_WORDS or t.startswith(("--remove-", "--delete-")) for t in low.split())


def _object(word: str) -> Optional[str]:
    """The network object a word names, abbreviations of two letters or more (and `ip r`) included."""
    w = word.lower()
    if w == "r":
        return "route"
    if len(w) < 2:
        return None
    return next((o for o in _OBJECTS if o.startswith(w) and (len(w) >= 3 or o in ("route", "rule"))), None)


def _positionals(texts: list) -> list:
    return [t for t in texts if not t.startswith("-")]


def _accept_closed(texts: list) -> bool:
    """``iptables -D INPUT -p tcp --dport 80 -j ACCEPT``, ``--remove-rich-rule='… accept'``: an opening closed,
    judged as a narrow deny is (quiet; a login port's is the lockout rules' business)."""
    for i, t in enumerate(texts):
        if t in ("-j", "--jump") and i + 1 < len(texts) and texts[i + 1].upper() == "ACCEPT":
            return True
        if t.startswith("--remove-rich-rule") and t.rstrip("'\" ").lower().endswith(" accept"):
            return True
    return False


def rule_network_removed(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    prog = c.prog.lower().removesuffix(".exe")
    if prog in ("busybox", "toybox") and texts:  # `busybox route del …`: the applet it runs
        prog, texts = texts[0].lower(), texts[1:]
    if prog in PACKAGE_TOOLS:
        return None  # `npm rm tunnel`: a package of that name
    words = _positionals(texts)
    lowered = [t.lower() for t in words]
    kind = None
    if prog == "route" and lowered[:1] and lowered[0] in _DELETES | {"d"}:
        kind = "route"
    if prog == "route" and ("-f" in texts or "flush" in lowered[:1]):
        kind = "every route"  # Windows' `route -f`, BSD's `route flush`: the gateway routes all go
    for i, w in enumerate(lowered[:3]):
        if kind:
            break
        nxt = lowered[i + 1] if i + 1 < len(lowered) else ""
        obj = _object(w)
        if obj and (nxt in _DELETES or nxt == "d" and len(w) <= 3):  # `ip r d`, `ip ru d`: ip's abbreviations
            kind = obj
        elif obj == "xfrm" and lowered[i + 2:i + 3] and lowered[i + 2] in _DELETES | {"flush"}:
            kind = f"IPsec {nxt}"  # `ip xfrm state flush`: the tunnels' keys or policies go
        elif w in _DELETES | {"flush"} and nxt in _VERB_OBJECTS and i < 2:
            kind = nxt
    if kind is None and "tables" in prog:
        for i, t in enumerate(texts[:-1]):
            if t in ("-D", "--delete") and _CHAIN.match(texts[i + 1]):
                kind = f"{texts[i + 1]} firewall rule"
                break
    if kind is None:
        m = next((m for m in map(_REMOVE_OPTION.match, texts) if m), None)
        if m:
            kind = (m.group(1) or f"{m.group(2)} definition").replace("-", " ")
    if kind is None:
        for i, t in enumerate(texts[:-2]):
            if t == "-d" and _PORT.match(texts[i + 1]) and texts[i + 2].lower() in ("tcp", "udp"):
                kind = "port mapping"
                break
    if kind is None or kind.endswith("rule") and _accept_closed(texts):
        return None
    what = kind if kind.startswith(("every", "IPsec")) else f"{'an' if kind[0] in 'AEIOUaeiou' else 'a'} {kind}"
    return MEDIUM, f"deletes {what}: traffic that used it stops, or the filter it was is gone ({c.text})"
