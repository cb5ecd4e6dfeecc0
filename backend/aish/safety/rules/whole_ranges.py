"""Effect: a firewall opened to every address there is, given as a range's two ends.

Database and cloud firewalls take an allowed range as a start and an end address rather than a CIDR:
``az sql server firewall-rule create … --start-ip-address 0.0.0.0 --end-ip-address 255.255.255.255``,
``New-AzSqlServerFirewallRule … -StartIpAddress 0.0.0.0 -EndIpAddress 255.255.255.255``, ``az postgres
flexible-server firewall-rule create … --start-ip-address 0.0.0.0 --end-ip-address 255.255.255.255``: the server
answers the whole internet (medium, as ``0.0.0.0/0`` is).  Azure's own ``0.0.0.0``-``0.0.0.0`` (its services only)
and any narrower range stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by


@triggered_by("255.255.255.255", otherwise=False)
def may_span_all(c: Ctx) -> bool:
    """The cheap test: the broadcast address among the arguments."""
    return "255.255.255.255" in c.lowered


def rule_whole_range(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]

    def value(part: str) -> str:
        for k, t in enumerate(lowered):
            name, eq, given = t.partition("=")
            if part in name and ("ip" in name or "address" in name) and name.startswith("-"):
                return given if eq else (lowered[k + 1] if k + 1 < len(lowered) else "")
        return ""

    if value("start") in ("0.0.0.0", "0.0.0.1", "1.0.0.0") and value("end") == "255.255.255.255":
        return MEDIUM, f"{c.prog} opens the firewall to every address on the internet ({c.text})"
    return None
