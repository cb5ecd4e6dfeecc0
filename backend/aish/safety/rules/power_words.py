"""Effect: machines, nodes, devices or a daemon stopped in a program's own words, for programs no rule names.

Stop tools rarely say ``stop``; the action sits in the program's own vocabulary:

- a power or fence verb fused into an option (``bhyvectl --vm=x --force-poweroff``, ``hosted-engine
  --vm-poweroff``, ``stonith_admin --fence db-node1``, ``nodetool --force-shutdown``, ``--hard-reset``):
  the guest or node loses power or is killed, with nothing left running to shut down cleanly.  Options
  that only configure the action (``--shutdown-timeout``, ``--fence-agent=…``, ``--on-poweroff``) stay quiet;
- a node fenced by a bare verb (``pcs stonith fence node2``, ``crm node fence node1``, ``fence_node n1``):
  the cluster cuts the node's power;
- a networked device told off (``kasa --host 10.0.0.7 off``, ``miiocli plug --ip … off``): an appliance,
  a plug and whatever it feeds goes dark;
- a daemon's own control program told to stop or kill it, as its only word (``varnishadm stop``,
  ``opensips-cli -x mi kill``, ``kamcmd core.kill``, ``rabbitmq-upgrade drain``, ``knotc stop``): what it
  serves stops;
- a node drained, evacuated, decommissioned or detached (``mesos-maintenance node drain agent7``, ``nodetool drain``,
  ``clusterctl node evacuate n4``, the words fused in a name: ``pcp_detach_node -n 0``, ``ndbctl detach-node 3``):
  its work is moved off or dropped (one node put on standby stays quiet);
- IPMI's chassis control sent as raw bytes by any client (``ipmi-raw 0 0x00 0x02 0x00``: netfn 0, command
  2, power down, cycle, hard reset or soft off).

Reads (``status``, ``list``), a start, on, and a stop with an object named (judged elsewhere) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_GATE = ("power", "fence", "stonith", "halt", "kill", "shut", "stop", "off", "drain", "0x02", "reset", "cycle",
         "evacuate", "decommission", "reboot", "detach")
# An option's parts that say the machine loses power or is killed outright.
_STRONG = frozenset({"poweroff", "fence", "stonith", "powercycle", "coldreset", "hardreset", "destroy"})
_HARD = frozenset({"force", "forced", "hard", "immediate", "cold"})
_ACTS = frozenset({"stop", "off", "kill", "shutdown", "halt", "reset", "reboot", "poweroff", "restart"})
_MACHINES = frozenset({"vm", "guest", "host", "node", "domain", "machine", "instance", "cluster", "chassis", "all"})
_MACHINE_ACTS = frozenset({"off", "kill", "shutdown", "halt", "reset", "poweroff"})  # not a daemon's stop
# Parts that make the option a setting of the action, not the action.
_SETTING = frozenset("""timeout after delay signal agent agents script hook mode policy wait on file log level retries
method device devices type cmd command no disable disabled skip allow enable enabled grace dry test list show
status query check before when if unless handler action actions on-poweroff interval count max min limit
level port user password key config topology level delay-base verbose sec secs seconds ms""".split())
_OPTION = LazyRegex(r"^--?([a-z][a-z0-9_-]{2,})(=.*)?$")
_FENCE_VERBS = frozenset({"fence", "stonith"})
_READS = frozenset({"status", "list", "show", "history", "config", "describe", "get", "info", "--help", "-h",
                    "help", "check", "query", "monitor", "level", "levels", "agents", "test", "dry-run"})
_OFF_WORDS = frozenset({"off", "turn_off", "turnoff", "power_off", "switch_off", "turn-off", "power-off"})
_HOST_OPTIONS = frozenset({"--host", "-H", "--ip", "--address", "--addr", "-t", "--target", "--device",
                           "-d", "-a", "--alias", "--name"})
_IPV4 = lazy(r"^\d{1,3}(\.\d{1,3}){3}(:\d+)?$")
_CONTROL_NAME = LazyRegex(r"(adm|admin|ctl|ctrl|control|-cli|cli|cmd|-upgrade|-console|console)$")
_MEDIA = LazyRegex(r"play|media|music|audio|sound|mpd|spotify|vlc|mpris|record|video|camera")  # playback stops
_OWN_STOPS = frozenset({"stop", "kill", "shutdown", "halt", "quit", "drain", "terminate", "die", "down"})
_DOTTED_STOP = LazyRegex(r"^\w+[.:](kill|shutdown|halt|stop|quit|exit)$")
_DRAINS = frozenset({"drain", "evacuate", "decommission", "detach"})  # one node on standby: its roles move (quiet)
_FUSED_PARTS = lazy(r"[-_]")
_NODE_NOUNS = frozenset({"node", "nodes", "server", "host", "member", "broker", "osd", "peer"})
_CHASSIS = {0, 2, 3, 5}  # chassis control: power down, power cycle, hard reset, soft shutdown


@triggered_by(_GATE, otherwise=False)
def may_power(c: Ctx) -> bool:
    """Cheap: a power, fence, kill or stop word somewhere after the program's name."""
    prog = c.prog.lower()
    return bool(c.texts) and (any(w in c.lowered for w in _GATE) or prog[:6] == "fence_" or
                              "node" in prog and any(w in prog for w in _DRAINS))  # `pcp_detach_node -n 0`


def _fused_option(texts: list) -> Optional[str]:
    for t in texts[:64]:
        m = _OPTION.match(t.lower())
        if m is None or m.group(2):
            if m is None or not m.group(1).startswith(("fence", "vm-poweroff", "force-poweroff")):
                continue
        parts = set(re.split(r"[-_]", m.group(1)))
        if parts & _SETTING:
            continue
        joined = m.group(1).replace("-", "").replace("_", "")
        if parts & _STRONG or joined in _STRONG or "poweroff" in joined and len(parts) <= 3:
            return t
        if (parts & _ACTS and parts & _HARD or parts & _MACHINE_ACTS and parts & _MACHINES) and len(parts) <= 3:
            return t
    return None


def _positionals(texts: list) -> list:
    """Words that are not options (a word right after an option is taken as its value when it is not a verb)."""
    out = []
    for k, t in enumerate(texts):
        if t.startswith("-"):
            continue
        before = texts[k - 1] if k else ""
        if before.startswith("-") and "=" not in before and t.lower() not in _OWN_STOPS | _FENCE_VERBS | _OFF_WORDS:
            continue
        out.append(t)
    return out


def _chassis_bytes(texts: list) -> bool:
    values: list = []
    for t in texts:
        if not t.lower().startswith("0x"):
            values.append(None)
            continue
        try:
            values.append(int(t, 16))
        except ValueError:
            values.append(None)
    return any(values[k:k + 3] == [0, 2, v] for k in range(len(values) - 2) for v in _CHASSIS)


def rule_power_words(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]
    lowered = {t if t.startswith("-") else t.lower() for t in texts}  # `-H host` is not `-h`
    if "-h" in lowered and all(k + 1 < len(texts) and not texts[k + 1].startswith("-")
                               for k, t in enumerate(texts) if t == "-h"):
        lowered.discard("-h")  # `pcp_detach_node -h localhost`: a host given, not help asked
    if lowered & _READS:
        return None
    fused = _fused_option(texts)
    if fused:
        return MEDIUM, f"{c.prog} {fused}: the machine or node is cut off or killed, not shut down ({c.text})"
    words = _positionals(texts)
    low = [w.lower() for w in words]
    for k, w in enumerate(low[:-1]):
        if w in _FENCE_VERBS and not low[k + 1].startswith("-"):
            return MEDIUM, f"{c.prog} {w} {words[k + 1]}: the node's power is cut ({c.text})"
    node_named = "node" in c.prog.lower()  # `nodetool drain`
    for k, w in enumerate(low):
        if w in _DRAINS and (node_named or (k and low[k - 1] in _NODE_NOUNS)):
            return MEDIUM, f"{c.prog} {w}: the node's work is moved off or dropped, it serves no more ({c.text})"
    for w in [c.prog.lower().removesuffix(".exe")] + low[:3]:  # `pcp_detach_node -n 0`, `ndbctl detach-node 3`
        parts = set(_FUSED_PARTS.split(w))
        if len(parts) > 1 and parts & _DRAINS and parts & _NODE_NOUNS:
            return MEDIUM, f"{c.prog}: {w} takes a node out of the cluster, its work is moved off or dropped ({c.text})"
    if c.prog.lower().startswith("fence_"):  # a fence agent's default action is a reboot of what it names
        return MEDIUM, f"{c.prog}: the node is fenced, its power cut ({c.text})"
    if low and low[-1] in _OFF_WORDS and any(_IPV4.match(t) or t in _HOST_OPTIONS for t in texts):
        return MEDIUM, f"{c.prog} … {words[-1]}: the device at that address is switched off ({c.text})"
    if len(low) <= 2 and low and (low[-1] in _OWN_STOPS or _DOTTED_STOP.match(low[-1])) and \
            _CONTROL_NAME.search(c.prog.lower().removesuffix(".exe")) and not _MEDIA.search(c.prog.lower()):
        return MEDIUM, f"{c.prog} {words[-1]}: the service it controls stops ({c.text})"
    if "0x02" in c.lowered and _chassis_bytes(texts):
        return MEDIUM, f"{c.prog}: raw IPMI chassis control powers the machine down or resets it ({c.text})"
    return None
