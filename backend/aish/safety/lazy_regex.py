"""Regular expressions compiled the first time they are used.

The redactor's rules (``secret_*``) hold about a hundred patterns, each tried only where a
literal it needs was found (``str.find`` first, then the pattern in a window).  Compiled at
import they cost ~10 ms of CPU that a cold daemon spent before its first answer, for texts
(a short question, the system prompt) that most of them are never tried on.  Compiled on
first use, every rule still runs on every text: only the moment it is compiled moves.

The judge's rule modules hold ~750 more, most of them behind a word or name that few commands
have: compiled at import they were two thirds of importing the judge (131 of 195 ms of CPU).
The ~90 that more than one command in ten asks stay ``re.compile``: a lazy pattern's method is a
slot read, a little slower to call than a compiled pattern's (~2.5% of a 2,000-argument ``rm``),
and those are compiled within the first commands anyway.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional


class LazyRegex:
    """``re.compile(pattern, flags)``, made on the first call (two threads may both compile
    it once; either result is the same pattern).

    The judge asks its patterns about ten times a command: a method of this class in between
    would be a Python call each time, so once compiled, the pattern's own methods are bound in
    this object's slots (``lazy.search`` is then ``compiled.search``, a C call).  Before that,
    the slots are empty and reading one falls through to ``__getattr__``, which compiles first.
    (They held a ``functools.partial`` each until then: with the rules' ~750 patterns lazy, that
    was ~10,000 more objects for every full pass of the garbage collector to walk.)"""

    __slots__ = ("pattern", "flags", "_compiled", "match", "fullmatch", "search", "finditer", "findall", "sub",
                 "split")
    match: Callable[..., Optional[re.Match[str]]]
    fullmatch: Callable[..., Optional[re.Match[str]]]
    search: Callable[..., Optional[re.Match[str]]]
    finditer: Callable[..., Iterator[re.Match[str]]]
    findall: Callable[..., list[Any]]
    sub: Callable[..., str]
    split: Callable[..., list[Any]]

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: Optional[re.Pattern[str]] = None

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise take any attribute of this class as valid
        def __getattr__(self, name: str) -> Any:
            """Only reached for an empty slot (a method, before the first use): compile, then answer."""
            if name in _METHODS:
                return getattr(self.compiled, name)
            raise AttributeError(name)

    @property
    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = re.compile(self.pattern, self.flags)
            for name in _METHODS:
                setattr(self, name, getattr(compiled, name))
            self._compiled = compiled
        return compiled

    @property
    def groupindex(self) -> Any:
        return self.compiled.groupindex


_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "split")

# ``re`` keeps the patterns it compiled in a cache of 512, dropping the oldest when full; the judge gives it ~2,200
# (its ~1,300 lazy patterns enter it when compiled, ~1,000 more are passed to ``re.search`` and the like as text), so
# a pass over the corpora compiled ~7 patterns again every 100 lines, each ~100x a line's own cost.  Sized for them,
# nothing is compiled twice; a pattern is a few KB, and only those asked are kept.
RE_CACHE = 4096
if getattr(re, "_MAXCACHE", RE_CACHE) < RE_CACHE:
    re._MAXCACHE = RE_CACHE  # type: ignore[attr-defined]


def lazy(pattern: str, flags: int = 0) -> LazyRegex:
    return LazyRegex(pattern, flags)
