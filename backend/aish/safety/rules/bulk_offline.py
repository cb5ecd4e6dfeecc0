"""Effect: many machines taken offline at once: a batch cluster's nodes or queues, or a hypervisor's guests and hosts.

HPC schedulers each have their own words for "take this node out": PBS/Torque ``pbsnodes -o``, Grid
Engine ``qmod -d``, LSF ``badmin hclose``/``qclose``/``qinact`` and ``bctrld stop``, Flux ``flux
resource drain``, OAR ``oarnodesetting -s Absent``, PBS ``qmgr -c 'set server scheduling = false'``.
One node is routine maintenance; a range (``node{001..128}``, ``node[001-128]``, ``0-127``), a glob,
``all`` or a list computed at run time (``$(pbsnodes -l free)``) stops the cluster's work.  PowerCLI,
Hyper-V and Azure cmdlets that stop, shut down, restart or suspend guests or hosts are flagged when
told not to ask (``-Confirm:$false``) or given every guest (``-VM (Get-VM)``, ``*``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import listing
from aish.safety.rules.common import HIGH, MEDIUM, Ctx

# Many nodes in one word: a brace or bracket range, a glob, a rank range, everything.
_MANY = lazy(r"\{[^}]*(\.\.|,)[^}]*\}|\[[^\]]*[-,][^\]]*\]|[*?]|^(all|ALL|@all|\+)$|^\d+-\d+$|^\$\(|^`")
# (program, the words that take nodes or queues out of service)
_OFFLINE = {
    "pbsnodes": frozenset({"-o", "-offline", "--offline"}),
    "qmod": frozenset({"-d", "-disable", "-sqd"}),
    "badmin": frozenset({"hclose", "qclose", "qinact", "hshutdown", "mbdrestart"}),
    "bctrld": frozenset({"stop"}),
    "oarnodesetting": frozenset({"absent", "dead", "suspected"}),
    "qdisable": frozenset(),
    "qstop": frozenset(),
}
_QMGR_OFF = lazy(r"\bset\s+(server\s+scheduling\s*=\s*(false|f|0)\b|queue\s+\S+\s+(enabled|started)\s*=\s*"
                 r"(false|f|0)\b|node\s+\S+\s+state\s*=\s*offline)", re.IGNORECASE)
_VM_CMDLET = lazy(r"^(stop|shutdown|restart|suspend)-(vm|vmhost|vmguest|vmhostservice|vapp|azvm|azurermvm|"
                  r"scvirtualmachine|cluster|clustergroup|clusternode)$", re.IGNORECASE)
_EVERY_GUEST = lazy(r"^\(?\$?\(?get-(vm|vmhost|azvm|vapp|cluster\w*|scvirtualmachine)\b|^\*$", re.IGNORECASE)


def _many(words: list) -> Optional[str]:
    return next((w for w in words if _MANY.search(w)), None)


def _hpc(c: Ctx, prog: str) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if prog == "qmgr":
        said = next((t for t in texts if _QMGR_OFF.search(t)), None)
        return (MEDIUM, f"qmgr stops the batch server scheduling or serving jobs ({c.text})") if said else None
    if prog == "flux":
        if lowered[:2] == ["resource", "drain"] and len(texts) > 2 and _many(texts[2:3]):
            return MEDIUM, f"flux resource drain takes {texts[2]} out of service ({c.text})"
        return None
    words = _OFFLINE[prog]
    said = next((t for t in lowered if t in words), None)
    if said is None and words:
        return None
    rest = [t for t in texts if t.lower() not in words and t.lower() not in ("-s", "-h", "-c", "-n")]
    operands = [t for t in rest if not t.startswith("-") or t.startswith("-$")]
    many = _many(operands) or listing.from_listing(c) or (operands[0] if len(operands) >= 4 else None)
    if many is None and not (prog in ("qdisable", "qstop") and not operands):
        return None
    what = "queues" if prog in ("qmod", "qdisable", "qstop") or said in ("qclose", "qinact") else "nodes"
    return MEDIUM, f"{c.prog} takes {what} out of service in bulk ({many or 'every one'}): the cluster's work " \
        f"stops ({c.text})"


def _vm_cmdlet(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    no_ask = any(t.replace(" ", "") in ("-confirm:$false", "-confirm:0") for t in lowered)
    every = next((t for t in texts if _EVERY_GUEST.search(t)), None) or \
        (listing.from_listing(c) if c.args else "")
    fed = bool(c.chain) and any(s.words and s.words[0].text.lower().startswith("get-") for s in c.chain)
    if not (no_ask or every):
        return None
    if not (every or fed) and not c.prog.lower().endswith(("vmhost", "cluster", "clusternode")):
        if not set(lowered) & {"-force", "-kill", "-turnoff"}:
            return None
        return MEDIUM, f"{c.prog} without asking stops the guest and everything on it ({c.text})"
    level = HIGH if c.prog.lower().endswith(("vmhost", "cluster")) else MEDIUM
    scope = f"every one {every or 'the listing'} names" if every or fed else "the host and every guest on it"
    return level, f"{c.prog} stops {scope}{', without asking' if no_ask else ''} ({c.text})"


def rule_bulk_offline(c: Ctx) -> Optional[tuple]:
    """Nodes, queues, guests or hosts taken out of service many at a time."""
    prog = c.prog.lower().removesuffix(".exe")
    if prog in _OFFLINE or prog in ("qmgr", "flux"):
        return _hpc(c, prog)
    if _VM_CMDLET.match(prog):
        return _vm_cmdlet(c)
    return None


def may_offline(prog: str) -> bool:
    p = prog.lower()
    return p in _OFFLINE or p in ("qmgr", "flux") or bool(_VM_CMDLET.match(p))


# The same cmdlets as the shell splits them at their parentheses: judged on the whole line.
_LINE_VM_STOP = lazy(r"\b(stop|shutdown|restart|suspend)-(vm|vmhost|vmguest|vapp|azvm|scvirtualmachine|cluster)\b"
                     r"[^;|]*?-(vm|vmhost|name|id|cluster|inputobject|vmname)\s*[:=]?\s*(\$|@)?\(\s*get-"
                     r"(vm|vmhost|azvm|vapp|cluster|scvirtualmachine)\w*", re.IGNORECASE)


def line_every_guest_stopped(text: str) -> Optional[tuple]:
    """`Shutdown-VMGuest -VM (Get-VM) -Confirm:$false`: a stop over every guest or host a listing names."""
    if "get-" not in text.lower():
        return None
    m = _LINE_VM_STOP.search(text)
    if m is None:
        return None
    level = HIGH if m.group(2).lower() in ("vmhost", "cluster") else MEDIUM
    return level, f"{m.group(1)}-{m.group(2)} stops every one Get-{m.group(5)} lists ({' '.join(text.split()[:6])}…)"
