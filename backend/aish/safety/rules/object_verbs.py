"""Effect: verbs that destroy only on some objects, for programs no rule names.

``format`` is mostly code or output (``clang-format``, ``--format json``, ``dart format lib/``), but a
disk, volume or card formatted loses what it held (``nasctl volume format vol2``, ``hdfs namenode
-format``).  ``rebuild`` and ``reimage`` are mostly builds and indexes, but a server, VM or instance
rebuilt or reimaged is installed afresh over its disk (``hcloud server rebuild web1 --image …``, ``az vmss
reimage``; ``recreate`` is left out: BOSH's keeps the persistent disks).  ``close`` is mostly a tab or an
issue, but an account or a subscription closed is gone with what it held; ``release`` is mostly a
version, but a reserved public address released is lost to whoever takes it next.  So the verb counts
only with its object, read from the subcommand words (``volume format``, ``format-disk``) or from an
option naming it (``format --disk 2``); a word that only shows, lists or creates (``release create``,
``disk list --format table``) says the verb is not the action.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.action import is_option_value
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word

_STORAGE = frozenset("""
disk disks drive drives volume volumes vol vols partition partitions card cards sdcard sd media tape tapes lun luns
vdisk vdisks filesystem filesystems fs storage ssd hdd emmc usb namenode datastore array arrays
""".split())
_MACHINES = frozenset("""
server servers vm vms machine machines instance instances node nodes host hosts droplet droplets linode linodes
vps guest guests baremetal metal vmss scaleset scalesets
""".split())
_ACCOUNTS = frozenset("""
account accounts subscription subscriptions organization organizations org orgs tenant tenants membership
""".split())
_ADDRESSES = frozenset({"ip", "ips", "address", "addresses", "eip", "eips", "publicip", "elasticip", "floatingip"})
# verb words -> (the objects they destroy, what is said)
_ROWS = (
    (frozenset({"format", "lowlevelformat"}), _STORAGE, "formats {obj}: what it held is lost"),
    (frozenset({"rebuild", "reimage", "reinstall", "repave", "reprovision"}), _MACHINES,
     "installs {obj} afresh over its disk: what it held is lost"),
    (frozenset({"close"}), _ACCOUNTS, "closes {obj}: it goes with what it held"),
    (frozenset({"release"}), _ADDRESSES, "releases {obj}: a reserved address, once released, is not got back"),
)
_VERB_PIECES = ("format", "rebuild", "reimage", "reinstall", "repave", "reprovision", "close", "release")
# Words that make the line a look or a creation: the verb word is then a name or a kind (`release create`).
_NOT_THE_ACTION = frozenset("""
list ls show get describe status info view new add create update set edit help inspect history logs log
""".split())
_READ = 5  # leading words read


@triggered_by(*_VERB_PIECES)
def rule_object_verb(c: Ctx) -> Optional[tuple]:
    """``volume format vol2``, ``server rebuild web1``, ``account close``, ``ip release 203.0.113.5``."""
    texts = c.texts
    if not texts or c.prog in READ_ONLY or not any(v in t for t in texts[:8] if t[:1] != "/" for v in _VERB_PIECES):
        return None  # the verb is in no leading word
    words = [t for k, t in enumerate(texts) if t[:1] not in "-/" and not (k and is_option_value(texts, k))][:_READ]
    if set(words) & _NOT_THE_ACTION:
        return None
    split = [split_word(w.lower()) for w in words]
    named = [split_word(t.lstrip("-").split("=", 1)[0].lower()) for t in texts if t.startswith("-") and len(t) > 2]
    options = [p for parts in named for p in parts]
    split += [parts for parts in named if len(parts) > 1]  # `--format-disk 2`: a fused option, verb first
    for verbs, objects, says in _ROWS:
        for parts in split:
            verb = next((p for p in parts if p in verbs), None)
            if verb is None:
                continue
            own = [p for p in parts if p != verb]
            if own and parts[0] != verb:
                continue  # `media_format`, `output-format`: a kind of format, not the verb
            # a fused word names its own object (`reimage-instance`; `rebuild-index` is not a machine)
            found = [p for p in own if p in objects] if own else \
                [p for ps in split for p in ps if p in objects] + [p for p in options if p in objects]
            if found:
                scope = HIGH if "all" in texts or "--all" in texts else MEDIUM
                return scope, f"{c.prog} {says.format(obj='the ' + found[0])} ({c.text})"
    return None
