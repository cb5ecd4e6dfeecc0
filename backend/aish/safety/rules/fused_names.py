"""Effect: the removing verb carried by a program's name or a single-dash option, for any program.

Storage arrays, appliances and old Unix suites spell their deletes without a subcommand:

- ``rm`` fused to the front of what it removes (IBM SVC/HMC/DS8K and AIX: ``rmvdiskhostmap -host H vol``,
  ``rmfcmap -force X``, ``rmmdiskgrp -force Pool0``, ``rmsyscfg -r lpar``): the rest of the name is made of
  infrastructure nouns (disk, host, map, grp, cfg, lpar, vol, port, ...).  ``rmdir``, ``rmlint``, ``rmate``,
  ``rmic``, ``rman`` have no such noun and stay quiet.
- ``rm`` fused to the end of a filesystem's or a store's name (``s3qlrm DIR``, ``megarm /Root/Backups``,
  ``hdfsrm PATH``) given a path to remove; English words ending in ``rm`` (``xterm``, ``alarm``, ``confirm``)
  are not such names.
- The end of a whole thing in the name or a first word: ``decommission`` (``nbdecommission -oldserver H``),
  ``self-destruct`` (``tootctl self-destruct``), ``revoke`` fused to its object (``ra revokeendentity``), a
  product's bare ``-cleanup`` uninstaller (``engine-cleanup``; caches' and builds' cleanups stay quiet).
- A single-dash verb option (``bpplclients P -delete host``, ``scstadmin -clear_config -force``,
  ``naviseccli storagegroup -removehlu``): X11-style tools take their verbs as options.
- A volume cut off from the hosts that use it (``purehost disconnect --vol V H``, ``lun unmap -igroup G``,
  ``removevlun vol0 0 host1``).
Listings, help and dry runs stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.any_case import AnyWord
from aish.safety.lazy_regex import lazy

_NOUN_ROOTS = ("disk", "host", "map", "grp", "group", "cfg", "conf", "vol", "lpar", "pool", "port", "conn",
               "cluster", "partner", "rel", "snap", "lun", "node", "share", "array", "zone", "user", "part",
               "copy", "mirror", "repl", "site", "quota", "fset", "export", "target", "iogrp", "rank", "fbvol",
               "ckd", "lcu", "pprc", "flash", "vdisk", "mdisk", "lv", "vg", "pv", "dev", "fs", "db", "vm")
_RM_REST_NOT = frozenset({"dir", "lint", "ate", "trash", "mod", "ic", "id", "iregistry", "an", "ail", "t", "s",
                          "ake", "ore", "p", "v", "c", "ap"})
_ARM_WORDS = frozenset({"arm", "farm", "harm", "warm", "alarm", "charm", "swarm", "disarm", "forearm", "firearm",
                        "rearm", "unarm", "barm", "marm"})
_LOOKS = frozenset({"-h", "--help", "-help", "help", "--version", "--dry-run", "--dryrun", "list", "ls", "show",
                    "status", "info", "-list", "-ls"})
_SUBCOMMANDS = frozenset({"use", "test", "add", "set", "get", "current", "home", "login", "run", "init", "ls",
                          "list", "show", "help", "info", "status", "version", "config", "search"})
_SELF_DESTRUCT = re.compile(r"self[-_]?destruct")
_REVOKE_FUSED = re.compile(r"revoke(all)?[a-z]{2,}")
_REVOKE_NOT = frozenset({"revoked", "revokes", "revoker", "revoking", "revokelist"})
_CLEANUP_OWNERS = frozenset({"engine", "server", "cluster", "node", "setup", "install", "master", "controller",
                             "manager", "platform", "appliance", "suite", "product", "agent", "portal"})
_DASH_VERB = re.compile(r"^-(delete|remove|destroy|purge|erase|wipe|clear|drop|deleteall|removeall)"
                        r"([_a-z]*)$")
_DASH_NOT = frozenset({"convert", "magick", "mogrify", "montage", "composite", "gm", "find", "xset", "xsel",
                       "xclip", "xdotool", "ffmpeg"})
_UNMAP_VERBS = frozenset({"disconnect", "unmap", "unexport", "unpresent", "unassign", "unmask", "detach"})
_VOLUME = lazy(r"vol|lun|volume|vdisk")
_HOSTS = lazy(r"host|igroup|hgroup|initiator|view|hba")


def _name(c: Ctx) -> str:
    name = c.prog.lower().rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    return re.sub(r"\.(sh|exe|bat|cmd|pl|py)$", "", name)


# What each finding of ``rule_fused_names`` holds in the line: `rm` (a name or first word that starts or ends with
# it), an end word (`decommission`, self-`destruct`, `revoke…`, `…-cleanup`), a dash verb (`-delete…`), or a volume's
# word (a volume cut off from its hosts names one).  The gate's own test of a first word's two letters (`-d`, `re`,
# `un`) woke it on most lines as its words.
_FOUND_WORDS = AnyWord("rm", "decommission", "destruct", "revoke", "cleanup", "-delete", "-remove", "-destroy",
                       "-purge", "-erase", "-wipe", "-clear", "-drop", "vol", "lun", "vdisk")


_HEADS = frozenset({"-d", "-r", "-p", "-e", "-w", "-c", "se", "re", "de", "di", "un", "rm"})


@triggered_by(_FOUND_WORDS.words, otherwise=False)
def may_carry(c: Ctx) -> bool:
    """Cheap: the name starts or ends with rm or holds an end word, or a first word's two letters could start one;
    and one of the words every finding holds is in the line."""
    if not _FOUND_WORDS.occurs_in(c.prog + " " + c.lowered):
        return False
    name = c.prog.lower()
    if name[:2] == "rm" or name[-2:] == "rm" or "decomm" in name or "destruct" in name or "revoke" in name or \
            name.endswith(("cleanup", ".sh", ".exe")):
        return True
    return any(t[:2] in _HEADS for t in c.texts[:12])


def _rm_name(name: str, operands: list) -> Optional[str]:
    if name.startswith("rm") and len(name) > 4:
        rest = name[2:].replace("-", "").replace("_", "")
        if rest not in _RM_REST_NOT and any(root in rest for root in _NOUN_ROOTS):
            return f"{name} is named for removing a {rest}"
    if name.endswith("rm") and 3 <= len(name) <= 9 and operands and not name.endswith(("-rm", "_rm")):  # tool_clones
        prefix = name[:-2].rstrip("-_")
        first = operands[0].lower()
        if first in _SUBCOMMANDS or "/" not in first:  # `atrm 12`, `crm node standby`: not a stored path
            return None  # `nrm use registry`: a manager's own subcommand, not a thing removed
        if prefix and prefix[-1] not in "aeiou" and not name.endswith(("term", "form", "firm")) or \
                prefix.endswith("a") and name not in _ARM_WORDS and "/" in first and \
                not name.endswith(("alarm", "swarm", "charm", "farm", "warm", "harm", "parm")):
            return f"{name} is a store's rm: {operands[0]} is removed"
    return None


def _end_word(name: str, words: list) -> Optional[str]:
    for w in [name] + words[:3]:
        if "decommission" in w:
            return f"{w}: the server or node it names is decommissioned"
        if _SELF_DESTRUCT.search(w):
            return f"{w}: the whole installation deletes itself"
        fused = _REVOKE_FUSED.search(w)
        if fused and fused.group(0) not in _REVOKE_NOT and not w.startswith(("gen-", "gen")):
            return f"{w}: a revoke fused to what it revokes"
    head, _, tail = name.rpartition("-")
    if tail == "cleanup" and head.split("-")[-1] in _CLEANUP_OWNERS and not words:
        return f"{name}: the product's own cleanup removes what it installed"
    return None


def rule_fused_names(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    if set(texts) & _LOOKS:
        return None
    name = _name(c)
    operands = [t for t in texts if not t.startswith("-")]
    words = [t.lower() for t in operands]
    said = _rm_name(name, operands) or _end_word(name, words) or \
        (_rm_name(words[0], operands[1:] or [""]) if words and words[0].startswith("rm") else None)
    if said is None and name not in _DASH_NOT:
        verb = next((t for t in texts if _DASH_VERB.match(t.lower())), None)
        if verb is not None and (operands or {"-force", "-f", "-y", "-o", "-all"} & set(texts)):
            said = f"{verb} is this program's delete"
    if said is None and (set(words[:3]) & _UNMAP_VERBS or
                         any(w.startswith(("remove", "delete")) and _VOLUME.search(w[6:]) for w in [name] + words[:3])):
        joined = " ".join([name] + [t.lower() for t in texts])
        if _VOLUME.search(joined) and _HOSTS.search(joined):
            said = "a volume is cut off from the hosts that use it"
    if said is None:
        return None
    return MEDIUM, f"{said} ({c.text})"
