"""Effect: a cluster's or a storage system's member deleted by an option word that fuses the verb with the member.

Admin tools of storage, cluster and network systems often take their actions as options, the verb run into
the kind of member it removes: ``tgtctl --deletetarget 12``, ``beegfs-ctl --removenode --nodetype=storage 3``,
``gridadm --delete-node n3``, ``nfsadm --delete-export /srv/projects``, ``meshctl --del-peer 10.0.0.4``.  A
target, node, export or peer removed stops serving whoever used it (the disks behind an iSCSI target, a
file system's storage node); a workflow's or a scheduler's stored work removed (``--delete-run r1``,
``--deletejob 12``, ``--delete-experiment e1``) takes its results and history.  The vocabulary reads such
options when their object holds data (``--removevolume``, ``-delete_user``); this reads the members of systems
and the units of work, which alone say nothing (``node`` is also a language).

Quiet: the same verbs on parts of a file (``--remove-tag v1``, ``--remove-args quiet``, ``--deleteProperty``,
``--delete-after``), a host removed by a hosts-file editor (``hostctl --remove-host app.local``: one line of
/etc/hosts), an option given no value, package managers, and listings.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verbs import PACKAGE_TOOLS

# A workflow or job system's stored work: a run, a job, an experiment, removed with its results and history.
_WORK = "job|jobs|run|runs|workflow|workflows|experiment|experiments|pipeline|pipelines|dag|dags"
_WORK_KINDS = frozenset(_WORK.split("|"))
# What a cluster, storage or network system is made of: removed, it no longer serves (not in DATA_NOUNS).
_MEMBERS = ("target|targets|node|nodes|host|hosts|peer|peers|member|members|export|exports|share|shares|lun|luns|"
            "initiator|initiators|portal|portals|mount|mountpoint|brick|bricks|osd|mds|ost|mdt|replica|shard|"
            "tenant|site|sites|zone|realm|vserver|svm|lif|vdisk|mdisk|array|raid|spare|nsd|fileset|quota|"
            "agent|agents|worker|workers|broker|brokers|datanode|storagenode|metanode|server|servers|backend|"
            "backends|upstream|upstreams|gateway|gateways|" + _WORK)
# `--deletetarget`, `--delete-node`, `-removenode`, `--del_peer`, `--rmtarget`: one or two dashes, the verb, an
# optional separator, the member, nothing after.
_FUSED = lazy(r"^--?(?:delete|remove|del|rm|destroy|purge|drop)[-_]?(" + _MEMBERS + r")(?:=(.*))?$", re.IGNORECASE)
_LOOKS = frozenset({"list", "ls", "show", "status", "info", "get", "help", "--help", "-h", "--list", "-l"})


@triggered_by(("del", "rm", "remove", "destroy", "purge", "drop"))
def rule_fused_member_option(c: Ctx) -> Optional[tuple]:
    """``--deletetarget 12``, ``--removenode --nodetype=storage 3``, ``--del-peer 10.0.0.4``."""
    texts = c.texts
    prog = c.prog.lower()
    if not texts or prog in READ_ONLY or prog in PACKAGE_TOOLS or set(t.lower() for t in texts) & _LOOKS:
        return None
    hosts_file = "host" in prog  # `hostctl`, `hostess`: their hosts are lines of /etc/hosts
    for k, t in enumerate(texts):
        if t[:1] != "-":
            continue
        m = _FUSED.match(t)
        if m is None or hosts_file and m.group(1).lower().startswith("host"):
            continue
        value = m.group(2) or next((w for w in texts[k + 1:] if w[:1] != "-"), "")
        if not value:
            return None
        kind = m.group(1).lower()
        if kind in _WORK_KINDS:
            return MEDIUM, f"{c.prog} {t.split('=', 1)[0]} deletes the {kind} {value} with its results and history " \
                f"({c.text})"
        return MEDIUM, f"{c.prog} {t.split('=', 1)[0]} removes the {kind} {value}: what it served stops being " \
            f"served ({c.text})"
    return None
