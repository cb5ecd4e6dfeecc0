"""Derive the table of what programs' own documentation says destroys, from shell completions.

Shell completion definitions describe, for thousands of programs, what each subcommand and option
does: fish's ``complete -c PROG -n '__fish_seen_subcommand_from vol' -a 'zap' -d 'Destroy …'`` and
zsh's ``'zap:destroy …'`` or ``'--zero-superblock[erase …]'``.  This script reads those definitions,
keeps the words whose description says they destroy, wipe, delete data, reset to factory state,
revoke or stop everything, and writes only what was derived: program, subcommand path or option,
and a category (never a description, never any file's text).

    python3 tools/documented_table.py [--fish DIR]… [--zsh DIR]… [--spec DIR]… [--out FILE] [--explain]

The defaults read the completions Debian's ``fish`` and ``zsh`` packages install; each option may be
given again for more directories (a checkout's ``share/completions`` of fish, ``src`` of
zsh-completions, ``src`` of the Fig autocomplete specs, whose files are TypeScript object literals).
``--explain`` prints each kept row with its description instead of writing the table (for reading
the result; the descriptions are never written to the table).
"""
from __future__ import annotations

import argparse
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))
from aish.safety.verbs import RESET  # noqa: E402 - the tree's own vocabulary, not an installed one

FISH_DIRS = (Path("/usr/share/fish/completions"),)
ZSH_DIRS = (Path("/usr/share/zsh/functions/Completion"), Path("/usr/share/zsh/vendor-completions"))
OUT = Path(__file__).resolve().parents[1] / "backend" / "aish" / "safety" / "documented_table.py"


@dataclass(frozen=True)
class Entry:
    """One documented word: ``key`` is ``SUB``, ``PARENT SUB``, ``-x``, ``--opt`` or ``PARENT --opt``."""

    prog: str
    key: str
    description: str


# ----------------------------------------------------------------- what a description says
# Verbs by category, as the first words of a description use them (imperative or third person).
_CATEGORY_VERBS = {
    "wipe": r"wipes?|wiping|erases?|erasing|shreds?|zaps?|zeroe?s?|zero out|nukes?|obliterates?|scrub(?:s|bing)? out|"
            r"securely (?:delete|erase|remove)s?",
    "destroy": r"destroys?|destroying",
    "delete": r"deletes?|deleting|removes?|removing|purges?|purging|drops?|dropping|expunges?|discards?|"
              r"truncates?|permanently (?:delete|remove)s?|forcibly (?:delete|remove)s?|forcefully (?:delete|remove)s?|"
              r"recursively (?:delete|remove)s?|force (?:delete|remove)s?",
    "revoke": r"revokes?|revoking",
    "stop-all": r"kills?|killing|stops?|stopping|terminates?|shuts? down|halts?",
    "reset": r"resets?|resetting|reinitiali[sz]es?|restores? (?:the )?(?:factory|default)s?",
    "format": r"formats?|formatting|reformats?|low-level formats?",
}
_VERB_RE = {cat: re.compile(rf"^(?:(?:\w+ly|force|also|then|and|or|to|will|can|please)\s+)?(?:{pat})\b")
            for cat, pat in _CATEGORY_VERBS.items()}
# A description that says what is NOT done, or asks, previews or only changes how something else is done.
_NOT_DOING = re.compile(
    r"\b(don'?t|do not|does not|doesn'?t|not|never|without|prevent|avoid|keep|keeps|abort|instead|ask|asks|"
    r"prompt|confirm|confirmation|interactive|interactively|dry|simulat\w*|preview|would|whether|pretend|"
    r"rebuild|rebuilds|recreate|regenerate|re-create|then|again|and add|at end|at exit|"
    r"no more|at most|except|after|afterwards|once|when|on exit|upon|before|until|only if|disable deletion|"
    r"protect|refuse|skip|"
    r"list|lists|listing|show|shows|print|prints|display|displays|report|check|checks|count|query|"
    r"mark|marks|schedule|schedules|undo|undelete|recover|restore|unmark|"
    r"from (?:the )?(?:list|output|display|view|index|staging|selection|queue|history|cache|menu|screen|stack|"
    r"clipboard|path|search|watch ?list|result))\b")
# What can be lost cheaply: a deleted alias, label, cache or package costs nothing worth a warning.
_LIGHT = re.compile(
    r"\b(alias\w*|abbreviation\w*|tags?|bookmarks?|breakpoints?|watch\w*|bindings?|keybindings?|"
    r"variables?|cache[sd]?|caching|temp\w*|tmp|locks?|lockfiles?|symlinks?|symbolic|links?|shortcuts?|"
    r"filters?|highlight\w*|markers?|marks?|packages?|pkgs?|modules?|plugins?|extensions?|dependenc\w+|deps|"
    r"alternatives?|forwards?|forwarding|completions?|hooks?|snippets?|themes?|fonts?|sources?|mirrors?|"
    r"remotes?|options?|settings?|propert\w+|attributes?|annotations?|comments?|whitespace|trailing|newlines?|"
    r"spaces?|colou?rs?|duplicates?|lines?|characters?|chars?|prefix\w*|suffix\w*|quotes?|escapes?|"
    r"formatting|arguments?|parameters?|flags?|restrictions?|limits?|mappings?|maps?|routes?|timers?|"
    r"alarms?|reminders?|notifications?|sessions?|windows?|panes?|buffers?|tabs?|artifacts?|objects? files?|"
    r"intermediate|generated|compiled|build|builds|pid|sockets?|pipes?|fifos?|input|original|source files?|"
    r"obsolete|stale|orphan\w*|unused|unneeded|unreferenced|dangling|old|older|outdated|expired|empty|"
    r"blank|log|logs|logfiles?|messages? from|queue entr\w+|print jobs?|jobs?|tasks?|thumbnails?|previews?|"
    r"history entr\w+|entry|entries|items?|elements?|members?|rules?|headers?|metadata|tags|overlays?|"
    r"breakpoints?|displays?|expressions?|recent|selection|selected|current line|word|words|text|"
    r"symbols?|timestamps?|acls?|permissions?|nonessential|auxiliary|extra|untracked|ignored|redundant|"
    r"declarations?|polic(?:y|ies)|roles?|modes?|functions?|counters?|state|working director\w*|target-path|"
    r"peers?|upstream|values?|collaborators?|yourself|whitelist|blacklist|allowlist|blocklist|"
    r"sections?|runstate|patch|patches|reference|laboratory|distfiles|stub|master|slave|named|"
    r"associations?|fallback|config keys?|configuration keys?|targeting|"
    r"output|backup files?|backups? of|swap files?|core files?|lost|leftover\w*|downloaded|partial|"
    r"installed|install|installation|version|versions|kernel|kernels|images? from the cache|"
    r"keyring entr\w+|environment variables?|env)\b")
# What makes a delete worth a warning: data, resources, accounts, whole stores.
_DATA = re.compile(
    r"\b(all|every|everything|entire|whole|databases?|db|tables?|schemas?|volumes?|vols?|disks?|drives?|devices?|"
    r"partitions?|file ?systems?|filesystems?|datasets?|pools?|snapshots?|repositor(?:y|ies)|repos?|"
    r"projects?|accounts?|users?|domains?|vms?|virtual machines?|guests?|machines?|instances?|containers?|"
    r"clusters?|nodes?|buckets?|keys?|secrets?|certificates?|certs?|keystores?|keychains?|wallets?|vaults?|"
    r"passwords?|credentials?|mailbox(?:es)?|mail|messages|folders?|directory|directories|home|"
    r"data|storage|store|archives?|backups?|namespaces?|zones?|records?|apps?|applications?|sites?|"
    r"stacks?|environments?|deployments?|services?|servers?|superblock|metadata|partition table|"
    r"label|headers?|keyslots?|lvs?|logical volumes?|volume groups?|pvs?|physical volumes?|\w*arrays?|raid|"
    r"firmware|flash|nvram|bios|chip|configuration|config|profiles?|mailing lists?|lists?|queues?|topics?|"
    r"streams?|indices|indexes|collections?|documents?|tenants?|organi[sz]ations?|teams?|"
    r"branches?|releases?|issues?|pull requests?|pages?|files?|contents?|changes|modifications|work|revisions?|"
    r"crontabs?|orgs?|components?|jails?|boot\w*|systemd-boot|netdevs?|stemcells?|objects?)\b")
_FACTORY = re.compile(r"\b(factory|initial state|original state|out of the box|scratch|everything)\b")
# Where something is removed FROM that makes the removal a loss of data (not a list, a group, a config).
_STORE = re.compile(r"\b(buckets?|archives?|disks?|drives?|devices?|keyrings?|pools?|controllers?|file ?systems?|"
                    r"storage|servers?|databases?|volume groups?|cloud|media|card|camera|phone|flash)$")
_DISK = re.compile(r"\b(disks?|drives?|devices?|partitions?|media|medium|flash|card)$")
_LOGINS = {"auth", "login", "logout", "session", "sessions", "oauth", "account", "credentials"}
_PLAIN_STOPS = {"stop", "kill", "halt", "shutdown", "down", "terminate", "quit", "exit", "restart", "end"}
# Key words that name a routine cleanup by convention (build output, caches), whatever their description says.
_ROUTINE_KEYS = re.compile(r"^(clean|cleanup|clean-up|distclean|mostlyclean|mostly-clean|realclean|tidy|clear|"
                           r"no-[\w-]+|keep[\w-]*|dry[\w-]*)$")
_STOP_ALL = re.compile(r"\b(all|every|everything|server|daemon|the service|cluster)\b")
_FORMAT_OBJECT = re.compile(r"\b(disk|device|drive|partition|volume|file ?system|filesystem|card|medium|media|"
                            r"namespace|flash|tape|floppy)\b")
_REVOKE_OBJECT = re.compile(r"\b(certificates?|certs?|keys?|tokens?|access|credentials?|grants?|permissions?)\b")
_STRONG = {"wipe", "destroy", "format"}


def classify(description: str) -> Optional[str]:
    """The category of what a description says its word does, or None when it says nothing destructive
    (or destroys something cheap: an alias, a label, a cache, a package, an entry in a listing)."""
    text = re.sub(r"\s+", " ", description.strip().lower())
    text = re.sub(r"\([^)]*\)", "", text).strip()  # an aside: "(default)", "(careful)"
    text = re.split(r"(?<=[a-z0-9)])\. ", text + " ")[0].strip().rstrip(".")  # the first sentence says what it does
    if not text or _NOT_DOING.search(text):
        return None
    for category, verb in _VERB_RE.items():
        m = verb.match(text)
        if not m:
            continue
        rest = text[m.end():]
        if category == "format":
            return category if _FORMAT_OBJECT.search(rest) and not rest.startswith(" of") else None
        if category == "reset":
            return category if _FACTORY.search(rest) else None
        if category == "revoke":
            return category if _REVOKE_OBJECT.search(rest) else None
        if category == "stop-all":
            everything = re.match(r"^ (all|every|everything)\b(?! but)", rest)
            return category if everything and not _LIGHT.search(rest) else None
        rest, _, container = rest.partition(" from ")
        if _LIGHT.search(rest):
            return None
        container = " ".join(re.findall(r"[\w-]+", re.split(r",|;| and | if | to | that | which ", container)[0])[-2:])
        if container and _DISK.search(container):
            return category  # "remove the label information from the device": the device's own data
        if container and not _STORE.search(container):
            return None  # "remove user from group": membership, not data
        if category in _STRONG:
            return category
        return category if _DATA.search(rest) else None
    return None


# ----------------------------------------------------------------- fish
_TOP_LEVEL = re.compile(r"__fish_use_subcommand|_needs_command|_needs_subcommand|no_subcommand|__fish_is_first_arg|"
                        r"__fish_is_nth_token 1\b|__fish_is_first_token")
_PARENT = re.compile(r"(?<!not )(?:__fish_seen_subcommand_from|__fish_\w+_using_(?:sub)?command|"
                     r"__fish_\w+_command|contains(?: --)?)\s+([\w .:-]+)")
_WORD = re.compile(r"^[A-Za-z][\w.:-]*$")
_OPTION_FLAGS = {"-l": "--", "--long-option": "--", "-s": "-", "--short-option": "-", "-o": "-",
                 "--old-option": "-"}


def fish_lines(text: str) -> Iterator[str]:
    """Logical lines: backslash continuations joined, comments dropped."""
    pending = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        if line.strip() and not line.lstrip().startswith("#"):
            yield line.strip()


def _parents(condition: str) -> Optional[list]:
    """The subcommand words a condition says must be on the line ([] for the top level), None if unknown."""
    found = []
    for m in _PARENT.finditer(condition):
        words = [w for w in m.group(1).split() if _WORD.match(w) and w not in ("and", "or", "not")]
        found = words or found
    if found:
        return found
    if _TOP_LEVEL.search(condition) or re.fullmatch(r"not __fish_seen_subcommand_from[\w .:$-]*", condition.strip()):
        return []
    return None


def parse_fish(text: str, default_prog: str = "") -> Iterator[Entry]:
    """Entries of one fish completion file: ``complete -c PROG [-n COND] (-a WORDS | -l/-s/-o OPT) -d DESC``."""
    for line in fish_lines(text):
        if not line.startswith("complete "):
            continue
        try:
            words = shlex.split(line, posix=True)
        except ValueError:
            continue
        progs, condition, arguments, description, options = [], None, None, "", []
        i = 1
        while i < len(words):
            w, nxt = words[i], words[i + 1] if i + 1 < len(words) else ""
            if w in ("-c", "--command"):
                progs.append(nxt)
                i += 2
            elif w in ("-n", "--condition"):
                condition, i = nxt, i + 2
            elif w in ("-a", "--arguments") or w in ("-xa", "-fa", "-ka", "-kxa", "-fka"):
                arguments, i = nxt, i + 2
            elif w in ("-d", "--description"):
                description, i = nxt, i + 2
            elif w in _OPTION_FLAGS:
                options.append(_OPTION_FLAGS[w] + nxt)
                i += 2
            elif w in ("-w", "--wraps", "-p", "--path", "-e", "--erase", "-F", "--force-files"):
                i += 2 if w not in ("-e", "--erase", "-F", "--force-files") else 1
            else:
                i += 1
        progs = [p for p in progs or [default_prog] if p and _WORD.match(p)]
        if not description or not progs or "$" in description:
            continue
        parents = _parents(condition) if condition else []
        for prog in progs:
            for option in options:
                if not re.fullmatch(r"--?[\w][\w.-]*", option):
                    continue
                for parent in parents or [""]:
                    yield Entry(prog, f"{parent} {option}".strip(), description)
            if arguments is None or options or parents is None:
                continue
            if condition is None and len(arguments.split()) > 1:
                continue  # values of the program's operands, not subcommands
            for sub in arguments.split():
                if _WORD.match(sub) and not sub.startswith("-"):
                    for parent in parents or [""]:
                        yield Entry(prog, f"{parent} {sub}".strip(), description)


# ----------------------------------------------------------------- zsh
_COMPDEF = re.compile(r"^#compdef\s+(.*)$", re.MULTILINE)
_ZSH_SUB = re.compile(r"""(?:^|[\s(])['"]([a-z][\w.-]+)(?:\\?:)([^'":\n]{4,})['"]""", re.MULTILINE)
_ZSH_OPTION = re.compile(r"""(?:\{([-\w,]+)\}['"]?|['"](?:\([^)]*\))?(?:\*)?(--?[\w][\w.-]*)[+=-]?)\[([^\]\n]{4,})\]""")


def zsh_programs(text: str) -> list:
    """The programs a zsh completion function is for (its ``#compdef`` line, services and patterns left out)."""
    m = _COMPDEF.search(text)
    if not m:
        return []
    out = []
    for word in m.group(1).split():
        if word.startswith("-"):
            if word in ("-p", "-P", "-k", "-K", "-N"):
                break
            continue
        name = word.split("=", 1)[0]
        if _WORD.match(name):
            out.append(name)
    return out


def parse_zsh(text: str, name: str = "") -> Iterator[Entry]:
    """Entries of one zsh completion function: ``'sub:description'`` items of its subcommand lists (any depth,
    keyed ``* sub``) and ``'--option[description]'`` / ``{-f,--force}'[description]'`` specs."""
    progs = zsh_programs(text)
    if name.lstrip("_") in progs:
        progs = [name.lstrip("_")]  # `_git` also names git-shell, tig...: its words are git's
    if not progs:
        return
    for m in _ZSH_SUB.finditer(text):
        sub, description = m.group(1), m.group(2)
        for prog in progs:
            yield Entry(prog, f"* {sub}", description)
    for m in _ZSH_OPTION.finditer(text):
        names = m.group(1).split(",") if m.group(1) else [m.group(2)]
        for name in names:
            if re.fullmatch(r"--?[\w][\w.-]*", name):
                for prog in progs:
                    yield Entry(prog, name, m.group(3))


# ----------------------------------------------------------------- completion specs written as object literals
_TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|"""
                    r"""[A-Za-z_$][\w$]*|[{}\[\](),:]|[^\s{}\[\](),:"'`/A-Za-z_$]+|/""", re.DOTALL)


def _tokens(text: str) -> list:
    out = []
    for m in _TOKEN.finditer(text):
        t = m.group(0)
        if t.startswith(("//", "/*")):
            continue
        out.append(t)
    return out


def _string(token: str) -> Optional[str]:
    if len(token) >= 2 and token[0] in "\"'`" and token[-1] == token[0]:
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return None


def parse_spec(text: str, default_prog: str = "", program: str = "") -> Iterator[Entry]:
    """Entries of a completion spec written as an object literal (``{name: "delete", description: "…",
    subcommands: [...], options: [...]}``): subcommands keyed ``PARENT SUB`` (SUB alone at the top, ``* SUB``
    in a list defined apart), options ``PARENT --opt``.  Anything else in the file is skipped."""
    toks = _tokens(text)
    prog = default_prog
    # the spec's own name: the first `name: "…"` after `Fig.Spec = {`, else the first of the file
    start = next((i for i in range(len(toks) - 2) if toks[i:i + 3] == ["Spec", "=", "{"]), 0)
    for i in range(start, len(toks) - 2):
        if toks[i] == "name" and toks[i + 1] == ":" and _string(toks[i + 2]):
            prog = _string(toks[i + 2]) or prog
            break
    root = prog
    if program and program != prog:  # `aws/ec2`: the subcommand `ec2` of `aws`, in a file of its own
        prog = program
    if not _WORD.match(prog or "") or not _WORD.match(root or ""):
        return
    # a walk with a stack of open brackets: each frame is (bracket, key it is the value of, object's fields)
    stack: list = []
    key_before: Optional[str] = None
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in "{[":
            fields: dict = {}
            stack.append((t, key_before, fields))
            key_before = None
        elif t in "}]" and stack:
            bracket, under, fields = stack.pop()
            if bracket == "{" and fields.get("name") and fields.get("description"):
                yield from _spec_entries(prog, root, stack, fields)
        elif i + 1 < len(toks) and toks[i + 1] == ":" and re.match(r"[A-Za-z_$]", t):
            key_before = t
            value = _string(toks[i + 2]) if i + 2 < len(toks) else None
            if stack and stack[-1][0] == "{" and t in ("name", "description") and value is not None:
                parts, j = [value], i + 3
                while t == "description" and j + 1 < len(toks) and toks[j] == "+" and _string(toks[j + 1]):
                    parts.append(_string(toks[j + 1]) or "")
                    j += 2
                stack[-1][2][t] = ["".join(parts)]
            elif stack and stack[-1][0] == "{" and t == "name" and i + 2 < len(toks) and toks[i + 2] == "[":
                names, j = [], i + 3
                while j < len(toks) and toks[j] != "]":
                    s = _string(toks[j])
                    if s:
                        names.append(s)
                    j += 1
                stack[-1][2]["name"] = names
            i += 2
            continue
        elif t == ",":
            key_before = None
        i += 1


def _spec_entries(prog: str, root: str, stack: list, fields: dict) -> Iterator[Entry]:
    """The entries of one closed object: a subcommand or an option, named under its nearest subcommand
    (``root``, the spec's own name, is the program itself or, in a file of its own, a subcommand of it)."""
    if len(stack) < 1 or stack[-1][0] != "[" or stack[-1][1] not in ("subcommands", "options"):
        return
    kind = stack[-1][1]
    parent_names: Optional[list] = None
    for bracket, _under, outer in reversed(stack[:-1]):
        if bracket == "{" and outer.get("name"):
            parent_names = outer["name"]
            break
    description = fields["description"][0]
    at_root = parent_names is not None and parent_names[0] == root == prog and \
        len([f for f in stack if f[0] == "{"]) == 1
    for name in fields["name"]:
        if kind == "options":
            if not re.fullmatch(r"--?[\w][\w.-]*", name):
                continue
            parents = [] if at_root or parent_names is None else parent_names
            for parent in parents or [""]:
                if parent == "" or _WORD.match(parent):
                    yield Entry(prog, f"{parent} {name}".strip(), description)
        elif _WORD.match(name):
            if parent_names is None:
                yield Entry(prog, f"* {name}", description)
            elif at_root:
                yield Entry(prog, name, description)
            else:
                for parent in parent_names:
                    if _WORD.match(parent):
                        yield Entry(prog, f"{parent} {name}", description)


# ----------------------------------------------------------------- the table
def derive(entries: Iterable[Entry]) -> dict:
    """``{(prog, key): category}`` for every entry whose description destroys; a key whose descriptions
    disagree (one destroys, another does not) is kept only if most of them destroy."""
    votes: dict = {}
    for e in entries:
        votes.setdefault((e.prog, e.key), []).append(classify(e.description))
    table = {}
    for key, cats in votes.items():
        word = key[1].rsplit(" ", 1)[-1]
        if _ROUTINE_KEYS.match(word.lstrip("-")) or len(word) == 1:
            continue  # a routine cleanup; a letter for a subcommand (`d`) says nothing by itself
        kept = [c for c in cats if c]
        if word.lstrip("-").lower() in RESET and set(kept) != {"reset"}:
            continue  # a word named for going back to defaults: the vocabulary's to judge
        if "help" in key[1].split():
            continue  # a help page's tree (`X help delete`) names the command, it does not run it
        if word.lower() in ("logout", "login", "log-out", "signout", "sign-out"):
            continue  # your own login on this machine, whatever the logout takes with it
        if "revoke" in kept and not _LOGINS.isdisjoint(key[1].lower().split()):
            continue  # `gcloud auth revoke`: your own login on this machine, not a grant others rely on
        if not word.startswith("-") and word.lower() in _PLAIN_STOPS and "stop-all" in kept:
            continue  # `supabase stop`: "every one" is the program's own stack, stopped as usual
        short = re.fullmatch(r"-\w", word) is not None  # a letter means many things across subcommands: all must agree
        if kept and (len(kept) == len(cats) if short else len(kept) * 2 > len(cats)):
            table[key] = max(set(kept), key=kept.count)
    return table


def read_all(fish_dirs: Iterable[Path], zsh_dirs: Iterable[Path], spec_dirs: Iterable[Path] = ()) -> Iterator[Entry]:
    for fish_dir in fish_dirs:
        for path in sorted(fish_dir.glob("*.fish")) if fish_dir.is_dir() else ():
            yield from parse_fish(path.read_text(errors="replace"), path.stem)
    for zsh_dir in zsh_dirs:
        for path in sorted(zsh_dir.rglob("_*")) if zsh_dir.is_dir() else ():
            if path.is_file() and not path.name.endswith(".zwc"):
                yield from parse_zsh(path.read_text(errors="replace"), path.name)
    for spec_dir in spec_dirs:
        for path in sorted(spec_dir.rglob("*.ts")) if spec_dir.is_dir() else ():
            folder = path.relative_to(spec_dir).parts[:-1]
            if folder and not _WORD.match(folder[0]):
                continue  # `@scope/…`: packages' specs, named otherwise
            yield from parse_spec(path.read_text(errors="replace"), path.stem, folder[0] if folder else "")


HEADER = '''"""What programs' own documentation says destroys: derived, not written by hand.

Generated by ``tools/documented_table.py`` from the shell completion definitions that describe each
program's subcommands and options: fish's completions (Debian's fish 3.6.0 and the fish project's
newer ones, commit ff72419), zsh's completion functions (Debian's zsh 5.9), the zsh-completions
collection (commit 334c14d) and the Fig autocomplete specs (commit aef52ac).  A row is kept when the
first sentence of a description says the word destroys, wipes, deletes data or resources, formats a
disk, resets to factory state, revokes or stops everything, and not when what goes is cheap (an
alias, a label, a cache, a package, an entry in a listing) or the sentence says what is not done.
Only the derived rows are here, never a description.  Rerun the script to regenerate.

Rows: PROGRAM, KEY, CATEGORY separated by tabs.  KEY is ``SUB``, ``PARENT SUB`` (SUB after PARENT),
``* SUB`` (SUB at any of the first operands), ``-x`` / ``--opt`` (the program's option) or
``PARENT --opt`` (the option after PARENT).
"""
'''


def render(table: dict) -> str:
    rows = "\n".join(f"{prog}\t{key}\t{cat}" for (prog, key), cat in sorted(table.items()))
    return HEADER + "\nROWS = \"\"\"\n" + rows + "\n\"\"\"\n"


def main(argv: Optional[list] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fish", type=Path, action="append", help="fish completion directory (repeatable)")
    ap.add_argument("--zsh", type=Path, action="append", help="zsh completion directory (repeatable)")
    ap.add_argument("--spec", type=Path, action="append", default=[],
                    help="directory of completion specs written as object literals (*.ts; repeatable)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--explain", action="store_true", help="print kept rows with their descriptions")
    args = ap.parse_args(argv)
    entries = list(read_all(args.fish or FISH_DIRS, args.zsh or ZSH_DIRS, args.spec))
    table = derive(entries)
    if args.explain:
        for e in entries:
            if (e.prog, e.key) in table and classify(e.description):
                print(f"{table[(e.prog, e.key)]:9} {e.prog} {e.key:30} {e.description}")
        return 0
    args.out.write_text(render(table))
    print(f"{len(table)} rows from {len(entries)} documented words -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
