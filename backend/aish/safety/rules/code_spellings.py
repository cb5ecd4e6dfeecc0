"""Code's own spellings of a shell-out, a delete or a shell escape, in any language (read by ``code_calls``).

``code_calls`` and ``host_code`` name the calls they know; languages name theirs with the same few words in their
own case and joins (Fortran's ``execute_command_line``, Pascal's ``ExecuteProcess``, Magma's ``System``,
ClickHouse's ``executable(…)``, Ada's ``Delete_File``, Lean's ``IO.FS.removeDirAll``, Smalltalk's
``deleteDirectory:``).  A call's name is split into its words (camelCase, snake_case, after the last dot) and read:

- a name with a word that runs a command (system, exec, execute, executable, shell, spawn, popen, command, cmd,
  process, run): its strings are judged as the shell command they make (the first alone, and all joined);
- a name made of a delete verb (delete, remove, rm, unlink, erase, rmdir, rmtree, destroy, wipe) and words for
  what it deletes (file, dir, directory, tree, all, recursive, force…): its path, judged as a delete of that path,
  recursive when the name or the call says so; also a path followed by such a call (``'/x' asFileReference
  deleteAll``, ``FilePath(auth, "/srv/data").remove()``);
- a line that escapes to the shell in a host's own way: ``!cmd``, ``!!cmd``, ``:!cmd``, ``*cmd`` (BBC BASIC),
  ``.sy``/``.pso`` (troff), ``)system`` (FriCAS), ``host``, ``shell``, ``system``; ``+!cmd`` given to a pager;
- an XML element that runs a program (``<exec program="rm" commandline="-rf /srv/app"/>``): its values joined;
- code that evaluates what it fetched (``fetch(URL).then(r => r.text()).then(eval)``).

Bodies given through a process substitution (``instantfpc <(echo '…')``) are read as code too.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, describe, target, worst
from aish.safety.rules.delete import delete_level
from aish.safety.shell_words import Word, segments
from aish.safety.lazy_regex import lazy

_LIMIT = 4000
_PER_KIND = 6
_STR = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`\n]*`)"""
_STRING = lazy(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`([^`\n]*)`")
# A call with strings: `name("…", …)`, `name "…"`, `name: '…'`, `name ["…"]`, `remove.all(os.Path("/x"))`.
_CALL = LazyRegex(r"(?<![\w$-])(?P<owner>(?:[A-Za-z_][\w-]*(?:\.|::|->|:)){0,4})(?P<name>[A-Za-z_][\w-]*)[!*]?\s*"
                  r"(?:\(\s*(?:\d+\s*,\s*)?(?:(?P<inner>[A-Za-z_][\w.]*)\(\s*)?|:\s+|\s+|\[\s*)(?:[\[⟨{]\s*)?"
                  r"(?P<strings>" + _STR + r"(?:\s*[,+&~.]?\s*(?:\[\s*)?" + _STR + r"){0,7})")
# A function handed to another by its name: the call is that function's (`call_user_func('system', …)`).
_CALLBACKS = {"system": "system", "exec": "exec", "shell_exec": "exec", "passthru": "exec", "popen": "popen",
              "unlink": "unlink", "rmdir": "rmdir"}
_WORD = lazy(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_RUN_WORDS = frozenset({"system", "exec", "execute", "executable", "shell", "spawn", "popen", "command", "cmd",
                        "process", "run", "sh", "host"})  # SNOBOL's `HOST(1,'cmd')`
_DELETE_VERBS = frozenset({"delete", "remove", "rm", "unlink", "erase", "rmdir", "rmtree", "rmrf", "destroy", "wipe",
                           "del", "recycle"})
_DELETE_OBJECTS = frozenset({"file", "files", "dir", "dirs", "directory", "directories", "folder", "folders", "tree",
                             "all", "recursive", "recursively", "r", "rf", "f", "force", "forced", "path", "item",
                             "items", "contents", "everything", "sync", "async", "entry", "at", "if", "exists", "now",
                             "io", "fs", "or", "and", "reg", "registry", "key"})
_RECURSIVE_WORDS = frozenset({"tree", "all", "recursive", "recursively", "r", "rf", "dir", "dirs", "directory",
                              "directories", "folder", "folders", "contents", "everything", "rmtree", "rmrf"})
_RECURSIVE_ARGS = lazy(r"recursive\s*[:=]+\s*(?:true|T\b)|,\s*true\b|['\"]rf['\"]|force\s*[:=]+\s*true|"
                       r":recursive\s+t\b",
                       re.IGNORECASE)
# A path string, then up to three calls on it (`'/x' asFileReference deleteAll`, `Path("/x")).unlink()`).
_PATH_THEN_CALLS = LazyRegex(r"(['\"])([/~][^'\"\n]{0,200})\1\s*\)*"
                             r"((?:(?:\s*\.\s*|\s+)[A-Za-z_][\w-]*(?:\s*\(\s*\))?\)*){1,3})")
_IDENT = lazy(r"[A-Za-z_][\w-]*")
_ESCAPE_LINE = LazyRegex(r"(?m)^[ \t]*(?:[:.)]?[ \t]*(?:!!?|\\!?(?=[a-z])|"
                         r"(?:platform[ \t]+)?(?:shell|system|sh|sy|pso|host|run)\b)|\*(?=[a-z]))[ \t]*([^;\n]+)")
# Escapes inside a line: an editor's `%sh{…}` expansion, SQL's `COPY … FROM PROGRAM '…'`.
_INLINE_ESCAPE = LazyRegex(r"%sh\{([^{}]*)\}|\bPROGRAM\s+'((?:[^']|'')*)'", re.IGNORECASE)
_XML_RUN = LazyRegex(r"<(?P<tag>[\w:.-]+)(?P<attrs>(?:\s+[\w:.-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))+)\s*/?>")
_ATTR = lazy(r"([\w:.-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_RUN_ATTRS = frozenset({"program", "executable", "command", "commandline", "cmd", "exec", "args", "arguments",
                        "arg", "line", "value"})
_EVALS_FETCHED = LazyRegex(r"(?:\b(?:eval|exec|iex|Invoke-Expression|loadstring|instance_eval|evaluate|eval[-_]?string|"
                           r"load[-_]string|include)\b|(?<![.\w])load\s*\()"
                           r"[^;\n]{0,160}?https?://|https?://[^;\n]{0,160}?\b(?:then\(\s*eval|eval|exec|iex)\b",
                           re.IGNORECASE)


def words_of(name: str) -> list:
    """A call's name as lowercase words (``execute_command_line`` -> execute command line, ``removeDirAll``)."""
    return [w.lower() for part in re.split(r"[_-]", name) for w in _WORD.findall(part)]


def _strings(text: str) -> list:
    return [next(g for g in m.groups() if g is not None) for m in _STRING.finditer(text)][:8]


def _is_delete(words: list) -> bool:
    return bool(words) and (words[0] in _DELETE_VERBS or len(words) > 1 and words[1] in _DELETE_VERBS and
                            words[0] in _DELETE_OBJECTS) and all(w in _DELETE_OBJECTS | _DELETE_VERBS for w in words)


def substituted_code(args: list) -> list:
    """Code written inline into a process substitution given as a file (``instantfpc <(echo '…')``)."""
    out = []
    for w in args[:32]:
        if not w.raw.startswith("<(") or not w.subs:
            continue
        segs = segments(w.subs[0])
        if segs and segs[0].words and segs[0].words[0].text in ("echo", "printf"):
            text = " ".join(x.text for x in segs[0].words[1:] if not re.fullmatch(r"-[neE]+", x.text))
            out.append(text.replace("\\n", "\n")[:_LIMIT])
    return out[:2]


def escape_lines(text: str) -> list:
    """The commands a host's own shell escapes run, one per line or statement (``!rm …``, ``.sy rm …``)."""
    if not any(ch in text for ch in "!*\\") and not re.search(r"shell|system|\bsh\b|\.sy|\.pso|host|run|PROGRAM",
                                                          text, re.IGNORECASE):
        return []
    found = [m.group(1).strip() for m in list(_ESCAPE_LINE.finditer(text[:_LIMIT]))[:_PER_KIND]]
    return found + [(m.group(1) or m.group(2) or "").replace("''", "'").strip()
                    for m in list(_INLINE_ESCAPE.finditer(text[:_LIMIT]))[:_PER_KIND]]


def judge(prog: str, code: str, recurse: Callable[[str], Optional[tuple]], shown: str) -> Optional[tuple]:
    """The worst of what the code's calls in any spelling run or delete (see the module's docstring)."""
    best: Optional[tuple] = None
    for m in list(_CALL.finditer(code))[:24]:
        words = words_of(m.group("name"))
        owner = re.split(r"\.|::|->|:", m.group("owner").rstrip(".:->"))[-1] if m.group("owner") else ""
        if owner and set(words) <= _DELETE_OBJECTS and _DELETE_VERBS.intersection(words_of(owner)):
            words = words_of(owner) + words  # `os.remove.all(…)`: the verb is the owner's name
        parts = _strings(m.group("strings"))
        if not parts:
            continue
        inner = words_of(m.group("inner").rsplit(".", 1)[-1]) if m.group("inner") else []
        if len(parts) > 1 and parts[0].lower() in _CALLBACKS:  # `php:function('system', 'rm …')`
            words, parts = [_CALLBACKS[parts[0].lower()]], parts[1:]
        if _RUN_WORDS.intersection(words + inner):
            for command in dict.fromkeys((parts[0], " ".join(parts))):  # in order: a set's order is the hash seed's
                found = recurse(command.replace("\\'", "'").replace('\\"', '"')) if command.strip() else None
                if found is not None and found[0] >= MEDIUM:
                    best = worst(best, (found[0], f"{found[1]}, run by {prog} code"))
        elif _is_delete(words) and parts[0].upper().startswith("HK"):  # AutoIt's `RegDelete('HKEY_…\\Vendor')`
            best = worst(best, (MEDIUM, f"{prog} code deletes the registry key {parts[0][:60]} ({shown})"))
        elif _is_delete(words):
            rest = code[m.end("strings"):m.end("strings") + 80]
            recursive = bool(_RECURSIVE_WORDS.intersection(words)) or bool(_RECURSIVE_ARGS.search(rest))
            best = worst(best, _deleted(prog, parts[0], recursive, shown))
        if best is not None and best[0] == HIGH:
            return best
    for m in list(_PATH_THEN_CALLS.finditer(code))[:_PER_KIND]:
        names = [words_of(n) for n in _IDENT.findall(m.group(3))]
        deletes = [w for w in names if _is_delete(w)]
        if deletes:  # `Directory("/srv/app").deleteSync(recursive: true)`: the arguments may say recursive
            recursive = any(_RECURSIVE_WORDS.intersection(w) for w in deletes) or \
                bool(_RECURSIVE_ARGS.search(code[m.end():m.end() + 80]))
            best = worst(best, _deleted(prog, m.group(2), recursive, shown))
    best = worst(best, _host_words(prog, code, recurse, shown))
    for command in escape_lines(code):
        found = recurse(command)
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, (found[0], f"{found[1]}, a shell escape run by {prog}"))
    if "<" in code:
        best = worst(best, _xml(prog, code, recurse, shown))
    if "://" in code and _EVALS_FETCHED.search(code):
        best = worst(best, (HIGH, f"{prog} code runs code fetched from the network ({shown})"))
    return best


# J's foreign conjunctions: `2!:0 'cmd'` runs a command, `1!:55 <'path'` erases a file.
_J_FOREIGN = LazyRegex(r"\b2!:0\s*'([^'\n]+)'|\b1!:55\s*<\s*'([^'\n]+)'")
# A command statement with unquoted arguments (AutoHotkey's `FileRemoveDir, C:\x, 1`).
_COMMAND_STATEMENT = LazyRegex(r"(?m)^[ \t]*([A-Z][A-Za-z]+)[ \t]*,[ \t]*([^,\n]+?)[ \t]*(?:,[ \t]*(\d+))?[ \t]*$")
# A statement that is a quoted string alone: REXX hands it to the environment as a command (`'rm -rf ~/x'`).
_STRING_STATEMENT = LazyRegex(r"(?m)^[ \t]*(?:'([^'\n]+)'|\"([^\"\n]+)\")[ \t]*;?[ \t]*$")


def _host_words(prog: str, code: str, recurse: Callable[[str], Optional[tuple]], shown: str) -> Optional[tuple]:
    """Hosts' own spellings without a call's parentheses: J's foreigns, a command statement whose name is a delete
    (noun then verb as well: ``FileRemoveDir, C:\\x, 1``), a quoted command line as a statement (REXX)."""
    best: Optional[tuple] = None
    if "!:" in code:
        for m in list(_J_FOREIGN.finditer(code))[:_PER_KIND]:
            found = recurse(m.group(1)) if m.group(1) else _deleted(prog, m.group(2), False, shown)
            if found is not None and found[0] >= MEDIUM:
                best = worst(best, found if m.group(2) else (found[0], f"{found[1]}, run by {prog} code"))
    for m in list(_COMMAND_STATEMENT.finditer(code[:_LIMIT]))[:_PER_KIND]:
        words = words_of(m.group(1))
        if _is_delete(words):
            recursive = bool(_RECURSIVE_WORDS.intersection(words)) or m.group(3) == "1"
            best = worst(best, _deleted(prog, m.group(2).strip("'\""), recursive, shown))
    for m in list(_STRING_STATEMENT.finditer(code[:_LIMIT]))[:_PER_KIND]:
        command = m.group(1) or m.group(2)
        found = recurse(command) if " " in command else None
        if found is not None and found[0] >= MEDIUM:
            best = worst(best, (found[0], f"{found[1]}, a command line run by {prog}"))
    return best


def _xml(prog: str, code: str, recurse: Callable[[str], Optional[tuple]], shown: str) -> Optional[tuple]:
    """An XML element that runs a program (its values and its ``<arg>`` children's, joined) or deletes a path
    (``<delete dir="/srv/app"/>``)."""
    best: Optional[tuple] = None
    for m in list(_XML_RUN.finditer(code))[:_PER_KIND]:
        attrs = [(a.group(1).lower(), a.group(2) if a.group(2) is not None else a.group(3))
                 for a in _ATTR.finditer(m.group("attrs"))]
        tag = words_of(m.group("tag").rsplit(":", 1)[-1])
        if _RUN_WORDS.intersection(tag) and any(n in _RUN_ATTRS for n, _ in attrs):
            end = code.find("</" + m.group("tag"), m.end())
            children = [a.group(2) if a.group(2) is not None else a.group(3) for a in _ATTR.finditer(
                code[m.end():end if end > 0 else m.end()][:600]) if a.group(1).lower() in _RUN_ATTRS]
            found = recurse(" ".join([v for n, v in attrs if n in _RUN_ATTRS] + children))
            if found is not None and found[0] >= MEDIUM:
                best = worst(best, (found[0], f"{found[1]}, run by {prog}"))
        elif _is_delete(tag):
            for name, value in attrs:
                if name in ("dir", "file", "path", "todir", "name"):
                    best = worst(best, _deleted(prog, value, name in ("dir", "todir") or
                                                bool(_RECURSIVE_WORDS.intersection(tag)), shown))
    return best


def _deleted(prog: str, path: str, recursive: bool, shown: str) -> Optional[tuple]:
    if not path.startswith(("/", "~", "$HOME")) and not re.match(r"[A-Za-z]:\\", path):  # `C:\Users\me`
        return None
    t = target(Word(path, path, has_var="$" in path))
    level = delete_level(t, recursive)
    return (level, f"{prog} code deletes {describe(t)} ({shown})") if level is not None and level >= MEDIUM else None
