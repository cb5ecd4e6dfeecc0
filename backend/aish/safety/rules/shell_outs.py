"""Commands that code hands to a shell, in any language: the strings after a call named for running
a program (``(clojure.java.shell/sh "rm" "-rf" "/srv/app")``, ``System.cmd("rm", ["-rf", d])``,
``shell "rm -rf ~/x"``, ``run(`rm -rf x`)``), and an editor's or a notebook's ``!`` escape
(``vim -c '!rm -rf ~/notes'``, ``ipython -c '!rm -rf ~/data'``).  Math and language REPLs say it
their own ways: Wolfram's ``Run["…"]``/``RunProcess[{…}]``, GAP's ``Exec("…")``, Maple's
``ssystem("…")``, Scilab's ``unix("…")``/``host("…")``, PARI/GP's
``extern("…")``, Forth's ``s" …" system``, Scala's ``"…".!`` and ``Process("…").!``.  The command found is
judged as typed; calls whose strings say nothing harmful stay quiet."""
from __future__ import annotations

import re
from aish.safety.lazy_regex import lazy

_LIT = r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)"""
# A call named for running a program, then its string arguments (a list of them included).
_RUN_CALL = lazy(r"(?:^|[\s(.:/])(?:sh|shell|system|run|cmd|exec|execute|spawn|run-program|shell-command|"
                 r"call-process|process|popen|command|sh!|shell!|\$)\s*\(?\s*"
                 r"((?:\[?\s*" + _LIT + r"\s*,?\s*\]?\s*){1,12})")
_ONE_LIT = lazy(_LIT)
# Wolfram's brackets, Scilab's and PARI/GP's names, Scala's Process(…).
_OTHER_CALL = lazy(r"(?:^|[\s(;.,=])(?:Run|RunProcess|unix(?:_[gswx])?|host|extern|Process|Exec|ssystem)"
                   r"\s*[\[(]\s*\{?\s*((?:" + _LIT + r"\s*,?\s*){1,12})")
# Forth's `s" rm -rf ~" system`, Scala's `"rm -rf /srv".!`.
_STRING_THEN_RUN = lazy(r"""\bs"\s([^"]*)"\s+system\b|"((?:[^"\\]|\\.)*)"\s*\.\s*!{1,2}""")
# `!cmd` at the start of a line or after `;`/`|` (vim's `:!`, IPython's `!`).
_BANG = lazy(r"(?:^|[\n;|])\s*:?!\s*([^\n|]+)")
_MAX_FOUND = 16  # commands read from one body: the judgement stays bounded


def shell_outs(code: str) -> list:
    """The command lines this code hands to a shell."""
    found = []
    code = code.replace("\\`", "`")  # a backquote escaped inside the shell's double quotes
    for m in _RUN_CALL.finditer(code):
        parts = [lit[1:-1] for lit in _ONE_LIT.findall(m.group(1))]
        if parts:
            found.append(" ".join(_quoted(p) if len(parts) > 1 else p for p in parts))
        if len(found) >= _MAX_FOUND:
            break
    for m in _OTHER_CALL.finditer(code):
        parts = [lit[1:-1] for lit in _ONE_LIT.findall(m.group(1))]
        if parts and len(found) < _MAX_FOUND:
            found.append(" ".join(_quoted(p) if len(parts) > 1 else p for p in parts))
    found += [m.group(1) or m.group(2) for m in _STRING_THEN_RUN.finditer(code)][:_MAX_FOUND]
    found += [m.group(1).strip() for m in _BANG.finditer(code)][:_MAX_FOUND]
    return found


def _quoted(part: str) -> str:
    return part if re.fullmatch(r"[\w@%+=:,./~-]+", part) else "'" + part.replace("'", "'\\''") + "'"
