"""Where a harmless-looking step reads and writes: paths resolved as the shell will.

A reader is harmless only if what it prints holds no keys or credentials, so every path it
reads is resolved against the directory the line runs in (a ``cd`` earlier in the line
moves it), through symbolic links (a project file that links to ``~/.ssh/id_ed25519`` is
the key), and globs are expanded there.  The checks read the file system (names, links),
never the files.

A path whose place is not known (a substitution's output, ``$OLDPWD``, ``~-``, a pattern in
zsh's extended syntax, a relative name after ``cd -``) cannot be checked, so a reader that
prints contents does not read it unattended.  Patterns are expanded as the shells may with
their options: hidden names too (dotglob, globdots) and in any case (nocaseglob), a wider
set than any one shell's, so a key a shell would reach is always seen.
"""
from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from aish.safety.read_only import SECRET_FILES, SECRETS
from aish.safety.rules.common import classify, worst_case
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

# (a raw disk holds every secret on it; a hidden file in your home is some program's state or settings,
# where tokens and passwords live: ~/.s3cfg, ~/.m2/settings.xml, ~/.config/...)
_SECRET_KINDS = {"dot-critical", "history", "dot-rc", "device", "dot"}
# Devices a reader may read: nothing, its own input; endless bytes only through `head`.
_DEVICES_READ = {"/dev/null", "/dev/stdin", "/dev/fd/0"}
_ENDLESS = {"/dev/zero", "/dev/urandom", "/dev/random"}
DEVICE = "reads a device (another terminal's typing, a disk, endless bytes)"
_WHOLE_KINDS = {"root", "home", "system-top", "dot-critical", "userhome"}
_MAX_MATCHES = 2000  # a glob that names more files than this is not followed
_MAX_VISITS = 20000  # directory entries read while expanding one pattern
UNKNOWN = "reads a file whose name is not known"
_PLACED_VARIABLES = {"HOME", "PWD"}  # expansions whose value is a known place
_EXTENDED_GLOB = lazy(r"(?<!^)~|[\^#|<>()@+!]")  # zsh's extendedglob and ksh/bash extglob syntax


@dataclass
class Walk:
    """The state of one judgement: where relative paths point, what may be written."""

    base: Optional[str]  # the directory the line runs in; None once a `cd` went somewhere unknown
    workdir: str = ""  # the task's directory: the only place writes may go (when writes is on)
    writes: bool = False
    depth: int = 0
    realpath: Callable[[str], str] = os.path.realpath
    # as zsh's `**/` and bash's globstar (a superset of bash without it)
    expand: Callable[[str], list] = field(default=lambda pattern: _matches(pattern))


def _matches(pattern: str) -> list:
    """What an absolute ``pattern`` may name, hidden names and any case included; more than
    ``_MAX_MATCHES`` names when the walk is too big to finish (it is then not followed)."""
    found = ["/"]
    visits = 0
    for part in [p for p in pattern.split("/") if p]:
        if part in (".", ".."):
            found = [os.path.join(d, part) for d in found]
            continue
        if part == "**":
            found = _descend(found)
            visits += len(found)
        else:
            match = re.compile(fnmatch.translate(part), re.IGNORECASE).match  # a literal part too (zsh)
            nxt = []
            for d in found:
                try:
                    names = os.listdir(d) if os.path.isdir(d) else []
                except OSError:
                    continue
                visits += len(names)
                nxt += [os.path.join(d, n) for n in names if match(n)]
            found = nxt
        if visits > _MAX_VISITS or len(found) > _MAX_MATCHES:
            return found + [""] * (_MAX_MATCHES + 1)
    return found


def _descend(roots: list) -> list:
    """``**``: each of ``roots`` and every directory under it (links not followed), bounded."""
    out = []
    for root in roots:
        for here, _dirs, _files in os.walk(root):
            out.append(here)
            if len(out) > _MAX_VISITS:
                return out
    return out


def home() -> str:
    return os.environ.get("HOME", "").rstrip("/")


def absolute(text: str, walk: Walk) -> Optional[str]:
    """``text`` as an absolute path (``~`` and ``$HOME`` expanded), or None when it depends on an
    unknown directory (``~-`` is ``$OLDPWD``, ``~+2`` the directory stack, ``~bob`` another home)."""
    if text.startswith("~"):
        if text != "~" and not text.startswith("~/"):
            return None
        text = home() + text[1:]
    if text.startswith("/"):
        return os.path.normpath(text)
    if walk.base is None:
        return None
    return os.path.normpath(os.path.join(walk.base, text))


def _literal(word: Word) -> str:
    """The word's text with the known variables replaced (``$HOME`` -> ``~``, ``$PWD`` -> ``.``)."""
    return worst_case(word.text)[0] if word.has_var else word.text


def placed(word: Word) -> bool:
    """Is what ``word`` names known from its text (no substitution but ``$(pwd)``, no variable
    but ``$HOME`` and ``$PWD``, no pattern syntax this module does not expand)?"""
    if any(" ".join(body.split()) not in ("pwd", "pwd -P", "pwd -L") for body in word.subs):
        return False
    if word.has_var:
        names = re.findall(r"\$\{?(\w+|[^\w\s(])", word.raw)
        if any(name not in _PLACED_VARIABLES for name in names):
            return False
    return not (word.glob and _EXTENDED_GLOB.search(word.raw))


def secret_read(word: Word, walk: Walk, maybe_file: bool = False, bounded: bool = False) -> str:
    """Why reading ``word`` is not harmless: it reads keys, credentials, history or start-up
    files (directly, through a link or a glob), or its place is not known; else ``""``.

    ``maybe_file``: the word may be a pattern or an option's value rather than a file (a
    grep's first word); it counts only if it has a slash, a pattern, or names a file here.
    ``bounded``: the reader stops by itself (``head``), so endless devices are fine."""
    text = _literal(word)
    if not placed(word):
        return f"{UNKNOWN} ({word.raw})" if not maybe_file or word.subs or "/" in word.raw else ""
    path = absolute(text, walk)
    if maybe_file and not word.glob and "/" not in text and (path is None or not os.path.lexists(path)):
        return ""
    if _secret_name(text):
        return f"{SECRETS} ({word.text})"
    if path is None:
        return f"{UNKNOWN} ({word.raw})"
    paths = walk.expand(path) if word.glob else [path]
    if len(paths) > _MAX_MATCHES:
        return f"{SECRETS} ({word.text})"
    for one in paths:
        real = walk.realpath(one)
        if _secret_name(one) or _secret_name(real):
            return f"{SECRETS} ({word.text})"
        if any(p.startswith("/dev/") and p not in _DEVICES_READ and not (bounded and p in _ENDLESS)
               for p in (one, real)):
            return f"{DEVICE} ({word.text})"
    return ""


def is_directory(word: Word, walk: Walk) -> bool:
    """Does ``word`` name a directory here (a content reader then reads what is under it)?"""
    path = absolute(_literal(word), walk) if placed(word) and not word.glob else None
    return path is not None and os.path.isdir(path)


def _secret_name(path: str) -> bool:
    if SECRET_FILES.search(path):
        return True
    return not path.endswith(".pub") and classify(path) in _SECRET_KINDS  # a public key is for showing


def whole_tree(word: Optional[Word], walk: Walk) -> str:
    """For a recursive search of ``word`` (None: the directory the line runs in): the place as
    shown when it holds keys and credentials (home, /, a system directory), else ``""``."""
    text = "." if word is None else _literal(word)
    path = absolute(text, walk)
    if path is None:
        return text
    real = walk.realpath(path)
    mine = home()
    if classify(real) in _WHOLE_KINDS or classify(path) in _WHOLE_KINDS or \
            (mine and (mine + "/").startswith(real.rstrip("/") + "/")):
        return word.text if word is not None else "."
    return ""


def inside_workdir(word: Word, walk: Walk) -> bool:
    """Does writing ``word`` stay under the task's directory, on no link and no hidden name?"""
    if not walk.writes or not walk.workdir or word.has_var or word.glob or word.subs:
        return False
    path = absolute(word.text, walk)
    if path is None:
        return False
    root = walk.realpath(walk.workdir).rstrip("/")
    relative = os.path.relpath(path, walk.workdir)
    if relative.startswith("..") or any(part.startswith(".") for part in relative.split("/") if part != "."):
        return False
    if os.path.islink(path):
        return False
    parent = walk.realpath(os.path.dirname(path))
    return parent == root or parent.startswith(root + "/")


def option_like(word: Word, walk: Walk) -> bool:
    """Could the shell expand the pattern ``word`` into a word that starts with ``-`` (a file
    named ``-delete`` or ``--output=x`` read as an option)?  Only a pattern that starts with
    a wildcard can; it is expanded where the line runs."""
    text = word.text
    if text.startswith("-"):
        return True
    if text[:1] not in ("*", "?", "["):
        return False
    if walk.base is None:
        return True
    matches = walk.expand(os.path.join(walk.base, text))
    return len(matches) > _MAX_MATCHES or any(os.path.relpath(m, walk.base).startswith("-") for m in matches)
