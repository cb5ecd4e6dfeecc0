"""Effect: a cluster's or a storage system's member deleted by an option word that fuses the verb with the member.

Admin tools of storage, cluster and network systems often take their actions as options, the verb run into
the kind of member it removes: ``tgtctl --deletetarget 12``, ``beegfs-ctl --removenode --nodetype=storage 3``,
``gridadm --delete-node n3``, ``nfsadm --delete-export /srv/projects``, ``meshctl --del-peer 10.0.0.4``.  A
target, node, export or peer removed stops serving whoever used it (the disks behind an iSCSI target, a
file system's storage node).  The vocabulary reads such options when their object holds data (``--removevolume``,
``-delete_user``); this reads the members of systems, which alone say nothing (``node`` is also a language).

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

# What a cluster, storage or network system is made of: removed, it no longer serves (not in DATA_NOUNS).
_MEMBERS = ("target|targets|node|nodes|host|hosts|peer|peers|member|members|export|exports|share|shares|lun|luns|"
            "initiator|initiators|portal|portals|mount|mountpoint|brick|bricks|osd|mds|ost|mdt|replica|shard|"
            "tenant|site|sites|zone|realm|vserver|svm|lif|vdisk|mdisk|array|raid|spare|nsd|fileset|quota|"
            "agent|agents|worker|workers|broker|brokers|datanode|storagenode|metanode|server|servers|backend|"
            "backends|upstream|upstreams|gateway|gateways")
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
        return MEDIUM, f"{c.prog} {t.split('=', 1)[0]} removes the {m.group(1).lower()} {value}: what it served " \
            f"stops being served ({c.text})"
    return None
