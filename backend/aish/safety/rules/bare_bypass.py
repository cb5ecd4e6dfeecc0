"""Effect: an action told not to ask by a bare word, for programs no rule names.

Storage controllers' and appliances' CLIs take their confirmation bypass as a plain word after the
action (``arcconf task start 1 device 0 3 clear noprompt``, ``storcli /c0/v0 start init full force``,
``sas2ircu 0 delete noprompt``), and the action can stand anywhere in a long address of controller,
device and unit numbers, past the words the vocabulary reads.  The bypass word is there because the
program would otherwise ask: an acting verb before it (clear, delete, initialize, format, reset...) on
anything not cheap is what the question was about.  ``cache clear noprompt`` (a cache) and ``config show
noprompt`` (no acting verb) stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word
from aish.safety.verb_words import strength as verb_strength
from aish.safety.verbs import LIGHT_NOUNS

_BYPASS = frozenset({"noprompt", "forced", "force", "noconfirm", "nowarn", "nowarning", "confirm=true",
                     "confirm=yes", "confirm=1", "force=true", "force=yes"})
# Verbs a controller's action is said with that the vocabulary does not count alone.
_ACTIONS = frozenset({"initialize", "init", "format", "clear", "erase", "reset", "flush", "delete", "del", "remove",
                      "destroy", "wipe", "purge", "sanitize", "secureerase", "kill", "clean"})
_LOOKED_BACK = 6  # words before the bypass that may hold the action


@triggered_by(_BYPASS)
def rule_bare_bypass(c: Ctx) -> Optional[tuple]:
    """``… clear noprompt``, ``… start init full force``: an acting verb, then a bare word that skips the question."""
    texts = c.texts
    if c.prog in READ_ONLY:
        return None
    at = next((k for k, t in enumerate(texts) if t.lower() in _BYPASS), None)
    if at is None or at == 0:
        return None
    before = [t for t in texts[max(0, at - _LOOKED_BACK):at] if not t.startswith("-")]
    for word in reversed(before):
        parts = split_word(word.lower())
        verb = next((p for p in parts if p in _ACTIONS or verb_strength(p) >= 3), None)
        if verb is None:
            continue
        if any(p in LIGHT_NOUNS for t in before for p in split_word(t.lower())):
            return None  # `cache clear noprompt`: something cheap
        return MEDIUM, f"{c.prog} {verb}, told not to ask ({texts[at]}): what it acts on goes ({c.text})"
    return None
