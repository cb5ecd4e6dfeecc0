"""Effect: files overwritten or removed by programs no rule names that take dd's, rm's or find's own spellings.

Clones and relatives of the classic tools keep their operands: a forensic or rescue copier writes ``of=FILE``
(``ddpt``, ``sdd``, ``dd.exe``, ``dcfldd`` forks) or wipes with ``wipe=FILE``/``hwipe=FILE``; a rescue tool
takes ``SOURCE DEST`` with the source a stream of zeros or random bytes (``dd_rescue /dev/zero img``); wipers,
trash tools and rm replacements take rm's ``-rf`` (``bcwipe -rf ~/x``, ``trash-d -rf ~/Documents``).  What they
do to the target is what dd or rm would do, so they are judged as dd or rm on the same operands:

- ``of=`` is judged as ``dd of=``; ``wipe=``/``hwipe=`` and zeros or random bytes written in place (``conv=notrunc``,
  or a rescue copy onto an existing file) are at least medium outside temporary places;
- ``-rf`` on its targets is judged as ``rm -rf``, capped at medium where the program keeps what it removes in a
  trash (its name says trash or it restores);
- find's ``-exec``/``-execdir``/``-ok`` (``walk ~ -type f -exec rm -rf {} ;``) is judged as find, fd's ``-x``/``-X``
  before a remover (``ffind . -e bak -X rm``) as fd, on the same words.

A copy read from a disk into a new image (``if=/dev/sda of=disk.img``), ``/dev/null`` and temporary targets stay
quiet, as dd and rm leave them.
"""
from __future__ import annotations

import itertools
import re
import shlex
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FD_EXEC = frozenset({"-x", "-X", "--exec", "--exec-batch"})
_DESTROYERS = frozenset({"rm", "shred", "srm", "wipe", "unlink", "truncate", "trash", "trash-put", "rmdir"})
_STREAMS = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})
_WIPE_OPERANDS = ("wipe=", "hwipe=")
_RM_LETTERS = re.compile(r"^-(?=[a-zA-Z]*[rR])(?=[a-zA-Z]*f)[rRfvI]{2,4}$")
_TRASH = lazy(r"trash|gomi|rip|bury|recycle", re.IGNORECASE)
_TEMP = lazy(r"^(/tmp/|/var/tmp/|/dev/null$|\./|[\w.-]+$)")  # a bare name or ./x: a file made here


# rm's bundles `_RM_LETTERS` matches, lowered (r and f among r, f, v, i; two to four letters): a word that wakes the
# gate, where the pattern's own word (`-`) woke it on most lines.
_RM_BUNDLES = frozenset("-" + "".join(letters) for size in (2, 3, 4)
                        for letters in itertools.product("rfvi", repeat=size) if "r" in letters and "f" in letters)


@triggered_by(("of=", "wipe=", "/dev/zero", "/dev/urandom", "-ex"), _RM_BUNDLES, _FD_EXEC, otherwise=False)
def may_borrow(c: Ctx) -> bool:
    """Cheap: dd's `of=`/`wipe=` or a zero stream, or rm's `-rf` bundle, among the words."""
    if not c.texts:
        return False
    low = c.lowered
    return "of=" in low or "wipe=" in low or "/dev/zero" in low or "/dev/urandom" in low or "-ex" in low or \
        any(_RM_LETTERS.match(t) or t in _FD_EXEC for t in c.texts[:32])


def _quoted(words: list) -> str:
    return " ".join(shlex.quote(w) for w in words)


def _as_dd(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:48]
    wiped = next((t.split("=", 1)[1] for t in texts if t.lower().startswith(_WIPE_OPERANDS)), None)
    out = next((t[3:] for t in texts if t.lower().startswith("of=")), None)
    source = next((t[3:] for t in texts if t.lower().startswith("if=")), None)
    in_place = "conv=notrunc" in texts or wiped is not None
    if out is None and wiped is None:
        operands = [t for t in texts if not t.startswith("-") and "=" not in t]
        if len(operands) == 2 and operands[0] in _STREAMS and operands[1] not in _STREAMS:
            source, out, in_place = operands[0], operands[1], True  # `dd_rescue -A /dev/zero vm.img`
    target = wiped or out
    if not target:
        return None
    found = c.recurse(f"dd if={shlex.quote(source or '/dev/zero')} of={shlex.quote(target)}")
    if (found is None or found[0] < MEDIUM) and in_place and (source in _STREAMS or wiped) and \
            not _TEMP.match(target) and not target.startswith("/dev/"):
        found = MEDIUM, f"{c.prog} writes zeros or random bytes over {target} in place: its content is gone " \
            f"({c.text})"
    if found is None or found[0] < MEDIUM:
        return None
    return found[0], f"{c.prog} writes as dd does: {found[1]}"


def _as_rm(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:48]
    letters = next((t for t in texts if _RM_LETTERS.match(t)), None)
    if letters is None:
        return None
    targets = [t for t in texts if not t.startswith("-")]
    # only places named from the root or home: `pax -rf source.tar`, `ppmtompeg -fr first last` read their letters
    # otherwise, and a tree here is what such tools are run on
    if not targets or len(targets) > 32 or not all(t.startswith(("/", "~", "$HOME", "${HOME}")) for t in targets):
        return None
    found = c.recurse(f"rm -rf {_quoted(targets)}")
    if found is None or found[0] < MEDIUM:
        return None
    level = MEDIUM if _TRASH.search(c.prog) else found[0]
    return level, f"{c.prog} {letters} removes as rm -rf does: {found[1]}"


def _as_finder(c: Ctx) -> Optional[tuple]:
    """``walk ~ -type f -exec rm -rf {} \\;`` judged as find; ``ffind . -x shred -u`` judged as fd."""
    texts = c.texts[:64]
    if set(texts) & _FIND_EXEC:
        as_tool = "find"
    elif any(t in _FD_EXEC and k + 1 < len(texts) and texts[k + 1] in _DESTROYERS for k, t in enumerate(texts)):
        as_tool = "fd"
    else:
        return None
    found = c.recurse(f"{as_tool} {_quoted(texts)}")
    if found is None or found[0] < MEDIUM:
        return None
    return found[0], f"{c.prog} runs a command on what it finds, as {as_tool} does: {found[1]}"


def rule_borrowed_operands(c: Ctx) -> Optional[tuple]:
    return _as_dd(c) or _as_rm(c) or _as_finder(c)
