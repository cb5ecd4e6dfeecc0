"""A stop undone on the same line: ``net stop wuauserv && … && net start wuauserv`` is a restart.

Answers stop a thing to work on it and start it again: Windows Update's fix (``net stop wuauserv``, clear its
downloads, ``net start wuauserv``), a lease released and renewed (``dhclient -r && dhclient``, ``ipconfig
/release && ipconfig /renew``), an interface taken down and up, swap off and on, a service stopped while its
files are replaced. Each command judged alone said "stops wuauserv: updates stop" or "the machine drops off the
network", which is what the line does not do: a later command, run only when the stop has run (``&&``, ``;``, a
new line), starts the very same thing again. Such a stop is not judged; every other command of the line is.

The same thing means the same program and words, with the stopping word swapped for its opposite (``stop`` for
``start``, ``down`` for ``up``, ``/release`` for ``/renew``, ``Stop-Service`` for ``Start-Service``, ``dhclient
-r`` for ``dhclient``), in any case, with a service's ``.service`` suffix or ``sudo`` in front or not, and options
aside (``-Confirm:$false``, ``-Force``; an option's value stays a word, so ``docker stop -t 0 web`` needs its own).
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import lazy
from aish.safety.shell_words import Segment
from aish.safety.unwrap import unwrap

# a stopping word -> the word that undoes it ("" : the word is dropped, `dhclient -r eth0` -> `dhclient eth0`)
_UNDONE_BY = {"stop": "start", "down": "up", "disable": "enable", "unload": "load", "off": "on",
              "bootout": "bootstrap", "/release": "/renew", "/release6": "/renew6", "ifdown": "ifup",
              "swapoff": "swapon", "stop-service": "start-service", "disable-netadapter": "enable-netadapter",
              "stop-vm": "start-vm", "suspend": "resume", "pause": "unpause", "deactivate": "activate"}
_DROPPED = {"dhclient": frozenset({"-r", "-x"}), "dhcpcd": frozenset({"-k", "-x"})}
# every stopping word above holds one of these (a line with none has no stop to undo: one search, not a parse)
_MAY_STOP = lazy(r"stop|down|disable|unload|off|bootout|release|suspend|pause|deactivate|dhc", re.IGNORECASE)
_THEN = frozenset({"&&", ";", "\n"})  # run after the stop, once it has run (not `|`, `||`, `&`)


def _words(seg: Segment) -> tuple:
    words = unwrap(seg.words)[0]
    return tuple(w.text.lower().removesuffix(".service").strip("'\"") for w in words)


def _undone(words: tuple) -> "tuple | None":
    """The command that starts again what ``words`` stops, or None when they stop nothing this knows."""
    if not words:
        return None
    dropped = _DROPPED.get(words[0].rsplit("/", 1)[-1])
    if dropped and dropped.intersection(words[1:]):
        return tuple(w for w in words if w not in dropped)
    for k, word in enumerate(words[:6]):
        if word in _UNDONE_BY:
            return words[:k] + (_UNDONE_BY[word],) + words[k + 1:]
    return None


def _named(words: tuple) -> tuple:
    """The words without options: `-Confirm:$false`, `-Force`, `--now` do not change what is stopped or started."""
    return tuple(w for w in words if not w.startswith("-"))


def restarted(segs: list, text: str) -> frozenset:
    """Indices of the commands of ``segs`` (the line ``text``) that a later command, run after them, starts again."""
    if len(segs) < 2 or not _MAY_STOP.search(text):
        return frozenset()
    words = [_words(seg) for seg in segs]
    found = set()
    for i, stops in enumerate(words[:-1]):
        again = _undone(stops)
        if again is None:
            continue
        again = _named(again)
        for j in range(i + 1, len(segs)):
            if segs[j].link not in _THEN:
                break  # `a | b`, `a || b`, `a & b`: the start may not follow the stop
            if _named(words[j]) == again:
                found.add(i)
                break
    return frozenset(found)
