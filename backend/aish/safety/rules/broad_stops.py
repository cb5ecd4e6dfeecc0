"""Effect: many things stopped at once by programs the other stopping rules do not name: a service
supervisor told to take down every service a pattern matches (daemontools' ``svc -d /service/*``,
s6's ``s6-svc -d``, ``runsvctl down``), the connections a filter matches closed (``ss -K``,
``tcpkill``), and power outlets or a UPS switched through SNMP (``snmpset`` on a PDU's outlet
control).  One service or one connection by name stays quiet; a pattern takes every one."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

# Supervisors' stop letters and words: svc -d (down), -k (kill), -x (exit); s6-svc -d/-D/-k/-x; runsvctl down.
_SUPERVISORS = frozenset({"svc", "s6-svc", "runsvctl", "svctl", "66-svctl", "supervisorctl", "circusctl"})
_STOPS = lazy(r"^(-[a-zA-Z]*[dkxD][a-zA-Z]*|down|stop|kill|exit|force-stop|force-shutdown|disable|term)$")


def rule_supervisor_glob(c: Ctx) -> Optional[tuple]:
    """``svc -d /service/*``, ``s6-svc -wD -d /run/service/*``, ``supervisorctl stop 'web:*'``."""
    if not any(_STOPS.match(t) for t in c.texts):
        return None
    glob = next((t for t in c.texts if not t.startswith("-") and "*" in t), None)
    if glob is None:
        return None
    return MEDIUM, f"{c.prog} stops every service {glob} matches ({c.text})"


def rule_socket_kill(c: Ctx) -> Optional[tuple]:
    """``ss -K dst 10.0.0.5``, ``ss --kill state established``: every socket the filter matches is closed;
    ``tcpkill port 3306``, ``killcx``: the matching connections are reset."""
    if c.prog == "ss" and not ({"-K", "--kill"} & set(c.texts) or
                               any(re.fullmatch(r"-[a-zA-Z]*K[a-zA-Z]*", t) for t in c.texts)):
        return None
    return MEDIUM, f"{c.prog} closes every connection its filter matches: their clients are cut off ({c.text})"


# An outlet or a UPS's output controlled by name (APC's rPDUOutletControlOutletCommand, sPDUOutletCtl,
# upsAdvControlUpsOff, Raritan's outletSwitchingState) or under a power vendor's enterprise number.
_POWER_OID = lazy(r"outlet\w*(ctl|control|command|switch|state)|ups\w*(off|shutdown|reboot|sleep|control)|"
                  r"(power|reboot|shutdown)\w*(control|command|action)", re.IGNORECASE)
_POWER_VENDORS = lazy(r"^\.?1\.3\.6\.1\.4\.1\.(318|13742|1718|534|3808|476|850|20677|28507|30966|2634)\.")


def rule_snmp_power(c: Ctx) -> Optional[tuple]:
    """``snmpset … PowerNet-MIB::rPDUOutletControlOutletCommand.3 i 2``: an outlet or a UPS switched."""
    oid = next((t for t in c.texts if _POWER_OID.search(t) or _POWER_VENDORS.match(t)), None)
    if oid is None:
        return None
    return MEDIUM, f"{c.prog} sets {oid}: a power outlet or a UPS is switched, what it feeds may lose power " \
        f"({c.text})"


RULES: dict = {**{p: [rule_supervisor_glob] for p in _SUPERVISORS},
               **{p: [rule_socket_kill] for p in ("ss", "tcpkill", "tcpkill6", "killcx", "cutter")},
               "snmpset": [rule_snmp_power]}
