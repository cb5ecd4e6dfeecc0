"""What a command's own words say about it: its options (not those it hands on), its
subcommands (abbreviations spelled out), and whether an option makes it harmless.

``--dry-run`` counts only where the program reads it: before ``--``, before the
script or ``-c`` string of a shell or interpreter, and on a program that has a dry
run at all (``rm -rf ~ --dry-run`` still deletes on systems whose ``rm`` stops
reading options at the first operand).  The data is in ``programs``.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.programs import (ABBREVIATIONS, DOC_VIEWER_ACTIVE_OPTIONS, DOC_VIEWERS, DRY_RUN_BY_DEFAULT,
                                  DRY_RUN_LONG, DRY_RUN_OFF, DRY_RUN_SHORT, MKFS_DRY_RUN, NO_DRY_RUN,
                                  PASSES_ARGUMENTS, PRINT_ONLY_BY_PROGRAM, PRINT_ONLY_LONG, SIGNAL_PROBES,
                                  SIGNAL_VALUED, SIGNALLERS)
from aish.safety.lazy_regex import lazy

# Options of a shell or interpreter after which the rest is the program's own input.
_BODY_OPTIONS = {"-c", "-e", "-E", "-r", "-p", "--eval", "--print", "-Command", "-command", "-c-", "-s"}


def own_words(prog: str, texts: list) -> list:
    """The words ``prog`` itself reads: up to ``--``, and for a program that runs a script or
    command, only its options before that script, command or ``-c`` string."""
    if prog not in PASSES_ARGUMENTS:  # most programs: every word up to `--`
        return texts[:texts.index("--")] if "--" in texts else list(texts)
    out = []
    passes = True
    for t in texts:
        if t == "--":
            break
        if passes and (not t.startswith("-") or t in _BODY_OPTIONS or (t[:1] == "-" and t[-1:] == "c"
                                                                          and not t.startswith("--"))):
            break
        out.append(t)
    return out


def subcommand(texts: list) -> str:
    """The first word that is not an option (a rough subcommand, enough for the tables)."""
    for t in texts:
        if not t.startswith("-"):
            return t
    return ""


# A cmdlet's name (`Suspend-SqlAvailabilityDatabase`), whose `-Script` switch (the SQL Server module's cmdlets and
# their kin) writes out the T-SQL it would run instead of running it, as `-WhatIf` does.
_CMDLET = lazy(r"^[A-Z][a-z]+-[A-Z][A-Za-z0-9]+$")


def _script_switch(prog: str, lowered: list) -> bool:
    """``-Script`` given as a switch (nothing after it, or another option): ``Invoke-Command -Script {…}``, an
    abbreviation of ``-ScriptBlock`` with a block, runs it."""
    if "-script" not in lowered and "-script:$true" not in lowered or not _CMDLET.match(prog):
        return False
    return any(t == "-script:$true" or t == "-script" and (nxt == "" or nxt.startswith("-"))
               for t, nxt in zip(lowered, lowered[1:] + [""]))


# `--version 1.2.3` picks a version (`octo delete-releases --version 1.0`); alone, `--version` only prints one.
_VERSION_VALUE = lazy(r"^v?\d[\w.+-]*$")


def harmless(prog: str, texts: list) -> Optional[str]:
    """Why the command only prints or only says what it would do, or None.

    ``texts`` are the words after the program.
    """
    own = own_words(prog, texts)
    lowered = [t.lower() for t in own]
    help_last = bool(own) and own[-1] == "-h" and not any(t.startswith("-") for t in own[:-1])
    if not PRINT_ONLY_LONG.isdisjoint(lowered) and \
            any(t in PRINT_ONLY_LONG and not (t == "--version" and _VERSION_VALUE.match(nxt))
                for t, nxt in zip(lowered, lowered[1:] + [""])) or help_last and prog not in NO_DRY_RUN:
        return "prints help or a version only"
    if texts == ["-V"]:  # `nwipe -V`, `dropdb -V`, `sfdisk -V` (verify): a lone letter, no target to act on
        return "prints a version (or verifies) only"
    if ("-script" in lowered or "-script:$true" in lowered) and _script_switch(prog, lowered):
        return "the cmdlet's -Script switch prints the statements it would run, and runs none"
    if prog in DOC_VIEWERS and _only_reads_pages(texts):
        return "shows the documentation of what it names"
    enabling = DRY_RUN_BY_DEFAULT.get(prog)
    if enabling is not None and not any(t.partition("=")[0] in enabling for t in texts):
        return "its default run only says what it would do"
    sub = subcommand(own)
    if sub[:1] in ("i", "p", "w") and _plans_only(own):  # every plan subcommand starts so (_PLAN_SUBCOMMAND)
        return "a subcommand that only inspects or plans"
    if own and "-" in own[0] and _reads_a_record(own):
        return "a subcommand that reads a log or a status"
    if prog in _SCRIPT_HOSTS and _script_help(prog, texts):
        return "the script prints its help only"
    said = " ".join(own).lower()
    if _reports_only(prog, own, said):
        return "only reports what it would act on"
    if len(own) <= 5 and prog not in NO_DRY_RUN and not prog.startswith(("mk", "newfs")) and \
            _may_name_device(said) and _asks_information(prog, own):
        return "only asks a device for information"
    if len(own) >= 3 and own[-1] == "help" and prog not in NO_DRY_RUN and prog not in PASSES_ARGUMENTS and \
            all(_SUBCOMMAND_WORD.fullmatch(t) for t in own[:-1]):
        return "prints a subcommand's help"  # `aws s3 rm help`: the tree of subcommands, then help
    by_program = PRINT_ONLY_BY_PROGRAM.get(prog)  # a few programs: the others skip the pairs below
    if by_program and any(t in by_program or f"{t}={nxt}" in by_program for t, nxt in zip(own, own[1:] + [""])):
        return "only reports or cancels"
    valued = ("--signal",) if prog == "pkill" else SIGNAL_VALUED  # pkill's `-s 0` is this session, not signal 0
    if prog in SIGNALLERS and (any(t in SIGNAL_PROBES for t in own) or
                               any(t in valued and nxt in ("0", "SIG0") for t, nxt in zip(own, own[1:]))):
        return "signal 0 only checks that the process exists"
    letter, alone = MKFS_DRY_RUN.get(prog, ("", ""))
    if letter and any(re.fullmatch(rf"-[{alone}]*{letter}[{alone}]*", t) or t == "--no-action" for t in own):
        return "a dry run"
    if prog in NO_DRY_RUN or prog in PASSES_ARGUMENTS:
        return None
    if "-" in said and _dry_run_spelled(prog, lowered):
        return "a dry run"
    if prog.startswith("mkfs"):
        return None  # a builder's short letters mean other things (`mkfs.vfat -n` names a label)
    letters = DRY_RUN_SHORT.get((prog, sub))
    if letters is None:
        letters = DRY_RUN_SHORT.get(prog, "")
    if letters and any(t.startswith("-") and not t.startswith("--") and set(t[1:]) & set(letters) for t in own):
        return "a dry run"
    return None


# A dry run's long option in any spelling (`--dryrun`, `--dry_run`, `-dry-run`, `--dryRun`, `--no_act`): the
# words it is made of, dashes and underscores dropped.  `--check` too, except on a builder of filesystems or swap
# (`mkfs.minix --check`, `mkswap --check` look for bad blocks, then write) or beside a repair.
_DRY_RUN_SQUASHED = frozenset(t.lstrip("-").replace("-", "") for t in DRY_RUN_LONG)
_CHECK_ACTS = frozenset({"--repair", "--fix", "--write", "--apply", "--force", "-f", "--yes", "-y", "--commit"})


def _dry_run_spelled(prog: str, lowered: list) -> bool:
    for t in lowered:
        if not t.startswith("-") or len(t) < 5:
            continue
        name, eq, value = t.partition("=")
        if eq and value in DRY_RUN_OFF:
            continue
        squashed = name.lstrip("-").replace("-", "").replace("_", "")
        if squashed in _DRY_RUN_SQUASHED and (name.startswith("--") or "-" in name[1:] or "_" in name or
                                              len(squashed) >= 6):
            return True
        if name == "--check" and not prog.startswith(("mk", "newfs")) and _CHECK_ACTS.isdisjoint(lowered):
            return True
    return False


# A device named, and one request for information as the whole action (`openSeaChest_Erase -d /dev/sg2 -i`,
# `SeaChest_Sanitize -d /dev/sg4 --sanitize info`, `diskscrub --status /dev/sdb`): the program's name may say
# erase, the run only reads.  Any other word (a subcommand, a value, a second option) and it is not this.
_DEVICE_OPTIONS = frozenset({"-d", "--device", "--dev", "--drive", "--disk", "-device", "--target"})
# What a line that names a device holds: a device's path, or one of _DEVICE_OPTIONS (each holds one of these).
_DEVICE_PARTS = ("/dev/", "-d", "--target")


def _may_name_device(said: str) -> bool:
    """Does the lowered line hold one of ``_DEVICE_PARTS`` (written out: ``any()`` over them cost ~1 us a command)?"""
    return "/dev/" in said or "-d" in said or "--target" in said
_INFO_FLAGS = frozenset({"--info", "-info", "--deviceinfo", "--device-info", "--query", "-query", "--status",
                         "-status", "--capabilities", "--identify"})
_INFO_VALUES = frozenset({"info", "information", "query", "status", "list", "show", "support", "supported",
                          "capabilities", "progress"})


# `-i` is information only where the name says what the tool erases (`ventoy -i /dev/sdX` installs).
_ERASER_NAME = lazy(r"(?i)eras|saniti|wip(e|ing)|scrub")


def _asks_information(prog: str, own: list) -> bool:
    rest, k, device = [], 0, False
    while k < len(own):
        t = own[k]
        name, eq, _ = t.partition("=")
        if name.lower() in _DEVICE_OPTIONS and (eq or k + 1 < len(own)):
            device, k = True, k + (1 if eq else 2)
            continue
        if t.startswith("/dev/"):
            device = True
        else:
            rest.append(t if len(t) == 2 else t.lower())  # `-I` is not `-i` (`Ventoy2Disk.sh -I` installs)
        k += 1
    if not device:
        return False
    if len(rest) == 1:
        name, eq, value = rest[0].partition("=")
        return rest[0] in _INFO_FLAGS or rest[0] == "-i" and _ERASER_NAME.search(prog) is not None or \
            bool(eq) and name.startswith("-") and value in _INFO_VALUES
    return len(rest) == 2 and rest[0].startswith("-") and rest[1] in _INFO_VALUES


def _only_reads_pages(texts: list) -> bool:
    """No pager, renderer or output file given to a documentation viewer (`man -P 'sh -c …'`, `info -o FILE`)."""
    return not any(t.partition("=")[0] in DOC_VIEWER_ACTIVE_OPTIONS for t in texts) and \
        not any(t[:1] == "-" and t[1:2] != "-" and set(t[1:]) & {"P", "H", "o"} for t in texts)


# A subcommand that only inspects, previews or plans, followed by options only (`cloud-nuke inspect-aws`,
# `pulumi preview`, `terraform plan -destroy`), unless it is handed a command to run.
_PLAN_SUBCOMMAND = lazy(r"(?:inspect|preview|plan|what-?if)(?:-[a-z0-9]+)?")
_HANDS_ON = frozenset({"-c", "-e", "--exec", "--command", "--cmd", "--run", "-x", "--apply", "--auto-approve",
                       "--yes", "-y", "--force", "--doit"})


def _plans_only(own: list) -> bool:
    sub = subcommand(own)
    if sub[:1] not in ("i", "p", "w") or _PLAN_SUBCOMMAND.fullmatch(sub) is None or set(own) & _HANDS_ON:
        return False
    after = own[own.index(sub) + 1:own.index(sub) + 2]  # `plan destroy NAME`, `plan cancel`: a noun, then a verb
    return not after or after[0].startswith("-")


# A subcommand fused from an action and what it reads about it (`nvme sanitize-log /dev/nvme0`, `tool
# erase-status`, `x wipe-info -o json`): the record of an erase, not an erase; not a verb that acts on the log
# (`clear-log`, `reset-status`, `erase-log` stay as they are), nothing but options, their values and devices after.
_RECORD_SUBCOMMAND = re.compile(r"((?:[a-z][a-z0-9]*-)*[a-z][a-z0-9]*)-"
                                r"(log|logs|list|report|status|info|show|query|progress|caps|capabilities|support)")
_SETS_RECORD = frozenset("clear reset set write put update add edit import load restore flush".split())
_EMPTIES_RECORD = frozenset("delete del erase purge truncate wipe rotate drop remove rm".split())  # a log, a list


def _reads_a_record(own: list) -> bool:
    m = _RECORD_SUBCOMMAND.fullmatch(own[0])
    parts = set(m.group(1).split("-")) if m is not None else set()
    if m is None or parts & _SETS_RECORD or set(own) & _FORCING or \
            parts & _EMPTIES_RECORD and m.group(2) in ("log", "logs", "list", "report"):
        return False
    return all(t.startswith(("-", "/dev/")) or own[k].startswith("-") and "=" not in own[k]
               for k, t in enumerate(own[1:]))


# Interpreters that run a script file named first: the words after it are the script's, and a command-line
# framework's script (`php artisan …`, `python manage.py …`, `bin/console`) prints its help for `--help`.
_SCRIPT_HOSTS = frozenset({"python", "python3", "php", "ruby", "node", "perl", "bun", "deno"})


_SUBCOMMAND_WORD = lazy(r"[a-z][a-z0-9-]*")
# Options that make a tool only show what it has or supports (`SeaChest_Erase -d /dev/sg4 --showEraseSupport`,
# `--scan`, `--listDevices`): the program's name may say erase, the run only reports.
# (`--list-file F`, `--report-dir D` take a value: a program named for its deletion still deletes)
_REPORT_WORDS = ("-show", "-list", "-identify", "-enumerate", "-report")  # what every match holds, lowered
_REPORT_WORD = re.compile("|".join(map(re.escape, _REPORT_WORDS)))  # one search for any (a generator cost 3x more)
_REPORT_OPTION = lazy(r"--?(?i:show|list|identify|enumerate|report)"
                      r"(?:(?![a-z])|(?=all|dev|drive|disk|support|slot))"
                      r"(?![\w-]*[-_](?i:file|name|path|dir|id|from|output|format)$)[\w-]*")


# Words that write whatever the vocabulary says of them (`--overwrite 0`, `--performQuickestErase`).
_BARE_WORD = lazy(r"[A-Za-z][\w-]*")
_FORCING = frozenset({"--force", "-f", "--yes", "-y", "--hard", "-force", "--no-confirm", "--noconfirm"})
_WRITES = ("overwrite", "write", "format", "flash", "burn", "program", "perform", "run", "exec")


def _reports_only(prog: str, own: list, said: Optional[str] = None) -> bool:
    """A report option, and no other word of the program's own that acts (``--showEraseSupport`` alone, not
    with ``--overwrite``); ``--scan`` only alone (``mdadm --stop --scan`` stops every array)."""
    if prog in NO_DRY_RUN or prog in PASSES_ARGUMENTS:
        return False
    if own == ["--scan"]:
        return True
    said = " ".join(own).lower() if said is None else said
    if said.isascii() and "-" not in said:
        return False  # every report word starts with a dash
    if said.isascii() and _REPORT_WORD.search(said) is None:
        return False  # no report option can match (one look at the line, not a pattern per word)
    if not any(_REPORT_OPTION.fullmatch(t) for t in own):
        return False
    from aish.safety.verb_words import acts  # the vocabulary is read only for lines with a report option
    others = [t for t in own if not _REPORT_OPTION.fullmatch(t)]
    if any(_BARE_WORD.fullmatch(t) for t in others) or set(others) & _FORCING:
        return False  # a subcommand beside it (`git push --force --show-forced-updates`): the report is its detail
    return not any(acts(t) or t.lstrip("-").lower().startswith(_WRITES) for t in others)


def _script_help(prog: str, texts: list) -> bool:
    """``php artisan migrate:fresh --help``: a script file run by an interpreter, asked for its help."""
    if prog not in _SCRIPT_HOSTS:
        return False
    for k, t in enumerate(texts):
        if t == "--" or t in _BODY_OPTIONS:
            return False  # `python -c '…' --help`: the code runs whatever it is given
        if not t.startswith("-"):
            rest = texts[k + 1:]
            return "--help" in (rest[:rest.index("--")] if "--" in rest else rest)
    return False


def expand_abbreviations(prog: str, texts: list) -> list:
    """``ip a f dev eth0`` -> ``ip address flush dev eth0``: subcommand prefixes spelled out."""
    tree = ABBREVIATIONS.get(prog)
    if tree is None:
        return texts
    objects, verbs = tree[:2]
    unique = tree[2:] == ("unique",)
    out = list(texts)
    level, obj = 0, ""
    for k, t in enumerate(out):
        if t.startswith("-"):
            continue
        names = objects if level == 0 else verbs.get(obj, verbs.get("*", ()))
        matches = [name for name in names if name.startswith(t)] if t else []
        full = t if not matches or unique and len(matches) > 1 and t not in matches else matches[0]
        out[k] = full
        if level == 0:
            obj, level = full, 1
        else:
            break
    return out
