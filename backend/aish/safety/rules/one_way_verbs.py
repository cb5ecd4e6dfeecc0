"""Effect: verbs that cannot be taken back, said in words the delete vocabulary does not hold.

On a chain, closing an account or program deletes it and exiting a validator is final: ``solana
program close ID``, ``solana program close --buffers``, ``spl-token close``, any ``validator exit``
or ``voluntary-exit`` (``lighthouse account validator exit``, ``ethdo validator exit``, ``prysmctl
validator exit``).  A version-control tool other than git told to delete its main line (``dolt branch
-D main``, ``jj bookmark delete main``, ``hg bookmark -d master``, ``sl bookmark -d main``), and
``expunge`` told not to ask (``vagrant plugin expunge --force``).  Showing, listing, closing a file
and deleting a feature branch stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import HIGH, MEDIUM, Ctx

_CLOSABLE = frozenset("program programs account accounts buffer buffers vault escrow stake nonce mint token "
                      "channel channels position".split())
_EXITS = frozenset({"exit", "voluntary-exit", "voluntary_exit", "voluntaryexit"})
_BRANCH_NOUNS = frozenset({"branch", "bookmark", "bookmarks", "channel", "ref", "line"})
_BRANCH_DELETES = frozenset({"-d", "-D", "--delete", "delete", "del", "rm", "remove", "forget", "-df", "-Df"})
_MAIN_LINES = lazy(r"^(main|master|trunk|default|production|prod|release|stable|develop|mainline)$", 0)
_NO_ASK = frozenset({"--force", "-f", "--yes", "-y"})


def rule_one_way(c: Ctx) -> Optional[tuple]:
    """A close or exit on a chain, the main line deleted, an expunge without asking."""
    texts = c.texts
    ops = [t.lower() for t in texts if not t.startswith("-")][:6]
    for k, t in enumerate(ops):
        if t in _EXITS and k and ops[k - 1] in ("validator", "validators", "account") or \
                t in ("voluntary-exit", "voluntary_exit"):
            return HIGH, f"{c.prog} {t}: the validator leaves for good, its stake cannot rejoin ({c.text})"
        if t == "close" and k and ops[k - 1] in _CLOSABLE and (k + 1 < len(ops) or set(texts) &
                                                                 {"--buffers", "--bypass-warning", "--all"}):
            return MEDIUM, f"{c.prog} {ops[k - 1]} close deletes the {ops[k - 1]} on chain, for good ({c.text})"
        if t == "expunge" and set(texts) & _NO_ASK:
            return MEDIUM, f"{c.prog} expunge --force removes all of them without asking ({c.text})"
    if c.prog.lower() == "git":
        return None  # git's branches have their own rules
    for k, t in enumerate(texts[:-2]):
        if t.lower() in _BRANCH_NOUNS and texts[k + 1] in _BRANCH_DELETES:
            main = next((n for n in texts[k + 2:] if _MAIN_LINES.match(n)), None)
            if main is not None:
                return MEDIUM, f"{c.prog} {t} {texts[k + 1]} deletes {main}, the main line ({c.text})"
    return None


_MAY = lazy(r"(^| )(exit|voluntary[-_]?exit|close|expunge|branch|bookmarks?|channel|ref|line)( |$)", 0)


@triggered_by(_MAY, otherwise=False)
def may_be_one_way(c: Ctx) -> bool:
    return bool(_MAY.search(c.lowered))
