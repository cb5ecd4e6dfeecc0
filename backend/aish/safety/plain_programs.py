"""Every command word of a line under the name the rules know, before any rule reads the line: rules
read other segments' words as they are, so a GNU tool under its Homebrew name (``gtee``) or a
rewrite's (``uu-rm``) would otherwise be an unknown program to them."""
from __future__ import annotations

from dataclasses import replace

from aish.safety.program_names import RENAMED_FIRST, plain_name
from aish.safety.unwrap import unwrap


def plain_programs(segs: list) -> None:
    """Give each command word the name the rules know (``gtee`` -> ``tee``, ``uu-rm`` -> ``rm``).

    ``check_words`` judges a segment by its plain name, but rules read other segments' words as they
    are (the ``tee`` after a pipe, the ``find`` before ``-delete``'s pipe): without this, a line that
    names GNU's tools under their Homebrew names is judged as if the tool were unknown."""
    for seg in segs:
        words = seg.words
        if not words or not any(_renamed(w.text) for w in words[:6]):
            continue  # the common case: one cheap look at the first words
        inner = unwrap(words)[0]
        if not inner:
            continue
        first = inner[0]
        base = first.text.rsplit("/", 1)[-1]
        plain = plain_name(base)
        if plain == base:
            continue
        for i, word in enumerate(words):
            if word is first:
                words[i] = replace(first, text=first.text[:len(first.text) - len(base)] + plain)
                break


def _renamed(text: str) -> bool:
    """Does the file name of ``text`` have another plain name (``/opt/homebrew/bin/gtee``)?"""
    base = text.rsplit("/", 1)[-1] if "/" in text else text
    return (base[:1] in RENAMED_FIRST or base[-2:] in ("64", "4a") or base[-4:-1] == "-qt") and \
        plain_name(base) != base  # (plain_name's own first look, without the call for most words)
