"""Effect: what a program's own options and verbs mean, where its words do not say it.

The vocabulary judges words that name what they do (``delete``, ``--wipe-data``).  Programs
also speak in letters and words of their own, documented in their manuals: ``postsuper -d
ALL`` empties the mail queue, ``fido2-token -R`` resets a security key, ``lvconvert --merge``
takes a volume back to its snapshot, ``railway down`` removes the latest deployment.
``program_options`` holds those meanings by kind of program; this rule reads them, the
one-shot commands of admin shells (``kadmin -q "delprinc alice"``: the quoted line is the
program's own command) and ``key=value`` switches that destroy (``erase=true``).  A scope that
takes everything (``ALL``, ``*``, ``-a``) makes the level high.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from aish.safety.program_options import COMMAND_OPTIONS, EVERY_VALUE, PROGRAM_OPTIONS
from aish.safety.programs import READ_ONLY
from aish.safety.rules.baseline_switches import kernel_args
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment, worst
from aish.safety.rules.fed import argument_line, fed_lines, is_fed, says_every
from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import DATA_NOUNS, DELETE, HEAVY, OPTION_MODIFIERS, WEAK_DATA_NOUNS
from aish.safety.lazy_regex import lazy

_NOT_DOING = {"-n", "--dry-run", "--help", "-h", "--version", "-V", "--usage"}
_ON = {"true", "yes", "1", "on", "y", "all"}
_SWITCH = lazy(r"^([A-Za-z][\w.-]*)=(.+)$")
_CMDLET = lazy(r"^([A-Za-z]+)-([A-Za-z]+)$")
_SECURITY_ARG = re.compile(r"\b(selinux=0|enforcing=0|apparmor=0|security=none|lockdown=none|module\.sig_enforce=0)")
_BUNDLE = lazy(r"^-[A-Za-z]{1,4}$")


def rule_own_options(c: Ctx, unknown: bool = True) -> Optional[tuple]:
    """A documented option or verb of this program, a destroying switch, and, for programs no rule
    names (``unknown``; an interpreter's ``-e`` is code, judged by its own rule), a one-shot command.
    Each reading is tried only where the line has what it needs (this runs on every unflagged command)."""
    prog, texts = c.prog, c.texts
    found = None
    if prog in PROGRAM_OPTIONS or prog.lower().removesuffix(".exe") in PROGRAM_OPTIONS:
        found = _documented(c)
    elif "-" in prog or "::" in prog:
        found = _cmdlet_switch(c)
    elif prog in _RPC_CLIENTS:
        found = _rpc_method(c)
    elif prog in _ESCAPING_CLIENTS:
        found = _shell_escape(c)
    equals = [t for t in texts if "=" in t]
    if equals and (found is None or found[0] < HIGH):
        found = worst(found, _switches(c))
    if found is None and unknown and prog not in READ_ONLY:
        if not COMMAND_OPTIONS.isdisjoint(texts):
            found = _command_option(c)
        if found is None and is_fed(c):
            found = _fed_commands(c)
        if found is None:
            found = _argument_line(c)
    if found is None and equals:
        found = _security_off_at_boot(c)
    if found is None and not _BACK_TO.isdisjoint(texts) and not _SNAPSHOT_WORDS.isdisjoint(texts[:3]):
        return MEDIUM, f"{prog} puts a snapshot back over what is there now: what changed since is lost ({c.text})"
    return found


# `consul snapshot restore x.snap`, `vault operator raft snapshot restore -force x`: the snapshot replaces the
# current state (a restore into a new place names no snapshot word first: `velero restore create`).
_BACK_TO = frozenset({"restore", "revert", "rollback", "apply", "switch"})
_SNAPSHOT_WORDS = frozenset({"snapshot", "snapshots", "snap", "checkpoint", "checkpoints", "savepoint"})


def _documented(c: Ctx) -> Optional[tuple]:
    meanings = PROGRAM_OPTIONS.get(c.prog) or PROGRAM_OPTIONS.get(c.prog.lower().removesuffix(".exe"))
    if not meanings:
        return None
    texts = c.texts
    if "--undo" in texts:
        return None  # `cargo yank --undo`: what the verb did is put back
    operands = [t for t in texts if not t.startswith("-")][:3]
    for key, what in meanings.items():
        if not _matches(key, texts, operands):
            continue
        every = any(t in EVERY_VALUE for t in texts)
        scope = "" if "every" in what or not every else ", every one there is"
        said = "" if key == "*" else f" {key.replace('=', ' ')}"
        return (HIGH if every else MEDIUM), f"{c.prog}{said} {what}{scope} ({c.text})"
    return None


def _matches(key: str, texts: list, operands: list) -> bool:
    if key == "*":
        return not set(texts) & _NOT_DOING
    first, _, second = key.partition(" ")
    if second:
        if first not in operands:
            return False
        rest = texts[texts.index(first) + 1:]
        return _option_in(second, rest) if second.startswith("-") else rest[:1] == [second] or \
            second in [t for t in rest if not t.startswith("-")][:1]
    if key.startswith("-"):
        return _option_in(key, texts)
    return key in operands or key.lower() in (o.lower() for o in operands)


def _option_in(key: str, texts: list) -> bool:
    """``-d`` alone or in a bundle (``-yD``), ``--delete`` or ``--delete=x``, ``-s=stop`` as ``-s stop``."""
    name, _, value = key.partition("=")
    for k, t in enumerate(texts):
        if value:
            given = t[len(name) + 1:] if t.startswith(name + "=") else \
                (texts[k + 1] if k + 1 < len(texts) else "") if t == name else ""
            if given == value or value.endswith("*") and given.startswith(value[:-1]) and given or \
                    t == f"{name}{value}":
                return True
            continue
        if t == name or t.startswith(name + "=") or \
                len(name) == 2 and _BUNDLE.match(t) and name[1] in t[1:] and not t.startswith("--"):
            return True
    return False


def _cmdlet_switch(c: Ctx) -> Optional[tuple]:
    """PowerShell's ``Stop-VM -TurnOff`` (the plug pulled), ``Restore-VMSnapshot`` / ``Restore-VMCheckpoint``
    (back to a snapshot: what changed since is lost)."""
    m = _CMDLET.match(c.prog)
    if m is None:
        return _environment_cleared(c)
    verb, noun = m.group(1).lower(), m.group(2).lower()
    switches = {t.lower().split(":", 1)[0] for t in c.texts if t.startswith("-")}
    listing = broad_listing(c)
    if listing and (verb in ("remove", "stop", "uninstall", "disable", "clear", "suspend", "unregister") or
                    noun.endswith(("logoff", "logout", "disconnect"))):
        return MEDIUM, f"{c.prog} acts on everything {listing} lists ({c.text})"  # `Get-Service | Stop-Service`
    if verb in ("stop", "suspend") and switches & {"-turnoff", "-kill"}:
        return MEDIUM, f"{c.prog} stops it at once, like pulling the plug: unsaved state is lost ({c.text})"
    if verb in ("unregister", "uninstall", "disable") and \
            ("-confirm" in switches and any(t.lower() == "-confirm:$false" for t in c.texts) or "-force" in switches):
        return MEDIUM, f"{c.prog} {verb}s it without asking ({c.text})"  # `Unregister-ScheduledTask -Confirm:$false`
    if verb == "restore" and ("snapshot" in noun or "checkpoint" in noun):
        return MEDIUM, f"{c.prog} returns to a snapshot: what changed since is lost ({c.text})"
    return None


def broad_listing(c: Ctx) -> str:
    """The ``Get-…`` cmdlet with no name that feeds this one (``Get-AppxPackage -AllUsers | Remove-AppxPackage``):
    it lists everything of its kind."""
    return next((f.words[0].text for f in c.chain if f.words and re.match(r"(?i)get-\w+$", f.words[0].text) and
                 not _narrowed(f.words[1:])), "")



# A Get- cmdlet's options that say where to look, not which ones: `Get-DbaProcess -SqlInstance sql01 -Database app`.
_WHERE_OPTION = lazy(r"(?i)^-\w*(instance|database|computername|server|broker|address|collection|"
                     r"collectionname|cluster|site|farm|credential)$")


def _narrowed(words: list) -> bool:
    """A positional word, or a value given to an option that is not a where-to-look option (`-Name chrome`)."""
    for k, w in enumerate(words):
        if w.text.startswith("-"):
            continue
        if not (k and _WHERE_OPTION.match(words[k - 1].text)):
            return True
    return False


def _environment_cleared(c: Ctx) -> Optional[tuple]:
    """``[Environment]::SetEnvironmentVariable("Path", "", "Machine")``: PATH emptied for every program."""
    if "setenvironmentvariable" in c.prog.lower() and \
            re.search(r"""(?i)setenvironmentvariable\(\s*["']path["']\s*,\s*(""|''|\$null)""", c.text):
        return MEDIUM, f"empties PATH for every program that starts later ({c.text})"
    return None


def _security_off_at_boot(c: Ctx) -> Optional[tuple]:
    """``grubby --update-kernel=ALL --args="selinux=0"``: the kernel boots with its protection off."""
    for t in kernel_args(c.texts)[0]:  # `--remove-args selinux=0` takes the weakening away
        m = _SECURITY_ARG.search(t)
        if m and c.prog not in ("echo", "printf", "grep", "rg", "cat"):
            return MEDIUM, f"{c.prog} sets {m.group(0)}: the machine boots with that protection off ({c.text})"
    return None


def _switches(c: Ctx) -> Optional[tuple]:
    """``erase=true``, ``force_destroy=yes``, ``delete_data=1``: a switch given as a key and a value, also
    as a build property (``/p:DropObjectsNotInSource=True``, ``-Dliquibase.dropFirst=true``); a guard
    switched off (``/p:BlockOnPossibleDataLoss=False``, ``deletion_protection=false``)."""
    for t in c.texts:
        m = _PROPERTY.match(t) or (_SWITCH.match(t) if not t.startswith(("-", "/")) else None)
        if m is None:
            continue
        value = m.group(2).lower().strip("'\"")
        if value in _ON and (_destroying_key(m.group(1)) or split_word(m.group(1))[:1] in (["drop"], ["delete"])):
            return MEDIUM, f"{c.prog} {t} deletes data ({c.text})"
        if value in _OFF and set(split_word(m.group(1))) & _GUARDS:
            return MEDIUM, f"{c.prog} {t} switches a guard against data loss off ({c.text})"
    return None


_PROPERTY = lazy(r"^(?:/p:|-p:|/property:|-property:|-D|--define=|--set=)([A-Za-z][\w.-]*)=(.+)$", re.IGNORECASE)
_OFF = {"false", "no", "0", "off"}
_GUARDS = {"block", "prevent", "protect", "protection", "protected", "safeguard", "guard"}


@lru_cache(maxsize=512)
def _destroying_key(key: str) -> bool:
    parts = split_word(key)
    if set(parts) & OPTION_MODIFIERS:
        return False
    if set(parts) & HEAVY:
        return True
    return any(p in DELETE and any(n in DATA_NOUNS and n not in WEAK_DATA_NOUNS for n in parts[k + 1:])
               for k, p in enumerate(parts))


def _command_option(c: Ctx) -> Optional[tuple]:
    """``kadmin -q "delprinc alice"``, ``lftp -c "rm -r old"``: the quoted line is the program's own
    command, judged as if typed after the program's name."""
    texts = c.texts
    for k, t in enumerate(texts[:-1]):
        line = texts[k + 1]
        if t in COMMAND_OPTIONS and " " in line.strip():
            found = c.recurse(f"{c.prog} {line}")
            if found is not None and found[0] >= MEDIUM:
                return found[0], f"{found[1]}, given to {c.prog} {t}"
    return None


def _fed_commands(c: Ctx) -> Optional[tuple]:
    """``echo "delete volume=Vol-0001 yes" | bconsole``, ``hbase shell <<< "truncate 't'"``: lines fed to an
    admin shell are its commands, judged as if typed after the program's name (an LDIF's ``changetype:
    delete`` too)."""
    for line in fed_lines(c):
        if not re.match(r"[A-Za-z]", line):
            continue
        found = c.recurse(f"{c.prog} {_quote(line)}") if " " in line else c.recurse(f"{c.prog} {line}")
        if found is not None and found[0] >= MEDIUM:
            return found[0], f"{found[1]}, fed to {c.prog}"
        words = line.split()
        if says_every(words[0]) and len(words) > 1:  # `disable_all 'ns:.*'` fed to the HBase shell
            return MEDIUM, f"{c.prog} is fed '{fragment([line], 40)}': it acts on every one it matches ({c.text})"
        verb = next((w for w in words[:2] if verb_strength(w.lower()) >= 3), None)
        if verb and len(words) > words.index(verb) + 1:  # `update delete www.example.com A` fed to nsupdate
            return MEDIUM, f"{c.prog} is fed '{fragment([line], 40)}': its {verb} acts on what it names ({c.text})"
    return None


def _argument_line(c: Ctx) -> Optional[tuple]:
    """``dgmgrl / "remove database standby"``: a command line given whole after the connection, judged as if
    typed at the shell's prompt, where its first word is a verb that deletes."""
    line = argument_line(c)
    words = line.split()
    if len(words) < 2 or verb_strength(words[0].lower()) < 3:
        return None
    found = c.recurse(f"{c.prog} {_quote(line)}")
    return (found[0], f"{found[1]}, given to {c.prog}") if found is not None and found[0] >= MEDIUM else None


def _quote(line: str) -> str:
    """The line's words kept as words (quotes inside it are dropped: it is judged, never run)."""
    return " ".join(re.sub(r"[\"'`$()<>|&;]", "", w) for w in line.split())


# Clients whose argument may be a line of their own that runs a shell command (`sqlite3 db ".shell rm -rf x"`,
# `mysql -e "system rm -rf x"`, `psql -c '\\! rm -rf x'`).
_ESCAPING_CLIENTS = {"sqlite3", "duckdb", "litecli", "mysql", "mariadb", "mycli", "psql", "pgcli", "gdb", "lftp",
                     "ftp", "sftp", "cqlsh", "clickhouse-client"}
_ESCAPE = lazy(r"^\s*(?:\.shell|\.system|\\!|!|system|shell)\s+(.+)$", re.DOTALL)


def _shell_escape(c: Ctx) -> Optional[tuple]:
    """A client's own line that hands the rest to the shell: judged as that command."""
    if c.prog not in _ESCAPING_CLIENTS:
        return None
    for t in c.texts:
        m = _ESCAPE.match(t)
        if m:
            found = c.recurse(m.group(1))
            if found is not None and found[0] >= MEDIUM:
                return found[0], f"{found[1]}, run by {c.prog}'s shell escape"
    return None


_RPC_CLIENTS = {"grpcurl", "grpc_cli", "evans", "buf", "ghz", "twirp", "connect"}


def _rpc_method(c: Ctx) -> Optional[tuple]:
    """``grpcurl … acme.v1.Projects/DeleteProject``: the RPC method's name says what it does."""
    if c.prog not in _RPC_CLIENTS:
        return None
    operands = [t for t in c.texts if not t.startswith("-")]
    if not operands:
        return None
    method = re.split(r"[/.]", operands[-1])[-1]
    parts = split_word(method)
    verbs = [p for p in parts if p in HEAVY or p in DELETE]
    if not verbs or len(parts) < 2:
        return None
    level = HIGH if set(parts) & {"project", "projects", "database", "cluster", "account", "org", "bucket"} else MEDIUM
    return level, f"{c.prog} calls {method}: it {verbs[0]}s what the request names ({c.text})"
