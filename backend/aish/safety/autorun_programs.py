"""Is one program, with these words, known to only read?  The per-program half of ``autorun``.

Every answer is positive knowledge from ``read_only``: a reader and its unsafe options, git
and the other programs whose read-only subcommands are listed, ``find``'s expression, the
scripts of ``sed`` and ``awk`` that only print.  Anything else is unknown, and the answer
says why it waits: the network, an interpreter, a write, or simply "not known to only read".
"""
from __future__ import annotations

from dataclasses import replace

from aish.safety.autorun_repo import configured_program
from aish.safety.autorun_paths import Walk, inside_workdir, is_directory, option_like, secret_read, whole_tree
from aish.safety.autorun_scripts import SPECIAL
from aish.safety.command_line import expand_abbreviations, subcommand
from aish.safety.read_only import (CONTENTS, ENVIRONMENT, FILE_WRITERS, FORBIDDEN_OPERANDS, FOREVER, GIT_CONTENTS,
                                   GIT_GLOBAL, GIT_LISTING, INTERACTIVE, INTERACTIVE_PROGRAMS, INTERPRETER,
                                   INTERPRETERS, IP_READ_VERBS, JOURNALCTL_UNSAFE, LIST, MAX_OPERANDS, MIN_OPERANDS,
                                   NETWORK, NETWORK_PROGRAMS, NETWORK_SUBCOMMANDS, OPERAND_PATTERN, PRINTS_SECRETS,
                                   QUERY_OPTIONS, READERS, RECURSIVE, ROOT, ROOT_WRAPPERS, RUNS, SECRETS, SHELL_STATE,
                                   STATE, SUBCOMMANDS, TOOLCHAINS, UNSAFE_OPTIONS, VALUED_OPTIONS, VERSION_FLAGS,
                                   WORKDIR_WRITERS, WRITES)
from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import fragment
from aish.safety.rules.table import known
from aish.safety.lazy_regex import lazy

_PATTERN_FIRST = {"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "sed", "awk", "gawk", "mawk", "jq", "yq"}
_PATTERN_OPTIONS = {"-e", "--regexp", "--expression", "-f", "--file", "--from-file", "--source"}
_SUBWORD = lazy(r"^[a-z][a-z0-9-]*$")
_LIST_OPTIONS = {"--files0-from": LIST}  # sort, wc and du open the files a list names
_RUNS_OTHERS = {"run", "exec", "create", "x", "dlx"}  # subcommands whose later words belong to another program


def check(prog: str, args: list, walk: Walk) -> str:
    """Why ``prog args`` is not known to only read, or ``""`` when it is."""
    texts = [w.text for w in args]
    if only_help(prog, texts):
        return ""
    if prog == "git":
        return _git(args, walk)
    if prog in SUBCOMMANDS:
        return _subcommand(prog, args)
    if prog in READERS:
        return _reader(prog, args, walk)
    if prog in QUERY_OPTIONS:
        return _query(prog, texts)
    if prog in WORKDIR_WRITERS and walk.writes:
        return _workdir_writer(prog, args, walk)
    return unknown(prog, texts)


def only_help(prog: str, texts: list) -> bool:
    """``prog --help`` / ``--version`` of a program that is known, after at most its subcommands."""
    if texts and texts == [VERSION_FLAGS.get(prog)]:
        return True
    if not texts or texts[-1] not in ("--help", "--version") or not _known(prog):
        return False
    before = texts[:-1]
    if before[:1] and before[0] in _RUNS_OTHERS:
        return False  # `docker run IMAGE --help` hands --help to the image it pulls and runs
    return not before or (prog in SUBCOMMANDS or prog in NETWORK_SUBCOMMANDS or prog == "git") and \
        len(before) <= 2 and all(_SUBWORD.match(t) for t in before)


def _known(prog: str) -> bool:
    return any(prog in table for table in (READERS, SUBCOMMANDS, INTERPRETERS, NETWORK_PROGRAMS, INTERACTIVE_PROGRAMS,
                                           FILE_WRITERS, READ_ONLY, NETWORK_SUBCOMMANDS, TOOLCHAINS,
                                           QUERY_OPTIONS)) or known(prog)


def unknown(prog: str, texts: list) -> str:
    """The best reason a program that is not listed as a reader waits."""
    sub = subcommand(texts)
    shown = fragment([prog] + texts, 40)
    if prog in ROOT_WRAPPERS:
        return ROOT
    if prog in SHELL_STATE and any(not t.startswith("-") for t in texts):
        return f"{STATE} ({shown})"
    if prog in PRINTS_SECRETS:
        return f"{ENVIRONMENT} ({shown})"
    if prog in INTERPRETERS:
        return f"{INTERPRETER} ({shown})"
    if prog in NETWORK_PROGRAMS or sub in NETWORK_SUBCOMMANDS.get(prog, ()):
        return f"{NETWORK} ({shown})"
    if prog in INTERACTIVE_PROGRAMS:
        return f"{INTERACTIVE} ({prog})"
    if prog in FILE_WRITERS:
        return f"{WRITES} ({shown})"
    name = f"{prog} {sub}" if sub and (prog in SUBCOMMANDS or prog in NETWORK_SUBCOMMANDS or prog == "git") else prog
    return f"{name} is not known to only read"


def unsafe_option(prog: str, text: str, table: dict) -> str:
    """Why the option ``text`` makes ``prog`` more than a reader (by ``table``), or ``""``."""
    if text.startswith("--"):
        given = text.split("=", 1)[0]
        for option, why in table.items():
            if option.startswith("--") and option.startswith(given) and len(given) > 2:
                return f"{why} ({prog} {option})"
        return ""
    if text.startswith("-") and len(text) > 1 and not text[1:2].isdigit():
        if text in table:
            return f"{table[text]} ({prog} {text})"
        for option, why in table.items():
            if len(option) == 2 and option[0] == "-" and option[1] in text[1:]:
                return f"{why} ({prog} {option})"
    if text.startswith("+") and text in table:
        return f"{table[text]} ({prog} {text})"
    return ""


def _split(args: list, valued: frozenset = frozenset()) -> tuple:
    """(option words, operand words, operands after ``--``); a ``valued`` option's value is neither."""
    options: list = []
    operands: list = []
    after: list = []
    value = False
    for k, w in enumerate(args):
        if value:
            value = False
            continue
        if w.text == "--":
            after = list(args[k + 1:])
            break
        if w.text.startswith("-") and w.text != "-":
            options.append(w)
            value = w.text in valued
        else:
            operands.append(w)
    return options, operands, after


def _reader(prog: str, args: list, walk: Walk) -> str:
    table = UNSAFE_OPTIONS.get(prog, {})
    options, operands, after = _split(args, VALUED_OPTIONS.get(prog, frozenset()))
    for w in options:
        why = unsafe_option(prog, w.text, table) or \
            (unsafe_option(prog, w.text, _LIST_OPTIONS) if prog in ("sort", "wc", "du") else "")
        if why:
            return why
    special = SPECIAL.get(prog)
    if special is not None:
        why = special(prog, args, operands, walk)
        if why:
            return why
    if table and any(w.glob and option_like(w, walk) for w in operands):
        return f"a file name from a pattern could be read as an option ({prog})"
    every = operands + after
    if len(every) < MIN_OPERANDS.get(prog, 0):
        return unknown(prog, [])
    if len(every) > MAX_OPERANDS.get(prog, 1 << 30):
        return f"{prog} with {fragment([w.text for w in every], 30)} is not known to only read"
    for w in every:
        why = FORBIDDEN_OPERANDS.get(prog, {}).get(w.text)
        pattern = OPERAND_PATTERN.get(prog)
        if why:
            return f"{why} ({prog} {w.text})"
        if pattern is not None and not pattern.match(w.text):
            return f"{prog} {w.text} is not known to only read"
    if READERS[prog] != CONTENTS:
        return ""
    files, maybe = _file_words(prog, args)
    for w in files + maybe:
        why = secret_read(w, walk, maybe_file=w in maybe, bounded=prog == "head")
        if why:
            return why
    recursive = RECURSIVE.get(prog)
    if recursive and ("" in recursive or any(w.text in recursive or _bundle_has(w.text, recursive)
                                             or w.text.endswith("recurse") for w in options + files)):
        for w in files or [None]:
            shown = whole_tree(w, walk)
            if shown:
                return f"{SECRETS}: searches {shown} whole"
    for w in files + maybe:  # a content reader given a directory (diff -r, grep -d recurse) reads what is under it
        shown = whole_tree(w, walk) if is_directory(w, walk) else ""
        if shown:
            return f"{SECRETS}: searches {shown} whole"
    return ""


def _query(prog: str, texts: list) -> str:
    first = next((t for t in texts if t.startswith("-")), "")
    if first not in QUERY_OPTIONS[prog]:
        return f"{prog} {first} is not known to only read".replace("  ", " ")
    return next((why for t in texts if (why := unsafe_option(prog, t, _RPM_UNSAFE if prog == "rpm" else {}))), "")


# rpm expands macros, and a macro can run a shell (`%(cmd)`): options that define or evaluate one
_RPM_UNSAFE = {o: RUNS for o in "--eval -E --define -D --predefine --macros --rcfile --load --pipe --dbpath --root "
                                "--undefine".split()}


def _bundle_has(text: str, options: tuple) -> bool:
    letters = {o[1] for o in options if len(o) == 2}
    return text.startswith("-") and not text.startswith("--") and bool(letters & set(text[1:]))


def _file_words(prog: str, args: list) -> tuple:
    """(words read as files, words that may be files): a grep's pattern, sed's script, an
    option's value (``--from-file=F``, ``-e.``, the word after an option) may name a file too,
    so they are checked as such when they could be one."""
    files: list = []
    maybe: list = []
    pattern_due = prog in _PATTERN_FIRST
    after_option = dashdash = False
    for w in args:
        t = w.text
        if dashdash or t == "-" or not t.startswith("-"):
            if pattern_due or after_option:
                maybe.append(w)
            else:
                files.append(w)
            pattern_due = after_option = False
        elif t == "--":
            dashdash = True
        elif t.startswith("--"):
            name, eq, value = t.partition("=")
            if eq:
                maybe.append(replace(w, text=value, raw=w.raw.partition("=")[2], glob=False))
            if any(option.startswith(name) and len(name) > 2 for option in _PATTERN_OPTIONS if option.startswith("--")):
                pattern_due = False
            after_option = not eq
        else:
            if len(t) > 2:
                maybe.append(replace(w, text=t[2:], raw=w.raw[2:], glob=False))
            if prog in _PATTERN_FIRST and set(t[1:]) & {"e", "f"}:
                pattern_due = False
            after_option = True
    return files, maybe


def _git(args: list, walk: Walk) -> str:
    texts = [w.text for w in args]
    k = 0
    while k < len(texts) and texts[k].startswith("-"):
        name = texts[k].split("=", 1)[0]
        if name not in GIT_GLOBAL:
            return f"git {name} is not known to only read" if name not in ("-c", "--config-env", "--exec-path") \
                else f"can run a configured program (git {name})"
        k += 2 if GIT_GLOBAL[name] and "=" not in texts[k] else 1
    if k >= len(texts):
        return ""  # `git` alone prints its usage
    sub, rest = texts[k], args[k + 1:]
    if sub in NETWORK_SUBCOMMANDS["git"]:
        return f"{NETWORK} (git {sub})"
    why = configured_program(walk.base, texts[:k]) if sub != "version" else ""
    if why:
        return why
    if sub in GIT_LISTING:
        return _git_listing(sub, [w.text for w in rest])
    table = SUBCOMMANDS["git"].get(sub)
    if table is None:
        return unknown("git", texts[k:])
    for w in rest:
        if w.text == "--":
            break
        why = unsafe_option(f"git {sub}", w.text, table)
        if why:
            return why
    if sub == "help":
        bad = next((t for t in texts[k + 1:] if t.startswith("-") and t not in _GIT_HELP_PRINTS), None)
        if bad is not None:  # --web opens a browser, --man and --info a screen
            return f"git help {bad} is not known to only read"
    if sub in GIT_CONTENTS:
        for w in rest:
            if not w.text.startswith("-"):
                why = secret_read(w, walk)
                shown = whole_tree(w, walk) if not why and is_directory(w, walk) else ""
                if why or shown:
                    return why or f"{SECRETS}: searches {shown} whole"
    if sub == "grep" and any(t in ("--no-index", "--untracked") for t in texts):
        named = [w for w in rest if not w.text.startswith("-")][1:]  # after the pattern
        shown = "" if named else whole_tree(None, walk)  # outside the index: every file under here
        if shown:
            return f"{SECRETS}: searches {shown} whole"
    return ""


_GIT_HELP_PRINTS = {"-a", "--all", "-g", "--guides", "--config", "--user-interfaces", "--developer-interfaces",
                    "--no-external-commands", "--no-aliases", "--verbose"}


_GIT_VALUED = {"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--type",
               "-n"}


def _git_listing(sub: str, words: list) -> str:
    """``git branch``, ``tag``, ``stash list``, ``config --get``...: read only in the listed forms."""
    forms, allowed = GIT_LISTING[sub]
    bad = next((t for t in words if t.startswith("-") and t.split("=", 1)[0] not in allowed), None)
    if bad is not None:
        return f"git {sub} {bad} is not known to only read"
    names, previous = [], ""
    for t in words:
        if not t.startswith("-") and previous not in _GIT_VALUED:
            names.append(t)
        previous = t
    first = names[0] if names else ""
    if sub not in ("branch", "tag", "config") and first not in forms:
        return f"git {fragment([sub] + names[:1], 40)} is not known to only read"
    listing = any(t in ("-l", "--list") for t in words)
    if sub in ("branch", "tag") and names and not listing:
        return f"git {sub} {names[0]} makes a {sub}"
    if sub == "config" and len(names) > (2 if any(t.startswith(("--get-regexp", "--get-all")) for t in words) else 1):
        return f"git config {fragment(names, 30)} sets a value"
    return ""


def _subcommand(prog: str, args: list) -> str:
    texts = [w.text for w in args]
    if prog == "journalctl":
        return next((why for t in texts if (why := unsafe_option(prog, t, JOURNALCTL_UNSAFE))), "")
    if prog == "ip":
        return _ip(texts)
    sub = subcommand(texts)
    table = SUBCOMMANDS[prog].get(sub)
    if table is None:
        return unknown(prog, texts)
    for t in texts:
        if t == "--":
            break
        why = unsafe_option(f"{prog} {sub}", t, table) or (unsafe_option(prog, t, {"-H": NETWORK, "--host": NETWORK,
                                                                        "--context": NETWORK, "-c": NETWORK})
                                                if prog in ("docker", "podman") else "")
        if why:
            return why
    if prog in ("docker", "podman") and sub == "stats" and "--no-stream" not in texts:
        return f"{FOREVER} ({prog} stats)"
    return ""


def _ip(texts: list) -> str:
    for t in texts:  # `-b FILE` (any prefix of -batch, one dash or two) runs the commands a file holds
        option = t[1:] if t.startswith("--") else t
        if len(option) > 1 and "-batch".startswith(option):
            return f"ip {t} is not known to only read"
    words = expand_abbreviations("ip", texts)
    opts_done = [t for t in words if not t.startswith("-")]
    if not opts_done:
        return ""
    obj = opts_done[0]
    if obj not in SUBCOMMANDS["ip"]:
        return f"ip {obj} is not known to only read"
    verb = opts_done[1] if len(opts_done) > 1 else ""
    if verb not in IP_READ_VERBS and not (verb in ("dev",) or verb.startswith(("dev", "table"))):
        return f"ip {obj} {verb} is not known to only read"
    return ""


def _workdir_writer(prog: str, args: list, walk: Walk) -> str:
    options, operands, after = _split(args)
    for w in options:
        if w.text not in WORKDIR_WRITERS[prog]:
            return f"{prog} {w.text} is not known to write only inside the task's directory"
    for w in operands + after:
        if not inside_workdir(w, walk):
            return f"writes outside the task's directory ({prog} {w.text})"
    return ""
