"""Effect: a cloud resource opened to everyone, in any provider's words.

Storage made readable or writable by anyone (``--acl public-read-write``, ``allUsers``/``allAuthenticatedUsers``
as a member, ``--public-access container``, ``mc anonymous set public``), a private repository made
public (``gh repo edit --visibility public``), and a cloud firewall opened to every address
(``authorize-security-group-ingress --cidr 0.0.0.0/0``, ``firewall-rules create --source-ranges
0.0.0.0/0``, ``nsg rule create --source-address-prefixes '*'``): every port or protocol is high, a
port that logs in or holds data (ssh, remote desktop, databases, the Docker API) medium; the web's own
ports from anywhere, a named source, and making something private stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

TRIGGER = lazy(r"public|allusers|allauthenticatedusers|0\.0\.0\.0/0|::/0|source-address-prefix|"
                      r"--cidr|source-ranges|anonymous", re.IGNORECASE)
_PUBLIC_ACL = lazy(r"^(--acl[= ]|--canned-acl[= ]|-a[= ]?)?public-read(-write)?$|"
                   r"^--public-access[= ](blob|container)$|^--allow-blob-public-access[= ]true$|"
                   r"^--visibility[= ]public$", re.IGNORECASE)
# Google's names for everyone, as spelled (`allUsers:objectViewer`, `--member=allUsers`); PowerShell's `-Scope AllUsers`
# is an install location
_EVERYONE = lazy(r"^(--member[= ])?(allUsers|allAuthenticatedUsers)(:\S+)?$")
_ANYWHERE = lazy(r"^(0\.0\.0\.0/0|::/0|\*|Internet|Any)$", re.IGNORECASE)
_ANY_SOURCE_OPTIONS = {"--cidr", "--cidr-ip", "--source-ranges", "--source-address-prefixes", "--source-address-prefix",
                       "--ipv6-cidr", "--remote-ip", "--source", "--authorized-networks"}
_PORT_OPTIONS = {"--protocol", "--ip-protocol", "--allow", "--port", "--ports", "--destination-port-ranges",
                 "--destination-port-range", "--port-range"}
# a value that means every port, by option (gcloud's `--allow tcp` is every TCP port; AWS' `--protocol tcp` is not)
_EVERY_PORT = {"--protocol": re.compile(r"^(-1|all)$", re.IGNORECASE),
               "--ip-protocol": re.compile(r"^(-1|all)$", re.IGNORECASE),
               "--allow": re.compile(r"^(all|tcp|udp|tcp:0-65535|tcp:1-65535)$", re.IGNORECASE),
               "--port": re.compile(r"^(-1|\*|0-65535|1-65535|0:65535|1:65535)$")}
# ports that log in or hold data: opened to every address they are an attack surface, not a web site
_ADMIN_PORTS = lazy(r"(^|[:,\s])(22|23|3389|5985|5986|3306|5432|6379|27017|9200|11211|2375|2379|5900|1433|"
                    r"1521|9042|8086)(\s|,|$)")
_OPENING_VERB = lazy(r"(authorize|create|add|update|allow|ingress|rule|set|patch)", re.IGNORECASE)


def _pairs(texts: list) -> list:
    """``--opt value`` and ``--opt=value`` as (option, value) pairs."""
    out = []
    for k, t in enumerate(texts):
        if t.startswith("--") and "=" in t:
            out.append(tuple(t.split("=", 1)))
        elif t.startswith("-") and k + 1 < len(texts):
            out.append((t, texts[k + 1]))
    return out


def rule_made_public(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    joined = " ".join(texts)
    if not TRIGGER.search(joined):
        return None
    words = [t for t in texts if not t.startswith("-")]
    if any(t in ("get", "get-bucket-acl", "describe", "list", "show", "view") for t in words[:3]):
        return None
    pairs = _pairs(texts)
    joined_pairs = [f"{o}={v}" for o, v in pairs]
    if any(_PUBLIC_ACL.match(t) or _EVERYONE.match(t) for t in texts + joined_pairs) or \
            c.prog == "mc" and words[:3] in (["anonymous", "set", "public"], ["policy", "set", "public"],
                                              ["anonymous", "set", "upload"], ["policy", "set", "upload"]):
        if "visibility" in joined and not any(t in ("edit", "update", "set") for t in words[:2]):
            return None  # a new public repository is the user's choice, not an exposure
        return MEDIUM, f"opens it to everyone on the internet ({c.text})"
    if not any(o in _ANY_SOURCE_OPTIONS and _ANYWHERE.match(v.strip("'\"")) for o, v in pairs):
        return None
    if any(o == "--authorized-networks" for o, v in pairs):  # a managed database's own allow list
        return MEDIUM, f"lets every address on the internet reach the database ({c.text})"
    if not any(_OPENING_VERB.search(w) for w in words[:4]):
        return None
    ports = [(o, v.strip("'\"")) for o, v in pairs if o in _PORT_OPTIONS]
    if any(_EVERY_PORT.get(o, _EVERY_PORT["--port"]).match(v) for o, v in ports):
        return HIGH, f"opens every port to every address on the internet ({c.text})"
    if any(_ADMIN_PORTS.search(f" {v} ") for o, v in ports if o != "--protocol"):
        return MEDIUM, f"opens a login or database port to every address on the internet ({c.text})"
    return None
