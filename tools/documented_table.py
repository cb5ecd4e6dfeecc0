"""Derive the table of what programs' own documentation says destroys, from shell completions.

Shell completion definitions describe, for thousands of programs, what each subcommand and option
does: fish's ``complete -c PROG -n '__fish_seen_subcommand_from vol' -a 'zap' -d 'Destroy …'`` and
zsh's ``'zap:destroy …'`` or ``'--zero-superblock[erase …]'``.  This script reads those definitions,
keeps the words whose description says they destroy, wipe, delete data, reset to factory state,
revoke or stop everything, and writes only what was derived: program, subcommand path or option,
and a category (never a description, never any file's text).

    python3 tools/documented_table.py [--fish DIR]… [--zsh DIR]… [--spec DIR]… [--cobra DIR]… [--man DIR]…
                                      [--tldr DIR]… [--out FILE] [--explain]

The defaults read the completions Debian's ``fish`` and ``zsh`` packages install; each option may be
given again for more directories (a checkout's ``share/completions`` of fish, ``src`` of
zsh-completions, ``src`` of the Fig autocomplete specs, whose files are TypeScript object literals,
``completers`` of carapace-bin, a folder per program of cobra commands written in Go, a folder of
manual pages as ``man`` prints them, ``pages`` of tldr, a folder per platform of example pages).  An
example describes a whole command line, so the word it is about is the one that tells its page's
destroying examples from the others (``example_entries``); completions outweigh examples, and both
outweigh manual pages (``combine``).
``--explain`` prints each kept row with its description instead of writing the table (for reading
the result; the descriptions are never written to the table).
"""
from __future__ import annotations

import argparse
import itertools
import re
import sys
from pathlib import Path
from typing import Iterable, Iterator, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))
from aish.safety.verbs import RESET  # noqa: E402 - the tree's own vocabulary, not an installed one

sys.path.insert(0, str(Path(__file__).resolve().parent))
from completion_sources import _WORD, Entry, parse_cobra, parse_fish, parse_spec, parse_zsh  # noqa: E402,F401 - a sibling script
from example_sources import Example, parse_tldr  # noqa: E402 - a sibling script
from manual_sources import parse_man  # noqa: E402 - a sibling script

FISH_DIRS = (Path("/usr/share/fish/completions"),)
ZSH_DIRS = (Path("/usr/share/zsh/functions/Completion"), Path("/usr/share/zsh/vendor-completions"))
OUT = Path(__file__).resolve().parents[1] / "backend" / "aish" / "safety" / "documented_table.py"


# ----------------------------------------------------------------- what a description says
# Verbs by category, as the first words of a description use them (imperative or third person).
_CATEGORY_VERBS = {
    "wipe": r"wipes?|wiping|erases?|erasing|shreds?|zaps?|zeroe?s?(?![ -]?(?:fill|pad))|zero out|nukes?|obliterates?|"
            r"scrub(?:s|bing)? out|"
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
    r"no more|at most|except|after|afterwards|once|when|on exit|upon|before|prior to|until|only if|only \w+ if|"
    r"disable deletion|"
    r"protect|refuse|skip|in addition to|as well|if any|on error|on failure|with failure|"
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
    r"alarms?|reminders?|notifications?|warnings?|suppressions?|"
    r"sessions?|windows?|panes?|buffers?|tabs?|artifacts?|objects? files?|"
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
    r"output|backup files?|backups? of|swap files?|core files?|lost|leftover\w*|downloaded(?! data)|partial|"
    r"installed|install|installation|version|versions|kernel|kernels|images? from the cache|"
    r"keyring entr\w+|environment variables?|env|responses?|relationships? by issue|parent issues?|sub-issues?|"
    r"[\w-]+-level scopes?|toolchains?|override for|drive letters?|mount ?points?|(?:server|ip|mac|e-?mail) address\w*|"
    r"data collectors?|rights|file information|(?:search|spotlight) index\w*|debug\w* files?|embedded|"
    r"page numbers?|line numbers?|(?:service|unit|plist) files?)\b")
# What makes a delete worth a warning: data, resources, accounts, whole stores.
_DATA = re.compile(
    r"\b(all|every|everything|entire|whole|databases?|db|tables?|schemas?|volumes?|vols?|disks?|drives?|devices?|"
    r"partitions?|file ?systems?|filesystems?|datasets?|pools?|snapshots?|repositor(?:y|ies)|repos?|"
    r"projects?|accounts?|users?|domains?|vms?|virtual machines?|guests?|machines?|instances?|containers?|"
    r"clusters?|nodes?|buckets?|keys?|keyids?|secrets?|certificates?|certs?|keystores?|keychains?|wallets?|vaults?|"
    r"passwords?|credentials?|mailbox(?:es)?|mail|messages|folders?|directory|directories|home|"
    r"data|storage|store|archives?|backups?|namespaces?|zones?|records?|apps?|applications?|sites?|"
    r"stacks?|environments?|deployments?|services?|servers?|superblock|metadata|partition table|"
    r"label|headers?|keyslots?|lvs?|logical volumes?|volume groups?|pvs?|physical volumes?|\w*arrays?|raid|"
    r"firmware|flash|nvram|bios|chip|configuration|config|profiles?|mailing lists?|lists?|queues?|topics?|"
    r"streams?|indices|indexes|collections?|documents?|tenants?|organi[sz]ations?|teams?|"
    r"branches?|releases?|issues?|pull requests?|pages?|files?|contents?|changes|modifications|work|revisions?|"
    r"crontabs?|orgs?|components?|jails?|boot\w*|systemd-boot|netdevs?|stemcells?|objects?)\b")
_UNASKED = re.compile(r",? (?:and )?(?:without|with no) (?:any )?(?:prompting|asking|a prompt|prompts?|confirmation|"
                      r"confirming|asking for confirmation|user interaction)\b")
_FACTORY = re.compile(r"\b(factory|initial state|original state|out of the box|scratch|everything)\b")
# Where something is removed FROM that makes the removal a loss of data (not a list, a group, a config).
_STORE = re.compile(r"\b(buckets?|archives?|disks?|drives?|devices?|keyrings?|pools?|controllers?|file ?systems?|"
                    r"storage|servers?|databases?|volume groups?|cloud|media|card|camera|phone|flash)$")
_DISK = re.compile(r"\b(disks?|drives?|devices?|partitions?|media|medium|flash|card)$")
_LOGINS = {"auth", "login", "logout", "session", "sessions", "oauth", "account", "credentials"}
_PLAIN_STOPS = {"stop", "kill", "halt", "shutdown", "down", "terminate", "quit", "exit", "restart", "end"}
# Key words that name a routine cleanup by convention (build output, caches, what nothing refers to any
# more: `gc`), whatever their description says.
_ROUTINE_KEYS = re.compile(r"^(clean|cleanup|clean-up|distclean|mostlyclean|mostly-clean|realclean|tidy|clear|gc|"
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
    text = _UNASKED.sub("", text)  # "erase the disk without prompting": done all the same, only not asked first
    if not text or _NOT_DOING.search(text):
        return None
    for category, verb in _VERB_RE.items():
        m = verb.match(text)
        if not m:
            continue
        rest = text[m.end():]
        if re.match(r"(?:, [a-z]+)*,? (?:or|and/or) [a-z]", rest):
            return None  # "remove, enable or disable a repository": one of several things the word does
        if category == "format":
            noun = rest.startswith((" of", " for", " to ", " string"))  # "format for the target volume"
            return category if _FORMAT_OBJECT.search(rest) and not noun else None
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
        if word.startswith("-") and re.fullmatch(r"(?:dist|mostly-?|real)?clean|tidy", key[1].split(" ")[0]):
            continue  # `qmk clean --all`: an option of a routine cleanup cleans more of the same
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
            table[key] = max(sorted(set(kept)), key=kept.count)  # a tie: the same one every run
    return table


def example_entries(examples: Iterable[Example]) -> Iterator[Entry]:
    """The words one page's examples document.  Examples that spell out the same subcommand path (none
    for the program alone) are read together, and a word is the one that destroys where it tells the
    destroying examples from the others: an example without options speaks for its path (``zpool
    destroy``); an option speaks when every destroying example of its path gives it and some example
    that destroys nothing does not (``snapshot -D``, where ``snapshot`` also lists and creates; not
    ``dropuser --host``, an address: ``dropuser NAME`` removes without it; not a lone example's
    ``--profile``).  An example with options that destroys nothing still votes against its path; one
    whose operands say what it does (``query "delete from …"``) speaks for no word."""
    by_path: dict = {}
    for example in examples:
        verb = re.match(r"\w+", example.description)
        if verb and re.search(rf"\b{verb.group(0)}", example.operands, re.IGNORECASE):
            continue  # the operands say it (an SQL statement, a script): not a word of the program's
        by_path.setdefault((example.prog, example.path), []).append((example, classify(example.description)))
    for (prog, path), group in by_path.items():
        keys = [" ".join(k) for k in itertools.product(*path[-2:])] if path else []
        destroying = [set(e.options) for e, category in group if category]
        sparing = [set(e.options) for e, category in group if not category]
        for example, category in group:
            if not example.options or not category:
                yield from (Entry(prog, key, example.description) for key in keys)
            for spellings in example.options:
                if category and not (all(spellings in d for d in destroying) and
                                     any(spellings not in s for s in sparing)):
                    continue
                for option, parent in itertools.product(spellings, path[-1] if path else ("",)):
                    yield Entry(prog, f"{parent} {option}".strip(), example.description)


def read_all(fish_dirs: Iterable[Path], zsh_dirs: Iterable[Path], spec_dirs: Iterable[Path] = (),
             cobra_dirs: Iterable[Path] = ()) -> Iterator[Entry]:
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
    for cobra_dir in cobra_dirs:
        for completer in sorted(cobra_dir.rglob("*_completer")) if cobra_dir.is_dir() else ():
            prog = completer.name.removesuffix("_completer")
            if completer.is_dir() and _WORD.match(prog):  # one program's commands, spread over its Go files
                text = "\n".join(p.read_text(errors="replace") for p in sorted(completer.rglob("*.go")))
                yield from parse_cobra(text, prog)


def read_examples(tldr_dirs: Iterable[Path]) -> Iterator[Entry]:
    for tldr_dir in tldr_dirs:
        for path in sorted(tldr_dir.glob("*/*.md")) if tldr_dir.is_dir() else ():
            if path.parent.name not in _NOT_SHELLS:
                yield from example_entries(parse_tldr(path.read_text(errors="replace"), path.stem))


def read_manuals(man_dirs: Iterable[Path]) -> Iterator[Entry]:
    for man_dir in man_dirs:
        for path in sorted(man_dir.iterdir()) if man_dir.is_dir() else ():
            if path.is_file():
                prog = path.name.removesuffix(".md").removesuffix(".txt")
                yield from parse_man(path.read_text(errors="replace"), prog)


def combine(*layers: list) -> dict:
    """The table from layers of documentation: completions, then examples, then manual pages.  A layer
    decides the words no earlier layer describes: a completion's one line is the word's own; an example
    describes a whole line but plainly; a manual page's prose is read worst by its first sentence
    ("This option causes pdbedit to delete…", "Zap … and then exit"), so it speaks last."""
    described: set = set()
    table: dict = {}
    for entries in layers:
        table.update((key, category) for key, category in derive(entries).items() if key not in described)
        described |= {(e.prog, e.key) for e in entries}
    return table


_NOT_SHELLS = {"cisco-ios"}  # a router's console, not a shell's programs


HEADER = '''"""What programs' own documentation says destroys: derived, not written by hand.

Generated by ``tools/documented_table.py`` from the shell completion definitions that describe each
program's subcommands and options: fish's completions (Debian's fish 3.6.0 and the fish project's
newer ones, commit ff72419), zsh's completion functions (Debian's zsh 5.9), the zsh-completions
collection (commit 334c14d), the Fig autocomplete specs (commit aef52ac) and carapace-bin's
completers (cobra commands in Go, commit 462e6ae), tldr's example pages (commit 08e345f: the word
an example's description is about, where no completion describes that word) and the linux-manPages
collection (commit 7fc55d3: 8,580 pages of an Ubuntu system as ``man`` prints them; options only,
for words neither describes).  A row is kept
when the first sentence of a description says the word destroys, wipes, deletes data or resources,
formats a disk, resets to factory state, revokes or stops everything, and not when what goes is
cheap (an alias, a label, a cache, a package, an entry in a listing) or the sentence says what is
not done.
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
    ap.add_argument("--cobra", type=Path, action="append", default=[],
                    help="directory of per-program folders (NAME_completer) of cobra commands in Go (repeatable)")
    ap.add_argument("--tldr", type=Path, action="append", default=[],
                    help="tldr's pages directory (a folder per platform of PROGRAM.md pages; repeatable)")
    ap.add_argument("--man", type=Path, action="append", default=[],
                    help="folder of manual pages as man prints them (PROGRAM, PROGRAM.md or .txt; repeatable)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--explain", action="store_true", help="print kept rows with their descriptions")
    args = ap.parse_args(argv)
    words = list(read_all(args.fish or FISH_DIRS, args.zsh or ZSH_DIRS, args.spec, args.cobra))
    manuals = list(read_manuals(args.man))
    examples = list(read_examples(args.tldr))
    table = combine(words, examples, manuals)
    entries = words + examples + manuals
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
