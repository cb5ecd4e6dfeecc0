"""What a command's own words say it does: the verb, the kind of object, the names it acts on.

Command lines are built ``program [group…] verb [object…] [options]`` (``az storage account
delete``, ``kind delete clusters --all``), but the verb may also be the program's own name
(``lxc-destroy``, ``pg_dropcluster``, ``condor_rm``) or an option (``timeshift --delete
--snapshot x``, ``kafka-topics --delete --topic t``, ``tarsnap -d``).  This module reads the
words; ``vocabulary`` decides what the action is worth.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from aish.safety.programs import READ_ONLY_SUBCOMMANDS
from aish.safety.rules import option_readings
from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import (ALIASES, BACKUP_TOOLS, DATA_NOUNS, DELETE_LETTERS, FIRST_ALIASES, LIGHT_NOUNS,
                               OPTION_MODIFIERS,
                               NOT_BEFORE_SHORT_DELETE, PACKAGE_TOOLS, POWER, RESET, ROUTINE_OPTIONS,
                               SESSION_MANAGERS, SHORT_DELETE, SPECIAL_WORDS, WEAK_DATA_NOUNS)
from aish.safety.lazy_regex import lazy

_MAX_WORDS = 4  # subcommand words read after the program
_NOT_SUBCOMMAND = frozenset("-/+")  # first letters of options, paths and targets (`+build`)
_WORD = re.compile(r"^\w[\w.:@+-]*$")
_SCRIPT_FILE = lazy(r"(?<=\w)\.(py|rb|pl|pm|sh|bash|zsh|js|mjs|cjs|ts|php|lua|R|r|jl|tcl|groovy|kts|exs?|ps1|"
                    r"bat|cmd)$")
# First subcommands that create, read or run: the words after them are names.
SAFE_FIRST = frozenset("""
add create new make mk init clone checkout commit switch show list ls get describe status info view log logs
cat open edit set config build test install update upgrade push pull fetch merge rebase search find grep diff
print echo help version login whoami copy cp move mv rename download upload watch serve up attach apply deploy
publish import export fmt lint check verify inspect top ps plan validate outdated audit doctor exec run start
enable use select mount compile save send generate gen scaffold makemigrations
""".split())
# Options whose value names what is made (`--name drop-audit-log`, `--title delete-stale`): never an action.
_NAMING_OPTIONS = frozenset({"--name", "--message", "--title", "--description", "--comment"})
# A first word after which the rest is a command of its own (`poetry run rails db:drop`).
_RUNS_COMMAND = {"run": {"poetry", "uv", "pipenv", "pipx", "conda", "mamba", "heroku", "pdm", "hatch", "rye",
                         "nix", "devbox", "dotenv", "doppler", "op", "aws-vault", "direnv", "mise", "asdf"},
                 "exec": {"bundle", "pnpm", "direnv", "mise", "asdf", "devbox", "aws-vault", "flox"},
                 "dlx": {"pnpm", "yarn"}, "x": {"bun"}}
_RUNNERS = {"npx", "bunx", "uvx", "pnpx"}  # the first word is the command
# Local development environments that run a project's own tools by name (`ddev drush si`, `sail artisan …`).
_TOOL_HOSTS = {"ddev", "lando", "sail", "fin", "warden", "docksal"}
_HOSTED_TOOLS = {"drush", "artisan", "wp", "php", "rails", "rake", "console", "magento", "occ", "composer",
                 "npm", "yarn", "craft", "bench", "mysql", "psql", "bin/console", "bin/magento"}
# Every program ``runs_command`` may find a command in.
_COMMAND_RUNNERS = frozenset(_RUNNERS) | frozenset(_TOOL_HOSTS) | frozenset().union(*_RUNS_COMMAND.values())
_RUNNER_VALUED = {"-p", "--package", "--from", "--with", "--python", "-c", "--call"}
# Subcommands with their own meaning for one program ("" : harmless there).
_OVERRIDES = {("git", "revert"): "", ("jj", "revert"): "", ("git", "clear"): "wipe", ("git", "clear-soft"): "delete",
              ("git", "reset-file"): "delete", ("git", "undo"): "", ("manage.py", "flush"): "drop",
              ("manage.py", "reset_db"): "drop", ("manage.py", "sqlflush"): "",
              ("redis-cli", "flushall"): "drop", ("redis-cli", "flushdb"): "drop", ("pm", "clear"): "wipe"}
_POWER_COMPACT = tuple(p.replace("-", "") for p in POWER)  # `…login1.Manager.PowerOff`
ALIAS_OF = {short: full for table in (*ALIASES.values(), *FIRST_ALIASES.values()) for short, full in table.items()}
# An option spelled as a verb: `--delete`, `-delete`, `--drop-slot`, `--wipe_data`, `--force-reset`.
_OPTION = re.compile(r"^--?([A-Za-z][\w-]*)(?:=(.*))?$")
_LISTING = {"list", "ls", "show", "status", "info", "help", "version", "check", "preview"}
_OFF_VALUES = {"false", "no", "0", "off", "none", "never"}
_LEADS = {"force", "hard", "permanently", "factory", "all"}  # `--force-reset`, `--factory-reset`
# A link's or a token's lifetime (`--expires-in 3600`, `--expire 4h`), not an action on anything.
_WHEN_WORDS = {"expire", "expires", "expiry", "expiration", "expiring"}
# A subcommand spelled as group/verb (`vmsvc/destroy`, `vmsvc/snapshot.removeall`), not a path to a file
# (`docs/delete.html`: what follows a dot is an extension unless it is a word of five letters or more).
_GROUPED = re.compile(r"[a-z][\w-]*(?:/[a-z][\w-]*)+(?:\.[a-z]{5,})?")
_SHELL_LIKE = {"-rm", "-rmr", "-rmdir", "-del", "-rmf"}
# Harmless-looking first words that are also the NAME of a kind of object: right before a deleting verb they are
# the noun group (`consul config delete`, `sensuctl check delete NAME`, `aliyunlog log delete_logstore`).
_NOUN_FIRST = frozenset("check checks config log logs build builds test tests plan plans status version audit deploy "
                        "deployment".split())
# Weak verbs that still take the noun group before them whole (`hal deploy clean`).
_GROUP_VERBS = frozenset({"clean", "cleanup", "cancel"})  # `billing-cli plan cancel`
# gflags/Java style options spelled with one dash and an underscore take a value (`-master_addresses h1,h2`).
_ONE_DASH_VALUED = lazy(r"-[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


@dataclass
class Action:
    verb: str = ""  # the strongest verb word ("delete"), "" when none
    said: str = ""  # as written: the subcommand, the option or the program's name
    nouns: list = field(default_factory=list)  # kinds of objects around the verb ("database", "cache")
    after: list = field(default_factory=list)  # the names it acts on
    source: str = ""  # "subcommand" | "program" | "option" | "letter" (a program's own delete letter)
    safe: bool = False  # a harmless first subcommand: the words after it are names, its options its own


_SCRIPT_PATH = lazy(r"/|\.(py|php|js|rb|pl|sh)$")
_SHORT_WORD = lazy(r"[a-z]{1,12}")
_SCRIPT_EXTENSION = lazy(r"\.(sh|py|pl|rb|exe|bash)$")


# A program named for making a thing (`createdb`, `createuser`, `addgroup`, `newgrp`, `initdb`, `genkey`): its first
# word is the new thing's name.  Makers of file systems and swap (`newfs`, `mkfs`, `mkswap`) write over a volume.
_CREATING_NAME = re.compile(r"^(create|add|new|init|gen)[a-z]+$(?<!fs)(?<!swap)", re.IGNORECASE)


def subcommand_action(prog: str, texts: list) -> Action:
    """The verb among the leading subcommand words, with the nouns before it and the names after."""
    aliases = ALIASES.get(prog, {})
    at = []  # where the first few words that are neither options nor their values stand
    for k, t in enumerate(texts):
        if t[:1] not in _NOT_SUBCOMMAND and not (k and texts[k - 1][:1] == "-" and is_option_value(texts, k)):
            at.append(k)
            if len(at) > _MAX_WORDS:
                break
    positions = [_unbanged(texts[k]) for k in at]
    after_option = {texts[k] for k in at if k and texts[k - 1].startswith("-")}  # `fd x -t d`: a value
    if positions and prog not in PACKAGE_TOOLS and _GROUPED.fullmatch(positions[0]):
        positions = positions[0].split("/") + positions[1:]  # `vim-cmd vmsvc/destroy 12`: a group, then its verb
    first = FIRST_ALIASES.get(prog, {})
    if positions[:1] == ["g"] and len(positions) > 1:
        positions = ["generate"] + positions[1:]  # `ng g component X`, `rails g migration X`: a generator's short name
    positions = [first.get(t, t) for t in positions[:1]] + \
        [t if _object_letter(positions, k + 1) else
         aliases.get(t) or first.get(t) or (t if t in after_option else _short_delete(t, positions[k], k, prog))
         for k, t in enumerate(positions[1:])]
    nouns: list = []
    if positions and _CREATING_NAME.match(prog):
        return Action(nouns=nouns, safe=True)  # `createdb drop`, `addgroup wipe`: the name of what is made
    for k, word in enumerate(positions[:_MAX_WORDS]):
        if not _WORD.match(word):
            if k == 0 and prog not in PACKAGE_TOOLS and not _SCRIPT_PATH.search(word):
                return Action(nouns=nouns)
            continue  # a script the interpreter runs (`php bin/console …`), or a name
        # `ruby feed.rb`: its extension is no verb (`rb` removes a bucket)
        word = _SCRIPT_FILE.sub("", word) if "." in word else word
        if k and is_setting_value(positions, k):
            return Action(nouns=nouns)  # `fwtool set default-policy drop`: the policy's value, not a verb
        override = _OVERRIDES.get((prog if k == 0 else positions[k - 1], word), SPECIAL_WORDS.get(word.lower()))
        if override is not None:
            if not override:
                return Action(nouns=nouns)
            return Action(override, word, nouns + split_word(word), after_word(texts, word), "subcommand")
        if word.lower() in POWER:
            return Action(word.lower(), word, nouns, after_word(texts, word), "subcommand")
        if prog in SESSION_MANAGERS and re.sub(r"[^a-z]", "", word.lower()).endswith(_POWER_COMPACT):
            return Action("poweroff", word, nouns, after_word(texts, word), "subcommand")
        parts = split_word(word)
        if word in _NOUN_FIRST and k + 1 < len(positions) and _WORD.match(positions[k + 1]) and \
                (verb_strength(split_word(positions[k + 1])[0]) >= 3 or positions[k + 1] in _GROUP_VERBS):
            nouns += parts  # `sensuctl check delete NAME`: the kind of object, then the verb
            continue
        if any(p in SAFE_FIRST for p in parts) and not any(verb_strength(p) for p in parts) and \
                not (k and len(parts) > 1 and any(verb_strength(w) >= 2 for w in positions[k + 1:_MAX_WORDS])):
            return Action(nouns=nouns, safe=True)  # `add-permission`, `create-volume`: the rest are names
        verbs = [p for p in parts if verb_strength(p)]
        if verbs:
            verb = max(verbs, key=verb_strength)
            nouns += [p for p in parts if p != verb]
            after = after_word(texts, word)
            if after and (after[0].lower() in DATA_NOUNS or after[0].lower() in LIGHT_NOUNS):
                nouns.append(after[0].lower())  # `kind delete clusters`: the kind of object, not a name
            return Action(verb, word, nouns, after, "subcommand")
        if k == 0 and word in READ_ONLY_SUBCOMMANDS.get(prog, ()):
            return Action(nouns=nouns, safe=True)
        nouns += parts
    return Action(nouns=nouns)


_SETTING_NAME = re.compile(r"^(\w+[-_.])+(policy|action|verdict|target)$|^(policy|action|verdict|target)$",
                           re.IGNORECASE)
_SETTERS = frozenset({"set", "config", "configure", "setting", "settings"})


def is_setting_value(words: list, k: int) -> bool:
    """Is ``words[k]`` the value given to a policy named just before it (``set default-policy drop``,
    ``input-policy drop``)?  A compound name says it is a setting; a bare ``policy`` needs a setter
    before it, as ``xcli policy delete P`` deletes a policy."""
    name = _SETTING_NAME.match(words[k - 1])
    if name is None:
        return False
    return name.group(1) is not None or any(w.lower() in _SETTERS for w in words[:k - 1])


def _unbanged(word: str) -> str:
    """``destroy!``, ``project:destroy!``: a task or subcommand whose name ends in a bang (the Ruby and Thor
    convention for the unguarded variant of a verb) is that verb, done without the usual checks."""
    if word.endswith("!") and len(word) > 2 and _WORD.match(word[:-1].rstrip("!")):
        return word.rstrip("!")
    return word


def _object_letter(positions: list, i: int) -> bool:
    """``doctl compute d c …``, ``doctl compute d ls``: a one-letter ``d`` with another subcommand word after it
    (a create, a listing, a get, or the ``d`` that deletes) is the object's abbreviation (droplet), not delete."""
    return positions[i] == "d" and i + 1 < len(positions) and \
        (positions[i + 1] in NOT_BEFORE_SHORT_DELETE or positions[i + 1] in ("d", "rm", "del", "delete"))


def _short_delete(word: str, before: str, k: int, prog: str) -> str:
    """``d`` after a short subcommand word (``jj tag d NAME``, ``tc q d dev eth0``) is delete."""
    if word in SHORT_DELETE and k < 2 and _SHORT_WORD.fullmatch(before) and prog not in PACKAGE_TOOLS \
            and before not in NOT_BEFORE_SHORT_DELETE:
        return "delete"
    return word


def program_action(prog: str, texts: list) -> Action:
    """A program named for what it destroys (``lxc-destroy``, ``pg_dropcluster``, ``condor_rm``,
    ``steamos-factory-reset``): its name is the verb, its operands the names."""
    named = _name_verb(prog)
    if named is None:
        return Action()
    verb, nouns = named
    after = [t for t in texts if not t.startswith("-")]
    if after[:1] and after[0] in _LISTING:  # `vkpurge list`: what it would remove, shown
        return Action()
    return Action(verb, prog, list(nouns), after, "program")


# A cmdlet whose approved verb reads, creates or copies: its noun names the object, so verbs inside it are
# names (`Get-AzureRmVM`: AzureRM is a module, `Rm` is Resource Manager, not remove).
_READING_CMDLET = re.compile(
    r"^(?:Get|New|Add|Show|Find|Test|Select|Where|ForEach|Sort|Out|Format|ConvertTo|ConvertFrom|Measure|Export|"
    r"Search|Read|Compare|Trace|Wait|Connect|Enter|Use|Join|Group|Tee|Copy|Save|Backup|Checkpoint|"
    r"Install|Register|Enable|Resume|Expand|Compress|Receive|Resolve|Watch|Open)-[A-Z][A-Za-z0-9]+$",
    re.IGNORECASE)


@lru_cache(maxsize=16384)  # as many names as table._program keeps
def _name_verb(prog: str) -> Optional[tuple]:
    """The verb a program's own name says (``lxc-destroy``: destroy, with the nouns beside it), or None.
    Kept per name: every command no rule names asks it, and programs recur."""
    name = _SCRIPT_EXTENSION.sub("", prog) if "." in prog else prog
    if _READING_CMDLET.match(name):
        return None  # `Get-AzureRmVM`, `New-AzureRmResourceGroup`: the verb before the dash says what it does
    parts = split_word(name)
    if len(parts) < 2 or prog in PACKAGE_TOOLS:
        return None
    verbs = [p for p in parts if verb_strength(p) >= 3 and p not in POWER or p == "uninstall"]  # `db2_deinstall`
    if not verbs:
        return None
    verb = max(verbs, key=verb_strength)
    return verb, tuple(p for p in parts if p != verb)


def option_action(prog: str, texts: list) -> Action:
    """A strong verb given as an option when no subcommand names one (``--delete``, ``-delete``,
    ``--delete-vm``, ``--drop-slot``, ``--factory-reset``; ``-d`` only on backup tools, whose
    business is archives).  Modifiers of another action (``--delete-after``, ``--remove-source-files``)
    and routine options (``--rm``, ``--remove-orphans``) are not verbs."""
    backup = is_backup_tool(prog)
    letter, noun = DELETE_LETTERS.get(prog, ("", ""))
    if letter and any(re.fullmatch(rf"-[a-zA-Z]*{letter}[a-zA-Z]*", t) for t in texts):
        return Action("delete", f"-{letter}", [noun], names(texts), "letter")
    for k, t in enumerate(texts):
        if t[:1] != "-" or t in ROUTINE_OPTIONS:
            continue  # an operand: every reading below is of an option
        if t in _SHELL_LIKE and k and not texts[k - 1].startswith("-"):
            # `hdfs dfs -rm -r /data`, `hadoop fs -rmr /x`: a file system client's own rm after its subcommand;
            # first on the line it is a bundle of letters (`pw-cat -rm out.wav`: record, monitor)
            return Action("delete", t, ["files"] + (["all"] if t == "-rmr" else []), names(texts), "option")
        if t in ("--revoke", "-revoke"):
            return Action("revoke", t, [], names(texts), "option")
        if backup and t == "-d" and (k + 1 == len(texts) or texts[k + 1].startswith("-")):
            return Action("delete", t, ["archive"], names(texts), "option")  # `-d` as a flag, not `-d DIR`
        m = _OPTION.match(t)
        value = m.group(2) if m else None
        if m is None or value is not None and value.lower() in _OFF_VALUES:
            continue
        if value is None and t.startswith("-") and not t.startswith("--") and k + 1 < len(texts) and \
                texts[k + 1].lower() in _OFF_VALUES:
            continue  # `-deleteduplicates false`
        parts = split_word(m.group(1))
        if len(m.group(1)) < 3 or not parts:
            continue
        lead = [p for p in parts if p in _LEADS]
        verb = parts[len(lead)] if len(parts) > len(lead) else ""
        noun_first = option_readings.noun_first(parts)
        if noun_first:  # `--room-delete ID`: the subcommand `room delete ID` spelled as an option
            return Action(parts[1], t, [parts[0]], ([value] if value else []) + names(texts), "subcommand")
        if option_readings.weak_all(parts):  # `--uninstall-all`, `--revoke-all`: the subcommand `uninstall all`
            return Action(parts[0], t, ["all"], names(texts), "subcommand")
        if verb_strength(verb) < 3 or verb in POWER or parts[len(lead)] in _WHEN_WORDS:
            continue
        rest = parts[len(lead) + 1:]
        if set(rest) & OPTION_MODIFIERS:
            continue
        if verb in RESET and not (set(lead) & {"force", "factory", "hard"} or set(rest) & DATA_NOUNS):
            continue  # a bare `--reset` resets settings, not data
        # `--delnode=worker7`: the value names what the verb acts on
        return Action(verb, t, lead + rest, ([value] if value else []) + names(texts), "option")
    return Action()


def is_backup_tool(prog: str) -> bool:
    """Backup and snapshot tools: what they delete is an archive (``tarsnap -d``, ``rusnapshot --del``)."""
    return prog in BACKUP_TOOLS or bool(_BACKUP_NAME.search(prog))


_BACKUP_NAME = re.compile(r"(backup|snapshot|snapper|tarsnap|restic|borg)")


def option_nouns(texts: list) -> list:
    """The kinds of objects named by the options (``--topic``, ``-keystore``, ``--snapshot``):
    strong data nouns only (``--file`` or ``--group`` say little)."""
    out = []
    for t in texts:
        m = _OPTION.match(t)
        if m and len(m.group(1)) > 2:
            out += [p for p in split_word(m.group(1)) if p in DATA_NOUNS and p not in WEAK_DATA_NOUNS]
    return out


def names(texts: list) -> list:
    """The operands: every word that is not an option."""
    return [t for t in texts if not t.startswith("-") and t != "--"]


_POWERSHELL_OPTION = re.compile(r"^-[A-Z][A-Za-z]+$")


@lru_cache(maxsize=16384)  # option values: the corpora give ~3,300 a pass
def names_a_verb(word: str) -> bool:
    """Does any part of ``word`` say what a command does (``deleteall``, ``db:drop``)?  Kept: an
    option's value is asked about by every word after an option, and values recur (`-n default`)."""
    return any(verb_strength(p) for p in split_word(word))


_CONDITIONS = frozenset({"--for", "--until", "--wait-for"})


def is_option_value(texts: list, k: int) -> bool:
    """Is ``texts[k]`` probably the value of the option before it (``--config NAME``, ``-r REPO``,
    PowerShell's ``-Format X``)?  A verb is never taken for a value: ``--mode deleteall`` counts."""
    before = texts[k - 1]
    if not before.startswith("-") or "=" in before or before == "--":
        return False
    if _POWERSHELL_OPTION.match(before) or before in _CONDITIONS or before in _NAMING_OPTIONS:
        return True  # `kubectl wait --for delete pod/x`: the condition waited for, not an action
    if names_a_verb(texts[k]):
        return False
    return (before.startswith("--") or len(before) == 2 or bool(_ONE_DASH_VALUED.fullmatch(before))) and \
        any(not t.startswith("-") for t in texts[k + 1:])


def after_word(texts: list, word: str) -> list:
    """The names after the verb: every word that is not an option (paths included)."""
    at = next((k for k, t in enumerate(texts) if t == word or ALIAS_OF.get(t) == word or t == word + "!"),
              len(texts))
    return [t for t in texts[at + 1:] if not t.startswith("-") and t != "--"]


def runs_command(prog: str, args: list) -> Optional[list]:
    """The words of a command another program runs (``poetry run …``, ``npx prisma …``), or None."""
    if prog not in _COMMAND_RUNNERS:
        return None  # most programs run no other command: no list of their words to make
    return _runs_command(prog, args)


def _runs_command(prog: str, args: list) -> Optional[list]:
    texts = [w.text for w in args]
    if prog in _RUNNERS:
        k = 0
        while k < len(texts) and texts[k].startswith("-"):
            k += 2 if texts[k] in _RUNNER_VALUED else 1
        return list(args[k:]) or None
    first = next((k for k, t in enumerate(texts) if not t.startswith("-")), None)
    if first is not None and prog in _TOOL_HOSTS and texts[first] in _HOSTED_TOOLS:
        return list(args[first:])
    if first is None or prog not in _RUNS_COMMAND.get(texts[first], ()):
        return None
    rest = args[first + 1:]
    while rest and rest[0].text.startswith("-"):
        rest = rest[1:]
    if prog in ("heroku", "op", "doppler"):
        rest = [w for w in rest if w.text != "--"]
    return rest or None


def options(texts: list, letters: bool = True) -> set:
    """Long options by name, short ones whole and letter by letter (``-rf`` -> -rf, -r, -f).  A cmdlet's
    parameters are names (``-Name``, ``-Path``): ``letters=False`` keeps each whole (``-Name`` holds no ``-a``).
    A word of four letters or more (``-name``, ``-path``, ``-tags``: Go's and find's style) is a name too."""
    found = set()
    for t in texts:  # one pass (three set comprehensions read every word three times)
        if t[:1] != "-":
            continue
        if t[:2] == "--":
            found.add(t.split("=", 1)[0])
            continue
        found.add(t)
        if letters and len(t) <= 4:
            found.update("-" + letter for letter in t[1:])
    return found
