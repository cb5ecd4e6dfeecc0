"""Effect: destruction carried in an option's VALUE (or a ``key=value``), for any program.

The option's name alone says little (``--mode``, ``--set``, ``-e``, ``--election-type``); its value
decides, and a program no rule names says it the same way as one that has a rule:

- a delete option given everything or true: ``--delete="*"``, ``--delete-destination=true``,
  ``--delete-policy=DELETE``, ``--maxDeletes -1``, ``--action-on-unmanage deleteAll``;
- a ``key=true`` whose key says remove, purge, drop, wipe or destroy, wherever it is written (``-e
  purge_data=true``, ``-a 'state=absent remove=yes'``, ``--set persistence.deleteClaim=true``,
  ``remove_data=bool:True``, ``pillar='{"wipe_disks": True}'``); keys that protect (``deletion_protection``)
  or delete later (``DeleteOnTermination``) stay quiet, as do false values;
- a deployment told to delete what its template does not name (``-Mode Complete``, ``--mode Complete``;
  a what-if stays quiet), a sync told to prune (``argocd app sync --prune``);
- a full refresh aimed at production (``dbt run --full-refresh --target prod``): its tables are rebuilt
  from nothing while readers use them;
- a storage's metadata formatted (``kafka-storage format``, ``hdfs namenode -format``, ``bookkeeper shell
  metaformat``), and node tools' unsafe subcommands (``elasticsearch-node unsafe-bootstrap``,
  ``repurpose``, ``nodetool assassinate``);
- data loss accepted: ``--election-type unclean``, ``terraform init -force-copy`` (the backend's state
  replaced), ``unclean.leader.election.enable=true``,
  ``--force-new-cluster``, ``--accept-data-loss``;
- the transaction log's chain broken, in any client's words (``-RecoveryModel Simple``, ``SET RECOVERY
  SIMPLE``, ``RESET MASTER``, ``archive_mode = off``, ``wal_level = minimal``): point-in-time recovery is gone.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.remote import PROD
from aish.safety.verb_words import split_word

# Any of these in the lowered line: the only lines read further.
_GATE = LazyRegex(r"really|i-know|understand|own-risk|dangerous|destroy-my|expected|unblock|-e 1|replace|backup|"
                  r"delet|remov|purg|wip|destroy|drop|eras|prune|complete|full[-_]?refresh|format|force-copy|"
                  r"unsafe|repurpose|assassinate|unclean|force-new-cluster|data-loss|recovery|reset (master|binary)|"
                  r"archive_mode|wal_level|truncate_only|no_log|fsync|full_page_writes")
_DELETE_WORDS = frozenset({"delete", "deletes", "remove", "purge", "prune", "wipe", "destroy", "drop", "erase",
                           "nuke", "truncate", "deleted", "removed"})
# Words of a key that protect, or delete only later or what is not kept: not destruction now.
_NOT_NOW = frozenset({"protection", "protect", "protected", "prevent", "lock", "locked", "retain", "retention",
                      "keep", "skip", "dry", "termination", "orphans", "after", "before", "confirm", "on", "disable",
                      "disabled", "no", "not", "never", "allow", "prompt", "ask", "warn", "empty", "trailing",
                      "whitespace", "duplicates", "comments", "unused", "max", "min", "older", "than", "days",
                      "cap"})  # `--cap-drop=ALL`: a container's capabilities dropped, which hardens it
_TRUE = frozenset({"true", "yes", "on", "1", "y", "bool:true", "always", "*", "all", "everything", "**"})
# Values that delete, for any option (`--action-on-unmanage deleteAll`, `--delete-policy=DELETE`).
_DELETING_VALUES = frozenset({"deleteall", "deleteresources", "purgeall", "destroyall"})
# `key=value` pairs anywhere in the line (quoted code and JSON too): the key, then a true value.
_PAIR = LazyRegex(r"""([A-Za-z][\w.-]*)["']?\s*(?:=|:\s)\s*["']?(bool:)?(true|yes|on|1|y)\b""", re.IGNORECASE)
_FALSE = frozenset({"false", "no", "off", "0", "n", "never", "bool:false"})
_STORAGE = LazyRegex(r"kafka|hdfs|hadoop|bookkeeper|pulsar|zookeeper|zk|ceph|namenode|journalnode|ledger|storage",
                     re.IGNORECASE)
_FORMATS = frozenset({"format", "-format", "metaformat", "formatfilesystem", "-formatfilesystem"})
_NODE_TOOL_VERBS = frozenset({"repurpose", "detach-cluster", "assassinate", "remove-settings", "remove-customs"})
_LOSS_OPTIONS = frozenset({"-force-copy", "--force-copy", "--force-new-cluster", "--accept-data-loss",
                           "--allow-data-loss", "--force-data-loss",
                           "--data-loss-ok"})
_FULL_REFRESH = LazyRegex(r"^(--)?full[-_]?refresh(=true)?$|^--refresh-full$|^--full-reload$", re.IGNORECASE)
_LOG_CHAIN = LazyRegex(r"set\s+recovery\s+simple|-recoverymodel\s+simple|--recovery-model[= ]simple|"
                       r"\breset\s+(master|binary\s+logs)\b|archive_mode\s*(=|to)\s*'?off|"
                       r"wal_level\s*(=|to)\s*'?minimal|with\s+(truncate_only|no_log)\b|"
                       r"\bfsync\s*(=|to)\s*'?off|full_page_writes\s*(=|to)\s*'?off")
_PREVIEWS = frozenset({"plan", "diff", "template", "validate", "lint", "show", "what-if", "preview", "render",
                       "describe", "get", "list", "ls", "status", "explain"})
_WHAT_IF = frozenset({"what-if", "validate", "-whatif", "--what-if", "test-azresourcegroupdeployment", "preview"})


@triggered_by(_GATE, otherwise=False)
def may_carry(c: Ctx) -> bool:
    """A cheap test before the readings: one search of the lowered line."""
    return bool(_GATE.search(c.lowered)) and c.prog != "git"


def rule_option_value(c: Ctx) -> Optional[tuple]:
    """Destruction said by a value: see the module's docstring."""
    if set(t.lower() for t in c.texts[:3] if not t.startswith("-")) & _PREVIEWS:
        return None  # `terraform plan -var force_destroy=true`, `helm template --set x.deleteClaim=true`
    values = _values(c)  # read once: five of the readings below ask for them
    return _really(c) or _quorum_forced(c) or _log_chain(c) or _replaced_resource(c, values) or \
        _backups_kept(c, values) or _deleting_option(c, values) or _true_pair(c) or _deployment_mode(c, values) or \
        _full_refresh(c, values) or _storage_format(c) or _loss_accepted(c, values)


def _values(c: Ctx) -> list:
    """(option name, value) for every option given a value, by `=` or as the next word."""
    out = []
    for k, t in enumerate(c.texts):
        if not t.startswith("-") or len(t) < 2:
            continue
        name, eq, value = t.partition("=")
        if not eq and k + 1 < len(c.texts):
            value = c.texts[k + 1]
        out.append((name, value.strip("'\"")))
    return out


# A tool's own clean-up verb: its prune option is how old a cache or a version may be (`brew cleanup --prune=all`)
_CLEANUPS = frozenset({"cleanup", "clean", "gc", "autoclean"})


def _deleting_option(c: Ctx, values: list) -> Optional[tuple]:
    if _CLEANUPS.intersection(t.lower() for t in c.texts[:2]):
        return None
    for name, value in values:
        parts = split_word(name.lstrip("-"))
        low = value.lower()
        if re.sub(r"[-_]", "", low) in _DELETING_VALUES:
            return MEDIUM, f"{c.prog} {name} {value} deletes what it no longer names ({c.text})"
        if not set(parts) & _DELETE_WORDS or set(parts) & _NOT_NOW - {"max"}:
            continue
        if "max" in parts and low.lstrip("-").isdigit() and low.startswith("-"):
            return MEDIUM, f"{c.prog} {name} {value}: no limit on what it deletes at the target ({c.text})"
        if low in _TRUE or low in ("delete", "purge", "destroy", "remove", "drop"):
            return MEDIUM, f"{c.prog} {name}={value} deletes at the target what the source does not have " \
                f"({c.text})"
    return None


def _true_pair(c: Ctx) -> Optional[tuple]:
    line = " ".join(c.texts)
    for m in _PAIR.finditer(line):
        parts = split_word(m.group(1).rsplit(".", 1)[-1])
        if set(parts) & _DELETE_WORDS and not set(parts) & _NOT_NOW:
            return MEDIUM, f"{c.prog} sets {m.group(1)} to {m.group(3)}: what it names is deleted ({c.text})"
    return None


def _deployment_mode(c: Ctx, values: list) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    if set(lowered) & _WHAT_IF or c.prog.lower() in _WHAT_IF:
        return None
    deploys = "deployment" in c.prog.lower() or "deployment" in lowered
    for name, value in values:
        if deploys and name.lower() in ("-mode", "--mode") and value.lower() == "complete":
            return MEDIUM, f"{c.prog} {name} Complete deletes every resource the template does not name ({c.text})"
    if "sync" in lowered and "--prune" in lowered:
        return MEDIUM, f"{c.prog} sync --prune deletes every resource the source no longer has ({c.text})"
    return None


def _full_refresh(c: Ctx, values: list) -> Optional[tuple]:
    given = [v for _, v in values]
    refresh = next((t for t in c.texts + given if _FULL_REFRESH.match(t)), None)
    if refresh is None:
        return None
    aimed = [v for name, v in values if name.lower() in ("--target", "-t", "--environment", "-e", "--env",
                                                              "--tgt-conn", "--profile", "--target-path")]
    if not any(PROD.search(v.replace("_", " ")) for v in aimed):
        return None
    return MEDIUM, f"{c.prog} {refresh} rebuilds production's tables from nothing: what they hold is dropped " \
        f"first ({c.text})"


def _storage_format(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    said = next((t for t in lowered if t in _FORMATS), None)
    if said is not None and _STORAGE.search(c.prog + " " + " ".join(lowered[:2])):
        return MEDIUM, f"{c.prog} {said} formats the storage's data or metadata: what it held is gone ({c.text})"
    node = next((t for t in lowered[:2] if t in _NODE_TOOL_VERBS or t.startswith(("unsafe-", "unsafe_"))), None)
    if node is not None:
        return MEDIUM, f"{c.prog} {node} rewrites the node's cluster state past its safety checks: data can be " \
            f"lost ({c.text})"
    return None


def _loss_accepted(c: Ctx, values: list) -> Optional[tuple]:
    said = next((t for t in c.texts if t.split("=", 1)[0].lower() in _LOSS_OPTIONS), None)
    if said is None:
        said = next((f"{name} {v}" for name, v in values if v.lower() == "unclean"), None)
    if said is None:
        said = next((m.group(0) for m in _PAIR.finditer(" ".join(c.texts)) if "unclean" in m.group(1).lower()), None)
    if said is None:
        return None
    return MEDIUM, f"{c.prog} {said}: committed data can be lost ({c.text})"


def _log_chain(c: Ctx) -> Optional[tuple]:
    line = " ".join([c.prog] + c.texts).lower()
    found = _LOG_CHAIN.search(line)
    if found is None:
        return None
    return MEDIUM, f"{found.group(0)} breaks the transaction log's chain: point-in-time recovery and replicas " \
        f"that need it are lost ({c.text})"


# Infrastructure tools whose `-replace ADDRESS` destroys a resource and creates it again, empty.
_REPLACERS = frozenset({"terraform", "tofu", "terragrunt", "pulumi"})
_REPLACE_OPTIONS = frozenset({"-replace", "--replace", "--target-replace"})
# Resources that hold data: replacing a stateless one (a VM from an image, a rule) loses nothing.
_STATEFUL = LazyRegex(r"db|database|sql|rds|volume|disk|bucket|storage|redis|elasticache|dynamo|table|cluster|"
                      r"filesystem|efs|fsx|kms|key|secret|vault|snapshot|cache|queue|topic", re.IGNORECASE)


def _replaced_resource(c: Ctx, values: list) -> Optional[tuple]:
    if c.prog.lower() not in _REPLACERS:
        return None
    said = next((v for name, v in values if name.lower() in _REPLACE_OPTIONS and _STATEFUL.search(v)), None)
    if said is None:
        return None
    return MEDIUM, f"{c.prog} replaces {said}: it is destroyed and created again, with none of its data " \
        f"({c.text})"


_KEPT = frozenset({"retention", "retained", "keep", "kept", "count", "period", "days", "copies"})


def _backups_kept(c: Ctx, values: list) -> Optional[tuple]:
    """Backups kept for zero days or zero copies: the service deletes the ones it has and takes no more."""
    for name, value in values:
        parts = set(split_word(name.lstrip("-")))
        if parts & {"backup", "backups"} and parts & _KEPT and value.strip() == "0":
            return MEDIUM, f"{c.prog} {name} 0 deletes the automated backups and takes no more ({c.text})"
    return None


# A tool's own "I really mean it" switch: it exists because what it unlocks loses data.
_REALLY = LazyRegex(r"^--?(yes-?)?(i-?)?really(-really)?(-?mean-?it)?$|^--?(yes-?)?i-?know-?what-?i-?am-?doing$|"
                    r"^--?please-destroy-my-\w+$|^--?i-?understand[\w-]*$|^--?at-my-own-risk$|"
                    r"^--?(force-)?dangerous(ly)?([-_]\w+)*$|^--?yes-i-really-really-mean-it$", re.IGNORECASE)


def _really(c: Ctx) -> Optional[tuple]:
    said = next((t for t in c.texts if _REALLY.match(t.split("=", 1)[0])), None)
    if said is None:
        return None
    return MEDIUM, f"{c.prog} {said}: the tool's own switch for what it refuses to do without it, a loss of data " \
        f"or of redundancy ({c.text})"


_QUORUM_TOOL = LazyRegex(r"pvecm|corosync|^pcs$|quorum")


def _quorum_forced(c: Ctx) -> Optional[tuple]:
    """The votes a cluster needs forced down to one, or its wait for quorum lifted."""
    if not _QUORUM_TOOL.search(c.prog.lower()):
        return None
    lowered = [t.lower() for t in c.texts]
    one = any(t in ("expected", "expected-votes", "-e") and n == "1" for t, n in zip(lowered, lowered[1:]))
    if not (one or "quorum" in lowered and "unblock" in lowered):
        return None
    return MEDIUM, f"{c.prog} forces quorum: a split cluster can run on both sides and overwrite each other's " \
        f"data ({c.text})"

