"""Effect: a stop, a cancel or a logout made total by its scope word, and a network daemon switched off by its
own control tool, for programs no rule names.

A stop of one named thing is routine; the same verb told ``all`` stops every one the program runs: an
operand (``mmumount all -a``, ``arkmanager stop @all``, ``canceljob ALL``), an option value
(``iscsiadm -m node --logoutall=all``: every disk logged in over iSCSI goes away), a filter that selects
whatever runs (``yarnctl app -kill -filter status=RUNNING``), or a scheduler's cancel letter given every job
(``mjobctl -c ALL``).  The verb may be a subcommand, fused into the program's name (``canceljob``) or an
option (``-kill``, ``--logoutall``).  Logging in or starting everything, statuses and listings stay quiet.

A routing, wireless or VPN daemon's control tool told to ``disable``, go ``down`` or ``exit``
(``hostapd_cli -i wlan0 disable``, ``gobgp neighbor 10.0.0.2 disable``, ``ovs-appctl -t ovs-vswitchd
exit``) takes the network it carries away with it.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# Verbs whose scope decides: one named thing is routine, every one is not.
_STOPS = ("stop", "stp", "kill", "cancel", "shutdown", "halt", "terminate", "abort", "umount", "unmount", "logout",
          "logoff", "disconnect", "offline", "poweroff", "deactivate", "suspend", "down", "disable", "leave",
          "quit", "exit", "evacuate", "unload", "off")
_STOP_WORD = re.compile(r"(" + "|".join(_STOPS) + r")[-_]?(all)?$")
_STOP_HEAD = re.compile(r"(" + "|".join(_STOPS[:14]) + r")[-_]?(all|job|jobs|task|tasks|node|nodes|session|sessions|"
                        r"server|servers|vm|vms|instance|instances|app|apps|world|service|services)?$")
_VERB_THEN_NOUN = lazy(r"(" + "|".join(_STOPS[:10]) + r")[a-z]{2,8}$")
_PREFIX_THEN_VERB = lazy(r"[a-z]{1,3}(" + "|".join(_STOPS[:10]) + r")(all)?$")
# A disabling verb fused to its noun after a suite's prefix (`a2dissite`, `a2disconf`, `phpdismod`).
_DIS_NAME = lazy(r"^[a-z0-9]{0,6}[-_]?dis(site|mod|conf|ext|plugin|repo|module|vhost)s?$")
_SOFT_NAMES = frozenset({"logout", "logoff", "disable", "leave", "quit", "exit", "off", "close"})
_FORCE = frozenset({"--force", "-f", "--yes", "-y", "--force-close"})
_STARTS = lazy(r"log(in|on)|start|up$")  # `--loginall=all`: what every one is given is a start
# An operand or a value that takes every one.
_EVERY = frozenset({"all", "@all", "*", "'*'", "everything"})
# Verbs whose `--all` is the user's own logins or switches (`pulumi logout --all`): only `all` said as the object.
_SOFT = lazy(r"log(out|off)|disable|leave|quit|exit")
_EVERY_OPTIONS = frozenset({"-a", "-A", "--all", "-all", "-ALL", "--everything"})
# A filter that selects whatever is running (`-filter status=RUNNING`, `--state running`).
_RUNNING = lazy(r"^(--?(filter|state|status|where)=?)?(status|state|phase)?[=:]?(running|active|started)$",
                re.IGNORECASE)
# A job scheduler's own cancel, kill or delete letters (`mjobctl -c ALL`, `-k`), read with every job only.
_SCHEDULER = lazy(r"job|queue|sched|batch|task|spool|slurm|pbs|lsf|moab|torque|condor|sge|^q", re.IGNORECASE)
_CANCEL_LETTERS = frozenset({"-c", "-k", "-d", "-x", "-r", "-K", "-C", "-D", "-X"})
_NOT_DOING = frozenset({"--help", "-h", "status", "list", "ls", "show", "info", "--status", "--list", "-l",
                        "query", "-q", "diag", "check"})
# Routing, wireless, switching and VPN daemons' control tools (the daemon's name is in the tool's).
_NETWORK_DAEMON = lazy(r"hostapd|wpa_|bird|bgp|ospf|frr|quagga|vtysh|keepalived|vrrp|lldp|kea|dnsmasq|radvd|rout|"
                       r"ovs-|ovn-|openvswitch|strongswan|charon|zebra|exabgp|babel|olsr|batctl|pppd|corosync",
                       re.IGNORECASE)
_NETWORK_OFF = frozenset({"disable", "down", "shutdown", "terminate", "stop", "exit", "quit", "halt", "kill"})
_GATE = lazy(r"all|\*|running|active|started|hostapd|wpa_|bird|bgp|ospf|frr|quagga|vtysh|keepalived|vrrp|lldp|rout|"
             r"kea|dnsmasq|radvd|ovs-|ovn-|openvswitch|strongswan|charon|zebra|babel|olsr|batctl|pppd|corosync",
             re.IGNORECASE)


@triggered_by(_GATE, otherwise=False)
def may_be_total(c: Ctx) -> bool:
    """A scope word or a network daemon's name on the line: most commands leave here."""
    return bool(_GATE.search(c.prog + " " + c.lowered))


def rule_total_scope(c: Ctx) -> Optional[tuple]:
    """A stop-like verb told every one, or a network daemon's control tool told to switch it off."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if set(lowered) & _NOT_DOING:
        return None
    if not texts:  # a bare program named for stopping every one (`gpfs_umount_all`, `stop_all_nodes`)
        parts = re.split(r"[-_.]", _name(c.prog))
        if "all" in parts and any(p in _STOPS and p not in _SOFT_NAMES for p in parts):
            return MEDIUM, f"{c.prog} is named for stopping every one it runs ({c.text})"
        return None
    return _network_off(c, lowered) or _total(c, lowered)


_SCRIPT_SUFFIX = lazy(r"\.(sh|py|pl|exe)$")


def _name(prog: str) -> str:
    return _SCRIPT_SUFFIX.sub("", prog.lower().rsplit("/", 1)[-1])


def _verb(c: Ctx, lowered: list) -> Optional[str]:
    """The stop-like verb: a leading subcommand word, the program's own name, or an option."""
    operands = [t for k, t in enumerate(lowered) if not t.startswith("-") and
                not (k and lowered[k - 1].startswith("--") and "=" not in lowered[k - 1])][:3]  # `--mode suspend`
    for t in operands:
        for part in re.split(r"[-_:.]", t):
            if _STOP_WORD.match(part) and part not in ("all",):
                return t
        if _STOP_WORD.match(t):
            return t
    name = _name(c.prog)
    if any(_STOP_HEAD.match(piece) for piece in re.split(r"[-_]", name)) or _STOP_HEAD.match(name):
        return name
    head = _VERB_THEN_NOUN.match(name)  # `canceljob`, `killtask`
    if head and not name.endswith(("watch", "er", "ing")):
        return name
    if _PREFIX_THEN_VERB.match(name):  # a suite's prefix: `mmumount`
        return name
    if _DIS_NAME.match(name) or "disable" in re.split(r"[-_]", name):  # `a2dissite`, `phpdismod`, `lighty-disable-mod`
        return name
    for t in lowered:
        if t.startswith("-") and len(t) > 3:
            option = t.lstrip("-").split("=", 1)[0]
            if _STOP_WORD.match(option.replace("-", "")) or _STOP_HEAD.match(option):
                return t
            if "disabled" in option.split("-") and "=" not in t:  # `config-manager --set-disabled '*'`
                return t
            if "=" in t and re.split(r"[-_]", option)[0] in _STOPS + ("close",):  # `--close_list=all`
                return t
            if option.replace("-", "").replace("_", "") == "closeall" and set(lowered) & _FORCE:
                return t  # `--close-all --force` (told to close every channel, not a window)
    return None


def _scope(c: Ctx, lowered: list, verb: str) -> Optional[str]:
    """What makes the verb total: every one named, an `=all` value, a running filter, `-a` with a verb said."""
    for k, t in enumerate(lowered):
        value = t.split("=", 1)[1] if t.startswith("-") and "=" in t else t
        if value in _EVERY and (t != verb or "=" in t):  # `--logoutall=all`
            return c.texts[k]
        if _RUNNING.match(t) and k and (lowered[k - 1] in ("-filter", "--filter", "--state", "-state", "--status",
                                                           "-status", "--where") or "=" in t):
            return c.texts[k]
    if verb.startswith("-") and verb.split("=", 1)[0].replace("_", "-").endswith("-all") and \
            set(lowered) & _FORCE:
        return verb  # `--close-all --force`, `--stop-all -y`: the option is the scope
    if set(c.texts) & _EVERY_OPTIONS and verb.startswith("--disable"):
        return next(t for t in c.texts if t in _EVERY_OPTIONS)  # `zypper modifyrepo --all --disable`
    if set(c.texts) & _EVERY_OPTIONS and not verb.startswith("-") and not _SOFT.search(verb):
        return next(t for t in c.texts if t in _EVERY_OPTIONS)
    return None


def _total(c: Ctx, lowered: list) -> Optional[tuple]:
    verb = _verb(c, lowered)
    if verb is None:
        scheduler = _SCHEDULER.search(_name(c.prog)) and set(c.texts) & _CANCEL_LETTERS
        every = next((t for t in c.texts if t.lower() in _EVERY and not t.startswith("-")), None)
        if scheduler and every:
            return MEDIUM, f"{c.prog} is told to cancel {every} of its jobs: every one it runs stops ({c.text})"
        return None
    if _STARTS.search(verb):
        return None
    if verb.lstrip("-").startswith("dis") and any(t.startswith(("--enable", "--set-enabled")) for t in lowered):
        return None  # everything off but the one enabled: a choice (`repos --disable='*' --enable=X`)
    scope = _scope(c, lowered, verb)
    if scope is None:
        return None
    return MEDIUM, f"{c.prog} {verb} with {scope}: every one it runs or holds stops, not one named ({c.text})"


def _network_off(c: Ctx, lowered: list) -> Optional[tuple]:
    name = _name(c.prog)
    if not _NETWORK_DAEMON.search(name) or name.endswith("d"):  # the tool, not the daemon (`gobgp`, not `gobgpd`)
        return None
    operands = [t for k, t in enumerate(lowered) if not t.startswith("-") and
                not (k and lowered[k - 1] in ("-i", "-t", "-p", "--target", "-s"))][:4]
    said = next((t for t in operands if t in _NETWORK_OFF), None)
    if said is None:
        return None
    return MEDIUM, f"{c.prog} {said}: the routing, wireless or switching daemon it controls stops carrying the " \
        f"network ({c.text})"
