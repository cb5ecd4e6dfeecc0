"""Read shell completion definitions into documented words: one ``Entry`` per subcommand or option.

Three formats say, for thousands of programs, what each word does: fish's ``complete`` lines, zsh's
completion functions (``'zap:destroy …'``, ``'--zero[erase …]'``) and completion specs written as
TypeScript object literals (Fig's).  Kept apart from ``documented_table.py``, which decides what a
description means: these parsers only find the words and their descriptions.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Iterator, Optional


@dataclass(frozen=True)
class Entry:
    """One documented word: ``key`` is ``SUB``, ``PARENT SUB``, ``-x``, ``--opt`` or ``PARENT --opt``."""

    prog: str
    key: str
    description: str


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
    found: list = []
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


# ----------------------------------------------------------------- cobra commands written in Go (carapace's completers)
_GO_TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*'|[A-Za-z_][\w]*|"""
                       r""":=|[{}\[\]().,:=&+]|[^\s{}\[\]().,:=&+"'`/A-Za-z_]+|/""", re.DOTALL)
# pflag's definers: `Bool("force", …)` is --force, `BoolP("force", "f", …)` also -f, carapace's `BoolS("f", "f", …)`
# only -f and `BoolN("all", "a", …)` -all and -a (one dash, as `ip -all` spells it).
_FLAG_DEFINER = re.compile(r"(?!Get|Set|Lookup|Visit|Args|Mark)((?:[A-Z][a-z0-9]+)+)([PSN])?")


def _go_value(toks: list) -> Optional[str]:
    """The text of a Go expression made only of string literals joined by ``+``, else None."""
    parts = []
    for k, t in enumerate(toks):
        if k % 2 == 1:
            if t != "+":
                return None
        elif t[:1] == "`" and t[-1:] == "`" and len(t) >= 2:
            parts.append(t[1:-1])
        elif t[:1] == '"' and t[-1:] == '"' and len(t) >= 2:
            parts.append(re.sub(r"\\(.)", r"\1", t[1:-1]))
        else:
            return None
    return "".join(parts) if parts else None


def _go_split(toks: list, start: int) -> tuple:
    """The comma-separated items (token lists) from ``start`` to the bracket that closes them, and the
    index after it."""
    items: list = []
    item: list = []
    depth, i = 0, start
    while i < len(toks):
        t = toks[i]
        if t in "([{":
            depth += 1
        elif t in ")]}":
            if depth == 0:
                break
            depth -= 1
        if t == "," and depth == 0:
            items.append(item)
            item = []
        else:
            item.append(t)
        i += 1
    if item:
        items.append(item)
    return items, i + 1


def parse_cobra(text: str, prog: str) -> Iterator[Entry]:
    """Entries of one program's cobra commands (all Go files of a completer joined): ``var xCmd =
    &cobra.Command{Use: "rm …", Short: "…", Aliases: []string{…}}`` joined by ``parent.AddCommand(xCmd)``,
    with ``xCmd.Flags().BoolP("force", "f", false, "…")`` (or ``PersistentFlags()``).  A subcommand of
    the root is keyed ``SUB``, a deeper one ``PARENT SUB`` (each name and alias of both), an option
    ``--opt`` on the root and ``SUB --opt`` under a subcommand.  The root is the command no other adds
    (``rootCmd`` if several); commands built at run time (``Use: name``) are skipped."""
    toks = [t for t in _GO_TOKEN.findall(text) if not t.startswith(("//", "/*"))]
    commands: dict = {}  # variable -> (names, description)
    parent: dict = {}  # variable -> the variable that adds it
    flags: list = []  # (variable, option names, description)
    for i, t in enumerate(toks):
        if toks[i + 1:i + 6] == ["&", "cobra", ".", "Command", "{"] and toks[i] in ("=", ":=") and i:
            fields, _ = _go_split(toks, i + 6)
            values = {f[0]: f[2:] for f in fields if len(f) > 2 and f[1] == ":"}
            use = _go_value(values.get("Use", [])) or ""
            name = use.split(" ", 1)[0]
            if not _WORD.match(name):
                continue
            aliases = [_go_value([a]) for a in values.get("Aliases", []) if a[:1] == '"']
            names = [name] + [a for a in aliases if a and a != name and _WORD.match(a)]
            commands[toks[i - 1]] = (names, _go_value(values.get("Short", [])) or "")
        elif t == "AddCommand" and i > 1 and toks[i - 1] == "." and toks[i + 1:i + 2] == ["("]:
            for item in _go_split(toks, i + 2)[0]:
                if len(item) == 1:
                    parent.setdefault(item[0], toks[i - 2])
        elif t in ("Flags", "PersistentFlags") and toks[i + 1:i + 4] == ["(", ")", "."] and i > 1:
            m = _FLAG_DEFINER.fullmatch(toks[i + 4] if i + 4 < len(toks) else "")
            if not m or toks[i + 5:i + 6] != ["("]:
                continue
            args = [_go_value(a) for a in _go_split(toks, i + 6)[0]]
            if len(args) < 2 or not args[0] or not args[-1]:
                continue
            short = args[1] if m.group(2) and len(args) > 2 else None
            names = {None: [f"--{args[0]}"], "P": [f"--{args[0]}", f"-{short}"], "S": [f"-{short}"],
                     "N": [f"-{args[0]}", f"-{short}"]}[m.group(2)]
            flags.append((toks[i - 2], [n for n in names if n and re.fullmatch(r"--?\w[\w.-]*", n)], args[-1]))
    roots = [v for v in commands if v not in parent]
    root = "rootCmd" if "rootCmd" in roots else roots[0] if len(roots) == 1 else None
    for var, (names, description) in commands.items():
        if var == root or not description or not _joined(var, parent, root, commands):
            continue
        up = parent[var]
        for name in names:
            for key in ([name] if up == root else [f"{p} {name}" for p in commands[up][0]]):
                yield Entry(prog, key, description)
    for var, options, description in flags:
        if var != root and not _joined(var, parent, root, commands):
            continue
        for option in options:
            for key in ([option] if var == root else [f"{n} {option}" for n in commands[var][0]]):
                yield Entry(prog, key, description)


def _joined(var: str, parent: dict, root: Optional[str], commands: dict) -> bool:
    """Whether a chain of ``AddCommand`` through named commands leads from the root to ``var`` (no loop)."""
    seen = set()
    while var in parent and var in commands and var not in seen:
        seen.add(var)
        var = parent[var]
    return root is not None and var == root
