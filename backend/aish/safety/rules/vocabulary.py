"""Effect: whatever a command's own words say it destroys, for programs no rule names.

Command lines are built ``program [group…] verb [object…] [options]``: ``az storage account
delete``, ``vagrant destroy web``, ``kind delete clusters --all``, ``rails db:drop``,
``virsh undefine vm --remove-all-storage``.  The verb says what happens (``verbs``), the
nouns around it what it happens to (a database or a cache), and the options how far
(``--all``, ``--force``).  Words after a harmless first subcommand (``git checkout -b
purge-old``) are names, not verbs, and are not read.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.programs import READ_ONLY, READ_ONLY_SUBCOMMANDS
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, is_device, target, worst
from aish.safety.rules import devices
from aish.safety.rules.remote import PROD
from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import (ALIASES, DATA_NOUNS, DESTRUCTIVE_PROGRAMS, EVERYTHING, FORCE_OPTIONS, HEAVY_OPTIONS,
                               HEAVY_OPTIONS_PATTERN, LIGHT_NOUNS, MIGRATION_TOOLS, PACKAGE_TOOLS, POWER, RESET,
                               RESET_NOUNS, RESET_WIPES, ROUTINE_OPTIONS, SCOPE_OPTIONS, SESSION_MANAGERS,
                               SPECIAL_WORDS)

_MAX_WORDS = 4  # subcommand words read after the program
_WORD = re.compile(r"^\w[\w.:@+-]*$")
# First subcommands that create, read or run: the words after them are names.
_SAFE_FIRST = frozenset("""
add create new make mk init clone checkout commit switch show list ls get describe status info view log logs
cat open edit set config build test install update upgrade push pull fetch merge rebase search find grep diff
print echo help version login whoami copy cp move mv rename download upload watch serve up attach apply deploy
publish import export fmt lint check verify inspect top ps plan validate outdated audit doctor exec run start
enable use select mount compile save send
""".split())
# A first word after which the rest is a command of its own (`poetry run rails db:drop`).
_RUNS_COMMAND = {"run": {"poetry", "uv", "pipenv", "pipx", "conda", "mamba", "heroku", "pdm", "hatch", "rye",
                         "nix", "devbox", "dotenv", "doppler", "op", "aws-vault", "direnv", "mise", "asdf"},
                 "exec": {"bundle", "pnpm", "direnv", "mise", "asdf", "devbox", "aws-vault", "flox"},
                 "dlx": {"pnpm", "yarn"}, "x": {"bun"}}
_RUNNERS = {"npx", "bunx", "uvx", "pnpx"}  # the first word is the command
# Subcommands with their own meaning for one program ("" : harmless there).
_OVERRIDES = {("git", "revert"): "", ("jj", "revert"): "", ("git", "clear"): "wipe", ("git", "clear-soft"): "delete",
              ("git", "reset-file"): "delete", ("git", "undo"): "", ("manage.py", "flush"): "drop",
              ("manage.py", "reset_db"): "drop", ("manage.py", "sqlflush"): "",
              ("redis-cli", "flushall"): "drop", ("redis-cli", "flushdb"): "drop"}
# Package tools: these nouns are where packages come from, cheap to lose.
_PACKAGE_LIGHT = {"repo", "repos", "repository", "source", "sources", "key", "keys", "remote", "channel",
                  "channels", "env", "environment", "environments", "toolchain", "version", "versions"}


# `k3s-uninstall.sh`, `./teardown.sh`, `nuke-env.sh`: what such a script removes is up to it.
_DESTROYING_SCRIPT = re.compile(r"(^|[-_.])(uninstall|teardown|destroy|nuke|wipe|purge)([-_.][\w-]*)?\.(sh|bash|ps1)$")
_ONLY_FREE_SPACE = {"--freespace", "-X", "-I", "--free-space"}  # wipers that only overwrite unused space
ALIAS_OF = {short: full for table in ALIASES.values() for short, full in table.items()}
_POWER_COMPACT = tuple(p.replace("-", "") for p in POWER)  # `…login1.Manager.PowerOff`


def _action(c: Ctx) -> tuple:
    """(verb, its word, nouns around it, the words after it) from the leading subcommand words."""
    prog = c.prog
    texts = c.texts
    aliases = ALIASES.get(prog, {})
    positions = [t for k, t in enumerate(texts) if not t.startswith(("-", "/", "+"))
                 and not (k and _is_option_value(texts, k))][:_MAX_WORDS + 1]
    positions = positions[:1] + [aliases.get(t, t) for t in positions[1:]]
    nouns: list = []
    for k, word in enumerate(positions[:_MAX_WORDS]):
        if not _WORD.match(word):
            if k == 0 and prog not in PACKAGE_TOOLS and not re.search(r"/|\.(py|php|js|rb|pl|sh)$", word):
                return "", "", nouns, []
            continue  # a script the interpreter runs (`php bin/console …`), or a name
        override = _OVERRIDES.get((prog if k == 0 else positions[k - 1], word), SPECIAL_WORDS.get(word.lower()))
        if override is not None:
            return (override, word, nouns + split_word(word), _after(texts, word)) if override else ("", "", nouns, [])
        compact = re.sub(r"[^a-z]", "", word.lower())
        if word.lower() in POWER:
            return word.lower(), word, nouns, _after(texts, word)
        if prog in SESSION_MANAGERS and compact.endswith(_POWER_COMPACT):
            return "poweroff", word, nouns, _after(texts, word)
        parts = split_word(word)
        if any(p in _SAFE_FIRST for p in parts) and not any(verb_strength(p) for p in parts):
            return "", "", nouns, []  # `add-permission`, `create-volume`: the rest are names
        verbs = [p for p in parts if verb_strength(p)]
        if verbs:
            verb = max(verbs, key=verb_strength)
            nouns += [p for p in parts if p != verb]
            after = _after(texts, word)
            if after and (after[0].lower() in DATA_NOUNS or after[0].lower() in LIGHT_NOUNS):
                nouns.append(after[0].lower())  # `kind delete clusters`: the kind of object, not a name
            return verb, word, nouns, after
        if k == 0 and word in READ_ONLY_SUBCOMMANDS.get(prog, ()):
            return "", "", nouns, []
        nouns += parts
    return "", "", nouns, []


def _is_option_value(texts: list, k: int) -> bool:
    """Is ``texts[k]`` probably the value of the option before it (``--config NAME``, ``-r REPO``,
    PowerShell's ``-Format X``)?  A verb is never taken for a value: ``--mode deleteall`` counts."""
    before = texts[k - 1]
    if not before.startswith("-") or "=" in before or before == "--":
        return False
    if re.match(r"^-[A-Z][A-Za-z]+$", before):
        return True
    if any(verb_strength(p) for p in split_word(texts[k])):
        return False
    rest = [t for t in texts[k + 1:] if not t.startswith("-")]
    return bool(rest) and (before.startswith("--") or len(before) == 2)


def _after(texts: list, word: str) -> list:
    """The names after the verb: every word that is not an option (paths included)."""
    at = next((k for k, t in enumerate(texts) if t == word or ALIAS_OF.get(t) == word), len(texts))
    return [t for t in texts[at + 1:] if not t.startswith("-") and t != "--"]


def runs_command(c: Ctx) -> Optional[list]:
    """The words of a command another program runs (``poetry run …``, ``npx prisma …``), or None."""
    texts = c.texts
    if c.prog in _RUNNERS:
        rest = [w for w in c.args if not w.text.startswith("-")]
        return rest or None
    first = next((k for k, t in enumerate(texts) if not t.startswith("-")), None)
    if first is None or c.prog not in _RUNS_COMMAND.get(texts[first], ()):
        return None
    rest = c.args[first + 1:]
    while rest and rest[0].text.startswith("-"):
        rest = rest[1:]
    if c.prog == "heroku" or c.prog == "op" or c.prog == "doppler":
        rest = [w for w in rest if w.text != "--"]
    return rest or None


def _options(texts: list) -> set:
    """Long options by name, short ones whole and letter by letter (``-rf`` -> -rf, -r, -f)."""
    return {t.split("=", 1)[0] for t in texts if t.startswith("--")} | \
        {f"-{letter}" for t in texts if t.startswith("-") and not t.startswith("--") and len(t) <= 5
         for letter in t[1:]} | {t for t in texts if t.startswith("-") and not t.startswith("--")}


def rule_vocabulary(c: Ctx) -> Optional[tuple]:
    """Judge the destructive vocabulary of any program's subcommands and options."""
    prog = c.prog
    if prog in READ_ONLY:
        return None
    inner = runs_command(c)
    if inner is not None:
        return c.check(inner)
    verb, said, nouns, after = _action(c)
    reboots = devices.update_with_reboot(c)
    if reboots is not None:
        return reboots
    if not verb:
        verb, said, nouns, after = _option_verb(c, nouns)
    on_device = devices.device_program(c, verb)
    if on_device is not None:
        return on_device
    if prog in MIGRATION_TOOLS or prog.removeprefix("npx ") in MIGRATION_TOOLS:
        nouns = nouns + ["database"]  # a migration tool's clean or reset acts on the database
        if verb in ("clean", "drop"):
            verb = "drop"
    named = DESTRUCTIVE_PROGRAMS.get(prog.lower().removesuffix(".exe"))
    if not verb and named and not set(c.texts) & _ONLY_FREE_SPACE:
        verb, said = named, prog
        nouns, after = [], [t for t in c.texts if not t.startswith(("-", "/"))] or ["files"]
    if not verb and _DESTROYING_SCRIPT.search(prog):
        return MEDIUM, f"runs {prog}, a script named for removing or wiping things ({c.text})"
    options = _options(c.texts)
    device = devices.device_write(c, options)
    if device is not None:
        return device
    heavy_option = next((o for o in options if (o in HEAVY_OPTIONS or HEAVY_OPTIONS_PATTERN.match(o))
                         and o not in ROUTINE_OPTIONS), None)
    if not verb:
        if heavy_option:
            wide = "all" in heavy_option or "everything" in heavy_option
            return (HIGH if wide else MEDIUM), f"{prog} {heavy_option} deletes data ({c.text})"
        return None
    strength = verb_strength(verb)
    if heavy_option is None and (strength >= 3 or verb in ("unregister", "deregister")) and "--delete" in options:
        heavy_option = "--delete"  # `unregistervm … --delete`: the files go too
    if prog in PACKAGE_TOOLS and verb in ("uninstall", "remove", "rm", "del", "purge", "erase") and _listed(c):
        return MEDIUM, f"{prog} {said} removes every package a list computed at run time names ({c.text})"
    light_nouns = LIGHT_NOUNS | (_PACKAGE_LIGHT if prog in PACKAGE_TOOLS else frozenset())
    data = [n for n in nouns if n in DATA_NOUNS and n not in light_nouns]
    light = [n for n in nouns if n in light_nouns]
    everything = any(t in EVERYTHING for t in after) or bool(options & SCOPE_OPTIONS) or _listed(c) or \
        strength >= 3 and "-a" in options
    forced = bool(options & FORCE_OPTIONS) and (verb not in RESET or "--force" in options)
    level = _level(prog, verb, strength, nouns, data, light, bool(after) or said == prog, everything, forced,
                   heavy_option)
    if level is None:
        return None
    prod = any(PROD.search(t) for t in after) or any(PROD.search(t) for t in c.texts if "=" in t)
    if level == MEDIUM and (strength >= 3 or heavy_option and data) and \
            (everything or prod or heavy_option or forced and (strength == 4 or data)):
        level = HIGH
    name = prog if said == prog else f"{prog} {said}"
    what = data[0] if data else (after[0] if after else "its data")
    scope = ", every one it matches" if everything else ""
    if strength == 3 and verb in RESET:
        reason = f"{name} resets {what}: what it holds is lost{scope}"
    else:
        reason = {4: f"{name} destroys {what}{scope}", 3: f"{name} deletes {what}{scope}",
                  2: f"{name} shuts down, restarts or logs out", 1: f"{name} on {what}{scope}"}[strength]
    return worst((level, f"{reason} ({c.text})"), _targets(c, verb, after))


def _level(prog: str, verb: str, strength: int, nouns: list, data: list, light: list, named: bool,
           everything: bool, forced: bool, heavy_option: Optional[str]) -> Optional[int]:
    """Medium, or None: the verb's strength against what it acts on (a cache or a database)."""
    level: Optional[int]
    if strength == 4:
        level = None if light and not data else MEDIUM
    elif strength == 3 and verb in RESET:
        wipes = prog in RESET_WIPES and verb == "reset"  # `kubeadm reset`, `ykman piv reset`
        level = MEDIUM if wipes or any(n in RESET_NOUNS for n in nouns) or forced and not light else None
    elif strength == 3:
        quiet = light and not data or prog in PACKAGE_TOOLS and not data
        bare = not (data or named or everything or forced)  # `minikube delete`: the program's own object
        level = MEDIUM if not quiet and not (bare and verb in ("prune", "purge", "expire", "discard")) else None
    elif strength == 2:
        level = MEDIUM if prog in SESSION_MANAGERS else None
    elif verb in ("clear", "flush", "empty"):
        level = MEDIUM if data and not light else None
    else:
        level = MEDIUM if data and (everything or heavy_option) else None
    if level is None and heavy_option and strength:
        level = MEDIUM
    return level


def _option_verb(c: Ctx, nouns: list) -> tuple:
    """``--purge``, ``--wipe-data``: a strong verb given as an option when no subcommand names one; it
    needs something to act on (a name or a data noun).  A bare ``--delete`` edits more often than it
    destroys (``stow``, ``exiv2``, ``gifsicle``, ``xml edit``): it is left out."""
    for t in c.texts:
        m = re.match(r"^--?(purge|destroy|wipe|erase|drop)(?:-([\w-]+))?$", t)
        if not m:
            continue
        noun = m.group(2) or ""
        after = [x for x in c.texts if not x.startswith("-")]
        if noun and any(p in DATA_NOUNS for p in noun.split("-")) or not noun and after:
            return m.group(1), t, nouns + noun.split("-"), after
    return "", "", nouns, []


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
