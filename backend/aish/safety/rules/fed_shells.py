"""Effect: commands written by one program and run by another: a shell fed its commands on a pipe, and awk
handing its own output, a string or a variable to a shell.

``echo 'rm -rf ~' | sh`` runs what echo prints; ``ls /srv/old | awk '{print "rm -rf /srv/old/" $0}' | bash``,
``sed 's/^/rm -f /' stale.txt | sh``, ``jq -r '.[] | "rm -rf " + .path' x.json | sh``, ``perl -ne 'print
"rm $_"' | sh`` and ``xargs -I{} echo rm -rf {} | sh`` run the lines a text tool makes from a template.
The template is judged as the command it makes, each part read from the input written as a value only known
at run time (``rm -rf /srv/old/$LINE``).  In awk itself, ``print … | "sh"``, ``"rm -rf x" | getline`` and
``cmd = "rm -rf x"; system(cmd)`` hand the string to a shell the same way; gawk's ``unlink("…")`` (its
filefuncs extension) deletes as any language's does.

A shell given a script file or ``-c`` reads no commands from the pipe; tools that only print the input
(``cat``, ``grep``) make no template and are left to the rules that read pipes.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.program_names import alias
from aish.safety.rules.code_effects import file_effects
from aish.safety.rules.common import MEDIUM, Ctx, describe, worst
from aish.safety.lazy_regex import lazy

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "busybox", "fish", "tcsh", "csh"})
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk", "goawk", "frawk"})
_LINE = "$LINE"  # a part of the input, known only at run time
_MAX_TEMPLATES = 6
_DQ = r"\"((?:[^\"\\]|\\.)*)\""
_AWK_PRINT = lazy(r"\bprintf?\s*\(?((?:\s*(?:" + _DQ + r"|\$?\w+(?!\w)(?:\[[^\]]*\])?)(?:\s*,)?)+)\)?\s*"
                  r"(?:\|\s*" + _DQ + ")?")
_AWK_PART = lazy(_DQ + r"|\$?\w+(?!\w)(?:\[[^\]]*\])?")


def _awk_joined(parts: str) -> str:
    """awk's strings and names side by side, joined (``"rm -rf /d/" $0`` -> ``rm -rf /d/$LINE``)."""
    out = []
    for m in _AWK_PART.finditer(parts):
        out.append(m.group(1).replace('\\"', '"') if m.group(1) is not None else _LINE)
    return "".join(out)


def _program(texts: list, valued: tuple = ("-F", "-v", "-f", "-e", "--field-separator", "--assign", "-l", "--load",
                                           "-i", "--include")) -> str:
    k = 0
    while k < len(texts) and texts[k].startswith("-"):
        if texts[k] in ("-e", "--expression") and k + 1 < len(texts):
            return texts[k + 1]
        k += 2 if texts[k] in valued else 1
    return texts[k] if k < len(texts) else ""


def templates(words: list) -> list:
    """The command lines a text tool on a pipe makes, its input parts written as ``$LINE``."""
    texts = [w.text for w in words]
    prog = texts[0].rsplit("/", 1)[-1] if texts else ""
    prog = alias(prog) or prog  # perl5.36, python3.11, node20: perl's, python's, node's prints
    args = texts[1:]
    out: list = []
    if prog == "echo":
        out.append(" ".join(t for t in args if not re.fullmatch(r"-[neE]+", t)).replace("\\n", "\n"))
    elif prog == "printf" and args:
        values = iter(args[1:])
        out.append(re.sub(r"%[-\d.]*[sdb]", lambda m: next(values, _LINE), args[0]).replace("\\n", "\n"))
    elif prog in _AWKS:
        program = _program(args)
        out += [_awk_joined(m.group(1)) for m in _AWK_PRINT.finditer(program) if '"' in m.group(1)]
    elif prog in ("sed", "gsed", "perl", "ruby") and (prog in ("sed", "gsed") or any(t.startswith("-") and "p" in t
                                                                                     for t in args)):
        for m in re.finditer(r"\bs(.)(.*?)\1(.*?)\1", _program(args, ("-e", "-f", "-i"))):
            pattern, repl = m.group(2), re.sub(r"&|\\\d|\$\d|\$&", _LINE, m.group(3))
            out.append(repl + _LINE if pattern == "^" else _LINE + repl if pattern == "$" else repl)
    if prog in ("perl", "ruby", "python", "python3", "node"):
        out += [re.sub(r"\$_|\$\w+|#\{[^}]*\}|\$\{[^}]*\}", _LINE, m.group(1))
                for m in re.finditer(r"\b(?:print|puts|say|printf|console\.log)\s*\(?\s*[\"'`]([^\"'`]+)",
                                     " ".join(args))]
    elif prog in ("jq", "gojq", "jaq", "yq"):
        program = _program(args, ("--arg", "--argjson", "-f"))
        out += [re.sub(r"\\\([^)]*\)", _LINE, m.group(1)) + (_LINE if m.group(2) else "")
                for m in re.finditer(_DQ + r"(\s*\+)?", program)]
    elif prog == "xargs" and "echo" in args:
        rest = args[args.index("echo") + 1:]
        placed = any("{}" in t for t in rest)
        out.append(" ".join(_LINE if "{}" in t else t for t in rest) + ("" if placed else " " + _LINE))
    return [t for t in out if t.strip()][:_MAX_TEMPLATES]


def _reads_pipe(c: Ctx) -> bool:
    """Is this shell reading its commands from the pipe (no ``-c``, no script file)?"""
    for t in c.texts:
        if t == "-s" or t == "-":
            return True
        if t.startswith("-") and not t.startswith("--") and "c" in t[1:]:
            return False
        if not t.startswith("-"):
            return False  # a script file
    return True


def _judged(c: Ctx, lines: list, maker: str) -> Optional[tuple]:
    best = None
    for line in lines:
        found = c.recurse(line)
        if found is not None and found[0] > MEDIUM and _LINE in line:  # high only for what the template names
            named = c.recurse(line.replace(_LINE, "name"))
            found = found if named is not None and named[0] > MEDIUM else (MEDIUM, found[1])
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, (found[0], f"{found[1]}, a command {maker} writes and {c.prog} runs"))
    return best


def rule_fed_shell(c: Ctx) -> Optional[tuple]:
    """A shell running the lines a text tool or ``echo`` writes on the pipe."""
    if not c.chain or not _reads_pipe(c):
        return None
    feeder = c.chain[-1].words
    if not feeder:
        return None
    return _judged(c, templates(feeder), feeder[0].text.rsplit("/", 1)[-1])


_AWK_ASSIGN = lazy(r"\b(\w+)\s*=\s*((?:\s*(?:" + _DQ + r"|\$?\w+(?!\w)))+)\s*(?:;|\n|\})")
_AWK_RUNS = lazy(r"(?:\bsystem\s*\(\s*(\w+)\s*\)|(?:^|[;{\s(])(" + _DQ + r"|\w+)\s*\|\s*getline\b|"
                 r"\|\s*(" + _DQ + r"|\w+)\s*(?:[;}\n]|$))")
_SHELL_NAME = lazy(r"^(?:/bin/|/usr/bin/)?(?:ba|z|da|k)?sh(?:\s+-\w+)*$")


def rule_awk_hands_to_shell(c: Ctx) -> Optional[tuple]:
    """awk's ``print … | "sh"``, ``"cmd" | getline`` and ``system(cmd)`` with ``cmd`` assigned a string."""
    program = _program(c.texts)
    if "|" not in program and "system" not in program and "unlink" not in program:
        return None
    assigned = {m.group(1): _awk_joined(m.group(2)) for m in _AWK_ASSIGN.finditer(program) if '"' in m.group(2)}
    lines = []
    for m in _AWK_RUNS.finditer(program):
        name = m.group(1) or m.group(2) or m.group(4)
        literal = m.group(3) if m.group(3) is not None else m.group(5)
        command = literal if literal is not None else assigned.get(name or "")
        if command is None:
            continue
        if m.group(4) is not None or m.group(5) is not None:  # `print … | "sh"`: what is printed is run
            if _SHELL_NAME.match(command):
                lines += [_awk_joined(p.group(1)) for p in _AWK_PRINT.finditer(program) if '"' in p.group(1)] or \
                    ["sh -c \"$LINE\""]
            continue
        lines.append(command)
    found = _judged(c, lines[:_MAX_TEMPLATES], "awk")
    for level, what, t in file_effects(program[:4000]):  # gawk's filefuncs: `unlink("/etc/hosts")`
        if level >= MEDIUM:
            found = worst(found, (level, f"awk code {what} {describe(t)}"))
    return found


RULES: dict = {**{p: [rule_fed_shell] for p in SHELLS}, **{p: [rule_awk_hands_to_shell] for p in _AWKS}}
