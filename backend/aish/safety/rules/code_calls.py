"""Effect: what a body of code does, for any program given one, whatever its language.

``interp`` knows how each interpreter takes its code; users hand code to many more programs (ROOT's
``-e``, ``wolframscript -code``, ``idl -e``, ``rebol --do``, ``mlr put``, a database console's
script, a configuration tool's ``apply -e``).  Every quoted argument that reads as code (a call
with a string, a resource block) is read with catalogues that do not depend on the language:

- calls that hand a string to a shell, by name in any language (``system``, ``exec``, ``Exec``,
  ``execute``, ``shell``, ``popen``, ``spawn…``, ``run-program``, ``execShellCmd``, ``call``,
  ``os/execute``…): their strings, joined, are judged as the command they are;
- calls that delete a path (``code_effects``' catalogue, with ``DeleteDirectory[…]``, ``file_delete,
  '…'``, ``removedir('…')``, ``(remove-directory* "…")`` spelled by other languages), judged on the path;
- SQL that drops, truncates or deletes everything, after any statement before it (``PRAGMA key='x';
  DROP TABLE secrets;``), and a graph or database object dropped (``JanusGraphFactory.drop(graph)``);
- configuration as code: a resource made absent or deleted (``ensure => absent``, ``action :delete``) on
  a system path, a security file's content (sudoers, shadow, authorized_keys) or a rule that lets
  everyone in without a password (``NOPASSWD: ALL``), an account given an empty password.

Arguments that are text for people (``-m``, ``--title``) and programs that print, search or store text
are not read; a body is read once, within its first characters, so the work stays linear.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules import code_clients, code_secret_sends, code_spellings, code_writes, host_code
from aish.safety.rules.code_effects import file_effects
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, fragment, target, worst
from aish.safety.rules.content import sql_finding
from aish.safety.rules.delete import delete_level
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_BODY_LIMIT = 4000  # characters of one body read
_BODIES = 4  # bodies read per command

# Does a quoted argument read as code: a call with a string (`f("x")`, `f["x"]`, `(f "x")`, `f, 'x'`), a
# `->`/`::` call, a resource block (`file '/x' do`, `file { '/x':`).
_CODE_SHAPE = LazyRegex(r"[\w>:.!*/-]\s*[(\[]\s*[\"'`\w]|\(\s*[\w.:/!*-]+\s+[\"'`(\[]|\b\w+\s*,\s*['\"]|"
                        r"\b\w+\s+['\"][^'\"]*['\"]\s+do\b|\b\w+\s*\{\s*['\"]|;\s*(?:DROP|TRUNCATE|DELETE)\b|"
                        r"\bcommands?[\"']?\s*[=:]\s*\[?\s*\\?[\"']|"
                        r"\b\w[\w-]*\s+\"[^\"\n]*\"\s+\"[^\"\n]*\"|"  # `call "rm" "-rf" …`: a call with no parentheses
                        r"\"[/~][^\"\n]*\"\s+[a-z][\w-]*-[a-z]",  # `"/var/cache/app" delete-tree`: a postfix word
                        re.IGNORECASE)
# Calls that hand their string(s) to a shell, by name in any language.
_EXEC_CALL = LazyRegex(
    r"(?<![\w-])(?:[\w$]+(?:\.|::|->|:|/))*(?P<name>system|exec|Exec|execute|Execute|shell|sh|popen|spawn\w*|"
    r"run-program|run-shell-command|runCommand|run_command|RunCommand|execShellCmd|execCmd|execProcess|startProcess|"
    r"shell_exec|ShellExecute|WinExec|passthru|proc_open|call|cmd|spawn_command_line_\w+|capture[23]?|"
    r"check_output|check_call|getoutput|getstatusoutput|ProcessBuilder|Process|command|system2|shell_command)"
    r"\s*(?:\(\s*|\[\s*|\s+|!\s*\(\s*)(?:\[\s*|list\s+|\(\s*list\s+)?(?P<strings>(?:(?:\"(?:[^\"\\]|\\.)*\"|"
    r"'(?:[^'\\]|\\.)*'|`[^`]*`)[\s,+&~.]*(?:\(\s*list\s+|\[\s*|\{:args\s*\[\s*|c\(\s*)?){1,12})")
# A command given as a value in a request or a configuration (`--parameters 'commands=["…"]'`, `"command": "…"`).
_COMMAND_VALUE = LazyRegex(r"""\b(?:commands?|cmd|script|scripts|shell|run)["']?\s*[=:]\s*\[?\s*(?:\\?")?"""
                           r"""(?P<strings>(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))""")
_STRING = lazy(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|`([^`]*)`")
# Delete calls of languages `code_effects` does not spell: (pattern capturing the path's text, recursive?).
_MORE_DELETES = (
    (LazyRegex(r"\bDeleteDirectory\s*\[\s*(\"[^\"]*\")(?P<rest>[^\]]*)\]"), "DeleteContents"),
    (LazyRegex(r"\bDeleteFile\s*\[\s*(\"[^\"]*\")"), None),
    (LazyRegex(r"\bfile_delete\s*,\s*('[^']*'|\"[^\"]*\")(?P<rest>[^\n;]*)", re.IGNORECASE), "/recursive"),
    (LazyRegex(r"\b(?:removedir|RemoveDir|removeDirectory|RemoveDirectory|deltree|DelTree)\s*\(\s*('[^']*'|\"[^\"]*\")"),
     ""),
    (LazyRegex(r"\(\s*remove-directory\*?\s+(\"[^\"]*\")"), ""),
    (LazyRegex(r"\bremoveDirectoryRecursive\s+(\"[^\"]*\")"), ""),
    (LazyRegex(r"\bSys\.remove\s+(\"[^\"]*\")"), None),
    (LazyRegex(r"\b(?:rmdir_all|rmdirAll|rm_all|removeItem|removeItemAtPath|remove_recursive|removeRecursive|"
               r"delete_recursive|deleteRecursive|remove_dir_recursive|RemoveAllFiles)\s*\(\s*(?:atPath:\s*|at:\s*)?"
               r"(\"[^\"]*\"|'[^']*')"), ""),
)
# SQL that destroys, anywhere a statement can start.
_SQL_START = LazyRegex(r"(?:^|;)\s*(?:DROP\s+\w+|TRUNCATE\b|DELETE\s+FROM\b)", re.IGNORECASE)
# A graph, a database or a store object dropped by a call (not a data frame's columns).
_OBJECT_DROP = LazyRegex(r"\b(?:\w*(?:Graph|graph|Factory|Database|database|Db|DB|db|Keyspace|keyspace|Schema|schema|"
                         r"Store|store|Index|Bucket|bucket|Collection|collection)\w*)\s*\.\s*(?:drop|dropAll|destroy|"
                         r"purge|wipe|clear|truncate|deleteAll|drop_all|delete_all)\s*\(")
# Configuration as code.
_ABSENT = LazyRegex(r"""(?:^|[\s;{])(\w+)\s*(?:\{\s*|\s)['"]([/~][^'"]*)['"]\s*(?::|do\b|,)(?P<body>.{0,300}?)"""
                    r"""(?:ensure\s*=>\s*['"]?absent|action\s*:?\s*:?(?:delete|remove|purge|destroy)|"""
                    r"""state\s*[:=]\s*['"]?absent)""", re.DOTALL)
_MODULE_ABSENT = LazyRegex(r"\b(?:path|dest|name|file)=['\"]?([/~][^\s'\"]*).{0,120}?\bstate=absent\b|"
                           r"\bstate=absent\b.{0,120}?\b(?:path|dest|name|file)=['\"]?([/~][^\s'\"]*)")
_SECURITY_FILE = LazyRegex(r"""['"](/etc/(?:sudoers(?:\.d/[^'"]*)?|shadow|passwd|gshadow|pam\.d/[^'"]*|"""
                           r"""ssh/sshd_config[^'"]*)|[^'"]*/\.ssh/authorized_keys)['"]""")
_OPENS = LazyRegex(r"NOPASSWD\s*:\s*ALL|PermitRootLogin\s+yes|PermitEmptyPasswords\s+yes|pam_permit\.so|"
                   r"password\s*(?:=>|\s)\s*(?:''|\"\")", re.IGNORECASE)
_EMPTY_PASSWORD = LazyRegex(r"""\buser\s*(?:\{\s*|\s)['"](\w+)['"].{0,200}?password\s*(?:=>|\s)\s*(?:''|"")""",
                            re.DOTALL)


def bodies(c: Ctx) -> list:
    """The quoted arguments that read as code (at most a few, each cut at its first characters)."""
    found = []
    for k, w in enumerate(c.args[:48]):
        t = w.text
        if not w.quoted and "=" not in t or len(t) < 6 or k and c.args[k - 1].text in _PROSE_OPTIONS:
            continue
        if t.startswith("-") and "=" in t and _OPTION_VALUE.match(t):  # `--eval=…`, `factor -e='…'`
            t = t.split("=", 1)[1]
        elif t.startswith("-") and " " in t and t[1:2].isalpha():  # PicoLisp's `-'call "rm" …'`: the rest is code
            t = t[1:]
        if _CODE_SHAPE.search(t[:_BODY_LIMIT]) or k and " " in t and (
                c.args[k - 1].text in _CODE_OPTIONS or c.args[k - 1].text in _EVAL_WORDS):  # `pharo x.image eval '…'`
            found.append(t[:_BODY_LIMIT])
            if len(found) >= _BODIES:
                break
    return found


_OPTION_VALUE = lazy(r"^--?[A-Za-z][\w-]*=")
# Options whose value is code, whatever it looks like (`rebol --do 'call "…"'`).
_CODE_OPTIONS = frozenset({"-e", "-c", "--eval", "--do", "-x", "--exec", "--execute", "-code", "--code", "--command",
                           "-command", "--run", "-r", "-batch", "--batch-string", "-js"})  # J's `-js` lines
_EVAL_WORDS = frozenset({"eval", "exec", "execute", "evaluate"})  # a subcommand whose operand is code
_PROSE_OPTIONS = frozenset({"-m", "--message", "--title", "--body", "--description", "--comment", "--subject",
                            "--note", "--notes", "--summary", "--reason", "--label", "--desc"})


def _quote(part: str) -> str:
    return part if re.fullmatch(r"[\w@%+=:,./~-]+", part) else "'" + part.replace("'", "'\\''") + "'"


def runs_fed_code(c: Ctx) -> bool:
    """A program told to run what it is fed (``go run /dev/stdin <<< '…'``), whatever else its words are."""
    return bool(c.seg.redirects or c.chain) and "run" in c.texts[:2] and \
        any(t in ("-", "/dev/stdin") for t in c.texts[1:4])


def rule_code_calls(c: Ctx) -> Optional[tuple]:
    """What the code given to any program does: shell-outs, deletes, SQL, drops, configuration resources."""
    fed = host_code.fed_body(c) if c.seg.redirects or c.chain else None  # `printf '…' | tcc -run -`
    best = host_code.rule_escapes(c, fed)  # `r2 -q -c '!rm -rf ~/x' -`, `echo ':! rm …' | ghci`
    substituted = code_spellings.substituted_code(c.args) if c.args else []  # `instantfpc <(echo '…')`
    for code in bodies(c) + ([fed] if fed else []) + host_code.tex_like(c) + substituted:
        best = worst(best, _judge(c, code))
        if best is not None and best[0] == HIGH:
            return best
    # `jdb -launch Main <<< '!!rm …'`: escapes in any feed
    if fed is None and (c.args or c.seg.redirects) and c.prog not in host_code.FILTERS:
        fed_lines = [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
        feeder = c.chain[-1].words if c.chain else []
        if feeder and feeder[0].text in ("echo", "printf"):  # `printf '.sy rm …\n' | mandoc -U`
            fed_lines.append(" ".join(w.text for w in feeder[1:]).replace("\\n", "\n"))
        escaped = [w.text[1:] for w in c.args[:16] if w.text.startswith("+") and len(w.text) > 2]  # `most +'!rm …'`
        for text in (fed_lines + escaped)[:4]:
            best = worst(best, _escaped(c, text))
    return best


def _escaped(c: Ctx, text: str) -> Optional[tuple]:
    best = None
    for command in code_spellings.escape_lines(text):
        found = c.recurse(command)
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, (found[0], f"{found[1]}, a shell escape run by {c.prog}"))
    return best


def _judge(c: Ctx, code: str) -> Optional[tuple]:
    shown = fragment([c.prog, code.replace("\n", " ")], 70)
    best = None
    for m in list(_EXEC_CALL.finditer(code))[:6] + list(_COMMAND_VALUE.finditer(code))[:3]:
        parts = [next(g for g in s.groups() if g is not None) for s in _STRING.finditer(m.group("strings"))]
        command = parts[0] if len(parts) == 1 else " ".join(_quote(p) for p in parts)
        found = c.recurse(command.replace("\\'", "'").replace('\\"', '"')) if command.strip() else None
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, (found[0], f"{found[1]}, run by {c.prog} code"))
    for pattern, recursive_word in _MORE_DELETES:
        for m in list(pattern.finditer(code))[:6]:
            path = m.group(1)[1:-1]
            rest = m.groupdict().get("rest") or ""
            recursive = recursive_word == "" or bool(recursive_word and recursive_word.lower() in rest.lower())
            t = target(Word(path, path))
            level = delete_level(t, recursive)
            if level is not None and level >= MEDIUM:
                best = worst(best, (level, f"{c.prog} code deletes {describe(t)} ({shown})"))
    for level, what, t in file_effects(code):
        if level >= MEDIUM:
            best = worst(best, (level, f"{c.prog} code {what} {describe(t)} ({shown})"))
    best = worst(best, code_writes.judge(code, c.recurse, c.prog))  # `new File("/etc/sudoers") << "…"`
    best = worst(best, code_secret_sends.judge(c.prog, code, shown))  # a command printing a token, sent
    if "dmin" in code or "deploy" in code or "delete" in code or "uninstall" in code:  # Jacl's `$AdminApp uninstall x`
        best = worst(best, code_clients.admin_removal(c.prog, code, shown))
    if _SQL_START.search(code):
        found = sql_finding(code, shown)
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, found)
    drop = _OBJECT_DROP.search(code)
    if drop is not None:
        best = worst(best, (HIGH, f"{c.prog} code drops a whole graph, database or store "
                                  f"({drop.group(0).rstrip('( ')}) ({shown})"))
    best = worst(best, code_spellings.judge(c.prog, code, c.recurse, shown))  # `execute_command_line("rm …")`
    best = worst(best, host_code.judge(c, code, shown))  # `$EXEC("…")`, `\\write18{…}`, a makefile's recipes
    return worst(best, _configuration(c, code, shown))


# A resource's words that write the file: ``content``, ``line`` (also inside a helper's name:
# Rex's ``append_if_no_such_line``, ``append_or_amend_line``), ``source``, ``ensure``, ``template``.
_WRITES_LINE = lazy(r"(?<![A-Za-z])(content|source|line|ensure|template|append)(?![A-Za-z])")


def _configuration(c: Ctx, code: str, shown: str) -> Optional[tuple]:
    """Configuration as code: a resource made absent, a security file written, everyone let in."""
    best = None
    m = _ABSENT.search(code)
    if m:
        path = m.group(2)
        t = target(Word(path, path))
        recursive = bool(re.search(r"recursive\s*(?:=>\s*)?true|force\s*=>\s*true|purge", code, re.IGNORECASE)) or \
            m.group(1) in ("directory", "dir")
        level = delete_level(t, recursive)
        if level is not None and level >= MEDIUM:
            best = (level, f"{c.prog} makes {describe(t)} absent: it is deleted ({shown})")
    module = _MODULE_ABSENT.search(code)
    if module:  # `file path=/etc state=absent`: an automation module's arguments
        path = module.group(1) or module.group(2)
        t = target(Word(path, path))
        level = delete_level(t, True)
        if level is not None and level >= MEDIUM:
            best = worst(best, (level, f"{c.prog} makes {describe(t)} absent: it is deleted ({shown})"))
    if _SECURITY_FILE.search(code) and _WRITES_LINE.search(code):
        best = worst(best, (HIGH if _OPENS.search(code) else MEDIUM,
                            f"{c.prog} writes a file that decides who gets in ({shown})"))
    elif _OPENS.search(code) and re.search(r"\b(content|line|file|user)\b", code):
        best = worst(best, (HIGH, f"{c.prog} lets everyone in without a password ({shown})"))
    empty = _EMPTY_PASSWORD.search(code)
    if empty:
        best = worst(best, (HIGH, f"{c.prog} gives the account {empty.group(1)} an empty password ({shown})"))
    return best
