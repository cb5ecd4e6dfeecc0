"""Options that carry the verb or its object in orders the vocabulary's first reading misses.

The vocabulary reads ``--delete-vm`` (a verb, then its object) and a subcommand's operands as the names
it acts on.  Programs no rule names also say the same things other ways:

- the object first, then the verb (``matrix-commander --room-delete ID``, ``--bucket-remove NAME``): the
  subcommand ``room delete ID`` spelled as an option;
- a weak verb or a reset on what the program has stored (``beacon-chain --clear-db``, ``--force-clear-db``,
  ``--reset-database``, ``--flush-data``; ``drbdadm --overwrite-data-of-peer``): its store is emptied or
  written over, where ``--clear-cache`` or ``--flush-logs`` empty something cheap;
- the one thing a verb acts on named by an option after it (``pgbackrest expire --set=ID``, ``undeploy
  --name api``, ``prune --snapshot=nightly``): the verb is not bare, it has an object;
- a hosted platform's settings unset in one word (``heroku config:unset KEY``, ``cf unset-env app KEY``):
  the deployed app's variables, read as its secrets;
- a weak verb told every one in an option (``--uninstall-all``, ``--revoke-all``, ``--cancel-all``): the
  subcommand ``uninstall all`` spelled as an option;
- a setting turned on as a bare ``key=value`` operand (``ts3server clear_database=1``, ``wipe_data=true``):
  read as the option ``--clear-database``, ``--wipe-data``.
"""
from __future__ import annotations

import re

from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import DATA_NOUNS, OPTION_MODIFIERS, POWER, RESET, WEAK_DATA_NOUNS
from aish.safety.lazy_regex import lazy

# Words before a verb in an option that make it a condition, a hook or a setting of another action, not
# an object (`--on-delete cascade`, `--soft-delete`, `--post-delete-hook`, `--allow-delete`, `--auto-remove`).
_NOT_AN_OPTION_OBJECT = frozenset("""
on pre post before after allow deny block prevent protect confirm ask skip ignore no not dont soft safe auto mark
marked track watch log notify hook event events detect show list print dry test check simulate enable disable can
may undo un re keep cascade sync mirror fail warn report count max min limit batch async parallel delay wait retry
timeout lazy bulk recursive force hard all when if lock locked protected pending scheduled
""".split())


def noun_first(parts: list) -> bool:
    """``room-delete``, ``bucket-remove``, ``database-drop``: an object, then a deleting or destroying verb
    spelled out (``param-del`` is a parameter's delimiter)."""
    return len(parts) == 2 and verb_strength(parts[1]) >= 3 and len(parts[1]) >= 4 and parts[1] not in RESET and \
        parts[1] not in POWER and parts[0].isalpha() and len(parts[0]) > 2 and verb_strength(parts[0]) == 0 and \
        parts[0] not in _NOT_AN_OPTION_OBJECT and parts[0] not in OPTION_MODIFIERS


# Weak verbs and resets that, on what a program has stored, empty it (`--clear-db`, `--flush-data`); elsewhere
# (`--clear-cache`, `--reset-config`, `--flush-logs`) they empty something cheap or do not delete.
_EMPTYING = frozenset({"clear", "flush", "reset", "empty", "clean"})
_STORED = frozenset({"db", "dbs", "database", "databases", "data", "datadir", "storage", "chaindata", "userdata",
                     "volume", "volumes", "store", "datastore", "keystore", "wallet", "ledger", "blockstore"})


def empties_store(parts: list) -> bool:
    """The parts of an option's name: ``clear, db``; ``force, clear, db``; ``reset, database``."""
    emptied = parts[1:] if parts[:1] == ["force"] else parts
    if emptied[:1] == ["overwrite"] and len(emptied) >= 2:  # `--overwrite-data-of-peer`: written over, whoever's
        return emptied[1] in _STORED
    return len(emptied) == 2 and emptied[0] in _EMPTYING and emptied[1] in _STORED


# Options whose value names the one thing a verb acts on (`expire --set=ID`, `undeploy --name api`).
_NAMING = frozenset({"id", "ids", "name", "names", "set", "uuid"})


def named_by_option(texts: list, said: str) -> bool:
    """After the verb, an option names its object: ``expire --set=20240101-010101F``, ``discard --id 42``,
    ``prune --snapshot=nightly``, ``undeploy --name payments-api``."""
    if said not in texts:
        return False
    rest = texts[texts.index(said) + 1:]
    for k, t in enumerate(rest):
        if not t.startswith("--") or len(t) < 5:
            continue
        key, eq, _ = t[2:].partition("=")
        if not eq and (k + 1 == len(rest) or rest[k + 1].startswith("-")):
            continue  # a flag, no value
        parts = split_word(key)
        if parts and (parts[-1] in _NAMING or parts[0] in DATA_NOUNS and parts[0] not in WEAK_DATA_NOUNS):
            return True
    return False


# A hosted platform's settings, fused with their verb (`config:unset`, `env:unset`, `unset-env`): the
# deployed app's variables, its secrets among them; `npm config unset`, `git config --unset` are local.
_SETTINGS = frozenset({"config", "env", "envs", "vars", "variables", "var"})


def hosted_settings(said: str) -> bool:
    """``config:unset``, ``env:unset``, ``unset-env``: settings and verb in one word, joined by ``:`` or ``-``."""
    return (":" in said or "-" in said) and bool(set(split_word(said)) & _SETTINGS)


_CONFIGURING = frozenset({"set", "config", "configure", "conf", "setting", "settings", "setenv", "env", "export",
                          "add", "create", "new", "init", "param", "params", "property", "properties"})
_SETTING_ON = lazy(r"^([A-Za-z][\w.-]*)=(1|true|yes|on|y|all)$", re.IGNORECASE)


def settings_as_options(texts: list) -> set:
    """``clear_database=1``, ``wipe_data=true``: a setting that carries a verb, turned on, as its ``--`` option
    (``--clear-database``); a setting turned off, or one with no verb in it, is not read."""
    out: set = set()
    first = next((t for t in texts if t[:1] != "-"), "")
    if first.lower() in _CONFIGURING:
        return out  # `set purge_old=1`, `config wipe_on_exit=true`: a setting stored for later, not an act
    for t in texts:
        if t[:1] == "-" or "=" not in t:
            continue
        m = _SETTING_ON.match(t)
        if m is None:
            continue
        parts = split_word(m.group(1))
        if any(verb_strength(p) for p in parts) or parts[:1] == ["overwrite"]:
            out.add("--" + "-".join(parts))
    return out


# Weak verbs that, told every one, take everything the program manages (`--uninstall-all`, `--revoke-all`);
# clearing, flushing or emptying everything (`--clear-all` notifications) is left to the nouns.
_WEAK_ALL = frozenset({"uninstall", "unregister", "deregister", "revoke", "evict", "drain", "cancel", "abandon",
                       "deinit", "stop", "kill", "down"})


def weak_all(parts: list) -> bool:
    """``uninstall, all``: a weak verb, then ``all``, as an option's whole name."""
    return len(parts) == 2 and parts[1] == "all" and parts[0] in _WEAK_ALL
