"""Effect: the next boot chosen or armed to be unsafe by a boot tool no rule names.

``boot_args`` knows the kernel command-line words that boot into a root shell or with a protection off;
``grubby``, ``kernelstub`` and the boot loader's files are read with them.  Other boot tools take the same
words in options of their own, and choose a rescue entry by its title:

- a command line appended, added or replaced through an option named for it (``kernelctl --append
  'init=/bin/sh'``, ``--add-args``, ``--kargs``, ``--cmdline``, ``--kernel-args``, ``--boot-args``,
  ``--kopts``) holding such a word;
- the default or next boot set to a rescue, recovery, emergency or single-user entry (``bootctl set-default
  rescue.conf``, ``grub-set-default '…(recovery mode)'``, ``grub2-reboot 'rescue'``, ``bootadm set-menu
  default=rescue``, ``grub-editenv - set next_entry=rescue``): whoever is at the console gets a root shell.

Removing those words, listing entries and choosing an ordinary entry stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.boot_args import RISKY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_ARG_OPTIONS = LazyRegex(r"^--?(append|args|add[-_]?args|append[-_]?args|kargs|cmdline|kernel[-_]?(args|opts|"
                         r"cmdline|options)|boot[-_]?(args|options)|kopts|extra[-_]?args|set[-_]?args)$",
                         re.IGNORECASE)
_DEFAULT_VERBS = LazyRegex(r"set[-_]?default|set[-_]?oneshot|reboot|next[-_]?boot|default|set[-_]?menu|"
                           r"bootnext|once", re.IGNORECASE)
_RESCUE = LazyRegex(r"rescue|recovery mode|\(recovery|recovery environment|winre|emergency|single[-_ ]?user|"
                    r"safe[-_ ]?mode",
                    re.IGNORECASE)
_ENTRY_KEY = LazyRegex(r"^(next_entry|saved_entry|default|bootnext|next)=", re.IGNORECASE)
_WORDS = ("init=", "rd.", "systemd.", "single", "selinux=", "apparmor=", "enforcing=", "security=", "lockdown=",
          "mitigations=", "root=", "audit=", "rescue", "recovery", "emergency", "safe")


@triggered_by(_WORDS, otherwise=False)
def may_choose(c: Ctx) -> bool:
    """Cheap: a risky boot word or a rescue entry's word in the line."""
    line = c.prog.lower() + " " + c.lowered
    return bool(c.texts) and any(w in line for w in _WORDS)


def rule_boot_choice(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    if any(t.startswith(("--remove", "--delete", "-r", "--del")) for t in low):
        return None
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if not eq and k + 1 < len(texts):
            value = texts[k + 1]
        if _ARG_OPTIONS.match(name):
            risky = RISKY.search(value)
            if risky:
                return MEDIUM, f"{c.prog} {name} {risky.group(0).strip()}: the next boot is unsafe ({c.text})"
    chooser = _DEFAULT_VERBS.search(c.prog) or any(_DEFAULT_VERBS.fullmatch(t.lstrip("-")) for t in low)
    if set(low) & {"list", "--list", "-l", "show", "status"}:
        return None
    if chooser:
        entry = next((t for t in texts if not t.startswith("-") and _RESCUE.search(t)), None)
    else:  # `grub-editenv - set next_entry=rescue`: the entry named by the environment block's key
        entry = next((t for t in texts if _ENTRY_KEY.match(t) and _RESCUE.search(t)), None)
    if entry:
        entry = entry if len(entry) <= 40 else "…" + entry[-39:]
        return MEDIUM, f"{c.prog} boots into {entry}: whoever is at the console gets a root shell ({c.text})"
    return None
