"""Effect: a manager's destructive verb given no target, for programs no rule names.

With a name, ``pueue kill 12`` or ``zappa undeploy dev`` acts on one thing (and the vocabulary
judges the name); with none, the verb takes everything the program manages: a bare ``kill``
ends every task or process it runs (``pueue kill``, ``airmon-ng``-style ``check kill``), a bare
``undeploy`` takes the whole application down (``mvn wildfly:undeploy``), a deleting option with
no operand deletes whatever the program finds where it runs (``clamdscan --remove``), and a
retention that keeps none (``--keep 0`` with a clean or prune) deletes every snapshot or backup.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_KILLS = frozenset({"kill", "killall", "kill-all"})
_KILL_SCOPES = frozenset({"--all", "-a", "--group", "-g", "--every"})
_BARE_DELETES = frozenset({"--remove", "--delete", "-remove", "-delete"})
_PRUNES = frozenset({"clean", "cleanup", "prune", "forget", "expire", "purge", "delete", "remove", "rotate"})
_KEEP = lazy(r"^--?keep(?:-[a-z]+)*$|^-k$")
_KEEP_ZERO = lazy(r"^--?keep(?:-[a-z]+)*=0+$")


@triggered_by(_KILLS, _BARE_DELETES, "0", "undeploy", "=0")
def rule_bare_verb(c: Ctx) -> Optional[tuple]:
    """A bare ``kill`` or ``undeploy``, a deleting option with no operand, a retention of zero."""
    texts = c.texts
    if not texts or c.prog == "kill" or c.prog in READ_ONLY:
        return None
    if not (_KILLS.intersection(texts[:6]) or _BARE_DELETES.intersection(texts) or "0" in texts or
            any("undeploy" in t or "=0" in t for t in texts)):
        return None  # none of the words these classes read
    words = _subcommands(texts)
    kill = next((w for w in words[:2] if w in _KILLS), None)
    # first on the line, a bare kill may end only the program's own daemon (`buck2 kill`): a scope must say more
    if kill is not None and not _operands_after(texts, kill) and \
            (words[0] != kill or set(texts) & _KILL_SCOPES):
        return MEDIUM, f"{c.prog} {kill} with no target ends every task or process it manages ({c.text})"
    undeploy = next((w for w in words[:2] if w == "undeploy" or w.endswith(":undeploy")), None)
    if undeploy is not None and not _operands_after(texts, undeploy) and \
            all(t.startswith("-D") or t in ("-v", "--verbose") for t in texts if t.startswith("-")):
        # (an option may name what is undeployed or how: `--pkcon` removes packages from a device)
        return MEDIUM, f"{c.prog} {undeploy} with no name takes the whole deployed application down ({c.text})"
    if not words and c.prog.isascii():
        bare = next((t for t in texts if t in _BARE_DELETES), None)
        if bare is not None and not c.xargs and not any(w.subs for w in c.args):
            return MEDIUM, f"{c.prog} {bare} with no path deletes whatever it finds where it runs ({c.text})"
    if _keeps_none(texts, words):
        return MEDIUM, f"{c.prog} keeps none: every snapshot or backup it manages is deleted ({c.text})"
    return None


def _subcommands(texts: list) -> list:
    """The leading words that are neither options nor an option's value (``-X kill``: a value)."""
    out = []
    for k, t in enumerate(texts):
        if t.startswith("-") or k and texts[k - 1].startswith("-") and len(texts[k - 1]) == 2:
            continue
        out.append(t)
        if len(out) == 3:
            break
    return out


def _operands_after(texts: list, word: str) -> list:
    """Names after ``word``: words that are not options nor an option's value (a number is a name)."""
    at = texts.index(word)
    return [t for k, t in enumerate(texts[at + 1:], at + 1)
            if t != "--" and not t.startswith("-") and not _is_value(texts[k - 1], t)]


# Long options that take a value (a flag such as `--children` is followed by a name).
_VALUED = frozenset({"--signal", "--group", "--timeout", "--namespace", "--config", "--host", "--port", "--url",
                     "--context", "--profile", "--env", "--stage", "--region"})


def _is_value(before: str, word: str) -> bool:
    """Is ``word`` the value of the option ``before`` (``-s KILL``, ``--group builds``)?  A number is a name."""
    if word.isdigit() or not before.startswith("-"):
        return False
    return len(before) == 2 or before.split("=")[0] in _VALUED and "=" not in before


def _keeps_none(texts: list, words: list) -> bool:
    """``--keep 0``, ``-k 0``, ``--keep-last=0`` on a line that cleans, prunes or forgets."""
    if "0" not in texts and not any("=0" in t for t in texts):
        return False
    zero = any(_KEEP_ZERO.match(t) for t in texts) or \
        any(_KEEP.match(t) and k + 1 < len(texts) and texts[k + 1] == "0" for k, t in enumerate(texts))
    return zero and any(w.lstrip("-") in _PRUNES for w in words + [t for t in texts if t.startswith("-")])
