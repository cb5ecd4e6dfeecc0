"""Splitting a command's words into verbs and nouns: ``delete-db-instance``, ``dropDatabase``,
``unregistervm``, ``db:drop``, ``deletelocalsnapshots``; and how strong a verb is."""
from __future__ import annotations

import re
from functools import lru_cache

from aish.safety.verbs import DATA_NOUNS, DELETE, HEAVY, LIGHT_NOUNS, NOMINAL_VERBS, POWER, RESET, WEAK, WEAK_DATA_NOUNS

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SEPARATORS = re.compile(r"[-_:./]+")
_AFFIX_VERBS = tuple(sorted((v for v in HEAVY | DELETE | RESET if len(v) >= 4), key=len, reverse=True)) + \
    tuple(sorted((v for v in WEAK if len(v) >= 8), key=len, reverse=True))  # unregistervm
_AFFIX_PREFIXES = {"lv", "vg", "pv", "ipc", "user", "group", "db", "fs", "vm"}
_ALL_VERBS = HEAVY | DELETE | RESET | WEAK
_ALL_VERBS_AND_CLOSE = frozenset(_ALL_VERBS | {"close"})  # verbs read before `all` (`closeallchannels`)
# Words that say which of the things a verb takes (`dropunused`, `deleteold`, `pruneorphaned`).
_QUALIFIERS = frozenset({"unused", "old", "stale", "expired", "orphaned", "orphans", "merged", "local", "remote",
                         "others", "inactive", "untracked"})
# Verbs long enough to be read at the end of a fused word, and the heads that turn them around
# (`noremove`, `autoremove`: a package tool's own, `undelete`).
_FUSED_TAILS = ("delete", "destroy", "remove", "expunge", "obliterate", "purge")
_NOT_A_PREFIX = frozenset({"no", "not", "dont", "un", "auto", "skip", "pre", "post", "on", "can", "allow", "keep",
                           "safe", "soft", "undo", "re", "ask", "confirm", "prevent", "protect", "disable", "to",
                           "will", "marked", "pending", "should", "may", "must", "do", "did", "being", "be"})
# Nouns read after a fused `del`/`rm` only (`pvecm delnode`, `delpeer`): too common to be data elsewhere.
_FUSED_NOUNS = frozenset({"node", "nodes", "peer", "peers", "member", "members", "host", "hosts", "princ", "vm",
                          "broker", "brokers", "conf"})  # `mqsideletebroker`, Serviceguard's `cmdeleteconf`
# An abbreviation fused before `del`/`rm` (`qdel`, `dsrm`, `lprm`): consonants only; before `rm` at least two,
# since one letter and `rm` is a name of its own (`crm`, the cluster shell; `drm_info`, the display driver's).
_ABBREVIATION = {"del": r"[b-df-hj-np-tv-z]{1,3}", "rm": r"[b-df-hj-np-tv-z]{2,3}"}
# Each loop over fused verbs below is entered only when one of them starts (or ends) the piece: one call of
# str.startswith with the tuple, not one per verb (most pieces hold none; ~1% of a first pass's instructions).
_DEL_RM = ("del", "rm")
_WEAK_PREFIXES = ("clear", "flush", "kill", "evict", "revoke", "drain")
_LONG_NOUNS = tuple(sorted((n for n in DATA_NOUNS | LIGHT_NOUNS if len(n) >= 5), key=len, reverse=True))
_ABBREVIATED = {short: re.compile(pattern) for short, pattern in _ABBREVIATION.items()}
# Most pieces neither start nor end with one of the 54 affix verbs: asking each verb ``startswith`` and
# ``endswith`` was most of what splitting a word cost.  The verbs a piece starts or ends with are found by
# slicing it at each verb length instead, and its first and last four letters rule out the rest at once
# (every affix verb has at least four).  They are tried in ``_AFFIX_VERBS`` order, as the loop over all did.
_AFFIX_RANK = {verb: rank for rank, verb in reversed(list(enumerate(_AFFIX_VERBS)))}  # first place of each
_AFFIX_LENGTHS = tuple(sorted({len(verb) for verb in _AFFIX_VERBS}))
_AFFIX_HEADS = frozenset(verb[:4] for verb in _AFFIX_VERBS)
_AFFIX_ENDS = frozenset(verb[-4:] for verb in _AFFIX_VERBS)
_LONG_NOUN_SET = frozenset(_LONG_NOUNS)
_LONG_NOUN_LENGTHS = tuple(sorted({len(noun) for noun in _LONG_NOUNS}, reverse=True))


def _affix_verbs_at_ends(piece: str) -> list:
    """The affix verbs ``piece`` starts or ends with, in ``_AFFIX_VERBS`` order."""
    found = set()
    size_of_piece = len(piece)
    for size in _AFFIX_LENGTHS:
        if size > size_of_piece:
            break
        head, end = piece[:size], piece[size_of_piece - size:]
        if head in _AFFIX_RANK:
            found.add(head)
        if end in _AFFIX_RANK:
            found.add(end)
    return sorted(found, key=_AFFIX_RANK.__getitem__)


def _long_noun_ending(rest: str) -> str:
    """The longest of ``_LONG_NOUNS`` that ends ``rest`` ("" for none): the first in their order, which is by
    length, longest first (two nouns of one length cannot both end a word)."""
    for size in _LONG_NOUN_LENGTHS:
        if size <= len(rest) and rest[-size:] in _LONG_NOUN_SET:
            return rest[-size:]
    return ""


def split_word(word: str) -> list:
    """``delete-db-instance`` -> delete, db, instance; ``dropDatabase`` -> drop, database;
    ``unregistervm`` -> unregister, vm; ``db:drop`` -> db, drop."""
    # a new list each time (callers may add to it); long words are split afresh, not kept
    return list(_split_kept(word) if len(word) <= _KEPT_LENGTH else _split(word))


def _split(word: str) -> tuple:
    if word.isalnum() and word.islower():  # no separator, no capital (`status`, `rm2`): one piece
        return _affixes(word)
    return _split_pieces(word)


def _split_pieces(word: str) -> tuple:
    """The whole reading (separators, camel case, acronyms); ``_split`` skips it where it is one piece."""
    parts: list = []
    for chunk in _SEPARATORS.split(word):
        pieces = _CAMEL.split(chunk)
        if len(pieces) > 1 and len(pieces[-1]) <= 3 and pieces[-1].isupper() and not _is_verb(pieces[-2].lower()):
            # a trailing acronym belongs to the name before it: `WinRM` is not win + rm (`dropDB` is drop + db)
            pieces[-2:] = [pieces[-2] + pieces[-1]]
        for piece in pieces:
            piece = piece.lower()
            if piece:
                parts.extend(_affixes(piece) if len(pieces) == 1 else _compound_piece(piece))
    return tuple(parts)


def _is_verb(piece: str) -> bool:
    return piece in HEAVY or piece in DELETE or piece in RESET or piece in POWER or piece in WEAK


# The split of a whole word, kept: one command's rules split the same words again and again (the
# program's name, its subcommand), and a long pipeline repeats its programs.  Sized for the corpora's ~13,300
# distinct words and parts a pass (4,096 kept a third of them: each pass split 15,000 afresh).
_KEPT_LENGTH = 64
_split_kept = lru_cache(maxsize=32768)(_split)


@lru_cache(maxsize=4096)
def _compound_piece(piece: str) -> tuple:
    """A piece of a camel-case compound: an acronym there is a name, not an abbreviation fused to ``rm``/``del``
    (``Get-FsrmQuota``: File Server Resource Manager, not ``fs`` + ``rm``; ``dsrm`` alone stays ``ds`` + ``rm``)."""
    parts = _affixes(piece)
    if len(parts) == 2 and parts[1] in _ABBREVIATION and re.fullmatch(_ABBREVIATION[parts[1]], parts[0]):
        return (piece,)
    return parts


def _affixes(piece: str) -> tuple:
    return tuple(_split_affixes(piece))


def _split_affixes(piece: str) -> list:
    if piece in HEAVY or piece in DELETE or piece in RESET or piece in POWER or piece in WEAK:
        return [piece]
    if piece in NOMINAL_VERBS:
        return [NOMINAL_VERBS[piece]]
    if piece.endswith("all") and piece[:-3] in _ALL_VERBS:  # stopall, killall, purgeall
        return [piece[:-3], "all"]
    for short in _DEL_RM if piece.startswith(_DEL_RM) or piece.endswith(_DEL_RM) else ():
        if piece.startswith(short) and (piece[len(short):] in DATA_NOUNS or piece[len(short):] in _FUSED_NOUNS) \
                and len(piece) > len(short) + 1:
            return [short, piece[len(short):]]
        if piece.endswith(short) and (piece[:-len(short)] in ("user", "group", "vol", "db", "key", "node") or
                                      _ABBREVIATED[short].fullmatch(piece[:-len(short)])):
            return [piece[:-len(short)], short]  # userdel, groupdel; dsrm, qdel: an abbreviation, then the verb
    for verb in _affix_verbs_at_ends(piece) if piece[:4] in _AFFIX_HEADS or piece[-4:] in _AFFIX_ENDS else ():
        if piece.startswith(verb):
            rest = piece[len(verb):]
            if rest in DATA_NOUNS or rest in LIGHT_NOUNS or rest in _QUALIFIERS or rest in _FUSED_NOUNS or \
                    rest in ("all", "vm", "db", "fs", "s"):
                return [verb, rest] if rest != "s" else [verb]
            tail = _long_noun_ending(rest)
            if tail:  # deletelocalsnapshots
                return [verb, tail]
        if piece.endswith(verb):
            head = piece[:-len(verb)]
            if head in _AFFIX_PREFIXES or head in DATA_NOUNS:
                return [head, verb]
    fused = _between_prefix_and_noun(piece)
    if fused:
        return fused
    # `clearsnapshot`, `flushkeys`, `killcluster`: a weak verb fused before data
    for verb in _WEAK_PREFIXES if piece.startswith(_WEAK_PREFIXES) else ():
        if piece.startswith(verb) and piece[len(verb):] in DATA_NOUNS and piece[len(verb):] not in WEAK_DATA_NOUNS:
            return ["delete" if verb == "kill" else verb, piece[len(verb):]]  # `killacct`, `killdns`: removed
    # `ldapdelete`, `ktremove`: a verb fused after the program's own prefix
    for verb in _FUSED_TAILS if piece.endswith(_FUSED_TAILS) else ():
        if piece.endswith(verb) and len(piece) > len(verb) and piece[:-len(verb)] not in _NOT_A_PREFIX:
            return [piece[:-len(verb)], verb]
    return _fused_morphology(piece)


# Uninstallers named in other words (`db2_deinstall`, `hdbuninst`, `deinst`).
_UNINSTALL_TAILS = ("deinstall", "uninstall", "uninst", "deinst")
# A long verb that starts a word runs into its object (`deletetsm`, `destroyvm`, `removetarget`) unless what
# follows is an ending of the verb itself (`deleted`, `remover`, `removable`) or a name (`purgecss`).
_LONG_HEADS = ("delete", "remove", "destroy", "purge", "erase", "obliterate", "expunge", "prune")
_NOT_AN_OBJECT = frozenset({"d", "s", "r", "rs", "er", "ers", "ed", "es", "ion", "ions", "al", "able", "ing", "css",
                            "ment", "d-", "ly", "ful"})
# Infrastructure suites' short objects after a fused `rm`/`del` (xCAT's `rmdef`, DS8000's `rmfbvol`, AIX's `rmlv`).
_SHORT_OBJECTS = frozenset({"def", "lv", "vg", "pv", "fs", "dev", "lun", "luns", "nsd", "fbvol", "ckdvol", "vdisk",
                            "mdisk", "part", "share", "export", "vm", "vol", "volgrp", "rank", "extpool", "user",
                            "users", "grp", "group", "tsm", "ns", "zone", "snap", "ckpt", "tgt", "target", "fset",
                            "pool", "lpar", "host", "hosts", "node", "nodes", "disk", "disks", "site", "repo",
                            "col", "coll", "db", "bucket", "table", "queue", "topic"})  # WebDAV's `rmcol`


def _fused_morphology(piece: str) -> list:
    """The last readings of one fused word: an uninstaller's name, a verb that runs into an unlisted object,
    a verb fused before ``all`` and an object (``closeallchannels``, ``stopallservers``)."""
    for tail in _UNINSTALL_TAILS if piece.endswith(_UNINSTALL_TAILS) else ():
        if piece.endswith(tail) and (len(piece) == len(tail) or piece[:-len(tail)] not in _NOT_A_PREFIX):
            return ([piece[:-len(tail)]] if len(piece) > len(tail) else []) + ["uninstall"]
    for verb in _LONG_HEADS if piece.startswith(_LONG_HEADS) else ():
        if piece.startswith(verb):
            rest = piece[len(verb):]
            if len(rest) >= 2 and rest.isalpha() and rest not in _NOT_AN_OBJECT:
                return [verb, rest]
    for short in _DEL_RM if piece.startswith(_DEL_RM) else ():  # (a piece starts with one of them at most)
        if piece.startswith(short) and piece[len(short):] in _SHORT_OBJECTS:
            return [short, piece[len(short):]]
    if piece.endswith("drop") and re.search(r"(db|sql|\d)[a-z]{0,2}$", piece[:-4]):
        return [piece[:-4], "drop"]  # `db2idrop`: a database product's drop of an instance
    at = piece.find("all", 3)
    if 3 <= at <= 8 and len(piece) > at + 4 and piece[:at] in _ALL_VERBS_AND_CLOSE:
        return [piece[:at], "all", piece[at + 3:]]  # `closeallchannels`, `deleteallsnapshots`
    return [piece]


def acts(word: str) -> bool:
    """Does a word (an option or an operand) hold a verb that acts (``--stop``, ``delete-all``)?"""
    return any(strength(p) for p in split_word(word.lstrip("-")))


def strength(verb: str) -> int:
    if verb in POWER:
        return 2
    if verb in HEAVY or verb in ("flushall",):
        return 4
    if verb in DELETE or verb in RESET:
        return 3
    if verb in WEAK:
        return 1
    return 0


# Verbs read between a suite's short prefix and a noun (`mmdelfs`, `gpdeletesystem`, `rmvdisk` after
# `svctask`): vendor suites name every command prefix + verb + noun.
_MIDDLE_VERBS = ("delete", "destroy", "remove", "purge", "erase", "wipe", "del", "rm")
_SUITE_NOUNS = frozenset({"system", "systems", "versions", "all", "everything"})


def _between_prefix_and_noun(piece: str) -> list:
    for verb in _MIDDLE_VERBS:
        at = piece.find(verb, 1, 5 + len(verb))
        if at < 1 or at > (3 if len(verb) <= 3 else 4):
            continue
        head, rest = piece[:at], piece[at + len(verb):]
        if head in _NOT_A_PREFIX or not head.isalpha():
            continue
        if len(verb) <= 3 and len(head) > 1 and not re.fullmatch(_ABBREVIATION["del"], head):
            continue  # `del`/`rm` after a syllable is part of a word (`modelfile`), after an abbreviation a verb
        if rest in DATA_NOUNS or rest in _FUSED_NOUNS or len(verb) > 3 and rest in _SUITE_NOUNS or \
                rest in _SHORT_OBJECTS:  # `mmdelnsd`: a suite's storage object
            return [head, verb, rest]
    return []

