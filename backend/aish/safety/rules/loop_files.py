"""Effect: a loop over files found or globbed that empties or deletes each one.

``while read -r f; do : > "$f"; done < <(find /var/www -name '*.php')``, ``find /srv/app -type f | while read f;
do truncate -s 0 "$f"; done``, ``for f in $(find /var/www -name '*.html'); do > "$f"; done``: each command in
the body names one file, ``$f``, and judged alone it names nothing.  The loop variable is bound to what the
finder or the glob names (``find ROOT -name PAT`` is ``ROOT/PAT``), so the body's truncation (``: > "$f"``) is
judged as every such file emptied, and its ``rm``/``truncate``/``shred``/``chmod`` as if typed on them.  Files
under temporary and build directories, reading bodies (``wc -l "$f"``, ``md5sum "$f"``) and appends stay quiet.
"""
from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import replace
from typing import Optional

from aish.safety.rules.common import MEDIUM
from aish.safety.lazy_regex import lazy

# Loop variables bound to the files a finder or a glob names on the line being judged: {name: ROOT/PAT}.
LOOP_FILES: ContextVar = ContextVar("aish_safety_loop_files", default=None)
_FINDERS = frozenset({"find", "fd", "fdfind", "gfind", "bfs"})
_NAMES = frozenset({"-name", "-iname", "-path", "-ipath"})
_VAR = lazy(r"^\$\{?([A-Za-z_]\w*)\}?$")
_PLACE = lazy(r"^(/|~)")
_TEMP = lazy(r"(^|/)(tmp|temp|\.cache|cache|build|dist|node_modules|target|__pycache__)(/|$)", re.IGNORECASE)
# Programs whose operands a loop's variable stands for (reading bodies are not rewritten).
_TAKING = frozenset({"rm", "unlink", "shred", "truncate", "chmod", "chown", "srm", "wipe"})


def _found(text: str) -> Optional[str]:
    """``find /var/www -name '*.php'`` -> ``/var/www/*.php`` (a finder over a real place), else None."""
    words = text.split()
    while words and words[0] in ("sudo", "doas", "command"):
        words = words[1:]
    if not words or words[0].rsplit("/", 1)[-1] not in _FINDERS:
        return None
    root = next((w.strip("'\"") for w in words[1:] if not w.startswith("-")), "")
    if not _PLACE.match(root):
        return None
    name = next((words[k + 1].strip("'\"") for k, w in enumerate(words[:-1]) if w in _NAMES), "*")
    return root.rstrip("/") + "/" + name.rsplit("/", 1)[-1]


def bind(segs: list) -> None:
    """Bind ``for f in $(find …)``/``for f in /abs/*.x``, ``find … | while read f`` and ``… done < <(find …)``."""
    if not any(s.words and s.words[0].text in ("for", "read") for s in segs):
        return
    fed = next((r for s in segs if s.words and s.words[0].text == "done" for w in s.words[1:] for sub in w.subs
                for r in [_found(sub)] if r), None)
    bound: dict = {}
    for k, seg in enumerate(segs):
        words = seg.words
        if not words:
            continue
        if words[0].text == "for" and len(words) >= 4 and words[2].text == "in":
            place = next((r for w in words[3:] for sub in w.subs for r in [_found(sub)] if r), None) or \
                next((w.text for w in words[3:] if w.glob and _PLACE.match(w.text)), None)
            if place:
                bound[words[1].text] = place
        elif words[0].text == "read":
            before = segs[k - 1] if k and seg.link in ("|", "|&") else None
            place = _found(" ".join(w.text for w in before.words)) if before is not None and before.words else fed
            if place:
                bound.update({w.text: place for w in words[1:] if re.fullmatch(r"[A-Za-z_]\w*", w.text)})
    if bound:
        LOOP_FILES.set(bound)


def _place(word) -> Optional[str]:
    bound = LOOP_FILES.get()
    m = _VAR.match(word.text) if bound and word is not None else None
    return bound.get(m.group(1)) if m else None


def rule_each_emptied(seg) -> Optional[tuple]:
    """``: > "$f"`` in a loop over found files: every one of them emptied."""
    if not LOOP_FILES.get():
        return None
    for red in seg.redirects:
        place = _place(red.target) if red.op in (">", ">|") else None
        if place and not _TEMP.search(place):
            return MEDIUM, f"empties every file the loop reads ({place}), one by one"
    return None


def substituted(seg):
    """The segment with a loop variable replaced by what it stands for, where the program takes files."""
    if not LOOP_FILES.get() or not seg.words or seg.words[0].text.rsplit("/", 1)[-1] not in _TAKING:
        return seg
    words = [replace(w, text=p, has_var=False, glob=True) if (p := _place(w)) else w for w in seg.words]
    return seg if all(a is b for a, b in zip(words, seg.words)) else replace(seg, words=words)
