"""What code does to files, whatever the language it is written in.

``interp`` knows how each interpreter takes its code; this module reads the code for calls
that delete or overwrite a file and for the path they are given.  The calls are found by
what they are named (``rmtree``, ``rm_rf``, ``RemoveAll``, ``deleteDir``, ``unlink``,
``Deno.remove``, ``writeFileSync``, ``File.write``, ``file_put_contents``, ``Bun.write``,
``open(…, 'w')``…) and the path by what it is: a string literal, an expression for the home
directory in any language (``homedir()``, ``Dir.home``, ``$ENV{HOME}``,
``System.getProperty("user.home")``, ``Deno.env.get("HOME")``…), optionally joined with a
literal (``getenv("HOME")."/.ssh/*"``).  A path that cannot be read is left to the calls
``interp`` knows; these generic ones judge only what they can see.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules import code_loops
from aish.safety.rules.common import Target, describe, target
from aish.safety.rules.content import overwrite_level
from aish.safety.rules.delete import delete_level
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

# Calls that delete what they are given, by name in any language (a method on a path object included).
_DELETE_CALL = lazy(
    r"(?<![\w-])(?:[\w$]+(?:\.|::|:|/))*(?P<name>delete-file-recursively|removeItemAtPath(?:Error)?|removeItemAtURL(?:Error)?|"
    r"delete-directory-tree|delete-directory|delete-tree|delete-file|rmtree|rm_rf!?|rm_r|rm!?|rmSync|rmdirSync|rmdir|unlinkSync|unlink|"
    r"removeSync|remove_dir_all|remove_file|removedirs|RemoveAll|Remove|remove|delete|Delete|deleteDir|deleteRecursively|"
    r"removeDir|removeFile|rmdirRecurse|deleteDirectory|forceDelete|deleteQuietly|remove_all|removeAll|"
    r"deleteIfExists|emptyDirSync|emptyDir|rimraf|file_delete|unlink_all|erase)(?!\w)\s*(?P<open>\(|\s(?=(?:#[pP])?['\"$\w~/-])|"
    r"['\"]?\s*,|(?<=\.rmtree)(?=\s*(?:$|[;\n}])))")  # a call, perl's `unlink glob "…"`, the function handed
# to a map (`array_map("unlink", …)`), or ruby's `Pathname.new("/x").rmtree` with nothing to give
_RECURSIVE = lazy(r"delete-file-recursively|removeItemAt|delete-directory-tree|delete-tree|,\s*['\"]rf['\"]|"
                  r"rmtree|rm_rf|rm_r\b|RemoveAll|remove_dir_all|deleteDir|deleteRecursively|emptyDir|rimraf|"
                  r"removeDir|rmdirRecurse|deleteDirectory|remove_all|removeAll|^Delete\s.*,\s*true\b|"
                  r"recursive\s*[:=]\s*(?:true|TRUE|T\b)|-recurs|\bforce\b|,\s*['\"]s['\"]\s*\)?$", re.IGNORECASE)
# Calls that replace a file's content, the path first.
_WRITE_CALL = lazy(
    r"(?<![\w-])(?:[\w$]+(?:\.|::))*(?P<name>writeFileSync|writeFile|writeTextFile|write_text|write_bytes|"
    r"file_put_contents|WriteAllText|WriteAllBytes|WriteFile|spit|write|truncateSync|truncate)\s*(?P<open>\()")
# `open(PATH, 'w')`, `io.open(PATH, "w")`, `fopen(PATH, "wb")`, `File.open(PATH, "w")`, perl `open(F, ">PATH")`.
_OPEN_FOR_WRITE = lazy(r"\b(?:io\.|File\.)?f?open\s*\(\s*(?P<path>[^,()]+(?:\([^()]*\))?[^,()]*)\s*,\s*"
                       r"(?:mode\s*=\s*)?['\"](?:w|wb|w\+|wt)['\"]")
_PERL_OPEN = lazy(r"\bopen\s*\(?\s*(?:my\s+)?[\w$]+\s*,\s*(?:['\"]>['\"]\s*,\s*(?P<a>['\"][^'\"]+['\"])|"
                  r"['\"]>\s*(?P<b>[^'\">][^'\"]*)['\"])")
# The home directory, spelled in any language.
HOME_EXPR = lazy(
    r"expanduser\(\s*['\"]~/?['\"]\s*\)|Path\.home\(\)|environ(?:\.get)?[\[(]\s*['\"]HOME['\"]\s*[\])]|"
    r"getenv\(\s*['\"](?:HOME|USERPROFILE)['\"]\s*\)|process\.env\.HOME|process\.env\[['\"]HOME['\"]\]|"
    r"\bhomedir\(\)|home_dir\(\)|Dir\.home|ENV\[\s*['\"]HOME['\"]\s*\]|\$ENV\{\s*HOME\s*\}|\$env:USERPROFILE|"
    r"\$env\(HOME\)|Deno\.env\.get\(\s*['\"]HOME['\"]\s*\)|getProperty\(\s*['\"]user\.home['\"]\s*\)|"
    r"UserHomeDir\(\)|System\.user_home\(?\)?|Sys\.getenv\(\s*['\"]HOME['\"]\s*\)|path\.expand\(\s*['\"]~['\"]\s*\)|"
    r"\$HOME\b|(?<=['\"])~(?=[/'\"])|user-homedir-pathname|getProperty\s+['\"]user\.home['\"]|\(getenv \"HOME\"\)")
# A write's mode or option that appends: `open(P, "a")`, `FILE_APPEND`, `mode: "a"`, `[:append]`, `{append: true}`.
_APPEND_MODE = lazy(r"""["']a\+?b?["']|FILE_APPEND|:append\b|\bappend\s*[:=]\s*(?:true|TRUE|T)\b""")
_LITERAL = lazy(r"""'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)\"""")
_REACH = 160  # characters of a call's arguments read for its path


def _path_in(region: str, bare: bool = False) -> Optional[str]:
    """The path a call's argument text names, when it can be read: home (and what is joined to it),
    or a literal that is a path; with ``bare``, also an unquoted one (tcl's ``file delete -force ~/``)."""
    home = HOME_EXPR.search(region)
    if home:
        joined = re.match(r"""\s*[\])}]*\s*(?:[.+,]|\.\.|/)?\s*(?:['"])?(/[^'"\s,)]*)""", region[home.end():])
        return "~" + (joined.group(1) if joined else "")
    for m in _LITERAL.finditer(region):
        text = m.group(1) if m.group(1) is not None else m.group(2)
        if text.startswith(("/", "~")) or text in (".", "*", "./*"):
            return text
    unquoted = re.search(r"(?:^|\s)(~[\w/.*-]*|/[\w/.*-]*)(?=\s|$)", region) if bare else None
    return unquoted.group(1) if unquoted else None


def _arguments(code: str, start: int, in_parens: bool) -> str:
    """A call's argument text: up to its closing parenthesis, or to the end of the statement."""
    depth, end = 0, min(len(code), start + _REACH)
    for k in range(start, end):
        ch = code[k]
        if in_parens and ch in "([{":
            depth += 1
        elif in_parens and ch in ")]}":
            if depth == 0:
                return code[start:k]
            depth -= 1
        elif not in_parens and ch in ";\n":
            return code[start:k]
    return code[start:end]


def _statement_before(code: str, at: int) -> str:
    """The code of the statement that ends at ``at`` (for ``new File(X).deleteDir()``)."""
    start = max(code.rfind(";", 0, at), code.rfind("\n", 0, at)) + 1
    return code[start:at]


def file_effects(code: str) -> list:
    """``[(level, what, Target)]`` for every deletion or overwrite the code spells out on a path it names."""
    out = []
    for m in _DELETE_CALL.finditer(code):
        region = _arguments(code, m.end(), m.group("open") == "(")
        every = code_loops.joined_target(region, code) if "/" in region else None  # `os.remove("/d/"..f)` in a loop
        path = every or (_path_in(region, bare=m.group("open") != "(") if region.strip() else None)
        if path is None and (not region.strip() or re.fullmatch(r"\s*(?:-\w+\s+)*\$?\w+[\s}\])]*", region)):
            every = code_loops.listed_target(code)  # `foreach f [glob /d/*] {file delete $f}`, `eachFile {…}`
            path = every
        if path is None and not region.strip():  # `new File(X).deleteDir()`: the path came before
            path = _path_in(_statement_before(code, m.start()))
        if path is None:
            continue
        recursive = every is not None or bool(_RECURSIVE.search(m.group("name") + " " + region))
        t = target(Word(path, path))
        level = delete_level(t, recursive)
        if level is not None:
            out.append((level, "deletes", t))
    for m in _WRITE_CALL.finditer(code):
        qualifier = code[m.start():m.start("name")]
        if m.group("name") == "write" and qualifier not in ("", "File.", "IO.", "Bun.", "Files.", "fs.", "Path.") and \
                not qualifier.endswith((".Files.", ".File.")):  # java.nio.file.Files.write(Paths.get(P), …)
            continue  # `sys.stdout.write("/etc")` writes text, not a file
        if _APPEND_MODE.search(_statement_before(code, m.start("name")) + _arguments(code, m.end(), True)):
            continue  # `open(P, "a").write(…)`, `FILE_APPEND`: appended, not written over (code_writes reads it)
        path = _path_in(code[m.end():m.end() + _REACH].split(",")[0].split(";")[0])
        if path is None and code[m.start("name") - 1:m.start("name")] == ".":  # Path('/etc/x').write_text('')
            path = _path_in(_statement_before(code, m.start("name")))
        out += _overwrite(path)
    for m in _OPEN_FOR_WRITE.finditer(code):
        out += _overwrite(_path_in(m.group("path")))
    for m in _PERL_OPEN.finditer(code):
        out += _overwrite(_path_in(m.group("a")) if m.group("a") else m.group("b"))
    return out


def _overwrite(path: Optional[str]) -> list:
    if not path:
        return []
    t: Target = target(Word(path, path))
    level = overwrite_level(t)
    return [(level, "overwrites", t)] if level is not None else []


def describe_effect(what: str, t: Target) -> str:
    return f"{what} {describe(t)}"
