"""Effect: infrastructure code edited to let every address in, by any editor of its files.

A security group's, a firewall's or a load balancer's allowed sources written as ``0.0.0.0/0`` (or ``::/0``)
in the code that builds it opens the service (ssh, a database) to the whole internet at the next apply.
The editors differ (``hcledit attribute set … -u``, ``yq -i``, ``tomlq -i``, ``jq … > new.json``, ``sed -i
's#10.0.0.0/8#0.0.0.0/0#'``, ``perl -pi -e``); what they share is the world's range written, by an in-place
option, a setter subcommand or a redirect, into a file of code or configuration (``.tf``, ``.hcl``, ``.yaml``,
``.json``, ``.toml``) or under a key that names the sources (cidr, source, ingress, ranges).

Reading (``grep``, ``yq '.ingress'``), the world's range taken OUT (``sed -i 's#0.0.0.0/0#10.0.0.0/8#'``),
egress and outbound rules, and routes (a default route is ``0.0.0.0/0`` too) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_WORLD = ("0.0.0.0/0", "::/0")
_IN_PLACE = lazy(r"^(-i|-u|--inplace|--in-place|--update|-w|--write|-pi|-ip|-i\.\w+|-pie|put|set|write|update)$")
_CODE_FILE = lazy(r"\.(tf|tfvars|hcl|ya?ml|json|toml|conf|cfg|ini|j2|tpl)$", re.IGNORECASE)
_SOURCES = lazy(r"cidr|source|ingress|inbound|allow|ranges|whitelist|trusted", re.IGNORECASE)
_NOT_IN = lazy(r"egress|outbound|route|gateway|nexthop|next_hop|\bvia\b|destination", re.IGNORECASE)
_SUBSTITUTION = lazy(r"^s([#/|,!:@%])(.*?)\1(.*?)\1\w*$|^s\{(.*?)\}\{(.*?)\}\w*$", re.DOTALL)


@triggered_by(*_WORLD, otherwise=False)
def may_open_world(c: Ctx) -> bool:
    return any(w in c.lowered for w in _WORLD)


def _written(text: str) -> bool:
    """Is the world's range in what is written, not in what is looked for (a substitution's pattern)?"""
    m = _SUBSTITUTION.match(text.strip("'\""))
    if m is None:
        return True
    replacement = m.group(3) if m.group(1) else m.group(5)
    return any(w in replacement for w in _WORLD)


def rule_world_cidr_written(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    if _NOT_IN.search(c.lowered):
        return None
    carrying = [t for t in texts if any(w in t for w in _WORLD)]
    if not carrying or not all(_written(t) for t in carrying if t.lstrip("'\"").startswith("s")) or \
            not any(_written(t) for t in carrying):
        return None
    writes = any(_IN_PLACE.match(t.lower()) for t in texts) or any(r for r in getattr(c.seg, "redirects", ()) or ())
    if not writes:
        return None
    file = next((t for t in texts if _CODE_FILE.search(t)), None)
    if file is None and not any(_SOURCES.search(t) for t in carrying):
        return None
    where = f" in {file}" if file else ""
    return MEDIUM, f"{c.prog} writes 0.0.0.0/0 as the allowed sources{where}: at the next apply the service is " \
        f"open to the whole internet ({c.text})"
