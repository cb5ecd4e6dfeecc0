"""May this command run without the user?  Only when every part of it is known to be harmless.

The safety rules (``assess``) look for harm and stay quiet about what they do not know;
autorun needs the opposite, positive knowledge.  A line runs by itself only when it is
read exactly (no open quote, no history expansion, no construct the parser does not
model), every program in it is known to only read (``read_only``, per program in
``autorun_programs``), nothing in it reaches the network, no interpreter is handed code,
every substitution runs a harmless command whose output is of a known kind, every
variable is one whose value is known, and every redirection points at the terminal (or,
when writes are allowed, at a path under the task's directory).  Anything else waits,
and ``Judgement.reason`` says why in a few words ("sends data to the network (curl)").
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from typing import Callable

from aish.safety import autorun_programs as programs
from aish.safety.autorun_paths import Walk, absolute, inside_workdir, secret_read
from aish.safety.read_only import (DIRECTORY_CHANGERS, ENVIRONMENT, HARMLESS_ASSIGNMENT, HARMLESS_WRAPPERS,
                                   KNOWN_RESULTS, KNOWN_VARIABLES, LIST, NAMES, NETWORK, READERS, ROOT, ROOT_WRAPPERS,
                                   TERMINAL_TARGETS, TEXT, UNSAFE_OPTIONS)
from aish.safety.rules.common import fragment
from aish.safety.shell_input import CommandReader
from aish.safety.shell_words import Segment, segments, tokenize
from aish.safety.unwrap import ASSIGN, unwrap
from aish.safety.lazy_regex import lazy

MAX_CHARS = 2000  # a step longer than this is not read for autorun
_MAX_DEPTH = 3  # substitutions inside substitutions
_OPERATORS = {"&&", "||", ";", "|", "|&", "\n"}
_RESERVED = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac", "select",
             "function", "coproc", "[[", "]]", "{", "}", "!", "repeat", "foreach", "end"}
_STANDARD_BIN = {"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"}
_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Judgement:
    harmless: bool
    reason: str = ""  # why it waits: "sends data to the network (curl)"


def judge(command: str, cwd: str = "", workdir: str = "", writes: bool = False,
          realpath: Callable[[str], str] = os.path.realpath) -> Judgement:
    """Is ``command``, run in ``cwd``, known to be harmless?  ``writes``: it may also create
    files and directories under ``workdir`` (the task's directory)."""
    walk = Walk(base=cwd if cwd.startswith("/") else None, workdir=workdir, writes=writes, realpath=realpath)
    try:
        reason = _line(command, walk)
    except Exception:  # never run what could not be judged
        return Judgement(False, "could not be checked")
    return Judgement(not reason, reason)


def _line(command: str, walk: Walk) -> str:
    if not command.strip():
        return "nothing to run"
    if len(command) > MAX_CHARS:
        return "too long to check"
    why = exactness(command)
    if why:
        return why
    position = True
    for token in tokenize(command):
        if token.kind == "op":
            if token.value not in _OPERATORS:
                return {"&": "runs in the background"}.get(token.value, f"uses shell grouping ({token.value})")
            position = True
        elif token.kind == "word":
            word = token.value
            if position and not word.quoted and word.text in _RESERVED:
                return f"uses shell control flow ({word.text})"
            position = position and bool(ASSIGN.match(word.raw))
    for seg in segments(command):
        why = _segment(seg, walk)
        if why:
            return why
    return ""


def exactness(command: str) -> str:
    """Why the shells could read ``command`` otherwise than the parser does, or ``""``.

    The parser is forgiving (an open quote runs to the end of the line); autorun is not:
    an unfinished line, history expansion (``!``, ``^old^new``), comments (zsh reads ``#``
    literally unless told otherwise), brace expansion, ``$'…'`` escapes and arithmetic are
    refused rather than modelled."""
    if any((ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f for c in command):  # C0, DEL, C1
        return "holds control characters"
    reader = CommandReader()
    for line in command.split("\n"):
        reader.feed(line)
    if not reader.complete:
        return "could not be read exactly (an open quote or an unfinished line)"
    if command.lstrip().startswith("^"):
        return "uses history substitution (^)"
    return _scan(command)


def _scan(s: str) -> str:
    """Quote-aware pass over the text: what each expansion is, wherever it is."""
    stack = ["code"]
    i, n = 0, len(s)
    word_start = True
    while i < n:
        c, top = s[i], stack[-1]
        if top == "dq":
            if c == "\\":
                i += 2
                continue
            if c == '"':
                stack.pop()
                i += 1
                continue
        else:
            if c == "\\":
                i, word_start = i + 2, False
                continue
            if c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    return "could not be read exactly (an open quote)"
                i, word_start = j + 1, False
                continue
            if s.startswith("$'", i):
                return "uses $'…' quoting"
            if c == '"':
                stack.append("dq")
                i, word_start = i + 1, False
                continue
            if c == "#" and word_start:
                return "has a comment (the shells read # differently)"
            if c == "{" and _brace_expansion(s, i):
                return "uses brace expansion"
            if c in "<>=" and s.startswith("(", i + 1):
                return "uses process substitution"
            if c == "(":
                stack.append("(")
            elif c == ")" and len(stack) > 1:
                stack.pop()
            word_start = c in " \t\n;&|()<>"
        if c == "`":
            if top == "`":
                stack.pop()
            else:
                stack.append("`")
        elif c == "!":
            return "uses history expansion (!)"
        elif c == "$":
            why, i = _dollar(s, i, stack)
            if why:
                return why
            continue
        i += 1
    return ""


def _brace_expansion(s: str, i: int) -> bool:
    """``{a,b}`` or ``{1..9}`` from ``i``, up to the end of the word."""
    depth = 0
    for k in range(i, len(s)):
        c = s[k]
        if c in " \t\n;&|<>()'\"":
            return False
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth == 0:
            inner = s[i + 1:k]
            return "," in inner or ".." in inner
    return False


def _dollar(s: str, i: int, stack: list) -> tuple:
    """(why a ``$`` expansion at ``i`` is unknown or ``""``, where scanning goes on)."""
    rest = s[i + 1:i + 3]
    if rest.startswith(("((", "[")):
        return "uses arithmetic expansion", i
    if rest.startswith("("):
        stack.append("(")
        return "", i + 2
    if rest.startswith("{"):
        end = s.find("}", i)
        inner = s[i + 2:end] if end > 0 else ""
        if inner in KNOWN_VARIABLES:
            return "", end + 1
        return f"uses ${{{fragment([inner], 20)}}}, whose value is not known", i
    m = _NAME.match(s, i + 1)
    if m:
        name = m.group()
        return ("", m.end()) if name in KNOWN_VARIABLES else (f"uses ${name}, whose value is not known", i)
    nxt = s[i + 1:i + 2]
    if nxt in KNOWN_VARIABLES:
        return "", i + 2
    if nxt and nxt in "@*!-123456789=~^+":
        return f"uses ${nxt}, whose value is not known", i
    return "", i + 1  # a lone $ is itself


def _segment(seg: Segment, walk: Walk) -> str:
    if not seg.words:
        return "a redirection with no command"
    for red in seg.redirects:
        why = _redirect(red, walk)
        if why:
            return why
    for word in seg.words:
        for body in word.subs:
            why = _substitution(body, walk)
            if why:
                return why
    assigned = [w for w in seg.words if ASSIGN.match(w.raw)]
    if len(assigned) == len(seg.words):
        return "sets a shell variable"
    words, _sudo, xargs = unwrap(seg.words)
    if not words and [w.text for w in seg.words[:2]] in (["command", "-v"], ["command", "-V"]):
        return ""  # only looks the name up
    wrappers = [w.text.rsplit("/", 1)[-1] for w in seg.words[:len(seg.words) - len(words)]
                if not ASSIGN.match(w.raw) and not w.text.startswith("-")]
    for w in seg.words[:len(seg.words) - len(words)]:
        if ASSIGN.match(w.raw) and not HARMLESS_ASSIGNMENT.match(w.text):
            return f"sets {w.text.split('=', 1)[0]} for the command"
    if xargs and any(w.text.startswith("--a") or re.match(r"^-[^-]*a", w.text)
                     for w in seg.words[:len(seg.words) - len(words)]):
        return f"{LIST} (xargs --arg-file)"
    for name in wrappers:
        if name in ROOT_WRAPPERS:
            return ROOT
        if name == "env":
            return f"{ENVIRONMENT} (env)" if not words else "changes the command's environment (env)"
        if name not in HARMLESS_WRAPPERS and not name.isdigit() and not re.match(r"^\d", name):
            return f"{name} is not known to only read"
    if not words:
        return ""  # `command -v x`, `time`, `nice` alone
    first = words[0]
    if first.has_var or first.subs or first.glob and first.text != "[":
        return "runs a program named by an expansion"
    prog = first.text.lstrip("\\")
    if "/" in prog:
        where, prog = prog.rsplit("/", 1)
        if where not in _STANDARD_BIN:
            return f"runs a program from a path ({fragment([first.text], 30)})"
    if xargs and (READERS.get(prog) not in (NAMES, TEXT) or UNSAFE_OPTIONS.get(prog)):
        return f"runs {prog} on what a pipe names (xargs {prog})"
    if prog in DIRECTORY_CHANGERS:
        return _change_directory(prog, words[1:], walk)
    return programs.check(prog, words[1:], walk)


def _change_directory(prog: str, args: list, walk: Walk) -> str:
    """``cd DIR`` moves where the line's later relative paths point.  Where ``cd -``, ``popd``
    and ``pushd`` go (the directory stack), and where a bare relative name goes when CDPATH is
    set, is not known here: later paths then have no known place."""
    targets = [w for w in args if w.text == "-" or not w.text.startswith("-")]
    if len(targets) > 1:
        return "cd with two directories is not known to only read"
    if prog in ("popd", "pushd"):
        walk.base = None
        return ""
    if not targets:
        walk.base = os.environ.get("HOME") or None
        return ""
    word = targets[0]
    text = word.text
    bare = not text.startswith(("/", "~", "./", "../")) and text not in (".", "..")
    if word.has_var or word.subs or word.glob or text == "-" or (bare and os.environ.get("CDPATH")):
        walk.base = None
    else:
        walk.base = absolute(text, walk)
    return ""


def _redirect(red, walk: Walk) -> str:
    op, target = red.op.lstrip("0123456789"), red.target
    if op in ("<<", "<<-"):
        quoted = target is not None and any(q in target.raw for q in "'\"\\")
        if not quoted and re.search(r"[$`\\]", red.body):
            return "a here-document whose text expands"
        return ""
    if target is None:
        return f"could not be read exactly ({red.op} with no target)"
    for body in target.subs:
        why = _substitution(body, walk)
        if why:
            return why
    if op == "<<<":
        return ""
    if op == "<":
        if re.match(r"^/dev/(tcp|udp)/", target.text):
            return f"{NETWORK} (< {fragment([target.raw], 30)}: the shell opens a connection)"
        return secret_read(target, walk)
    if op in (">&", "<&") and target.text in ("0", "1", "2"):
        return ""
    text = target.text
    if text in TERMINAL_TARGETS and not target.has_var:
        return ""
    if op in (">", ">>", ">|", "&>", "&>>") and inside_workdir(target, walk):
        return ""
    outside = " outside the task's directory" if walk.writes else ""
    return f"redirects output into a file{outside} ({red.op} {fragment([target.raw], 30)})"


def _substitution(body: str, walk: Walk) -> str:
    """A ``$( )`` or backtick body: harmless itself, and its output of a known kind."""
    if walk.depth >= _MAX_DEPTH:
        return "substitutions nested too deeply"
    inner = replace(walk, depth=walk.depth + 1)
    why = _line(body, inner)
    if why:
        return why
    flat = " ".join(body.split())
    if not any(p.match(flat) for p in KNOWN_RESULTS):
        return f"uses $({fragment([flat], 30)}), whose output is not known"
    return ""


__all__ = ["Judgement", "judge", "exactness"]
