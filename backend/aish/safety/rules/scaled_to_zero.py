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
from aish.safety.lazy_regex import lazy

_SCALE_WORD = lazy(r"(^|[:/_-])(scale|resize|autoscale)$|^update-(service|auto-scaling-group|nodegroup-config)$|"
                   r"^set-desired-capacity$|^(update|set)-?capacity$", re.IGNORECASE)
# Options whose value is a count of running things
_COUNT_OPTION = lazy(r"^--?(replicas|desired[-_]?count|desired[-_]?capacity|new[-_]?capacity|size|count|"
                     r"instances|min[-_]?(size|count|replicas|nodes)|max[-_]?(size|count|replicas|nodes)|"
                     r"num[-_]?nodes|nodes|capacity|i)$", re.IGNORECASE)
# `{"spec":{"replicas":0}}`, `--set replicaCount=0`, `web.replicas=0`: a count of zero in a patch or chart values
_REPLICAS_ZERO = re.compile(r"(\b|(?<=max)|(?<=desired))_?replica(s|Count|_count)\b[\"']?\s*[:=]\s*0\b(?!\.)",
                            re.IGNORECASE)  # also `"maxReplicas":0` in an autoscaler's patch
# Counts that are the total to run, set by an update verb, in any tool's own name for them: a word of the name
# says a count (`--node-count 0`, `--num-nodes=0`, `--number-of-workers 0`, `--size-per-zone 0`, `--quantity 0`,
# `--reserved-concurrent-executions 0`, `maxSize=0,desiredSize=0` in a value, `size=0`), none says a floor or
# something that is not a count of running things (`--min-size 0` lets an autoscaler idle; `--disk-size`,
# `--max-pool-size`, `RETRY_COUNT=0`).  (`--max-instances 0` is left out: some platforms read it as "no limit".)
_COUNT_WORDS = frozenset({"count", "size", "nodes", "replicas", "capacity", "quantity", "workers", "scale",
                          "executions"})
_NOT_RUNNING = frozenset({"min", "minimum", "disk", "volume", "memory", "mem", "cpu", "batch", "page", "buffer",
                          "queue",
                          "log", "file", "cache", "timeout", "delay", "retry", "retries", "surge", "unavailable",
                          "percent", "boot", "storage", "shm", "heap", "pool", "connection", "connections", "thread",
                          "threads", "chunk", "block", "step", "key", "instances", "history", "backoff", "parallelism",
                          "font", "window", "line", "lines", "max-instances"})
_PARTS = lazy(r"[-_.]+|(?<=[a-z])(?=[A-Z])")
_UPDATE_WORD = lazy(r"^(update|patch|set|scale|resize|up|put-[\w-]*concurrency|(update|modify|set)-[\w-]+|"
                    r"[\w-]+-(update|resize|scale)|register-scalable-target)$", re.IGNORECASE)


def _is_total(name: str) -> bool:
    """Does an option or key named ``name`` set how many of something run?"""
    parts = {p.lower() for p in _PARTS.split(name.lstrip("-")) if p}
    return bool(parts & _COUNT_WORDS) and not parts & _NOT_RUNNING


_ALL = lazy(r"^(--all|-A|--all-namespaces)$")
_PRODUCTION = lazy(r"(^|[^a-z])(prod|production|live)([^a-z]|$)", re.IGNORECASE)


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
    """A total count set to zero: ``--node-count 0``, ``--num-nodes=0``, ``maxSize=0,desiredSize=0`` in a value,
    ``size=0``, compose's ``--scale web=0``."""
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        given = value if eq else (texts[k + 1] if k + 1 < len(texts) else "")
        if name == "--scale" and re.fullmatch(r"[\w.-]+=0", given):
            return True  # `docker compose up --scale web=0`
        if name.startswith("-") and _is_total(name) and given == "0":
            return True
        pairs = [p.partition("=") for p in t.split(",") if "=" in p]
        if pairs and (len(pairs) > 1 or not t.startswith("-")) and \
                any(_is_total(key) and v == "0" for key, _, v in pairs) and \
                not any(_is_total(key) and v not in ("0", "") for key, _, v in pairs):
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
    if any(_UPDATE_WORD.match(w) for w in words[:5]) and "env" not in words[:3] and _total_zero(texts):
        return MEDIUM, f"sets what runs to zero: everything it serves stops ({c.text})"
    joined = " ".join(texts)
    if re.search(r"(^|\s)--availability[= ](drain|pause)\b", joined) or \
            re.search(r"\bnode\s+drain\b.*(^|\s)--?enable\b", joined) or \
            re.search(r"(^|\s)maint\s+--?enable\b", joined):
        return MEDIUM, f"takes a node out of service: what runs on it stops or moves ({c.text})"
    return None
