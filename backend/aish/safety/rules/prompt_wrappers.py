"""Effect: a command that asks for a password redefined so that what is typed is caught.

An alias named ``sudo``, ``su``, ``doas``, ``pkexec``, ``ssh``, ``passwd``, ``kinit``, ``runas``… is the next
thing the user types a secret into.  Aliases that add options (``alias sudo='sudo -E'``), swap in an equivalent
(``alias sudo=doas``) or wrap the command in a terminal's helper (``alias ssh='kitty +kitten ssh'``) are
everyday.  What an administrator refuses is an alias whose body

- runs a program kept in a temporary or hidden place (``alias su=/tmp/.u/su``, ``~/.cache/.d/doas``,
  ``C:\\Users\\Public\\r.exe``): something dropped there stands in for the real prompt;
- prompts for the password itself (``read -s``) before or instead of the real command;
- wraps the real command in a recorder of what passes through it (``strace``, ``ltrace``, ``script``, ``tee``).

Read where the alias is made (bash's and zsh's ``alias NAME=BODY``, fish's ``alias NAME BODY``, PowerShell's
``Set-Alias``/``New-Alias``) and, through ``meaning``'s start-up files, where ``echo``, ``printf`` or ``tee -a``
put one into ``~/.bashrc`` and its kin.  Medium: nothing is lost yet; the next password typed is.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.autostart_writable import open_place
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.run_files import dropped_program
from aish.safety.winpaths import typed_text

# Commands the user types a password, passphrase or ticket into.
_PROMPTING = frozenset({"sudo", "su", "doas", "pkexec", "run0", "sudoedit", "ssh", "scp", "sftp", "passwd",
                        "kinit", "ssh-add", "runas", "login", "gpg", "ksu", "ftp"})
_PROMPTS_ITSELF = lazy(r"\bread\s+(-\w*s\w*\s+)*-\w*s|\bread\s+-s\b|Read-Host\s+.*-AsSecureString", re.IGNORECASE)
_RECORDERS = frozenset({"strace", "ltrace", "script", "tee", "ttyrec", "asciinema"})
_PREFIXES = frozenset({"command", "builtin", "exec", "env", "nohup"})


def _first_program(body: str) -> str:
    """The program a body starts with, after assignments and ``command``/``env``."""
    for word in body.replace(";", " ; ").split():
        if "=" in word and not word.startswith(("-", "/")) or word in _PREFIXES:
            continue
        return re.split(r"[\\/]", word.strip("'\""))[-1].lower()
    return ""


def caught_by(body: str) -> str:
    """How an alias body catches what is typed into the command it stands for ('' if it does not)."""
    body = body.strip().strip("'\"")
    if _PROMPTS_ITSELF.search(body):
        return "asks for the password itself first"
    if _first_program(body) in _RECORDERS or re.search(r"\|\s*tee\b", body):
        return f"records what passes through it ({_first_program(body) or 'tee'})"
    place = open_place(body, False) or dropped_program(body)
    return f"runs {place} in its place" if place else ""


def _alias_pairs(c: Ctx) -> list:
    """(name, body) of each alias the command makes."""
    prog = c.prog.lower()
    typed = [typed_text(w) for w in c.args]
    if prog == "alias":
        pairs = [tuple(t.split("=", 1)) for t in typed if "=" in t and not t.startswith("-")]
        if not pairs and len(typed) >= 2 and not typed[0].startswith("-"):
            pairs = [(typed[0], " ".join(typed[1:]))]  # fish: `alias NAME BODY`
        return pairs
    lowered = [t.lower() for t in typed]
    named = {lowered[k]: typed[k + 1] for k in range(len(typed) - 1) if lowered[k] in ("-name", "-value")}
    bare = [t for k, t in enumerate(typed) if not t.startswith("-") and (k == 0 or not typed[k - 1].startswith("-"))]
    name = named.get("-name") or (bare[0] if bare else "")
    value = named.get("-value") or (bare[1] if len(bare) > 1 else bare[0] if bare and "-name" in named else "")
    return [(name, value)] if name and value else []


def rule_prompt_caught(c: Ctx) -> Optional[tuple]:
    """An alias for a password-taking command that catches what is typed (see the module's doc)."""
    for name, body in _alias_pairs(c):
        base = name.lower().removesuffix(".exe")
        how = caught_by(body) if base in _PROMPTING else ""
        if how:
            return MEDIUM, f"{name} now {how}: the next password typed into {name} is caught ({c.text})"
    return None


RULES: dict = {p: [rule_prompt_caught] for p in ("alias", "set-alias", "new-alias", "sal", "nal")}
