"""Effect: commands embedded in another tool's own language, judged as the commands they are.

- GNU sed runs commands: the ``e COMMAND`` command (``sed '1e rm -rf ~/x' f``) and the ``e`` flag
  of ``s`` (``s/.*/rm -rf ~\\/x/e`` runs the replacement);
- a makefile fed on standard input (``make -f - <<< $'all:\\n\\trm -rf ~/w'``, ``echo … | make -f
  -``) runs its recipe lines;
- a shell script given with ``-c`` gets the words after it as ``$0``, ``$1``… (``sh -c 'rm -rf
  "$1"' _ ~`` is ``rm -rf ~``): ``with_positionals`` puts them in before the script is judged;
- ``find … -exec sh -c ': > "$1"' _ {} \\;`` empties every file it matches;
- options whose value is a shell command (``tar --checkpoint-action=exec=…``, ``git -c
  core.pager=…``, ``git -c alias.x='!…'``, ``ssh -o ProxyCommand=…``, ``rsync -e …``, ``script -c``,
  ``flock -c``, ``zip -TT``) and clients' shell escapes (``sqlite3 db '.shell …'``, ``psql -c '\\! …'``,
  ``mysql -e 'system …'``, ``gdb -ex 'shell …'``, ``dc -e '!…'``, ``!…`` fed to ``ed``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, target, worst
from aish.safety.lazy_regex import lazy

_SED_VALUED = {"-e", "--expression", "-f", "--file", "-l", "--line-length"}
_ADDRESS = r"(?:\d+(?:~\d+)?|\$|/(?:[^/\\]|\\.)*/I?)"
# `[ADDR[,ADDR]][!] e COMMAND`: the rest of the line is the command
_SED_E = lazy(rf"^\s*(?:{_ADDRESS}(?:\s*,\s*{_ADDRESS})?)?\s*!?\s*e\s+(.+)$")
# `s<d>REGEX<d>REPLACEMENT<d>FLAGS` with `e` among the flags
_SED_S = lazy(r"(?:^|[;{\s])s([^\w\s\\])((?:(?!\1)[^\\]|\\.)*)\1((?:(?!\1)[^\\]|\\.)*)\1([gpiImMe\d]*)")


def _sed_scripts(texts: list) -> list:
    scripts, k, given = [], 0, False
    while k < len(texts):
        t = texts[k]
        if t in ("-e", "--expression") and k + 1 < len(texts):
            scripts.append(texts[k + 1])
            given = True
            k += 2
            continue
        if t.startswith("--expression="):
            scripts.append(t.split("=", 1)[1])
            given = True
        elif t in _SED_VALUED:
            given = given or t in ("-f", "--file")
            k += 2
            continue
        elif not t.startswith("-") and not given:
            return [t]
        k += 1
    return scripts


def rule_sed_runs(c: Ctx) -> Optional[tuple]:
    """GNU sed's ``e`` command and the ``e`` flag of ``s`` run a shell command."""
    best = None
    for script in _sed_scripts(c.texts):
        commands = []
        for line in script.split("\n"):
            parts = line.split(";")
            for k in range(len(parts)):
                m = _SED_E.match(parts[k])
                if m:
                    commands.append(";".join([m.group(1)] + parts[k + 1:]))
                    break
        for m in _SED_S.finditer(script):
            if "e" in m.group(4):
                commands.append(m.group(3).replace("\\" + m.group(1), m.group(1)))
        for command in commands[:10]:
            found = c.recurse(command)
            if found:
                best = worst(best, (found[0], f"{found[1]}, run by sed's e command"))
    return best


def rule_make_stdin(c: Ctx) -> Optional[tuple]:
    """``make -f -`` reads its makefile from standard input: its recipe lines are shell commands."""
    texts = c.texts
    if not any(t in ("-", "/dev/stdin") and k and texts[k - 1] in ("-f", "--file", "--makefile")
               or t in ("--file=-", "--makefile=-", "-f-") for k, t in enumerate(texts)):
        return None
    fed = [r.body for r in c.seg.redirects if r.body]
    fed += [_unquote(r.target.text) for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
    feeder = c.chain[-1].words if c.chain else []
    if feeder and feeder[0].text in ("echo", "printf"):
        fed += [_unquote(" ".join(w.text for w in feeder[1:] if not re.fullmatch(r"-[neE]+", w.text)))]
    best = None
    for text in fed:
        for line in text.split("\n")[:50]:
            recipe = line[1:] if line.startswith("\t") else line.split(";", 1)[1] if re.match(r"^[\w./-]+\s*:[^=]*;",
                                                                                             line) else ""
            found = c.recurse(recipe.strip().lstrip("@-+")) if recipe.strip() else None
            if found:
                best = worst(best, (found[0], f"{found[1]}, a recipe of the makefile make reads from its input"))
    return best


def _unquote(text: str) -> str:
    """A here-string's text with its quotes off and ``$'…'``'s escapes read (``\\n``, ``\\t``)."""
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text.replace("\\\\", "\\").replace("\\n", "\n").replace("\\t", "\t")


def with_positionals(script: str, args: list) -> str:
    """``sh -c SCRIPT NAME ARG…``: the script with ``$0``, ``$1``… ``"$@"`` replaced by the words given."""
    if not args or "$" not in script:
        return script

    def word(n: int) -> str:
        return args[n] if n < len(args) else ""

    script = re.sub(r"\"?\$(?:\{([0-9])\}|([0-9]))\"?", lambda m: word(int(m.group(1) or m.group(2))), script)
    return re.sub(r"\"?\$(?:\{@\}|@|\*)\"?", lambda m: " ".join(args[1:]), script)


_EMPTYING = lazy(r"^\s*(?::|true|echo\s*(?:-n\s*)?(?:''|\"\")?|printf\s*(?:''|\"\")?|cat\s+/dev/null|)\s*"
                 r">\|?\s*\"?\$(?:\{?[0-9@]\}?)\"?\s*$")


def rule_find_empties(c: Ctx) -> Optional[tuple]:
    """``find DIR -exec sh -c ': > "$1"' _ {} \\;``: every file it matches emptied."""
    texts = c.texts
    for k, t in enumerate(texts[:-3]):
        if t in ("-exec", "-execdir") and texts[k + 1].rsplit("/", 1)[-1] in ("sh", "bash", "dash", "zsh", "ksh") \
                and texts[k + 2] == "-c" and any(_EMPTYING.match(part) for part in texts[k + 3].split(";")):
            roots = [w for w in c.args[:k] if not w.text.startswith(("-", "(", "!"))][:1]
            where = target(roots[0]) if roots else None
            if where is None or where.kind in ("temp", "output", "project", "all", "var-guarded", "sink"):
                return None
            level = HIGH if where.kind in ("root", "home", "system-top", "critical", "dot-critical", "system") \
                else MEDIUM
            return level, f"empties every file find matches under {describe(where)} ({c.text})"
    return None


# (program, option) whose value is a command: a pattern over one word (the command in group 1) or an option
# whose next word is the command.
_COMMAND_OPTIONS = {
    "tar": (re.compile(r"^--(?:checkpoint-action=exec|to-command|info-script|new-volume-script)=(.+)$"), ()),
    "git": (re.compile(r"^(?:core\.(?:pager|sshcommand|editor|fsmonitor|hookspath)|alias\.[\w-]+|"
                       r"credential\.helper|sequence\.editor|diff\.external|gpg\.program)=!?(.+)$",
                       re.IGNORECASE), ()),
    "ssh": (re.compile(r"^(?:ProxyCommand|LocalCommand|KnownHostsCommand)[= ](.+)$", re.IGNORECASE), ()),
    "rsync": (re.compile(r"^--rsh=(.+)$"), ("-e", "--rsh")),
    "script": (re.compile(r"^--command=(.+)$"), ("-c", "-qc", "-qec", "-ec", "--command")),
    "flock": (re.compile(r"^--command=(.+)$"), ("-c", "--command")),
    "zip": (re.compile(r"^--unzip-command=(.+)$"), ("-TT", "--unzip-command")),
    "gdb": (re.compile(r"^(?:shell\s+|!)(.+)$"), ()),
    "dc": (re.compile(r"^!(.+)$"), ()),
}
# Clients' own escapes to a shell, in their one-shot commands and fed lines.
_ESCAPE = lazy(r"(?:^|[;\n])\s*(?:(?:\.shell|\.system|system|shell)\s+|\\?!\s*)([^;\n]+)", re.IGNORECASE)
_ESCAPING_CLIENTS = {"sqlite3", "psql", "mysql", "mariadb", "gdb", "dc", "ed", "ex", "ftp", "sftp", "lftp", "bc",
                     "duckdb", "cqlsh", "redis-cli", "mongo", "mongosh", "clickhouse-client"}


def rule_command_options(c: Ctx) -> Optional[tuple]:
    """A shell command hidden in an option's value or a client's escape, judged as the command it is."""
    pattern, valued = _COMMAND_OPTIONS.get(c.prog, (None, ()))
    texts = c.texts
    commands = []
    for k, t in enumerate(texts):
        m = pattern.match(t) if pattern is not None else None
        if m:
            commands.append(m.group(1))
        elif t in valued and k + 1 < len(texts):
            commands.append(texts[k + 1])
    if c.prog in _ESCAPING_CLIENTS:
        fed = [r.body for r in c.seg.redirects if r.body]
        fed += [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
        feeder = c.chain[-1].words if c.chain else []
        if feeder and feeder[0].text in ("echo", "printf"):
            fed.append(" ".join(w.text for w in feeder[1:]).replace("\\n", "\n"))
        for text in [t for t in texts if not t.startswith("-") or t.startswith("-e")] + fed:
            commands += [m.group(1) for m in _ESCAPE.finditer(text)]
    best = None
    for command in commands[:10]:
        found = c.recurse(command.strip().rstrip("#").strip())
        if found:
            best = worst(best, (found[0], f"{found[1]}, run by {c.prog}"))
    return best


RULES: dict = {"sed": [rule_sed_runs], "gsed": [rule_sed_runs], "make": [rule_make_stdin],
               "gmake": [rule_make_stdin], "bmake": [rule_make_stdin], "find": [rule_find_empties]}
for _p in set(_COMMAND_OPTIONS) | _ESCAPING_CLIENTS:
    RULES.setdefault(_p, []).append(rule_command_options)
