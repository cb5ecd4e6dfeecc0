"""Effect: what a program holds emptied or replaced by verbs and shapes the vocabulary does not weigh alone,
for programs no rule names.

- A store cleared whole: ``clear``/``clearconfig``/``flush`` given no object by an admin tool (``nvmetcli
  clear``, ``targetcli clearconfig confirm=True``: every storage target is gone), or told not to ask
  (``django-admin flush --noinput``: every table emptied).
- A configuration replaced with nothing: ``/dev/null`` loaded with a replacing strategy (``configure
  /dev/null --strategy replace``, ``load /dev/null --override``).
- A database's storage initialised over what it holds: a database program's init told not to ask
  (``oninit -iy``, ``mydbctl init -y``, ``dbserverctl initialize --force``) or its data nodes started
  ``--initial`` (``ndbd --initial``: every data file deleted).
- A file whose name says what it deletes given to a program to run (``es-tool run
  actions/delete_all_indices.yml``, ``dbtool -f drop_all_tables.sql``).

Listings, dry runs, an init with nothing to lose (``npm init -y``) and config files read (``ssh -F
/dev/null``, ``pylint --rcfile=/dev/null``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import DATA_NOUNS, LIGHT_NOUNS

_CLEARS = frozenset({"clear", "clearconfig", "clear-config", "clear_config", "clearall", "clear-all", "flush",
                     "flushall", "flush-all", "clear-all-config", "resetconfig", "reset-config"})
_ADMIN_NAME = lazy(r"(cli|ctl|adm|admin|manage|manage\.py|console)$")
_NO_QUESTION = frozenset({"--noinput", "--no-input", "--no-interaction", "-n", "--force", "-f", "--yes", "-y",
                          "confirm=true", "--confirm", "-force"})
# `/dev/null` given as what a loader reads, with a strategy that replaces what is there.
_REPLACES = frozenset({"replace", "--replace", "override", "--override", "overwrite", "--overwrite", "-replace",
                       "--strategy=replace", "--mode=replace", "--merge=false", "--no-merge", "--reload"})
# A subcommand that makes the file it is given the running configuration (`setconf`, `syncconf`, `configure`,
# `cib-push`, `restore`, `restoreconfig`, `config-set`).
_LOADS = lazy(r"^(set|sync|push|configure|restore|replace|config-?set|cib-push)[-_]?(conf|config|configuration)?$|"
              r"^(conf|config|cib)[-_]?(set|sync|push|restore|replace)$")
_READ_OPTIONS = frozenset({"-o", "--output", "-F", "-u", "-i", "--rcfile", "--config", "-c", "--log", "--file",
                           "-f", "--settings", "--log-file", "--env-file", "--inventory", "-k", "--keyfile"})
# A database product by its name (`ndbd`, `mydbctl`, `dbserverctl`, `mongod`, `oninit` by its bundle below).
_DATABASE_NAME = lazy(r"db|sql|mongo|redis|etcd|cassandra|scylla|couch|influx|clickhouse|cockroach|oracle|"
                      r"informix|sybase|hana|neo4j|ldap|slapd|kdc|kadmin")
_INIT_WORDS = frozenset({"init", "initialize", "initialise", "reinit", "reinitialize", "format", "initdb"})
_INIT_OPTIONS = frozenset({"--initial", "--initialize", "--init", "--reinitialize", "--initial-start"})
_YES = frozenset({"-y", "--yes", "--force", "-f", "-force", "--assume-yes", "--non-interactive"})
_INIT_YES = lazy(r"^-[a-z]*i[a-z]*y[a-z]*$|^-[a-z]*y[a-z]*i[a-z]*$")  # `oninit -iy`: initialise, answer yes
# A file the program runs, by its extension.
_RUN_FILE = lazy(r"([^/=]+)\.(ya?ml|json|sql|cql|xml|js|sh|ps1|py|rb|toml|tf|hcl|conf|txt|cypher|aql)$",
                 re.IGNORECASE)
_NOT_DOING = frozenset({"--help", "-h", "--dry-run", "--dryrun", "list", "ls", "show", "status", "--list", "diff",
                        "plan", "check", "validate", "lint", "cat", "view", "edit", "less", "vim", "open"})
_GATE = lazy(r"clear|flush|/dev/null|init|format|\.(ya?ml|json|sql|cql|xml|js|sh|ps1|py|rb|toml|tf|hcl|conf|txt|"
             r"cypher|aql)\b")


@triggered_by(_GATE, otherwise=False)
def may_reset(c: Ctx) -> bool:
    """One search of the line: most commands leave here."""
    return bool(c.texts) and bool(_GATE.search(c.prog.lower() + " " + c.lowered))


def rule_store_reset(c: Ctx) -> Optional[tuple]:
    """A store cleared whole, a configuration replaced with nothing, a database initialised over its data, a file
    named for deleting everything run."""
    lowered = [t.lower() for t in c.texts]
    if set(lowered) & _NOT_DOING:
        return None
    return _cleared(c, lowered) or _emptied(c, lowered) or _initialised(c, lowered) or _named_file(c, lowered)


def _cleared(c: Ctx, lowered: list) -> Optional[tuple]:
    operands = [t for t in lowered if not t.startswith("-") and "=" not in t]
    if len(operands) != 1 or operands[0] not in _CLEARS:
        return None  # one word, the verb, and nothing it is given (`npm cache clear` names what it clears)
    name = c.prog.lower().rsplit("/", 1)[-1]
    if not (_ADMIN_NAME.search(name) or set(lowered) & _NO_QUESTION):
        return None
    return MEDIUM, f"{c.prog} {operands[0]} with no object empties everything it holds (its whole configuration " \
        f"or store) ({c.text})"


def _emptied(c: Ctx, lowered: list) -> Optional[tuple]:
    if "/dev/null" not in lowered:
        return None
    at = lowered.index("/dev/null")
    said = set(lowered) & _REPLACES or {t for k, t in enumerate(lowered) if t == "replace" or
                                        k and lowered[k - 1] in ("--strategy", "--mode") and t == "replace"}
    if at and not said and (lowered[at - 1] in _READ_OPTIONS or lowered[at - 1].startswith("--") and
                            "=" not in lowered[at - 1]):
        return None  # `ssh -F /dev/null`: a file read, not a state loaded
    if not said:  # `wg setconf wg0 /dev/null`, `birdc configure /dev/null`, `pcs cluster cib-push /dev/null`
        said = {t for t in lowered[:at] if _LOADS.match(t)}
    if not said or not at:
        return None
    return MEDIUM, f"{c.prog} loads /dev/null in place of its configuration ({sorted(said)[0]}): what it had is " \
        f"replaced with nothing ({c.text})"


def _initialised(c: Ctx, lowered: list) -> Optional[tuple]:
    name = c.prog.lower().rsplit("/", 1)[-1]
    if name.endswith("init") and any(_INIT_YES.match(t) for t in lowered):
        return MEDIUM, f"{c.prog} initialises the database's disk space without asking: what it held is lost " \
            f"({c.text})"
    if not _DATABASE_NAME.search(name):
        return None
    options = set(lowered)
    said = options & _INIT_OPTIONS
    operands = [t for t in lowered if not t.startswith("-")]
    if not said and operands[:1] and operands[0] in _INIT_WORDS and options & _YES:
        said = {operands[0]}
    if not said:
        return None
    return MEDIUM, f"{c.prog} {sorted(said)[0]} initialises the database's storage over what it holds ({c.text})"


# How a program is told to run a file: after a run verb, as a script option's value, or by a runner's name.
_RUN_VERBS = frozenset({"run", "apply", "exec", "execute", "play", "source", "load", "import", "restore", "process",
                        "invoke", "action", "playbook"})
_SCRIPT_OPTIONS = frozenset({"-f", "--file", "-i", "--input", "--changelog-file", "--script", "--action-file",
                             "--actions", "-s", "-e", "--exec"})
_RUNNER_NAME = lazy(r"curator|playbook|runner|exec|apply|migrat")


def _named_file(c: Ctx, lowered: list) -> Optional[tuple]:
    runner = bool(_RUNNER_NAME.search(c.prog.lower()))
    for k, t in enumerate(c.texts):
        before = lowered[k - 1] if k else ""
        name, eq, value = t.partition("=")
        if not (runner or before in _RUN_VERBS or before in _SCRIPT_OPTIONS or eq and name in _SCRIPT_OPTIONS):
            continue
        m = _RUN_FILE.search(value if eq else t)
        if m is None:
            continue
        parts = split_word(m.group(1))
        verbs = [p for p in parts if verb_strength(p) >= 3]
        if not verbs:
            continue
        rest = [p for p in parts if p not in verbs]
        every = bool({"all", "everything", "every"} & set(rest))
        heavy = verb_strength(verbs[0]) == 4
        data = [p for p in rest if p in DATA_NOUNS and p not in LIGHT_NOUNS]
        if every and (data or heavy) or heavy and data:
            return (HIGH if every else MEDIUM), f"{c.prog} runs {t}, a file named for what it deletes " \
                f"({' '.join(parts)}) ({c.text})"
    return None

