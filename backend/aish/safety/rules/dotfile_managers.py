"""Effect: the user's dotfiles in home replaced by a dotfile manager told not to ask.

Dotfile managers write into home itself.  Told to force (``chezmoi apply --force``, ``rcup -f``,
``homeshick link --force``, ``mise dotfiles apply --force``, ``dotter deploy --force``, ``stow
--adopt``/``--override``), they replace start-up files and settings that changed locally without a
question.  The git-based ones are git with home as the working tree: ``yadm reset --hard``,
``yadm checkout -- ~``, ``vcsh zsh clean -fdx`` are judged as the same git command, in home.
Applying without force (they ask), diffs, status and dry runs stay quiet.
"""
from __future__ import annotations

import shlex
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx

# manager -> the verbs that write into home (None: the bare command does)
_WRITERS: dict = {"chezmoi": {"apply", "init", "update", "install"}, "rcup": None, "homeshick": {"link"},
                  "homesick": {"link"}, "dotter": {"deploy"}, "dotbot": None, "mise": {"dotfiles"},
                  "stow": None, "xstow": None, "dotdrop": {"install"}, "tuckr": {"add", "set"},
                  "mackup": {"restore", "link"}}
_FORCE = {"--force", "-f", "--adopt", "--override", "--overwrite", "-F", "--force-overwrite"}
_GIT_WRAPPERS = {"yadm", "vcsh"}


def rule_dotfiles_forced(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if c.prog in _GIT_WRAPPERS:  # home is the working tree: `~` is `.`
        rest = texts[1:] if c.prog == "vcsh" and texts and not texts[0].startswith("-") else texts
        if not rest:
            return None
        found = c.recurse("git " + " ".join(shlex.quote("." if t in ("~", "~/", "$HOME") else t) for t in rest))
        if found is None:
            return None
        return found[0], f"{found[1]}, over your dotfiles in home"
    verbs = _WRITERS.get(c.prog, ())
    if verbs == ():
        return None
    if verbs is not None and not any(t in verbs for t in texts[:2]):
        return None
    if c.prog == "stow" and not {"--adopt", "--override"} & {t.split("=", 1)[0] for t in texts}:
        return None  # stow refuses to replace a file it does not own
    if any(t.split("=", 1)[0] in _FORCE or (t.startswith("-") and not t.startswith("--") and "f" in t[1:])
           for t in texts if c.prog != "stow" or t.startswith("--")):
        return MEDIUM, f"{c.prog} replaces your dotfiles in home without asking ({c.text})"
    return None


RULES: dict = {p: [rule_dotfiles_forced] for p in list(_WRITERS) + list(_GIT_WRAPPERS)}
