"""Effect: takes down access or services, through a service manager.  Stopping, disabling or
masking a unit is judged by what the unit is: the way in (sshd, the network, the login session)
is high, what runs everything else (containers, VMs, a node's pods), the system's core and a data
store are medium.  ``systemctl``, ``service``, ``rc-service``, ``sv``, ``rc-update``, ``update-rc.d``,
``chkconfig`` and ``launchctl`` are read here; other managers and supervisors
(``service_managers``) ask ``units_verdict`` the same question.  Split from ``lockout``, which keeps
firewalls, interfaces, accounts, immutable flags, mounts, packages and boot entries."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules import unit_groups
from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, positionals, worst
from aish.safety.lazy_regex import lazy

# Services whose stop cuts remote access or the session itself.
_ACCESS_SERVICES = lazy(r"^(sshd?|openssh(-server)?|ssh-daemon|dropbear|networking|network|NetworkManager|"
                        r"network-manager|"
                        r"systemd-networkd|systemd-resolved|wpa_supplicant|dbus|systemd-logind|"
                        r"gdm3?|lightdm|sddm|display-manager|tailscaled|wg-quick@.*|zerotier-one|"
                        r"netplan.*|iwd|dhcpcd|dhclient|getty@.*|serial-getty@.*|cloud-init|"
                        r"google-guest-agent|walinuxagent|amazon-ssm-agent|user@\d+|user-\d+|"
                        r"session-\w+|user-runtime-dir@\d+)(\.service|\.slice|\.scope)?$|^(sshd?|dropbear)\.socket$")
# Host firewalls' services: stopped, their rules are flushed and every port is open (firewalld's CleanupOnExit,
# nftables' and iptables' ExecStop).
_FIREWALL_SERVICES = lazy(r"^(firewalld|ufw|nftables|iptables|ip6tables|netfilter-persistent|shorewall6?|"
                          r"ebtables|arptables)(\.service)?$")
# Services that run everything else on the machine: containers, VMs, a cluster node's pods.
_RUNTIME_SERVICES = lazy(r"^(docker|containerd|podman|crio|cri-o|kubelet|k3s|k3s-agent|rke2-server|rke2-agent|"
                         r"microk8s|libvirtd|virtqemud|lxd|incus|snap\.lxd\.daemon|nomad|vmware|vboxdrv|"
                         r"pve-cluster|pvedaemon|qemu-server|jail|iocage|ezjail|bastille|lxc|lxc-net|vmware-?\w*|"
                         r"virtualbox|machines\.target)(\.service|\.socket)?$")
# Services the rest of the system leans on: logs, device nodes, privilege checks.
_CORE_SERVICES = lazy(r"^(systemd-journald|systemd-udevd|udev|systemd-udevd-(control|kernel)|polkit|"
                      r"dbus-broker|systemd-tmpfiles-setup|systemd-sysctl|systemd-modules-load)"
                      r"(\.service|\.socket)?$")
# Data stores and brokers: stopping one cuts every client at once (`svcadm disable postgresql`).
DATA_SERVICES = lazy(r"^(postgres(ql)?|mysqld?|mariadb|mongod(b)?|redis(-server)?|valkey(-server)?|keydb|"
                     r"mssqlserver|mssql\$\w+|mssql-server|sqlserveragent|oracle\w*|db2\w*|"
                     r"cassandra|scylla(-server)?|elasticsearch|opensearch|couchdb|couchbase(-server)?|"
                     r"clickhouse(-server)?|influxdb?|neo4j|etcd|zookeeper|kafka|rabbitmq(-server)?|"
                     r"cockroach(db)?|timescaledb|firebird\w*|sybase\w*|informix\w*|memgraph|arangodb3?|"
                     r"foundationdb|tidb|ravendb|percona\w*|edb-as\w*|pgbouncer|pgpool(-?ii)?|patroni)"
                     r"([@_.-][\w.@-]*|\d+)?(\.service)?$", re.IGNORECASE)
# Display managers: stopping or restarting one ends every desktop session it started.
_DISPLAY_MANAGERS = lazy(r"^(gdm3?|lightdm|sddm|xdm|lxdm|slim|ly|greetd|display-manager|kdm|mdm|nodm)"
                         r"(\.service)?$")
_SIGKILL = lazy(r"(?:^|\s)(?:-s|--signal)(?:\s+|=)(?:SIG)?(?:KILL|9)\b", re.IGNORECASE)
_STOP_VERBS = {"stop", "disable", "mask", "kill", "isolate", "set-default", "restart", "reload"}



def rule_service(c: Ctx) -> Optional[tuple]:
    """``systemctl``/``service``/``rc-service``/``sv``/``launchctl``: stopping access is high."""
    p = c.prog
    pos = positionals(c.args, {"-H", "--host", "-M", "--machine", "-t", "--type", "-s", "--signal",
                               "--kill-whom", "-p", "--property"} | ({"-w"} if p == "sv" else set()))
    if p == "systemctl":
        if not pos:
            return None
        verb, units = pos[0], pos[1:]
        if verb in ("reboot", "poweroff", "halt", "kexec", "soft-reboot", "emergency", "rescue"):
            return MEDIUM if verb not in ("emergency", "rescue") else HIGH, \
                f"systemctl {verb} takes the machine down ({c.text})"
        if verb in ("isolate", "set-default") and units and re.match(r"(rescue|emergency|poweroff|halt|reboot|"
                                                                    r"runlevel[016])(\.target)?$", units[0]):
            return HIGH, f"switches the machine to {units[0]} (services and logins stop) ({c.text})"
        if verb == "isolate" and units and re.match(r"(multi-user|runlevel[234])(\.target)?$", units[0]):
            return MEDIUM, f"stops the desktop and every service {units[0]} does not need ({c.text})"
    elif p in ("service", "rc-service"):
        if len(pos) < 2:
            return None
        verb, units = pos[1], pos[:1]
    elif p in ("sv", "rc-update", "update-rc.d", "chkconfig"):
        if len(pos) < 2:
            return None
        verb, units = (pos[0], pos[1:]) if p == "sv" else ("disable" if "del" in pos or "off" in pos
                                                           or "disable" in pos or "remove" in pos else "", pos[:1])
        if p == "rc-update" and pos[0] in ("del", "delete"):  # `rc-update del sshd default`
            units = pos[1:2]
        verb = {"down": "stop", "force-stop": "stop", "force-shutdown": "stop", "shutdown": "stop", "exit": "stop",
                "term": "stop"}.get(verb, verb)
    elif p == "launchctl":
        if pos[:1] and pos[0] == "reboot":  # `launchctl reboot [system|userspace|halt|logout|apps]`
            return MEDIUM, f"launchctl reboot {' '.join(pos[1:2]) or 'system'} restarts or logs out ({c.text})"
        if pos[:2] and pos[0] == "bootout" and re.fullmatch(r"(gui|user|login)/(\d+|\$.+)", pos[1]):
            return MEDIUM, f"launchctl bootout {pos[1]} ends that user's session: every app quits ({c.text})"
        if pos[:1] and pos[0] in ("unload", "bootout", "disable", "remove", "kill"):
            level = HIGH if any(re.search(r"ssh|network|system$|screensharing|RemoteDesktop|ARDAgent|vnc|"
                                          r"WindowServer|loginwindow", x) for x in pos[1:]) else LOW
            return level, f"launchctl {pos[0]} stops a service ({c.text})"
        return None
    else:
        return None
    return units_verdict(c, p, verb, units)


def units_verdict(c: Ctx, p: str, verb: str, units: list) -> Optional[tuple]:
    """What stopping, disabling or masking these units costs, for any service manager ``p``: remote access
    (high), what runs everything else, the system's core, a data store, every service (medium)."""
    return worst(unit_groups.group_verdict(c, verb, units), _named_units(c, p, verb, units))


def _named_units(c: Ctx, p: str, verb: str, units: list) -> Optional[tuple]:
    shown = next((u for u in units if _DISPLAY_MANAGERS.match(u)), None)
    if shown is not None and verb in ("stop", "kill", "restart", "mask", "disable", "force-restart"):
        return MEDIUM, f"{verb} {shown} ends every graphical session: unsaved work in them is lost ({c.text})"
    if verb not in _STOP_VERBS or verb in ("restart", "reload") and p != "systemctl":
        return None
    if verb in ("stop", "kill", "disable", "mask") and any(u in ("*", "'*'") or u.endswith("/*") for u in units):
        return MEDIUM, f"{verb} every service ({c.text})"  # `sv down /var/service/*`, `systemctl stop '*'`
    glob = next((u for u in units if "*" in u), None)
    if glob is not None and verb in ("stop", "kill", "disable", "mask"):
        return MEDIUM, f"{verb} every unit {glob} matches ({c.text})"  # `systemctl stop 'worker@*'`
    if verb == "kill" and _SIGKILL.search(" ".join(c.texts)):
        return MEDIUM, f"systemctl kill sends SIGKILL to {' '.join(units) or 'the unit'}: it dies without " \
            f"saving its state ({c.text})"
    runs_all = [u for u in units if _RUNTIME_SERVICES.match(u)]
    if runs_all and verb in ("stop", "kill", "disable", "mask"):
        return MEDIUM, f"{verb} {runs_all[0]}: every container, VM or pod it runs stops ({c.text})"
    walls = [u for u in units if _FIREWALL_SERVICES.match(u)]
    if walls and verb in ("stop", "kill", "disable", "mask"):
        return HIGH, f"{verb} {walls[0]} switches the host firewall off: every port is open to the network ({c.text})"
    cut = [u for u in units if _ACCESS_SERVICES.match(u)]
    if cut and verb not in ("restart", "reload"):
        return HIGH, f"{verb} {cut[0]} cuts remote access or the session ({c.text})"
    from aish.safety.rules.meaning import SECURITY_SERVICES  # meaning reads writers, which read units: read late
    guards = [u for u in units if SECURITY_SERVICES.match(u.rstrip("/").rsplit("/", 1)[-1])]
    if guards and verb in ("stop", "kill", "disable", "mask"):  # `rcctl stop syslogd`, `svcadm disable system-log`
        return MEDIUM, f"{verb} {guards[0]}: a security service or the system's log stops ({c.text})"
    core = [u for u in units if _CORE_SERVICES.match(u)]
    if core and verb in ("stop", "kill", "disable", "mask"):
        return MEDIUM, f"{verb} {core[0]}: the system needs it for logging, devices or privileges ({c.text})"
    data = [u for u in units if DATA_SERVICES.match(u)]
    if data and verb in ("stop", "kill", "disable", "mask"):
        return MEDIUM, f"{verb} {data[0]}: every client of the data store loses it ({c.text})"
    if verb == "mask" or "--now" in c.texts and verb == "disable":
        return LOW, f"{verb} {' '.join(units) or 'a unit'}: it no longer starts ({c.text})"
    return None
