"""Effect: a Windows tool's slash verb that takes something away, applied to every item at once.

Windows' tools name the action in a switch and the scope in its value or another switch; one named item, or
the caller's own (``net use Z: /delete``, ``net use * /delete``: mapped drives, mapped again with one command;
``bitsadmin /reset``: the caller's own transfers), is an everyday chore; the verb given ``*`` itself or beside
``/all``/``/allusers``/``/a`` takes every one away under everyone using them: ``bitsadmin /reset /allusers``
(every user's transfers), ``cmdkey /delete:*`` (every stored credential), ``openfiles /disconnect /a *``,
``vssadmin delete shadows /all``, a tool's ``/cancel /all``.  The verb is read by the vocabulary's strengths
(``verb_words.strength``: delete, remove, reset, purge, clear, kill, cancel…; and disconnect); ``/query``-like
switches name no verb and stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word, strength

_SWITCH = lazy(r"^/([a-z][a-z-]{2,})(:(.*))?$")
_ALL_SWITCHES = frozenset({"/all", "/allusers", "/a", "/everyone"})
_ALL_OPERANDS = frozenset({"*", "*.*"})
_NOT_TAKING = frozenset({"disconnect"})  # read below: strength() does not know it


@triggered_by((":*", "/a"), otherwise=False)
def may_span_all(c: Ctx) -> bool:
    """Cheap: a star given to a switch, or an all-switch among the words (not a path that starts ``/a``)."""
    low = c.lowered
    return ":*" in low or "/a" in low and any(t.lower() in _ALL_SWITCHES for t in c.texts)


def _taking(word: str) -> bool:
    return word in _NOT_TAKING or any(strength(p) >= 1 for p in split_word(word))


def rule_slash_over_all(c: Ctx) -> Optional[tuple]:
    low = [t.lower() for t in c.texts[:64]]
    verb = ""
    for t in low:
        m = _SWITCH.match(t)
        if m and _taking(m.group(1)):
            verb = t
            if m.group(3) in _ALL_OPERANDS:
                break
    if not verb:
        return None
    # A star given to the verb itself (`/delete:*`) or an all-users switch; a star operand beside it is often the
    # caller's own connections (`net use * /delete`: mapped drives, mapped again with one command) or files
    # (`icacls * /reset`: a repair), and stays quiet.
    scoped = verb.partition(":")[2] in _ALL_OPERANDS or any(t in _ALL_SWITCHES for t in low)
    if scoped:
        return MEDIUM, f"{c.prog} {verb} over every item: all of them go at once, under everyone using them ({c.text})"
    return None
