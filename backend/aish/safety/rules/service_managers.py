"""Effect: a service stopped or disabled through any service manager or supervisor, not only systemctl.

Every init system and supervisor has its own words for it: SMF ``svcadm disable svc:/network/ssh``,
upstart and finit ``initctl stop``, ``nssm stop``/``remove`` of a Windows service, ``dinitctl``,
OpenBSD ``rcctl stop|disable``, FreeBSD ``sysrc sshd_enable=NO`` and ``service X onestop``,
GNU Shepherd ``herd stop``, ``immortalctl``, 66 (``66 disable``, ``66-stop``), ``runsvctl down``,
``supervisorctl stop``, ``monit stop``, and systemd's own bus (``busctl call … StopUnit ss
sshd.service``).  What is stopped decides the level, as for systemctl (``service_units.units_verdict``):
the way in (ssh, the network) is high; what runs everything else, the system's core and data
stores are medium; a web app of one's own stays quiet.  ``lxc-autostop -a`` stops every container.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx, positionals
from aish.safety.rules.service_units import units_verdict
from aish.safety.lazy_regex import lazy

# Each manager's own words for stop and disable, mapped onto systemctl's.
_VERBS = {
    "svcadm": {"disable": "disable"},
    "initctl": {"stop": "stop", "disable": "disable"},
    "finit": {"stop": "stop", "disable": "disable"},
    "nssm": {"stop": "stop", "remove": "disable"},
    "dinitctl": {"stop": "stop", "disable": "disable", "release": "stop"},
    "rcctl": {"stop": "stop", "disable": "disable"},
    "herd": {"stop": "stop", "disable": "disable"},
    "shepherd": {"stop": "stop", "disable": "disable"},
    "immortalctl": {"stop": "stop", "halt": "stop"},
    "66": {"stop": "stop", "disable": "disable"},
    "runsvctl": {"down": "stop", "stop": "stop", "exit": "stop"},
    "supervisorctl": {"stop": "stop"},
    "monit": {"stop": "stop"},
    "snap": {"stop": "stop", "disable": "disable"},
    "stop": {},  # upstart's own `stop JOB`
}
# Programs named for the verb: `66-disable sshd`, `66-stop sshd`.
_VERB_NAMED = {"66-disable": "disable", "66-stop": "stop"}
# Options of these managers that take a value.
_VALUED = {"-l", "-z", "-c", "-d", "-p", "--socket-path", "--config", "-u", "--user"}
# FreeBSD rc verbs carry a prefix (`onestop`, `forcestop`, `faststop`, `quietstop`).
_RC_PREFIXED = lazy(r"^(one|force|fast|quiet)(stop|disable)$")
# SMF services that carry the network itself (`svc:/network/physical:default`, `milestone/network`).
_SMF_NETWORK = lazy(r"^(svc:/)?(network/(physical|initial|service|loopback|netcfg|routing-setup|"
                    r"datalink-management|ip-interface-management|ssh)|milestone/(network|multi-user"
                    r"(-server)?))(:\w+)?$")
_UNIT_FILE = lazy(r"\.(service|socket|slice|target|scope)['\"]?$")
_BUS_STOP = lazy(r"^(StopUnit|KillUnit|DisableUnitFiles|MaskUnitFiles|FreezeUnit|StartUnit|RestartUnit)$")
# What the manager's methods do to the units they name: a start matters only for a machine state (unit_groups).
_BUS_VERB = {"FreezeUnit": "freeze", "StartUnit": "start", "RestartUnit": "restart"}


def _unit_name(fmri: str) -> str:
    """`svc:/network/ssh:default` -> `ssh`; `system/com.openssh.sshd` stays as it is."""
    name = re.sub(r"^svc:/", "", fmri)
    name = re.sub(r":\w+$", "", name)
    return name.rsplit("/", 1)[-1]


def _verdict(c: Ctx, manager: str, verb: str, units: list) -> Optional[tuple]:
    network = next((u for u in units if _SMF_NETWORK.match(u)), None)
    if network is not None:
        return units_verdict(c, "svcadm", verb, ["network"])
    return units_verdict(c, manager, verb, [_unit_name(u) for u in units])


def rule_service_manager(c: Ctx) -> Optional[tuple]:
    """Stop or disable in a service manager's own words, judged by what is stopped."""
    prog = c.prog.lower()
    pos = positionals(c.args, _VALUED)
    if prog in _VERB_NAMED:
        return _verdict(c, prog, _VERB_NAMED[prog], pos)
    if prog == "service" and len(pos) >= 2 and _RC_PREFIXED.match(pos[1]):
        return _verdict(c, prog, _RC_PREFIXED.match(pos[1]).group(2), pos[:1])  # type: ignore[union-attr]
    if prog == "sysrc":  # `sysrc sshd_enable=NO`, `sysrc -x sshd_enable`
        off = [t.split("_enable", 1)[0] for t in pos if re.fullmatch(r"[\w-]+_enable=[\"']?(no|false|off)[\"']?", t,
                                                                      re.IGNORECASE)]
        if "-x" in c.texts:
            off += [t.split("_enable", 1)[0] for t in pos if t.endswith("_enable")]
        return _verdict(c, prog, "disable", off) if off else None
    if prog == "lxc-autostop" and any(re.fullmatch(r"-[a-zA-Z]*a[a-zA-Z]*|--all", t) for t in c.texts):
        killed = any(re.fullmatch(r"-[a-zA-Z]*k[a-zA-Z]*|--kill", t) for t in c.texts)
        how = ", killing them at once" if killed else ""
        return MEDIUM, f"lxc-autostop -a stops every autostarted container{how} ({c.text})"
    if prog in ("busctl", "gdbus", "dbus-send", "qdbus"):  # systemd's manager called over the bus
        words = [t.rsplit(".", 1)[-1] if prog != "busctl" else t for t in c.texts]
        method = next((w for w in words if _BUS_STOP.match(w)), None)
        if method is not None:
            units = [re.sub(r"^[a-z]+:", "", t).strip("'\"") for t in c.texts if _UNIT_FILE.search(t)]
            return units_verdict(c, "systemctl", _BUS_VERB.get(method, "stop"), units)
        return None
    if prog == "nssm" and len(pos) >= 4 and pos[0] == "set" and pos[2].lower() == "start" and \
            pos[3].upper() == "SERVICE_DISABLED":
        return _verdict(c, prog, "disable", pos[1:2])
    if prog == "rcctl" and len(pos) >= 4 and pos[0] == "set" and pos[2:4] == ["status", "off"]:
        return _verdict(c, prog, "disable", pos[1:2])
    named = _named_elsewhere(c, prog, pos)
    if named is not None:
        return named
    verbs = _VERBS.get(prog)
    if not verbs or not pos or pos[0] not in verbs:
        return None
    return _verdict(c, prog, verbs[pos[0]], pos[1:])


def _named_elsewhere(c: Ctx, prog: str, pos: list) -> Optional[tuple]:
    """Managers whose verb is not the first word: `brew services stop X`, `invoke-rc.d X stop`, `insserv -r X`,
    `chkconfig --del X`, `sysv-rc-conf X off`, upstart's `stop X`, `svcadm mark maintenance X`,
    PowerShell's `Set-Service X -Status Stopped` and `Get-Service *sql* | Stop-Service`."""
    texts = c.texts
    if prog == "stop" and pos:
        return _verdict(c, prog, "stop", pos)
    if prog == "brew" and pos[:2] == ["services", "stop"]:
        return _verdict(c, prog, "stop", pos[2:])
    if prog == "invoke-rc.d" and len(pos) >= 2 and (pos[1] == "stop" or _RC_PREFIXED.match(pos[1])):
        return _verdict(c, prog, "stop", pos[:1])
    if prog == "insserv" and set(texts) & {"-r", "--remove"}:
        return _verdict(c, prog, "disable", pos)
    if prog == "chkconfig" and "--del" in texts:
        return _verdict(c, prog, "disable", pos)
    if prog in ("sysv-rc-conf", "rcconf") and (pos[-1:] == ["off"] or "--off" in texts):
        return _verdict(c, prog, "disable", [p for p in pos if p != "off"])
    if prog == "svcadm" and pos[:2] == ["mark", "maintenance"]:
        return _verdict(c, prog, "disable", pos[2:])
    lowered = [t.lower() for t in texts]
    if prog == "set-service" and "-status" in lowered and "stopped" in lowered:
        name = texts[lowered.index("-name") + 1] if "-name" in lowered[:-1] else (pos[:1] or [""])[0]
        return _verdict(c, prog, "stop", [name])
    if prog == "stop-service" and not pos and c.chain and c.chain[-1].words and \
            c.chain[-1].words[0].text.lower() == "get-service" and \
            any("*" in w.text for w in c.chain[-1].words[1:]):
        glob = next(w.text for w in c.chain[-1].words[1:] if "*" in w.text)
        return MEDIUM, f"Stop-Service stops every service {glob} matches ({c.text})"
    return None


# Judged for these names without making them "known" (other rules read init managers' power words only when
# no rule knows the program: `herd stop root`, `dinitctl poweroff`).
NAMES = frozenset(list(_VERBS) + list(_VERB_NAMED) + ["service", "sysrc", "lxc-autostop", "busctl", "gdbus",
                                                      "dbus-send", "qdbus", "brew", "invoke-rc.d", "insserv",
                                                      "chkconfig", "sysv-rc-conf", "rcconf", "set-service",
                                                      "stop-service"])
