"""Case-insensitive patterns that the judge only asks "is it there?", asked quickly.

Python's engine compares a ``re.IGNORECASE`` pattern character by character in both cases and
gives up the literal-prefix shortcuts, so an alternation of words over a command's words
(``stop|halt|shutdown|…``) costs 3-5x the same pattern in lower case.  Most command words are
ASCII, and on ASCII text "the pattern occurs, in any case" is exactly "the lower-case pattern
occurs in the lower-cased text"; other text is searched with the pattern itself.  Only a
yes/no answer is given: a match object over the lowered text would show the wrong case.
"""
from __future__ import annotations

import re
from aish.safety.lazy_regex import lazy

# What the lowering would change: escapes whose meaning has a case (\B \D \S \W \A \Z) or that name a
# character by number (\x41 is "A" only), inline flags, and ranges with an upper-case end (`[A-z]`
# takes `_` and `^` too; lowered to `[a-z]` it would not).  A pattern must also be ASCII: under
# IGNORECASE a long s (U+017F) matches "s", which no lowering reproduces.
_CASE_MATTERS = lazy(r"\\[A-Z0-9xu]|\(\?[aiLmsux-]|[A-Z]-|-[A-Z]")


class AnyCase:
    """``re.compile(pattern, re.IGNORECASE)``, for ``occurs_in`` (search) and ``starts`` (match)."""

    __slots__ = ("pattern", "_any", "_lower")

    def __init__(self, pattern: str) -> None:
        if _CASE_MATTERS.search(pattern) or not pattern.isascii():
            raise ValueError(f"the case of this pattern's escapes or ranges matters: {pattern!r}")
        self.pattern = pattern
        self._any = lazy(pattern, re.IGNORECASE)  # compiled on first use: most are never asked on a given run
        self._lower = lazy(pattern.lower())

    def occurs_in(self, text: str) -> bool:
        if text.isascii():
            return self._lower.search(text.lower()) is not None
        return self._any.search(text) is not None

    def starts(self, text: str) -> bool:
        if text.isascii():
            return self._lower.match(text.lower()) is not None
        return self._any.match(text) is not None


class AnyWord:
    """Literal words, any of which may occur in a text in any case: the yes/no of their case-insensitive
    alternation (``self.pattern``), answered on ASCII text with one substring test per word of the lowered
    text (an alternation tried at every position of a command's line cost ~1% of judging it); other text
    is searched with the pattern itself (under IGNORECASE a long s, U+017F, matches "s")."""

    __slots__ = ("words", "pattern")

    def __init__(self, *words: str) -> None:
        if not words or not all(w and w.isascii() for w in words):
            raise ValueError("AnyWord needs ASCII words")
        self.words = tuple(dict.fromkeys(w.lower() for w in words))
        self.pattern = lazy("|".join(re.escape(w) for w in self.words), re.IGNORECASE)

    def occurs_in(self, text: str) -> bool:
        if text.isascii():
            low = text.lower()
            for word in self.words:
                if word in low:
                    return True
            return False
        return self.pattern.search(text) is not None
