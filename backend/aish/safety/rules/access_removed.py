"""Effect: a named account's rights on a published package, project or team taken away, in any tool's words.

Removing a package from this machine is quiet by policy (it costs a reinstall, and every everyday corpus has
``apt remove nano``, ``npm uninstall left-pad``), so the vocabulary keeps a package tool's removals quiet
whatever their object.  An owner removed is not a removal from this machine: ``cargo owner -r alice serde``,
``npm owner rm alice left-pad``, ``gem owner mygem --remove alice@example.com`` take from alice, on the
registry, the right to publish the package everyone installs; a maintainer, a collaborator, an uploader or a
member removed loses the same kind of access to what they maintain.  One named account losing access is
what a careful user wants to be told before it happens: medium, naming the account and the thing.

Read for any program from its first words: a noun of access (``owner``, ``maintainer``, ``collaborator``,
``uploader``, ``member``, ``access``, alone or fused: ``hex.owner``, ``access:remove``, ``remove-owner``) and a
verb that removes (``rm``, ``remove``, ``del``, ``delete``, ``revoke``, ``kick``, or the option ``-r`` /
``--remove`` after the noun), with a named operand.  Listing (``owner ls``, ``--list``), adding and help stay
quiet; ``docker compose rm``, ``git remote remove`` name no access noun.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# Who holds a right on a shared thing: the account named after the verb loses it.
_NOUNS = frozenset("owner owners maintainer maintainers collaborator collaborators uploader uploaders member members "
                   "access".split())
_VERBS = frozenset("rm remove del delete revoke kick".split())
_VERB_OPTIONS = frozenset({"-r", "--remove", "--delete", "--revoke"})
_QUIET = frozenset("ls list add grant invite show get --list -l --add -a help".split())
_PIECES = lazy(r"[.:_/-]")
_WORDS_READ = 4  # the noun and the verb stand among the first words (`rebar3 hex owner remove PKG USER`)


@triggered_by(_NOUNS, otherwise=False)
def may_remove_access(c: Ctx) -> bool:
    """Cheap: an access noun among the first words, alone or as a piece of one (`hex.owner`, `access:remove`)."""
    return any(_NOUNS.intersection(_PIECES.split(t.lower())) for t in c.texts[:_WORDS_READ])


def rule_access_removed(c: Ctx) -> Optional[tuple]:
    """``cargo owner -r alice serde``, ``npm owner rm alice pkg``, ``mix hex.owner remove pkg a@x``."""
    texts = c.texts
    for k, word in enumerate(texts[:_WORDS_READ]):
        pieces = _PIECES.split(word.lower())
        noun = next((p for p in pieces if p in _NOUNS), None)
        if noun is None:
            continue
        rest = texts[k + 1:]
        if any(t.lower() in _QUIET for t in rest):
            return None
        if _VERBS.intersection(pieces):  # fused: `access:remove`, `remove-owner`, `members:remove`
            named = [t for t in rest if not t.startswith("-")]
        elif rest and (rest[0].lower() in _VERBS or rest[0] in _VERB_OPTIONS):
            named = [t for t in rest[1:] if not t.startswith("-")]
        elif any(t in _VERB_OPTIONS for t in rest):  # `gem owner mygem --remove alice@example.com`
            named = [t for t in rest if not t.startswith("-")]
        else:
            return None
        if not named:
            return None
        return MEDIUM, f"{c.prog} removes an account's {noun} rights ({' '.join(named[:3])}): it can no longer " \
                       f"publish or manage what it held ({c.text})"
    return None
