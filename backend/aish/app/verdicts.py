"""The local safety verdict of a suggested command, kept per exact input (issue 26).

Why: every answer's commands are judged before they reach the shell, and the judgement
(``safety.assess``: the parse, every rule of the program, the pipes and substitutions) was
the largest single share of an ask's own work after the stream: ~15% of the request
thread at 50 shells.  The same suggestion recurs, across the turns of one conversation and
across the shells of one user (``lsof -ti tcp:8080 | xargs kill``), and its verdict is a
pure function of what the judge reads: the command's text, the shell's cwd, and the
daemon's own ``HOME``, ``USER`` and ``USERNAME`` (whose home is "yours").  Those are the
key: any other input is judged afresh.  ``tests/app/test_verdicts.py`` holds the safety
package to that (the variables it reads, and no file, clock or process it looks at), so a
rule that starts reading something else fails there rather than being served stale.

The check for a second opinion's case (``opinions.unknown_writer``: an unflagged command that
runs a program no rule knows with write-looking words) is kept the same way, by the command
alone: it reads the text and the rules' tables, and with a local default model it ran for every
unflagged suggestion (``ls``, ``git status``), a parse of its own each time.

The rules themselves do not change while a daemon runs (an install that changes restarts
it); the cache is bounded (least recently used first out) and holds short commands only.
What a flagged command would touch (the preview) reads the file system and is never kept;
the second opinion has its own cache (``safety/opinions.py``).
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any, Callable, Optional

from aish.safety import assess as safety

ENV_READ = ("HOME", "USER", "USERNAME")  # the daemon's variables the rules read (tests/app/test_verdicts.py)
MAX_KEPT = 1024  # verdicts kept (a few hundred bytes each)
MAX_KEPT_CHARS = 4096  # longer commands are judged every time (rare, and a key that size is a copy)


class _Kept:
    """A bounded map of judgements, least recently used out first; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple, Any] = OrderedDict()

    def get(self, key: tuple, judge: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        found = judge()  # not under the lock: other shells' commands go on
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > MAX_KEPT:
                self._kept.popitem(last=False)
        return found

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_verdicts = _Kept()
_writers = _Kept()


def assess(command: str, cwd: str = "") -> Optional[safety.Verdict]:
    """``safety.assess(command, cwd)``, judged once per exact (command, cwd, environment)."""
    if len(command) > MAX_KEPT_CHARS:
        return safety.assess(command, cwd=cwd)
    environ = os.environ
    key = (command, cwd, *(environ.get(name) for name in ENV_READ))
    return _verdicts.get(key, lambda: safety.assess(command, cwd=cwd))


def unknown_writer(command: str) -> bool:
    """``opinions.unknown_writer(command)`` (does an unflagged command run a program no rule
    knows, with write-looking words: a second opinion's case), once per command: it reads the
    text and the rules' tables only, and runs for every unflagged suggestion when the default
    model is local."""
    from aish.safety import opinions

    if len(command) > MAX_KEPT_CHARS:
        return opinions.unknown_writer(command)
    return bool(_writers.get((command,), lambda: opinions.unknown_writer(command)))


def forget() -> None:
    """Drop every kept judgement (tests; a daemon never needs to)."""
    _verdicts.clear()
    _writers.clear()
