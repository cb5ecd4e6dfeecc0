"""What a line made itself: a temporary file or directory, deleted later on the same line, loses nothing.

``d=$(mktemp -d) && tar xf a.tar -C "$d" && … && rm -rf "$d"``, ``tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT``: judged
alone, ``rm -rf "$d"`` deletes a path from a variable that may be empty or wrong (high). When the same line assigned
the variable from a temporary-file maker (``mktemp``, ``gmktemp``, Debian's ``tempfile``), it is neither: the maker
printed a new, empty, unique name under the temporary directory, and an empty value (the maker failed) deletes
nothing (``rm -rf ""``). Such a variable, deleted as itself (``"$d"``, ``${d}``, ``"$d/"``), is a temporary path;
``"$d"/*`` or ``"$d/x"`` keep their worst case (an empty ``$d`` makes them ``/*`` or ``/x``). The variable stops
counting as made here when the line also assigns it anything else, reads into it (``read d``), loops over it (``for
d in …``), moves files into it (``mv ~/work/* "$d"``: what is deleted then is what was moved) or mounts something on
it (``mount --bind ~/data "$d"``, ``sshfs h: "$d"``). A whole word ``$(mktemp -d)`` is a temporary path too.
"""
from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Any, Optional

from aish.safety.lazy_regex import lazy

# Names of variables the line being judged assigned from a temporary-file maker (None: none, or no such maker).
MADE: ContextVar = ContextVar("aish_safety_made_here", default=None)
_MAKERS = ("mktemp", "gmktemp", "tempfile")
_MADE_ASSIGN = lazy(r"^([A-Za-z_]\w*)=[\"']?(?:\$\(|`)\s*(?:/usr/bin/|/bin/|command\s+|busybox\s+)?"
                     r"(?:g?mktemp|tempfile)\b")
_ASSIGN = lazy(r"^([A-Za-z_]\w*)=")
_DECLARERS = frozenset({"export", "local", "declare", "readonly", "typeset"})
_BINDERS = frozenset({"for", "select", "read", "mapfile", "readarray", "getopts"})
_MOVERS = frozenset({"mv", "gmv", "rsync"})
_MOUNTS = lazy(r"(^|/)(mount\S*|\w*fs|\w*mount)$")
_ITSELF = lazy(r"^\$\{?([A-Za-z_]\w*)\}?/?$")
_MADE_WORD = lazy(r"^\$\(\s*(?:g?mktemp|tempfile)\b[^)]*\)/?$")


# Programs that make a new file of a size (`fallocate -l 2G /swapfile`, `truncate -s 1G disk.raw`, `mkfile 1g F`,
# `dd if=/dev/zero of=F`): a filesystem or swap made in it next loses nothing.
_FILE_MAKERS = ("fallocate", "truncate", "mkfile", "of=")
_SIZE_OPTIONS = frozenset({"-l", "--length", "-s", "--size"})
_VALUED = frozenset({"-l", "--length", "-s", "--size", "-o", "--offset", "-r", "--reference"})
_ZEROS = frozenset({"if=/dev/zero", "if=/dev/urandom", "if=/dev/random"})


def names_a_maker(text: str) -> bool:
    """Cheap: could a command of this line make a temporary path (``_assess`` follows its commands only then)?"""
    return _ANY_MAKER.search(text) is not None


_ANY_MAKER = re.compile("|".join(map(re.escape, _MAKERS + _FILE_MAKERS)))  # one search, not a generator over seven


def _files_made(texts: list) -> set:
    """The files a sized maker makes (their paths as typed): ``fallocate -l 2G /swapfile`` makes ``/swapfile``."""
    while texts and texts[0] in ("sudo", "doas", "nice", "ionice", "command"):
        texts = texts[1:]
    if not texts:
        return set()
    prog, args = texts[0].rsplit("/", 1)[-1], texts[1:]
    if prog == "dd":
        return {a[3:] for a in args if a.startswith("of=") and len(a) > 3} if set(args) & _ZEROS else set()
    if prog not in ("fallocate", "truncate", "mkfile"):
        return set()
    if prog != "mkfile" and not (set(args) & _SIZE_OPTIONS or any(a.startswith(("--length=", "--size=", "-l", "-s"))
                                                                  for a in args)):
        return set()
    positional = [a for k, a in enumerate(args) if not a.startswith("-") and not (k and args[k - 1] in _VALUED)]
    return set(positional[1:] if prog == "mkfile" else positional)


def follow(seg: Any) -> None:
    """After a command of the line is judged: the variables it made here, or took back.  In order: a delete before
    the assignment (``rm -rf "$d"; d=$(mktemp -d)``) deletes whatever ``$d`` held before; a line that names no maker
    keeps what an outer line bound (``trap 'rm -rf "$d"' EXIT`` is judged as a nested text of the line that made
    ``$d``; a trap set before the assignment is judged before it, at its worst)."""
    words = seg.words
    if not words:
        return
    made: set = set()
    spoiled: set = set()
    head = words[0].text
    assigning = words[1:] if head in _DECLARERS else words
    for w in assigning:
        m = _MADE_ASSIGN.match(w.raw)
        if m:
            made.add(m.group(1))
            continue
        other = _ASSIGN.match(w.text)
        if other is None:
            break
        spoiled.add(other.group(1))  # `d=/`: whatever it held, it is now something else
    if head in _BINDERS:
        spoiled.update(w.text for w in words[1:] if not w.text.startswith("-"))
    elif head.rsplit("/", 1)[-1] in _MOVERS and len(words) > 2:
        m = _ITSELF.match(words[-1].raw.replace('"', "").replace("'", ""))
        if m:
            spoiled.add(m.group(1))  # `mv ~/Documents/* "$d"`: the deletion takes what was moved
    elif _MOUNTS.search(head) or len(words) > 1 and words[1].text == "mount":
        for w in words[1:]:  # `mount --bind ~/data "$d"`, `rclone mount r: "$d"`: a delete reaches what is mounted
            m = _ITSELF.match(w.raw.replace('"', "").replace("'", ""))
            if m:
                spoiled.add(m.group(1))
    made |= _files_made([w.text for w in words])
    if not made and not spoiled:
        return
    current = MADE.get() or frozenset()
    names = (current | made) - spoiled
    if names != current:
        MADE.set(names or None)


def temporary(raw: str) -> Optional[str]:
    """The variable or maker a path word stands for when it is a path the line just made, else None."""
    word = raw.replace('"', "").replace("'", "")
    if _MADE_WORD.match(word):
        return word
    names = MADE.get()
    if not names:
        return None
    if word in names:
        return word  # a file a sized maker made on the line (`fallocate -l 2G /swapfile && mkswap /swapfile`)
    m = _ITSELF.match(word)
    return word if m and m.group(1) in names else None
