"""Regular expressions compiled the first time they are used.

The redactor's rules (``secret_*``) hold about a hundred patterns, each tried only where a
literal it needs was found (``str.find`` first, then the pattern in a window).  Compiled at
import they cost ~10 ms of CPU that a cold daemon spent before its first answer, for texts
(a short question, the system prompt) that most of them are never tried on.  Compiled on
first use, every rule still runs on every text: only the moment it is compiled moves.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Callable, Iterator, Optional, Union


class LazyRegex:
    """``re.compile(pattern, flags)``, made on the first call (two threads may both compile
    it once; either result is the same pattern)."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: Optional[re.Pattern[str]] = None

    @property
    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self.flags)
        return compiled

    @property
    def groupindex(self) -> Any:
        return self.compiled.groupindex

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Optional[re.Match[str]]:
        return (self._compiled or self.compiled).match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Optional[re.Match[str]]:
        return (self._compiled or self.compiled).fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Optional[re.Match[str]]:
        return (self._compiled or self.compiled).search(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return (self._compiled or self.compiled).finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return (self._compiled or self.compiled).findall(string, pos, endpos)

    def sub(self, repl: Union[str, Callable[[re.Match[str]], str]], string: str, count: int = 0) -> str:
        return (self._compiled or self.compiled).sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[Any]:
        return (self._compiled or self.compiled).split(string, maxsplit)


def lazy(pattern: str, flags: int = 0) -> LazyRegex:
    return LazyRegex(pattern, flags)
