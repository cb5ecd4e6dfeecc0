"""Effect: whatever a command's own words say it destroys, for programs no rule names.

The verb says what happens, the nouns around it what it happens to (a database or a cache),
and the options how far (``--all``, ``--force``).  ``action`` reads them from the subcommand
(``az storage account delete``), the program's own name (``lxc-destroy``) or an option
(``timeshift --delete --snapshot x``).  Words after a harmless first subcommand (``git
checkout -b purge-old``) are names, not verbs, and are not read.  A verb's level:

- strong verbs (destroy, wipe, drop) on anything not light, medium; high with a scope, a
  production-looking name or a force;
- deletes on data or a named thing, medium (quiet on caches and packages);
- resets where data is named, or with a scope (``rollback --all``);
- weak verbs (stop, kill, clear, uninstall, drain) with a scope that takes everything
  (``supervisorctl stop all``, ``forever stopall``), an abrupt modifier (``shutdown nosave``)
  or a deleting option.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from aish.safety import ps_aliases
from aish.safety.programs import READ_ONLY
from aish.safety.rules.defences import exclusion_removed
from aish.safety.rules.action import (Action, is_backup_tool, option_action, option_nouns, options as read_options,
                                      program_action, runs_command as words_run, subcommand_action)
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, is_device, target, worst
from aish.safety.rules import devices, forced_restores, option_readings, said_elsewhere
from aish.safety.rules.remote import PROD
from aish.safety.rules.state_cleared import BUILD_TOOLS
from aish.safety.rules.transfer_clients import CLIENTS
from aish.safety.rules.verb_levels import Facts, level_of
from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import (ABRUPT, DATA_NOUNS, DESTRUCTIVE_PROGRAMS, DEVICE_PROGRAMS, EVERYTHING, FORCE_OPTIONS,
                               HEAVY_OPTIONS, HEAVY_OPTIONS_PATTERN, LIGHT_NOUNS, MIGRATION_TOOLS, OPTION_MODIFIERS,
                               PACKAGE_TOOLS, RESET, ROUTINE_OPTIONS, SCOPE_OPTIONS,
                               SESSION_MANAGERS,
                               WEAK_DATA_NOUNS)

# Package tools: these nouns are where packages come from, cheap to lose.
_PACKAGE_LIGHT = {"repo", "repos", "repository", "source", "sources", "key", "keys", "remote", "channel",
                  "channels", "env", "environment", "environments", "toolchain", "version", "versions",
                  "store", "stores"}  # `pnpm store prune`: the downloaded packages no project uses
# `k3s-uninstall.sh`, `./teardown.sh`, `nuke-env.sh`: what such a script removes is up to it.
_DESTROYING_SCRIPT = re.compile(r"(^|[-_.])(uninstall|teardown|destroy|nuke|wipe|purge|killall|kill-all)([-_.][\w-]*)?"
                                r"\.(sh|bash|ps1)$")
# `casaos-uninstall`, `nuke-node-modules`, `netdata-uninstaller`: a program, not only a script, whose name is the
# verb that removes what it came with (a name that asks or shows, `uninstall-check`, does not).
_DESTROYING_NAME = re.compile(r"[-_.](?:uninstall|uninstaller|deinstall|teardown|destroy|nuke|wipe|purge|killall)$|"
                              r"^(?:uninstall|uninstaller|teardown|destroy|nuke|wipe|purge)[-_](?!(?:check|status|"
                              r"info|list|help|test|dry|preview|plan)\b)[\w-]+$")


def _destroying_name(prog: str) -> bool:
    """A lowercase program name whose verb part removes (a cmdlet, `Uninstall-Module`, is judged as a cmdlet)."""
    return prog == prog.lower() and bool(_DESTROYING_NAME.search(prog.removesuffix(".exe")))


_ONLY_FREE_SPACE = {"--freespace", "-X", "-I", "--free-space"}  # wipers that only overwrite unused space
# Verbs of a migration tool that take the schema back (`goose down`, `sqitch revert`): they drop what was built.
_UNDO = {"down", "rollback", "revert", "undo", "downgrade", "reset", "redo", "refresh", "fresh", "reverse", "unapply"}
# A migration tool by its name (`nanomig`, `db-migrator`): its undo verbs act on the database.
_MIGRATION_NAME = re.compile(r"migrat|^mig|mig$")
# Subcommand words that name a migration tool's business inside another program (`mix ecto.rollback`).
_SCHEMA_WORDS = {"ecto", "migrate", "migration", "migrations", "db", "database", "schema", "doctrine"}


def runs_command(c: Ctx) -> Optional[list]:
    """The words of a command another program runs (``poetry run …``, ``npx prisma …``), or None."""
    return words_run(c.prog, c.args)


# Programs whose `rmdir` removes an empty directory only (rclone's own command; POSIX's, run by adb's shell; the
# FTP, SFTP and SMB clients', which the server refuses on a directory that holds anything).  Elsewhere `rmdir`
# may take a whole tree (`ampy rmdir`, `ydb scheme rmdir --recursive`) and keeps its reading.
_EMPTY_ONLY_RMDIR = CLIENTS | {"rclone", "adb", "hdfs", "hadoop"}
_RECURSIVE = frozenset({"-r", "-R", "--recursive", "-rf", "-f", "--force"})


def rule_vocabulary(c: Ctx) -> Optional[tuple]:
    """Judge the destructive vocabulary of any program's subcommands, name and options."""
    prog = c.prog
    if prog in READ_ONLY or not c.texts and not _name_says_destroy(prog):
        return None  # a bare program: only its name could say it destroys (a long pipeline has thousands)
    if "exclusion" in c.lowered and exclusion_removed(prog, c.texts):
        return None  # `Remove-MpPreference -ExclusionPath C:\Temp`: the product looks there again
    inner = runs_command(c)
    if inner is None and "--" in c.texts:  # `infisical run -- rails db:drop`: the command after `--`
        rest = c.args[c.texts.index("--") + 1:]
        inner = rest if rest and not rest[0].text.startswith("-") else None
    if inner is not None:
        found = c.check(inner)
        if found is not None or "--" not in c.texts:
            return found
    if prog in _RM_RF_LIKE:  # `rimraf ~/projects`, `del-cli '~/**'`: a recursive forced delete by another name
        found = c.recurse("rm -rf -- " + " ".join(w.raw for w in c.args if not w.text.startswith("-")))
        return (found[0], f"{found[1].replace('rm -rf -- ', prog + ' ', 1)}") if found else None
    if forced_restores.named_for_restoring(prog):  # `mongorestore --drop /backup/`: the backup is the source
        restored = forced_restores.rule_forced_restore(c)
        if restored is not None:
            return restored
    act = subcommand_action(prog, c.texts)
    if act.safe or not act.verb:
        task = _task_words(c.texts)
        named = subcommand_action(prog, task) if task else act
        act = named if named.verb else act
    reboots = devices.update_with_reboot(c)
    if reboots is not None:
        return reboots
    if not act.verb:
        act = _named_action(c, act)
    on_device = devices.device_program(c, act.verb)
    if on_device is not None:
        return on_device
    if prog in MIGRATION_TOOLS or set(act.nouns) & _SCHEMA_WORDS and act.verb in _UNDO or \
            set(act.nouns) & MIGRATION_TOOLS and act.verb in _UNDO | {"clean", "drop"}:  # `mvn flyway:clean`
        if "--sql" in c.texts:
            return None  # offline mode: the SQL it would run is printed, nothing is run
        act.nouns = act.nouns + ["database"]  # a migration tool's clean, reset or undo acts on the database
        if act.verb in ("clean", "drop"):
            act.verb = "drop"
        elif act.verb in _UNDO:
            act.verb = "rollback"
    if (not act.verb or act.source == "program" and verb_strength(act.verb) < 3) and \
            (_DESTROYING_SCRIPT.search(prog) or _destroying_name(prog)):
        # `./teardown.sh`, and `k3s-uninstall.sh`: the name's weak verb (uninstall, killall) is the script's whole job
        return MEDIUM, f"runs {prog}, a script named for removing or wiping things ({c.text})"
    options = read_options(c.texts, letters=not ps_aliases.is_cmdlet(prog)) | _long_spellings(c.texts) | \
        option_readings.settings_as_options(c.texts)
    elsewhere = said_elsewhere.rule_said_elsewhere(c, act.verb)
    if elsewhere is not None:
        return elsewhere
    device = devices.device_write(c, options)
    if device is not None:
        return device
    heavy_option = min(filter(_heavy, options), default=None)
    if not act.verb:
        if _restores_over(c, options):
            return MEDIUM, f"{prog} restores over what exists, forced: its current state is lost ({c.text})"
        if heavy_option and split_word(heavy_option.lstrip("-"))[0] not in _WITH:  # `--with-volumes` needs a verb
            wide = "all" in heavy_option or "everything" in heavy_option
            return (HIGH if wide else MEDIUM), f"{prog} {heavy_option} deletes data ({c.text})"
        return None
    verb, said, nouns, after = act.verb, act.said, act.nouns, act.after
    if said.lower() == "rmdir" and prog in _EMPTY_ONLY_RMDIR and not options & _RECURSIVE:
        return None  # `rclone rmdir R:x`, `adb shell rmdir /sdcard/x`, FTP's `rmdir`: the directory must be empty
    if verb == "prune" and prog in BUILD_TOOLS:
        return None  # `turbo prune web --docker`: a trimmed copy of the workspace is written, nothing deleted
    if verb in ("yank", "unpublish") and "--undo" in c.texts:
        return None  # `cargo yank --undo`: the release comes back
    strength = verb_strength(verb)
    if verb in _DELETES_FILES and after and _own_temporary_files(c, after):
        return None  # `gvfs-rm /tmp/scratch.txt`, `safe-rm -i /tmp/x.tar`: as `rm /tmp/x.txt`, one's own scratch file
    if heavy_option is None and (strength >= 3 or verb in ("unregister", "deregister", "uninstall")) and \
            "--delete" in options \
            and act.source != "option":
        heavy_option = "--delete"  # `unregistervm … --delete`: the files go too
    if heavy_option is None and verb in _TAKES_INSTALL and prog not in PACKAGE_TOOLS:
        # `abctl local uninstall --persisted`: the data it kept goes with it
        heavy_option = next((o for o in sorted(options) if o in _KEPT_DATA), None)
    if prog in PACKAGE_TOOLS and verb in ("uninstall", "remove", "rm", "del", "purge", "erase") and _listed(c):
        return MEDIUM, f"{prog} {said} removes every package a list computed at run time names ({c.text})"
    if prog in PACKAGE_TOOLS and verb in ("uninstall", "remove", "rm", "del", "purge", "erase") and \
            not set(nouns) & _TOOL_ENVIRONMENTS and \
            (any(t in _EVERY_PACKAGE for t in after) or "--all" in options):  # `choco uninstall all -y`,
        # `port uninstall installed`, `flatpak uninstall --all`
        return HIGH, f"{prog} {said} removes every installed package ({c.text})"
    if verb == "uninstall" and prog not in PACKAGE_TOOLS and options & (FORCE_OPTIONS | _UNATTENDED) and \
            (not after or act.source == "program" or options & _NO_QUESTION) and \
            not set(nouns) & LIGHT_NOUNS:  # `ora_deinstall -silent -paramfile F`, `appmgr -s uninstall -y payroll`
        return MEDIUM, f"{prog} uninstall removes what {prog} installed, with its data, without asking ({c.text})"
    light_nouns = LIGHT_NOUNS | (_PACKAGE_LIGHT if prog in PACKAGE_TOOLS else frozenset())
    if is_backup_tool(prog):
        light_nouns = light_nouns - {"remote", "remotes"}  # `delete remote weekly-03`: the copy kept elsewhere
    if act.source == "option" or verb in _WEAK_WITH_OPTIONS:
        nouns = nouns + option_nouns(c.texts)
    if verb in ("clear", "flush", "empty") and not nouns:  # `secret-tool clear …`: what the program keeps
        nouns = [n for n in split_word(prog) if n in DATA_NOUNS and n not in WEAK_DATA_NOUNS]
    if any(_STORAGE_URL.match(t) for t in after):  # `duck --delete s3://bucket/dir/`: stored data
        nouns = nouns + ["bucket"]
    data = [n for n in nouns if n in DATA_NOUNS and n not in light_nouns]
    light = [n for n in nouns if n in light_nouns]
    everything = any(t.lower() in EVERYTHING for t in after) or bool(options & SCOPE_OPTIONS) or _listed(c) or \
        any(o.startswith("--all-") for o in options) or \
        strength >= 3 and "-a" in options or "all" in nouns and act.source != "option"
    forced = bool(options & FORCE_OPTIONS) and (verb not in RESET or "--force" in options)
    is_named = bool(after) or said == prog or option_readings.named_by_option(c.texts, said)
    if verb == "unset" and option_readings.hosted_settings(said):
        nouns = nouns + ["secrets"]  # `heroku config:unset KEY`, `cf unset-env app KEY`: a deployed app's settings
    facts = Facts(prog, verb, strength, act.source, nouns, data, light, is_named, everything,
                   forced, heavy_option, abrupt=bool({t.lower().rsplit("=", 1)[-1] for t in c.texts} & ABRUPT),
                   confirmed=bool({t.lower() for t in c.texts} & _CONFIRMED))
    level = level_of(facts)
    if level is None and act.source == "option" and strength >= 3 and set(nouns) & _DIRECTORY_NOUNS and \
            any(t.startswith("/") and not t.startswith(("/tmp/", "/var/tmp/")) for t in after):
        level = MEDIUM  # `fsadmin --remove-directory /srv/data`: the directory named goes
    if level is None and verb in _TAKEN_DOWN and prog not in PACKAGE_TOOLS and not light and \
            any(PROD.search(t) for t in after):  # `convox rack uninstall aws production`: what serves users goes
        level = MEDIUM
    if level is None and verb == "clean" and act.source == "subcommand" and after and not light and \
            options & _CONFIRMED and prog not in PACKAGE_TOOLS and not is_backup_tool(prog) and \
            not any("/" in t for t in after):  # `tt clean billing --force`: a named instance's data, not asked first
        level = MEDIUM  # (`duplicity --force cleanup file:///mnt/b`: a backup's leftovers in the place named)
    if level is None and verb in _SHUTS_DOWN and not {t.lower() for t in c.texts}.isdisjoint(_ALL_WORDS):
        return MEDIUM, f"{prog} {said} shuts down every one it runs ({c.text})"  # `smbcontrol all shutdown`
    if level is None:
        return None
    prod = any(PROD.search(t) for t in after) or any(PROD.search(t) for t in c.texts if "=" in t)
    if level == MEDIUM and (strength >= 3 or heavy_option and data) and \
            (everything or prod or heavy_option or forced and (strength == 4 or data)):
        level = HIGH
    name = prog if said == prog else f"{prog} {said}"
    what = data[0] if data else (after[0] if after else "its data")
    scope = ", every one it matches" if everything else ""
    if verb in ("revoke", "yank"):
        reason = f"{name} {'revokes' if verb == 'revoke' else 'withdraws'} {what}: it cannot be undone"
    elif verb == "unset":
        reason = f"{name} removes {' '.join(after[:1]) or what} from what the deployed app is given: what uses it fails"
    elif heavy_option in _KEPT_DATA:
        reason = f"{name} {heavy_option}: what it kept (its data, volumes, state) goes with it"
    elif strength == 1 and heavy_option and split_word(heavy_option.lstrip("-"))[0] in _WITH:
        reason = f"{name} {heavy_option}: {what} goes with its data"
    elif verb in ("clean", "disable") and level == MEDIUM and strength < 3:
        reason = f"{name} deletes {what} and what it holds"
    elif strength == 3 and verb in RESET:
        reason = f"{name} resets {what}: what it holds is lost{scope}"
    else:
        reason = {4: f"{name} destroys {what}{scope}", 3: f"{name} deletes {what}{scope}",
                  2: f"{name} stops it abruptly: unsaved state is lost" if prog not in SESSION_MANAGERS
                  else f"{name} shuts down, restarts or logs out",
                  1: f"{name} acts on every one it manages" if everything and not data and not after
                  else f"{name} acts on {what}{scope}"}[strength]  # a weak verb (stop, deinit): it says no more
    if act.source == "letter":  # `htpasswd -D FILE user` edits FILE: what goes is what the letter names
        return level, f"{reason} ({c.text})"
    return worst((level, f"{reason} ({c.text})"), _targets(c, verb, after))


# Programs that delete what they are given recursively and without asking, as `rm -rf` does.
_RM_RF_LIKE = frozenset({"rimraf", "del-cli", "rmrf", "rm-rf", "premove", "trash-rm", "fastdel", "rmtree"})
# Subcommands that run a task named next (`npm run db:reset`, `fastlane run delete_keychain`): the name says it.
_RUNS_TASK = {"run", "run-script", "run-task", "run-target", "rake", "invoke"}


def _task_words(texts: list) -> list:
    """The words of a task a runner is told to run (``npm run db:reset``, ``earthly +wipe``), or []."""
    operands = [k for k, t in enumerate(texts) if not t.startswith("-")]
    if not operands:
        return []
    first = texts[operands[0]]
    if first.startswith("+") and len(first) > 1:  # an Earthfile target
        return [first[1:]] + texts[operands[0] + 1:]
    if first in _RUNS_TASK and len(operands) > 1:
        return texts[operands[1]:]
    return []


# What a package tool's removal takes when it is told "every one".
_EVERY_PACKAGE = {"all", "installed", "*", "'*'", ".*", "'.*'", "--all", "-a"}
# A package tool's own environments or caches named before its verb (`poetry env remove --all`: the project's
# virtualenvs, which `poetry install` makes again), not the packages of the system
_TOOL_ENVIRONMENTS = frozenset({"env", "envs", "venv", "venvs", "virtualenv", "virtualenvs", "cache", "caches"})
# Power verbs that, told "all", stop every daemon or node a program runs.
_SHUTS_DOWN = {"shutdown", "shut-down", "poweroff", "power-off", "halt"}
_ALL_WORDS = {"all", "--all", "-all", "-a"}
# Weak verbs that take a whole installation or deployment down: quiet on a name, medium on production.
_TAKEN_DOWN = {"uninstall", "undeploy", "unprovision", "unregister"}
# Weak verbs whose object an option may name (`oc adm drain node --force --delete-emptydir-data`).
_WEAK_WITH_OPTIONS = {"drain", "evict", "clear", "flush", "empty"}


# Verbs that take an installation or deployment away, and options that say its kept data goes with it
# (`abctl local uninstall --persisted`, `wasp uninstall --data`, `nhost down --volumes`): alone they name nothing.
_TAKES_INSTALL = frozenset({"uninstall", "deinstall", "remove", "rm", "delete", "del", "reset", "teardown", "down",
                            "undeploy", "destroy", "unprovision"})
_KEPT_DATA = frozenset({"--persisted", "--persistent", "--persistence", "--data", "--volumes", "--storage",
                        "--remove-persisted", "--delete-persisted", "--purge-persisted", "--include-data",
                        "--include-volumes", "--pvc", "--pvcs"})


# Verbs of an rm by another name (`gvfs-rm`, `safe-rm`, `kioclient5 remove`).
_DELETES_FILES = frozenset({"rm", "remove", "delete", "del", "unlink", "trash"})


def _own_temporary_files(c: Ctx, after: list) -> bool:
    """Is every name the delete is given a single file under /tmp (no glob, not the directory itself)?"""
    named = [w for w in c.args if w.text in after]
    return len(named) == len(after) and all(
        target(w).kind == "temp" and "*" not in w.text and "?" not in w.text and
        w.text.rstrip("/") not in ("/tmp", "/var/tmp") and w.text.count("/") >= 2 for w in named)


# `--with-namespace`, `--including-volumes`: the named data goes with what the verb acts on.
_WITH = ("with", "including", "include", "and")


_ONE_DASH_WORD = re.compile(r"-[a-zA-Z][a-zA-Z-]{3,}")


def _long_spellings(texts: list) -> set:
    """``-wipe``, ``-deleteall``, ``-reset-to-factory``: long options spelled with one dash (the X11, Java and
    Go style), read as their ``--`` spelling when the word is a deleting verb, not a bundle of letters."""
    out = set()
    for t in texts:
        if len(t) >= 5 and t[0] == "-" and _ONE_DASH_WORD.fullmatch(t):
            name = t[1:].lower()
            if verb_strength(split_word(name)[0]) >= 3:
                out.add("--" + name)
    return out


@lru_cache(maxsize=4096)  # options repeat (`-f`, `--force`, `--all`): one reading each, not one a command
def _heavy(option: str) -> bool:
    """An option that deletes data by itself (``--purge``, ``--delete-volumes``), not a routine one."""
    return (option in HEAVY_OPTIONS or bool(HEAVY_OPTIONS_PATTERN.match(option)) or _deletes_data(option)) and \
        option not in ROUTINE_OPTIONS


def _deletes_data(option: str) -> bool:
    """``--delete-namespaces``, ``--destroy-storage``, ``--delete-emptydir-data``: an option that deletes data
    by name (not ``--delete-after`` or ``--remove-all-unused-imports``, which modify another action)."""
    if not option.startswith("--"):
        return False
    parts = split_word(option[2:])
    if len(parts) == 2 and parts[0] in _WITH:
        return parts[1] in DATA_NOUNS and parts[1] not in WEAK_DATA_NOUNS
    if len(parts) >= 2 and parts[0] in RESET and "factory" in parts[1:]:
        return True  # `--reset-to-factory`: everything set or stored on it goes
    if option_readings.empties_store(parts):
        return True  # `--clear-db`, `--force-clear-db`, `--reset-database`: what the program has stored goes
    return len(parts) >= 2 and verb_strength(parts[0]) >= 3 and parts[0] not in RESET and \
        not set(parts[1:]) & OPTION_MODIFIERS and \
        (parts[-1] in DATA_NOUNS and parts[-1] not in WEAK_DATA_NOUNS or
         bool({"all", "everything"} & set(parts[1:])))  # `--delete-all-output`


def _named_action(c: Ctx, act: Action) -> Action:
    """No subcommand names a verb: the program's own name (a table of wipers, or a name such as
    ``lxc-destroy``), else an option (``--delete``, ``--wipe-data``)."""
    named = DESTRUCTIVE_PROGRAMS.get(c.prog.lower().removesuffix(".exe"))
    if named and not set(c.texts) & _ONLY_FREE_SPACE:
        after = [t for t in c.texts if not t.startswith(("-", "/"))] or ["files"]
        return Action(named, c.prog, [], after, "program")
    by_name = program_action(c.prog, c.texts)
    if by_name.verb:
        by_name.nouns += act.nouns
        return by_name
    migrates = c.prog in MIGRATION_TOOLS or bool(_MIGRATION_NAME.search(c.prog.lower()))
    if set(act.nouns) & _SCHEMA_WORDS or migrates:  # `hasura migrate apply --down all`, `nanomig reverse --all`
        undo = next((t for t in c.texts if t.lstrip("-") in _UNDO and t.startswith("--")), None) or \
            (next((t for t in c.texts if not t.startswith("-")), None) if migrates else None)
        undo = undo if undo and undo.lstrip("-") in _UNDO else None
        if undo:
            return Action("rollback", undo, act.nouns, [t for t in c.texts if not t.startswith("-")], "option")
    withdraw = next((t for t in c.texts if t in _WITHDRAW_OPTIONS), None)
    if act.safe and withdraw:  # `mix hex.publish --revert 1.0.0`: the release is taken back
        return Action("yank", withdraw, ["release"], [t for t in c.texts if not t.startswith("-")][1:], "option")
    by_option = option_action(c.prog, c.texts) if not act.safe else Action()
    if by_option.verb:
        by_option.nouns = act.nouns + by_option.nouns + \
            (["archive"] if is_backup_tool(c.prog) and by_option.source == "option" else [])
        return by_option
    return act


# An uninstaller told to run without asking (`hdbuninst --batch`, `db2_deinstall -a`: every component).
_UNATTENDED = frozenset({"--batch", "-batch", "-b", "--silent", "-silent", "-s", "--unattended", "-a", "--all",
                         "-all", "--noninteractive", "--non-interactive", "/s", "/quiet", "/qn", "-u"})
_DIRECTORY_NOUNS = frozenset({"dir", "directory", "directories", "folder", "folders", "tree"})
_NO_QUESTION = frozenset({"-y", "--yes", "--force", "--silent", "-silent", "--batch", "--unattended", "/quiet"})
_CONFIRMED = {"-force", "--force", "--yes", "-confirm:$false", "--no-confirm", "--noconfirm", "-noprompt"}
# Options of a publish command that take a release back.
_WITHDRAW_OPTIONS = {"--revert", "--unpublish", "--yank", "--retire", "--withdraw"}
_STORAGE_URL = re.compile(r"^(s3|s3a|gs|az|abfss?|wasbs?|hdfs|swift|b2|r2|oss|cos|webdavs?|davs?|sftp|ftp|smb|"
                          r"mega|dropbox|onedrive|gdrive|remote)://", re.IGNORECASE)


@lru_cache(maxsize=16384)  # as table._program: ~930 bare names a pass (1,024 was nearly full)
def _name_says_destroy(prog: str) -> bool:
    """Could a bare ``prog`` be destructive by its name (``trash-empty``, ``lxc-destroy``, ``tpm2_clear``)?"""
    return bool(DESTRUCTIVE_PROGRAMS.get(prog.lower().removesuffix(".exe")) or program_action(prog, []).verb or
                _DESTROYING_SCRIPT.search(prog) or _destroying_name(prog) or
                "*" in DEVICE_PROGRAMS.get(prog, ()))


def _restores_over(c: Ctx, options: set) -> bool:
    """``qmrestore backup.vma 100 --force true``, ``pct restore 105 x.tar --force 1``: a restore told to
    replace what is there (a VM, a database) instead of refusing."""
    restores = c.prog.lower().endswith("restore") or "restore" in [t for t in c.texts[:2] if not t.startswith("-")]
    return restores and bool(options & {"--force", "--overwrite", "--replace"}) and \
        not forced_restores.restores_packages(c)  # `-f` is often a file (vgcfgrestore); `dotnet restore --force`


def _listed(c: Ctx) -> bool:
    """Are the names computed at run time (``$(… list …)``, fed by ``xargs``)?"""
    return c.xargs or any(w.subs for w in c.args if not w.text.startswith("-"))


def _targets(c: Ctx, verb: str, after: list) -> Optional[tuple]:
    """A device, the root, home or a system directory among the names decides the level."""
    best = None
    for w in c.args:
        t = w.text
        if t.startswith("-") or not (t.startswith(("/", "~", "$")) or w.has_var):
            continue
        if is_device(t):
            best = worst(best, (HIGH, f"{c.prog} {verb} on the device {t} ({c.text})"))
            continue
        kind = target(w)
        if kind.kind in ("root", "home", "system-top", "critical", "dot-critical", "system"):
            best = worst(best, (HIGH, f"{c.prog} {verb} on {describe(kind)} ({c.text})"))
    return best
