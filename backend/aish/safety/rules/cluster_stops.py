"""Effect: a whole cluster stopped, halted or put to sleep by name, by whatever program manages it.

Cluster managers say it the same way whoever wrote them: ``tiup cluster stop prod``, ``X cluster stop NAME``, ``X
stop cluster NAME``, ``X hibernate cluster --cluster prod``, ``X cluster halt main``, a fused
``stop-cluster``/``pause-cluster``/``clusterStop``, a program named for its clusters told ``stop NAME``. Every node
of the named cluster stops: what it serves is down for all its users until someone starts it again (and a
hibernated cloud cluster takes minutes to wake).

Quiet: starting, status and listings; a cluster named for local development tools, whose clusters are containers or
VMs on this machine (``k3d cluster stop dev``, ``minikube``, ``kind``, ``ccm``); a stop with no cluster word (``X
stop web``: one service, judged elsewhere); no cluster named.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_CLUSTER = frozenset({"cluster", "clusters"})
_STOPS = frozenset({"stop", "halt", "shutdown", "shut-down", "hibernate", "pause", "suspend", "poweroff",
                    "power-off", "deactivate"})
# `stop-cluster`, `pause_cluster`, `clusterStop`, `cluster-halt`: the verb and the noun in one word.
_FUSED = lazy(r"^-{0,2}((stop|halt|shutdown|hibernate|pause|suspend|poweroff)[-_]?clusters?|"
              r"clusters?[-_]?(stop|halt|shutdown|hibernate|pause|suspend|poweroff))$", 0)
# Tools whose clusters are containers or VMs on the user's machine.
_LOCAL = lazy(r"^(k3d|kind|minikube|microk8s|colima|lima|limactl|ccm|k3sup|ctlptl|kwok|kwokctl|vcluster|"
              r"ddev|tilt|skaffold)$|playground|local|dev", 0)
_NAMING = frozenset({"--cluster", "-c", "--name", "-n", "--cluster-name", "--cluster-id", "--id"})
_LOOKS = frozenset({"--help", "-h", "help", "status", "list", "ls", "show", "display", "describe", "--dry-run"})


@triggered_by(("cluster",))
def rule_cluster_stopped(c: Ctx) -> Optional[tuple]:
    """``tiup cluster stop prod``, ``X hibernate cluster --cluster prod``, ``X stop-cluster main``."""
    lowered = [t.lower() for t in c.texts]
    if not lowered or set(lowered) & _LOOKS or _LOCAL.search(c.prog.lower().rsplit("/", 1)[-1]):
        return None
    head = lowered[:4]
    k = next((j for j, t in enumerate(head) if _FUSED.match(t)), -1)
    first = k
    if k < 0:
        noun = next((j for j, t in enumerate(head) if t in _CLUSTER), -1)
        verb = next((j for j, t in enumerate(head) if t in _STOPS), -1)
        if verb == 0 and noun < 0 and "cluster" in c.prog.lower():  # `pulumi-cluster stop prod`: the name says it
            noun = verb
        if noun < 0 or verb < 0 or abs(noun - verb) > 1:
            return None
        first, k = min(noun, verb), max(noun, verb)
    said = " ".join(c.texts[first:k + 1])
    named = [t for j, t in enumerate(c.texts[k + 1:], k + 1)
             if not t.startswith("-") and (lowered[j - 1] in _NAMING or not lowered[j - 1].startswith("-"))]
    named += [t.split("=", 1)[1] for t in c.texts if t.split("=", 1)[0] in _NAMING and "=" in t]
    if not named or "--all" in lowered:
        named = named or (["every cluster"] if "--all" in lowered else [])
    if not named:
        return None
    return MEDIUM, f"{c.prog} {said} stops the cluster {named[0]}: every node goes down, and what it serves " \
                   f"with it ({c.text})"
