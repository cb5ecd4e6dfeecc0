"""Effect: what a program's own documentation says a subcommand or option destroys.

The vocabulary reads words that say what they do (``delete``, ``--wipe-data``); many programs
name a destructive subcommand or option with a word of their own (``zpool labelclear``,
``mdadm --zero-superblock``, ``s3cmd delcors``, ``udisksctl loop-delete``).  Their shell completion
definitions describe each word, and ``safety/documented_table.py`` holds what a script derived
from those descriptions: program, subcommand path or option, and what it does (delete, wipe,
destroy, format, reset, revoke, stop-all).  This rule is the last one tried, only where no other
rule gave a verdict, so a program's own rules keep their meaning.  Medium by default; high where
the scope takes everything (``--all``, ``*``), the target is the root, home, a system directory or
a device, or a wipe, destroy or format is forced.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, is_device, target
from aish.safety.verbs import EVERYTHING, FORCE_OPTIONS, PACKAGE_TOOLS, SCOPE_OPTIONS

# What each category does, for the warning line.
_SAYS = {
    "delete": "deletes data",
    "wipe": "wipes data",
    "destroy": "destroys what it names",
    "format": "formats a disk or device: what it holds is lost",
    "reset": "resets to factory state: what it holds is lost",
    "revoke": "revokes access or a certificate: it cannot be undone",
    "stop-all": "stops every one it runs",
}
_FORCED_BROAD = {"wipe", "destroy", "format"}  # forced, these are high: nothing asks first
_BROAD_TARGETS = {"root", "home", "system-top", "critical", "dot-critical", "system"}


@lru_cache(maxsize=1)
def table() -> dict:
    """``{program: ((key words, category), …)}``, read from the derived table on first use."""
    from aish.safety.documented_table import ROWS  # lazily: most commands never need it
    out: dict = {}
    for row in ROWS.strip().splitlines():
        prog, key, category = row.split("\t")
        out.setdefault(prog, []).append((tuple(key.split(" ")), category))
    return {prog: tuple(rows) for prog, rows in out.items()}


def rule_documented(c: Ctx) -> Optional[tuple]:
    """A subcommand or option this program's documentation says destroys (one dict lookup for most)."""
    name = c.prog if c.prog in table() else c.prog.lower().removesuffix(".exe")
    rows = table().get(name)
    if not rows or c.prog in READ_ONLY or c.prog in PACKAGE_TOOLS:
        return None
    texts = c.texts
    operands = [t.lower() for t in texts if not t.startswith("-")][:6]
    options = {t.split("=", 1)[0] for t in texts if t.startswith("-")}
    by_word, letters = _rows_by_word()[name]
    # only rows whose last word is given can match (a one-letter option also in a bundle): in table order
    maybe = {k for word in set(operands) | options for k in by_word.get(word, ())}
    if letters and any(t[1:2] != "-" for t in options):
        maybe.update(letters)
    for k in sorted(maybe):
        key, category = rows[k]
        if _matches(key, operands, options):
            return _verdict(c, key, category)
    return None


@lru_cache(maxsize=1)
def _rows_by_word() -> dict:
    """Each program's rows by the word that must be given for them to match (an operand lowered,
    an option as spelled), and its rows of one-letter options, which a bundle (``-af``) also gives."""
    out = {}
    for prog, rows in table().items():
        by_word: dict = {}
        letters = []
        for k, (key, _) in enumerate(rows):
            word = key[-1]
            by_word.setdefault(word if word.startswith("-") else word.lower(), []).append(k)
            if word.startswith("-") and len(word) == 2:
                letters.append(k)
        out[prog] = (by_word, letters)
    return out


def _matches(key: tuple, operands: list, options: set) -> bool:
    """``SUB`` the first operand; ``PARENT SUB`` SUB one of the two operands after PARENT; ``* SUB`` one
    of the first three operands; ``-x``/``--opt`` given (a letter also in a small bundle, ``-af``);
    ``PARENT --opt`` both."""
    *parents, word = key
    if word.startswith("-"):
        if parents and parents[0].lower() not in operands:
            return False
        return word in options or len(word) == 2 and any(
            len(t) <= 4 and t[0] == "-" and t[1:].isalpha() and word[1] in t[1:] for t in options if t[:2] != "--")
    word = word.lower()
    if not parents:
        return operands[:1] == [word]
    if parents[0] == "*":
        return word in operands[:3]
    parent = parents[0].lower()
    if parent not in operands:
        return False
    at = operands.index(parent)  # `X folders web-assets delete`: a name may stand between
    return word in operands[at + 1:at + 3]


def _verdict(c: Ctx, key: tuple, category: str) -> tuple:
    said = " ".join(k for k in key if k != "*")
    texts = c.texts
    broad = any(t.lower() in EVERYTHING for t in texts) or bool(set(texts) & SCOPE_OPTIONS)
    forced = category in _FORCED_BROAD and bool(set(texts) & FORCE_OPTIONS)
    level, where = (HIGH if broad or forced else MEDIUM), ""
    for w in c.args:
        t = w.text
        if t.startswith("-") or not (t.startswith(("/", "~", "$")) or w.has_var):
            continue
        if is_device(t):
            level, where = HIGH, f" on the device {t}"
            break
        kind = target(w)
        if kind.kind in _BROAD_TARGETS:
            level, where = HIGH, f" on {describe(kind)}"
            break
    scope = ", every one it matches" if broad and category != "stop-all" else ""
    return level, f"{c.prog} {said} {_SAYS[category]}{where}{scope}, by its own documentation ({c.text})"
