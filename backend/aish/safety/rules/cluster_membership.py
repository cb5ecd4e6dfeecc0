"""Effect: a cluster's membership or leadership changed by force, in any cluster tool's words.

A node removed, forgotten or told to leave (``riak-admin cluster leave``, ``emqx ctl cluster leave``,
``rabbitmqctl forget_cluster_node``, ``consul force-leave``, ``nodetool assassinate``, ``redis-cli
--cluster del-node``, ``vault operator raft remove-peer``, ``gluster peer detach``, ``ceph osd out``,
``elasticsearch-node detach-cluster``, ``mysqlsh … cluster remove-instance``), a failover or
switchover forced (``patronictl failover --force``, ``redis-cli cluster failover takeover``,
``force-master-failover``, ``aws rds failover-db-cluster``, ``--data-protection-mode=force-data-loss``),
a standby promoted beside its primary (``repmgr standby promote``), a node rejoined by rewinding its
data (``--force-rewind``), every node put in standby (``pcs node standby --all``) and a cluster
resource stopped or banned everywhere (``pcs resource disable``, ``crm_resource --ban``).  Status,
listing, joining and adding stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import HIGH, MEDIUM, Ctx

# One word that removes a member or forces leadership over.
_FUSED = lazy(r"^(force[-_]?leave|forget[-_]cluster[-_]node|remove[-_]?node|del[-_]?node|delete[-_]node|"
              r"detach[-_](node|cluster|peer|member)|evict[-_]node|kick[-_]node|remove[-_](peer|instance|member|"
              r"server|replica)|force[-_]remove[-_]\w+|force[-_](master[-_]|primary[-_])?failover|"
              r"failover[-_](db[-_])?(cluster|instance|group|primary|replica|global[-_]cluster)|"
              r"(test|manual|force)[-_]failover|unsafe[-_]bootstrap|assassinate|stepdown[-_]force|"
              r"(graceful[-_])?(master[-_]|primary[-_])takeover|promote[-_](read[-_])?(replica|standby|secondary)|"
              r"remove[-_]brick|delete[-_](member|replica|peer))$")
# Words that lose data when they happen: another node's writes, the cluster's own metadata.
_LOSES_DATA = frozenset({"assassinate", "unsafe-bootstrap", "unsafe_bootstrap", "detach-cluster"})
# A member noun, then what is done to it: `cluster leave`, `peer detach`, `osd out 3`, `standby promote`.
_MEMBER_NOUNS = frozenset("cluster peer peers node nodes member members server servers raft osd mon replica "
                          "standby secondary slave broker brokers instance".split())
_MEMBER_VERBS = frozenset("leave forget detach out evict kick decommission promote takeover".split())
_FAILOVER = frozenset({"failover", "switchover", "takeover"})
_FORCED = lazy(r"^(--?force|-f|force|takeover|--yes|-y|--force-data-loss|--data-protection-mode=force-data-loss|"
               r"--force-failover|--skip-checks|--immediate|--unsafe)$", 0)
_ALL = frozenset({"--all", "-a", "all", "*"})
_DB_CONTROL = lazy(r"^pg_ctl(cluster)?$|(sql|db|pg|my)\w*(ctl|admin)$")


def _operands(texts: list) -> list:
    return [t.lower() for t in texts if not t.startswith("-")][:6]


def rule_membership_changed(c: Ctx) -> Optional[tuple]:
    """A member removed, a failover forced, a standby promoted, every node in standby."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if "--help" in lowered or "-h" in lowered and len(lowered) <= 2:
        return None
    ops = _operands(texts)
    forced = any(_FORCED.match(t) for t in lowered)
    fused = next((t for t in ops[:4] if _FUSED.match(t)), None)
    if fused is not None:
        level = HIGH if fused in _LOSES_DATA else MEDIUM
        return level, f"{c.prog} {fused} changes the cluster's members or leader by force ({c.text})"
    for noun, verb in zip(ops, ops[1:]):
        if noun not in _MEMBER_NOUNS:
            continue
        if verb in _MEMBER_VERBS and (verb != "promote" or noun in ("standby", "replica", "secondary", "slave")):
            return MEDIUM, f"{c.prog} {noun} {verb} takes a member out of the cluster or over its lead ({c.text})"
        if verb == "standby" and _ALL & set(lowered):
            return MEDIUM, f"{c.prog} {noun} standby --all moves every resource off every node ({c.text})"
    failover = next((t for t in ops[:4] if t in _FAILOVER), None)
    if failover is not None and (forced or "takeover" in ops or "cluster" in ops[:2]):
        return MEDIUM, f"{c.prog} {failover} moves the primary to another node by force ({c.text})"
    if any(ops[k:k + 3] in (["replicaof", "no", "one"], ["slaveof", "no", "one"]) for k in range(len(ops))):
        return MEDIUM, f"{c.prog} detaches the replica from its primary: it takes writes of its own ({c.text})"
    if "promote" in ops[:4] and _DB_CONTROL.search(c.prog.lower()):  # `pg_ctl promote`, `pg_ctlcluster 15 main promote`
        return MEDIUM, f"{c.prog} promote turns the standby into a primary beside the old one ({c.text})"
    votes = next((k for k, t in enumerate(lowered[:-1]) if t in ("expected", "expected-votes", "--expected-votes")
                  or t == "-e" and "quorum" in c.prog.lower()), None)
    if votes is not None and lowered[votes + 1] == "1":
        return MEDIUM, f"{c.prog} sets the quorum to one vote: a cut-off node runs alone (split brain) ({c.text})"
    if "--force-rewind" in lowered:
        return MEDIUM, f"{c.prog} --force-rewind discards the node's divergent data to rejoin ({c.text})"
    if ops[:2] in (["resource", "disable"], ["resource", "stop"], ["resource", "ban"]) or \
            "--ban" in lowered and ("--resource" in lowered or "-r" in lowered):
        return MEDIUM, f"{c.prog} stops a cluster resource on every node that runs it ({c.text})"
    return None


_TRIGGERS = lazy(r"(^|[ _:-])(leave|forget|remove|del|detach|evict|kick|assassinate|failover|switchover|takeover|"
                 r"promote|standby|rewind|ban|disable|stop|bootstrap|decommission|expected|quorum|replicaof|slaveof)|"
                 r"(^| )(out|-e)( |$)")


@triggered_by(_TRIGGERS, otherwise=False)
def may_change_membership(c: Ctx) -> bool:
    return bool(_TRIGGERS.search(c.lowered))
