"""Where a harmless-looking step reads and writes: paths resolved as the shell will.

A reader is harmless only if what it prints holds no keys or credentials, so every path it
reads is resolved against the directory the line runs in (a ``cd`` earlier in the line
moves it), through symbolic links (a project file that links to ``~/.ssh/id_ed25519`` is
the key), and globs are expanded there.  The checks read the file system (names, links),
never the files.
"""
from __future__ import annotations

import glob
import os
from itertools import islice
from dataclasses import dataclass, field
from typing import Callable, Optional

from aish.safety.read_only import SECRET_FILES
from aish.safety.rules.common import classify, worst_case
from aish.safety.shell_words import Word

_SECRET_KINDS = {"dot-critical", "history", "dot-rc", "device"}  # (a raw disk holds every secret on it)
_WHOLE_KINDS = {"root", "home", "system-top", "dot-critical", "userhome"}
_MAX_MATCHES = 2000  # a glob that names more files than this is not followed


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
    """At most one more than ``_MAX_MATCHES`` names (so the walk of a big tree stops early)."""
    return list(islice(glob.iglob(pattern, recursive=True), _MAX_MATCHES + 1))


def home() -> str:
    return os.environ.get("HOME", "").rstrip("/")


def absolute(text: str, walk: Walk) -> Optional[str]:
    """``text`` as an absolute path (``~`` and ``$HOME`` expanded), or None when it depends on an
    unknown directory."""
    if text.startswith("~") and (text == "~" or text.startswith("~/")):
        text = home() + text[1:]
    if text.startswith("/"):
        return os.path.normpath(text)
    if walk.base is None:
        return None
    return os.path.normpath(os.path.join(walk.base, text))


def _literal(word: Word) -> str:
    """The word's text with the known variables replaced (``$HOME`` -> ``~``, ``$PWD`` -> ``.``)."""
    return worst_case(word.text)[0] if word.has_var else word.text


def secret_read(word: Word, walk: Walk) -> str:
    """The path as shown when reading ``word`` reads keys, credentials, history or start-up
    files (directly, through a link or a glob), else ``""``."""
    text = _literal(word)
    if _secret_name(text):
        return word.text
    path = absolute(text, walk)
    if path is None:
        return word.text if word.glob else ""  # a name alone was judged above; a pattern needs its place
    paths = walk.expand(path) if word.glob else [path]
    if len(paths) > _MAX_MATCHES:
        return word.text
    for one in paths:
        if _secret_name(one) or _secret_name(walk.realpath(one)):
            return word.text
    return ""


def _secret_name(path: str) -> bool:
    return bool(SECRET_FILES.search(path)) or classify(path) in _SECRET_KINDS


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
