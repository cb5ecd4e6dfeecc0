"""Destruction a command says in places other than its subcommand: the value of an option that
names the action (``platformio run -t erase``, ``--action delete``), volumes taken down with a
compose-like ``down -v``, a cleanup told it is not a dry run (``DRY_RUN=false``), what is at the
target replaced (``--if-exists=replace``, ``--overwrite-tables``, ``-overwrite`` into a database),
a schema taken back to version 0 (``--destination 0``, ``VERSION=0``), a sync told to delete at the
destination, numbered deletes (``--remove2``), ``+app_uninstall``-style commands, and an
``uninstall`` of a hosted app named by an option (``--app blog``)."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.any_case import AnyCase
from aish.safety.rules import restores, triggers
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import MIGRATION_TOOLS, PACKAGE_TOOLS
from aish.safety.lazy_regex import lazy

# Options whose value is the action to take (`pio run -t erase`, `--operation delete`).
# (`-t` only after `run`: elsewhere it is a tag, a type or a title: `docker build -t delete .`)
_ACTION_OPTIONS = frozenset({"--target", "--action", "--operation", "--op", "--task", "--mode"})
_ACTIONS = frozenset({"erase", "delete", "destroy", "wipe", "purge", "drop", "nuke", "erase_flash", "erase-flash",
                      "mass-erase", "masserase", "chip-erase", "erase-all", "eraseall", "factory-reset"})
_VOLUMES = frozenset({"-v", "--volumes", "--volume", "-V", "--remove-volumes"})
_NOT_DRY = AnyCase(r"^(--)?(dry_?run|dryrun|dry-run)=(false|0|no|off)$")
_CLEANS = AnyCase(r"clean|delete|remove|prune|purge|destroy|expire|wipe")


def rule_said_elsewhere(c: Ctx, verb: str) -> Optional[tuple]:
    """What an option's value, a ``down -v`` or a ``DRY_RUN=false`` says this command destroys."""
    texts = c.texts
    for k, t in enumerate(texts[:-1]):
        value = texts[k + 1].lower()
        if (t in _ACTION_OPTIONS or t == "-t" and "run" in texts[:k]) and value in _ACTIONS:
            return MEDIUM, f"{c.prog} {t} {texts[k + 1]}: it {value.split('_')[0].split('-')[0]}s what it " \
                f"acts on ({c.text})"
    if verb == "down" and not _VOLUMES.isdisjoint(texts):
        return MEDIUM, f"{c.prog} down -v removes its volumes with their data ({c.text})"
    if "dry" in c.lowered and any(_NOT_DRY.starts(t) for t in texts) and any(_CLEANS.occurs_in(t) for t in texts):
        return MEDIUM, f"{c.prog} is told this is not a dry run: what it cleans up is deleted ({c.text})"
    woken = triggers.woken(c)  # True: every reading asked, each through its wrapper (checked())
    for number, finding, unwrapped in _FINDINGS:
        if number is not None and isinstance(woken, set):
            if number not in woken:
                continue  # its declared words are not in the line: skipped without a call
            finding = unwrapped
        found = finding(c, verb)
        if found is not None:
            return found
    return None


# `--if-exists=replace`, `table_exists_action=replace`, `--write-disposition WRITE_TRUNCATE`, `-replace=all`:
# what is already at the target is dropped or written over.
_EXISTING_KEY = AnyCase(r"^(?:(?:if|when)[_-]?exists?|(?:table|tables|index|collection|target|dest|destination)"
                        r"[_-]?(?:exists?|(?:exists?[_-]?)?(?:action|mode|policy))|(?:write|save|load|import|insert|existing)"
                        r"[_-]?(?:mode|disposition|action|policy)|mode|replace)$")
_REPLACING = frozenset({"replace", "overwrite", "drop", "truncate", "write_truncate", "recreate", "drop_and_create",
                        "dropcreate", "drop-create", "delete", "purge", "wipe"})
_REPLACE_ALL = frozenset({"all", "yes", "true", "always"})  # `dsmc restore -replace=all`: files written over
# `--overwrite-tables`, `--replace-tables`, `--truncate-target`, `--delete-target-dir`: the target's data goes.
_TARGET_OPTION = AnyCase(r"^--?(?:overwrite|replace|truncate|drop|delete|remove|wipe|purge|recreate)[_-]"
                         r"(?:[\w-]*[_-])?(?:tables?|databases?|db|schemas?|collections?|index|indices|indexes|"
                         r"target|destination|dest|keyspaces?|buckets?|datasets?|topics?)(?:[_-][\w-]*)?$")
# A database named on the line (`PG:dbname=gis`, `postgresql://…`, `jdbc:…`, `--db …`).
_DATABASE = lazy(r"^(?:PG:|MySQL:|MSSQL:|OCI:|jdbc:|(?:postgres(?:ql)?|mysql|mariadb|mssql|sqlserver|oracle|"
                 r"mongodb(?:\+srv)?|clickhouse|snowflake|cockroachdb|redshift)(?:\+\w+)?://)", re.IGNORECASE)
_DB_OPTIONS = frozenset({"--db", "--database", "--connection", "--conn", "--dsn", "--url", "--target-db"})
_DROP_FIRST = re.compile(r"^--?(?:drop|replace|overwrite|truncate|clean)[_-](?:if[_-]exists?|first|existing|before)$")
_OVERWRITE = frozenset({"--overwrite", "-overwrite", "--replace", "-replace", "--recreate", "--truncate",
                        "-truncate"})


@triggered_by(_TARGET_OPTION, _DROP_FIRST, _EXISTING_KEY, _OVERWRITE)
def _replaces_existing(c: Ctx, verb: str) -> Optional[tuple]:
    texts = c.texts
    for k, t in enumerate(texts):
        key, eq, value = t.lstrip("-").partition("=")
        if not eq and t.startswith("-") and k + 1 < len(texts):
            value = texts[k + 1]
        if t.startswith("-") and (_TARGET_OPTION.starts(t.split("=", 1)[0]) or _DROP_FIRST.match(t)) and \
                not (eq and value.strip("'\"").lower() in ("false", "no", "off", "0")):  # `--delete-destination=false`
            return MEDIUM, f"{c.prog} {t.split('=', 1)[0]}: what is at the target is dropped or written over ({c.text})"
        if not value or not _EXISTING_KEY.starts(key):
            continue
        value = value.strip("'\"").lower()
        if value in _REPLACING and key.lower() != "replace" or key.lower() == "replace" and value in _REPLACE_ALL:
            return MEDIUM, f"{c.prog} {key}={value}: what exists at the target is replaced ({c.text})"
    if not _OVERWRITE.isdisjoint(texts) and (any(_DATABASE.match(t) for t in texts) or
                                             not _DB_OPTIONS.isdisjoint(texts)):
        return MEDIUM, f"{c.prog} overwrites tables in the database it names ({c.text})"
    return None


# Options and words that pick the version a migration goes to (`--destination 0`, `VERSION=0`, `goto 0`).
_VERSION_KEYS = frozenset({"--destination", "--target", "-t", "--to", "-M", "--version", "-version", "version",
                           "target", "goto", "down-to", "--target-version", "to"})
_ZERO = frozenset({"0", "base", "zero", "00000000000000"})
_ZERO_WORDS = frozenset({"zero", "base"})  # `manage.py migrate shop zero`: every migration of the app undone
_SCHEMA_HINT = AnyCase(r"migrat|^db:|schema|^(up|down|rollback)$")
_AGAIN = frozenset({"fresh", "reset", "refresh", "wipe", "drop"})


@triggered_by(MIGRATION_TOOLS, _SCHEMA_HINT)
def _schema_to_zero(c: Ctx, verb: str) -> Optional[tuple]:
    texts = c.texts
    if c.prog not in MIGRATION_TOOLS and not any(_SCHEMA_HINT.occurs_in(t) for t in texts[:4]):
        return None
    for k, t in enumerate(texts):
        key, eq, value = t.partition("=")
        if not eq:
            value = texts[k + 1] if k + 1 < len(texts) else ""
        if t in _ZERO_WORDS and k and any(w in ("migrate", "downgrade") for w in texts[:k]):
            return MEDIUM, f"{c.prog} takes the schema back to version 0: every table it built is dropped ({c.text})"
        if key.lower() in _VERSION_KEYS or key in _VERSION_KEYS:
            if value in _ZERO:
                return MEDIUM, f"{c.prog} takes the schema back to version 0: every table it built is dropped " \
                    f"({c.text})"
        if key.lstrip("-") == "limit" and value == "0" and "down" in texts:  # `down -limit=0`: every migration
            return MEDIUM, f"{c.prog} down -limit=0 undoes every migration: the tables are dropped ({c.text})"
        parts = split_word(t)
        if len(parts) > 1 and parts[0] in ("migrate", "migration", "migrations") and parts[-1] in _AGAIN or \
                t.lower() in ("migrate", "migration") and k + 1 < len(texts) and texts[k + 1].lower() in _AGAIN:
            return MEDIUM, f"{c.prog} {t} drops every table and builds the schema again ({c.text})"
    return None


_SYNCS = AnyCase(r"sync|mirror|replicate")
_SYNC_WORDS = frozenset({"sync", "rsync", "mirror", "replicate"})
_SYNC_DELETES = frozenset({"-d", "--delete", "--remove", "--delete-removed", "--delete-extraneous",
                           "--delete-destination", "--purge", "--delete-excluded", "--delete-missing"})
_FOR_REAL = frozenset({"--execute", "--commit", "--apply", "--no-dry-run", "--for-real", "--really"})


@triggered_by(_SYNCS)
def _sync_deletes(c: Ctx, verb: str) -> Optional[tuple]:
    """``gsutil rsync -d``, ``mc mirror --remove``: what the source lacks is deleted at the destination;
    ``pt-table-sync --execute``: a sync that only prints until told to run changes the target's rows."""
    if not any(_SYNCS.occurs_in(t) for t in [c.prog] + c.texts[:3]):
        return None
    words = {p for t in c.texts[:3] if not t.startswith("-") for p in split_word(t)} | set(split_word(c.prog))
    if not words & _SYNC_WORDS:
        return None
    if not _SYNC_DELETES.isdisjoint(c.texts):
        return MEDIUM, f"{c.prog} deletes at the destination whatever the source lacks ({c.text})"
    if not _FOR_REAL.isdisjoint(c.texts):
        return MEDIUM, f"{c.prog} is told to run its changes: the target's data is written over ({c.text})"
    return None


_NUMBERED = re.compile(r"^--?(?:delete|remove|erase|wipe|drop|destroy|purge|del|rm)[-_]?\d+$", re.IGNORECASE)
_GOES = frozenset({"uninstall", "delete", "remove", "wipe", "erase", "destroy", "purge", "drop", "nuke"})


@triggered_by(_NUMBERED, "+")
def _numbered_or_plus(c: Ctx, verb: str) -> Optional[tuple]:
    """``--delete1``, ``--remove2``: an item deleted by number; ``+app_uninstall 740``: a console command given
    on the line (Source and Steam tools)."""
    for t in c.texts:
        if t.startswith("-") and _NUMBERED.match(t.split("=", 1)[0]):
            return MEDIUM, f"{c.prog} {t} deletes the item it numbers ({c.text})"
        if t.startswith("+") and len(t) > 2 and not _GOES.isdisjoint(split_word(t[1:])):
            return MEDIUM, f"{c.prog} {t} removes what it names with its files ({c.text})"
    return None


# Options naming a hosted thing whose uninstall takes its data (`cloudron uninstall --app blog.example.com`).
_HOSTED = frozenset({"--app", "--site", "--instance", "--vm", "--cluster", "--database", "--db", "--project",
                     "--environment", "--env", "--stack"})


def _hosted_uninstall(c: Ctx, verb: str) -> Optional[tuple]:
    if verb != "uninstall" or c.prog in PACKAGE_TOOLS:
        return None
    named = next((t for k, t in enumerate(c.texts[:-1]) if t in _HOSTED and not c.texts[k + 1].startswith("-")), None)
    named = named or next((t.split("=", 1)[0] for t in c.texts if t.split("=", 1)[0] in _HOSTED and "=" in t), None)
    if named is None:
        return None
    return MEDIUM, f"{c.prog} uninstall {named} removes it with its data ({c.text})"


# What a framework's cleanup of everything may take lightly: caches it builds again.
_REBUILT = frozenset({"cache", "caches", "view", "views", "config", "route", "routes", "compiled", "optimize",
                      "opcache", "tmp", "temp", "thumbnail", "thumbnails", "preview", "previews", "event", "events"})


def _framework_cleanup(c: Ctx, verb: str) -> Optional[tuple]:
    """``occ trashbin:cleanup --all-users``, ``console messenger:flush --all``: a framework's ``group:verb``
    command that cleans, flushes or prunes for every user or every item."""
    if verb not in ("clean", "flush", "prune", "purge", "empty", "clear", "expire"):
        return None
    command = next((t for t in c.texts[:3] if ":" in t and not t.startswith("-")), None)
    if command is None or not any(t == "--all" or t.startswith("--all-") for t in c.texts) or \
            not _REBUILT.isdisjoint(split_word(command)):
        return None
    return MEDIUM, f"{c.prog} {command} deletes it for every user or item at once ({c.text})"


_KILLS = frozenset({"--kill", "-kill", "--terminate", "--kill-all"})


@triggered_by(_KILLS)
def _kill_all(c: Ctx, verb: str) -> Optional[tuple]:
    """``--victims all --kill``: a killer told to act, on every match."""
    if _KILLS.isdisjoint(c.texts) or not any(t.lower() in ("all", "*", "'*'") or t.lower().endswith("=all")
                                             for t in c.texts):
        return None
    return MEDIUM, f"{c.prog} kills every session or process it matches ({c.text})"


# Options that switch off the check a delete makes first (`nix-store --delete --ignore-liveness`).
_GUARD_OFF = frozenset({"--ignore-liveness", "--ignore-dependencies", "--ignore-deps", "--nodeps", "--no-deps",
                        "--force-depends", "--skip-safety-checks", "--disable-safety-checks", "--unsafe",
                        "--no-safety", "--i-know-what-i-am-doing", "--skip-checks"})


def _guard_off(c: Ctx, verb: str) -> Optional[tuple]:
    if not verb or verb_strength(verb) < 3 or verb in ("reset", "revert", "undo"):
        return None
    guard = next((t for t in c.texts if t.split("=", 1)[0] in _GUARD_OFF), None)
    if guard is None:
        return None
    return MEDIUM, f"{c.prog} deletes with {guard}: the check that keeps what is still in use is off ({c.text})"


_DELETING_FLAGS = frozenset({"--delete", "-delete", "--remove", "-remove", "--destroy", "--purge", "--del", "-del"})


@triggered_by(_DELETING_FLAGS)
def _kind_then_delete(c: Ctx, verb: str) -> Optional[tuple]:
    """``--device --delete laptop-old``, ``--login --delete bob``: a flag names the kind of object, ``--delete``
    the action, and the operand after it the object."""
    texts = c.texts
    for k, t in enumerate(texts[1:-1], 1):
        kind, after = texts[k - 1], texts[k + 1]
        if t in _DELETING_FLAGS and re.fullmatch(r"--?[a-z][a-z-]{2,}", kind) and kind not in _DELETING_FLAGS and \
                not after.startswith("-") and verb_strength(kind.lstrip("-")) == 0:
            return MEDIUM, f"{c.prog} {kind} {t} {after} deletes the {kind.lstrip('-')} it names ({c.text})"
    return None


_DOMAIN_WORDS = lazy(r"domain|realm|ads|join|adcli|ipa|sssd|mdm|enrol|directory|workgroup", re.IGNORECASE)
_LEAVES = frozenset({"leave", "unjoin", "unenroll", "unenrol", "--leave", "-leave", "--unjoin"})


@triggered_by(_LEAVES)
def rule_leaves_domain(c: Ctx, verb: str = "") -> Optional[tuple]:
    """``adcli leave --domain=…``, ``mdmclient unenroll``: the machine leaves its domain or its management."""
    said = next((t for t in c.texts[:3] if t.lower() in _LEAVES), None)
    if said is None or not (_DOMAIN_WORDS.search(c.prog) or any(_DOMAIN_WORDS.search(t) for t in c.texts)):
        return None
    return MEDIUM, f"{c.prog} {said}: the machine leaves its domain, its accounts and policies go ({c.text})"


RULES: dict = {"net": [rule_leaves_domain]}  # Samba's `net ads leave` (net's other words are judged as Windows')


def _rows(functions: tuple) -> tuple:
    """The readings in order, each with its declaration's number in the trigger index (None: it declared nothing)
    and the function under its wrapper: a row whose words the line lacks is skipped without packing a call."""
    return tuple((triggers.rule_number(f), f, getattr(f, "__wrapped__", f)) for f in functions)


_FINDINGS = _rows((_replaces_existing, _schema_to_zero, _sync_deletes, _numbered_or_plus, _hosted_uninstall,
                   _framework_cleanup, _kill_all, _guard_off, _kind_then_delete, rule_leaves_domain,
                   restores.rule_restore_over))
