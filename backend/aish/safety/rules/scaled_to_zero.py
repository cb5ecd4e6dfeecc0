"""Effect: a service scaled to nothing, or a node taken out of service, by any fleet or cloud tool.

Every orchestrator and platform has its own way to say "run none of these": ``docker service scale
web=0``, ``nomad job scale api 0``, ``heroku ps:scale web=0``, ``fly scale count 0``, ``cf scale api -i
0``, ``aws ecs update-service --desired-count 0``, ``--desired-capacity 0``, ``gcloud … resize --size=0``,
``az vmss scale --new-capacity 0``, ``oc scale --replicas=0``.  The mechanism is one: a scaling verb and a
count of zero, as an option's value, a ``NAME=0`` operand or a bare ``0``.  Taking a node out of service
is the same stop for what runs on it: ``docker node update --availability drain``, ``nomad node drain
-enable``, ``consul maint -enable``.  Scaling to any other number and putting a node back stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx

_SCALE_WORD = re.compile(r"(^|[:/_-])(scale|resize|autoscale)$|^update-(service|auto-scaling-group|nodegroup-config)$|"
                         r"^set-desired-capacity$|^(update|set)-?capacity$", re.IGNORECASE)
# Options whose value is a count of running things
_COUNT_OPTION = re.compile(r"^--?(replicas|desired[-_]?count|desired[-_]?capacity|new[-_]?capacity|size|count|"
                           r"instances|min[-_]?(size|count|replicas|nodes)|max[-_]?(size|count|replicas|nodes)|"
                           r"num[-_]?nodes|nodes|capacity|i)$", re.IGNORECASE)
# `{"spec":{"replicas":0}}`, `--set replicaCount=0`, `web.replicas=0`: a count of zero in a patch or chart values
_REPLICAS_ZERO = re.compile(r"(\b|(?<=max)|(?<=desired))_?replica(s|Count|_count)\b[\"']?\s*[:=]\s*0\b(?!\.)",
                            re.IGNORECASE)  # also `"maxReplicas":0` in an autoscaler's patch
# Counts that are the total to run (not a floor: `--min-size 0` lets an autoscaler idle), set by an update verb:
# `node-pools update --num-nodes=0`, `put-function-concurrency --reserved-concurrent-executions 0`,
# `update-nodegroup-config --scaling-config minSize=0,maxSize=0,desiredSize=0`, `az aks scale --node-count 0`.
# (`--max-instances 0` is left out: some platforms read a zero there as "no limit".)
_TOTAL_COUNT = re.compile(r"^(--?)?(replicas|count|num[-_]?(nodes|replicas|workers)|reserved[-_]?concurrent[-_]?"
                          r"executions|(desired|max|new|target|total|instance|node|replica|task|worker)[-_]?"
                          r"(instance[-_]?|num[-_]?)?(count|capacity|size|replicas|nodes|workers))$", re.IGNORECASE)
_UPDATE_WORD = re.compile(r"^(update|patch|set|scale|resize|put-[\w-]*concurrency|(update|modify|set)-[\w-]+)$",
                          re.IGNORECASE)
_ALL = re.compile(r"^(--all|-A|--all-namespaces)$")
_PRODUCTION = re.compile(r"(^|[^a-z])(prod|production|live)([^a-z]|$)", re.IGNORECASE)


def _zero_count(texts: list) -> bool:
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if name.lower().startswith(("--min", "-min")) or k and texts[k - 1].lower().startswith(("--min", "-min")):
            continue  # a floor of zero lets an autoscaler idle; it stops nothing
        if eq and value == "0" and (_COUNT_OPTION.match(name) or not name.startswith("-")):
            return True  # --size=0, web=0
        if t == "0" and k and (_COUNT_OPTION.match(texts[k - 1]) or texts[k - 1].lower() in ("count", "scale") or
                               not texts[k - 1].startswith("-")):
            return True  # --desired-count 0, count 0, api 0
    return False


def _total_zero(texts: list) -> bool:
    """A total count set to zero: ``--node-count 0``, ``--num-nodes=0``, ``maxSize=0,desiredSize=0`` in a value."""
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if _TOTAL_COUNT.match(name) and (value == "0" if eq else texts[k + 1:k + 2] == ["0"]):
            return True
        pairs = [p.partition("=") for p in t.split(",") if "=" in p]
        if len(pairs) > 1 and any(_TOTAL_COUNT.match(key) and v == "0" for key, _, v in pairs) and \
                not any(_TOTAL_COUNT.match(key) and v not in ("0", "") for key, _, v in pairs):
            return True
    return False


def rule_scaled_to_zero(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not texts or not any(t == "0" or t.endswith("=0") or "=0," in t for t in texts) and "drain" not in texts and \
            "-enable" not in texts and "--enable" not in texts and not any(_REPLICAS_ZERO.search(t) for t in texts):
        return None
    if any(_REPLICAS_ZERO.search(t) for t in texts) and \
            any(w in ("patch", "upgrade", "install", "set", "apply", "edit", "update") for w in texts[:3]):
        return MEDIUM, f"sets the replicas to zero: everything it serves stops ({c.text})"
    words = [t for t in texts if not t.startswith("-")]
    if any(_SCALE_WORD.search(w) for w in words[:4]) and _zero_count(texts):
        level = HIGH if any(_ALL.match(t) for t in texts) or any(_PRODUCTION.search(t) for t in texts) else MEDIUM
        return level, f"scales a service to zero: everything it serves stops ({c.text})"
    if any(_UPDATE_WORD.match(w) for w in words[:4]) and _total_zero(texts):
        return MEDIUM, f"sets what runs to zero: everything it serves stops ({c.text})"
    joined = " ".join(texts)
    if re.search(r"(^|\s)--availability[= ](drain|pause)\b", joined) or \
            re.search(r"\bnode\s+drain\b.*(^|\s)--?enable\b", joined) or \
            re.search(r"(^|\s)maint\s+--?enable\b", joined):
        return MEDIUM, f"takes a node out of service: what runs on it stops or moves ({c.text})"
    return None
