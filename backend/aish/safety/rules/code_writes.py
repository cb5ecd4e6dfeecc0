"""What a write MEANS when code does it, whatever the language (read by ``interp``, ``code_calls`` and awk's rule).

``meaning`` knows what a line appended to sudoers, sshd or PAM configuration, ``/etc/hosts``,
``limits.conf``, ``ld.so.preload``, a crontab or a start-up file does, when a shell redirect or ``tee``
puts it there.  Code puts the same lines there with its own calls, in every language an interpreter
runs (under any of its versioned names, from ``-e``, a here-string, a heredoc or a pipe):

- a file opened to append or write: ``open(P, "a")``, ``io.open(P,"a")``, ``fopen(P,'a')``,
  ``File.open(P,"a")``, Tcl's ``[open P a]``, perl's ``open(F, ">>P")`` and ``open(F, ">>", P)``,
  ``open-file P "a"``, ``(with-open-file (s P :direction :output :if-exists :append))``,
  ``new FileWriter(P, true)``;
- a call that appends or writes by its name or its options: ``appendFileSync(P, …)``,
  ``file_put_contents(P, …, FILE_APPEND)``, ``File.write(P, s, mode: "a")``, ``File.write!(P, s, [:append])``,
  ``cat(…, file=P, append=TRUE)``, ``(spit P s :append true)``, ``new File(P) << s``, ``.append(…)``;
- awk's ``print … >> "P"``, Emacs Lisp's ``(write-region S nil P t)``;
- SQL that writes a file on the server: ``COPY (SELECT '…') TO 'P'``, ``SELECT '…' INTO OUTFILE 'P'``.

Each path the code writes is judged by ``meaning`` with the text of the code's strings: appended, a file's
default meaning counts as for ``>>`` (a bad line in sudoers breaks sudo); written over, what the text says and
what the file's loss costs, as for ``>`` (awk's ``print … > "/etc/ld.so.preload"``).  Reads of the same files
(``open("/etc/sudoers")``) name no mode and stay quiet.  Bounded: the first ``LIMIT`` characters, at most
``_PATHS`` paths.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, describe, target, worst
from aish.safety.rules.content import overwrite_level
from aish.safety.shell_words import Word

LIMIT = 8000
_PATHS = 8
# A path literal (quoted, or bare after Tcl's `open`); home as `~`.
_PATH = lazy(r"""(["'])(?P<mode>\+?>>?\s*)?(?P<quoted>(?:/|~/)[\w.@%+/-]+)\1|"""
             r"""\bopen\s+(?P<bare>(?:/|~/)[\w.@%+/-]+)(?=\s)""")
# In the call or statement that names the path (the path itself is \x00): it is appended to...
_APPENDS = lazy(r"""["']a\+?b?["']|["']\s*>>|>>\s*\x00|(?<![\w$])append\w*|APPEND|\x00\s*a\s*\]|"""
                r"""\bAdd-Content\b|Writer\s*\(\s*\x00\s*,\s*true\b|\x00\s*\)?\s*<<|write-region\b[^\x00]*\x00\s*t\b""",
                re.IGNORECASE)
# ...or written over.
_WRITES = lazy(r"""["'](?:w|wb|w\+|wt|r\+|>|\+>)["']|["']\s*>(?!>)|>\s*\x00|(?<![\w$])(?:write\w*|\w*put_contents|"""
               r"""spit|spurt|save\w*)\s*[(!\s]|\.text\s*=(?!=)|:output\b|output-to-file|Set-Content|Out-File|\x00\s*w\s*\]|write-region\b|"""
               r"""\bTO\s*\x00|\bINTO\s+(?:OUTFILE|DUMPFILE)\s*\x00""",
               re.IGNORECASE)
# Calls that only spell a path (`expand_path("~/x")`, `os.path.join("/etc", "x")`, `Paths.get("/etc/x")`).
_PATH_WRAPPER = lazy(r"(?:expand_?path|expanduser|join|Path|Paths\.get|resolve|normalize|realpath|abspath|file)\($",
                     re.IGNORECASE)
_LITERAL = lazy(r"""(["'])((?:(?!\1)[^\\]|\\.){1,400})\1""")
# A home expression joined to the literal that follows it (`homedir() + "…"`, `getenv("HOME").."…"`, `Dir.home + "…"`).
_JOINED_TO_HOME = lazy(r"""(?:homedir\(\)|\bDir\.home|getenv\(\s*["']HOME["']\s*\)|environ\[\s*["']HOME["']\s*\]|"""
                       r"""process\.env\.HOME|\$ENV\{\s*HOME\s*\}|expanduser\(\s*["']~["']\s*\)|Path\.home\(\)|"""
                       r"""\$_SERVER\[\s*["']HOME["']\s*\]|user\.home["']\s*\))\s*(?:\+|\.\.?|,|<>|\*)\s*$""")
_OPENERS, _CLOSERS = "([{", ")]}"


def _call_around(code: str, start: int, end: int) -> tuple:
    """The call (or bracketed expression) a path literal at ``code[start:end]`` is given to: from the name before
    its innermost open bracket to its close, and what follows that close on the same statement when it writes
    (``new File(P) << s``, ``File(P).append(s)``); without a bracket, the statement."""
    depth, k, floor = 0, start - 1, max(0, start - 200)
    while k >= floor:
        ch = code[k]
        if ch in _CLOSERS:
            depth += 1
        elif ch in _OPENERS:
            if depth == 0:
                break
            depth -= 1
        elif ch in ";\n" and depth == 0:
            break
        k -= 1
    opened = k >= floor and code[k] in _OPENERS
    head = k
    while head > 0 and (code[head - 1].isalnum() or code[head - 1] in "_.:$!-"):
        head -= 1
    left = code[head:start] if opened else code[k + 1:start]
    depth, k, ceiling = 0, end, min(len(code), end + 300)
    while k < ceiling:
        ch = code[k]
        if ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            if depth == 0 and opened:
                break
            depth -= 1
        elif ch in ";\n" and depth <= 0:
            break
        k += 1
    right = code[end:k + 1]
    after = re.match(r"\s*(?:<<|\.\s*(?:append|write\w*|text\s*=))[^;\n]{0,200}", code[k + 1:k + 260]) if opened \
        else None
    return left, right + (after.group(0) if after else "")


def _mode(code: str, start: int, end: int, mode: str) -> Optional[bool]:
    """Appended (True), written over (False) or neither (None): the path's call, or the call it is given to
    when the first only spells the path (``File.open(File.expand_path("~/.bashrc"), "a")``)."""
    if ">>" in mode:
        return True
    for _ in range(2):
        left, right = _call_around(code, start, end)
        region = left + "\x00" + right
        if _APPENDS.search(region):
            return True
        if mode or _WRITES.search(region):
            return False
        if not _PATH_WRAPPER.search(left):
            return None
        start, end = start - len(left), end + len(right)
    return None


def writes(code: str) -> list:
    """``[(path, appended?)]`` for every path the code opens or hands to a call that appends or writes."""
    code = code[:LIMIT]
    out: list = []
    for m in _PATH.finditer(code):
        path, mode = m.group("quoted") or m.group("bare"), m.group("mode") or ""
        if path.startswith("/") and _JOINED_TO_HOME.search(code, max(0, m.start() - 80), m.start()):
            path = "~" + path  # `os.homedir() + "/.ssh/config"`, `os.getenv("HOME").."/.profile"`
        appended = _mode(code, m.start(), m.end(), mode)
        if appended is not None:
            out.append((path, appended))
        if len(out) >= _PATHS:
            break
    return out


def text_written(code: str) -> str:
    """The code's strings (escapes written out), the text its writes can put in a file; the code itself
    when it has none."""
    literals = [m.group(2) for m in _LITERAL.finditer(code[:LIMIT])]
    text = "\n".join(literals) if literals else code[:LIMIT]
    return text.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"').replace("\\'", "'")


def _written_over(code: str, path: str) -> bool:
    """The code redirects output over the path (awk's ``print … > "P"``) or writes a region over it (Emacs Lisp's
    ``write-region`` with no append flag): a write by mode, not a call that may print the path as text."""
    quoted = r"""["']""" + re.escape(path) + r"""["']"""
    return bool(re.search(r"(?<![>\w])>\s*" + quoted, code) or
                re.search(r"\(write-region\b[^()]*" + quoted + r"\s*\)", code))


def judge(code: str, recurse: Callable[[str], Optional[tuple]], who: str) -> Optional[tuple]:
    """What the code's writes mean where they land, as ``meaning`` reads a redirect's."""
    if "/" not in code:
        return None
    found = writes(code)
    if not found:
        return None
    from aish.safety.rules.meaning import written_meaning  # meaning reads writers, which read code: read late
    text = text_written(code)
    best = None
    for path, appended in found:
        meant = written_meaning(path, appended, text, recurse)
        if meant is not None:
            best = worst(best, (meant[0], f"{meant[1]}, written by {who} code"))
        if appended is False and _written_over(code, path):  # what it held is gone whatever the text says
            t = target(Word(path, path))
            level = overwrite_level(t)
            if level is not None and level >= MEDIUM:
                best = worst(best, (level, f"{who} code overwrites {describe(t)}"))
    return best
