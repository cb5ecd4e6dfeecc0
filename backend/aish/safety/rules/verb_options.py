"""Effect: a program told by an option that its action is to uninstall, unconfigure or delete, for any program.

Installers, setup programs, deployment scripts and agents take their action as an option, not a subcommand:
``--uninstall`` (an agent's ``oneagentctl --uninstall``, a product's ``install.sh --uninstall``), ``-deconfig`` and
``--unconfigure`` (a cluster's or an appliance's configuration taken down), Windows' ``/forceremoval``, and a key
naming the action given a removing value: ``/ACTION=Uninstall``, ``/mode:uninstall``, ``-verb:delete``,
``-operation:delete``, ``--action=destroy``, ``--mode uninstall``.  A first word ``unconfigure``/``deconfigure`` says
the same.  What the product ran, served or kept goes with it.

Quiet: the same keys given an installing or reading value (``/ACTION=Install``, ``--action=plan``), an option that
only names a removal among others (``--uninstall-extension``, ``--remove-orphans``), help and dry runs
(``--help``, ``--dry-run``, ``/whatif``).  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_REMOVING = ("uninstall", "deconfig", "unconfig", "forceremoval", "delete", "destroy", "remove", "purge", "wipe",
             "erase", "teardown", "tear-down", "decommission", "deprovision", "drop")
# Options that are the action itself.
_ACTION_OPTION = re.compile(r"^(--?|/)(uninstall|deconfig(ure)?|unconfig(ure)?|forceremoval|decommission|"
                            r"deprovision)$", re.IGNORECASE)
# Keys that name the program's action, and the values that remove.
_ACTION_KEY = re.compile(r"^(--?|/)(action|mode|verb|operation|op|task|command|cmd|act)([:=](.*))?$",
                         re.IGNORECASE)
_REMOVING_VALUE = re.compile(r"^(uninstall(all)?|delete(all)?|destroy|remove(all)?|purge|wipe|erase|tear-?down|"
                             r"deconfigure|unconfigure|decommission|deprovision|drop)$", re.IGNORECASE)
_FIRST_WORDS = frozenset({"unconfigure", "deconfigure", "unconfig", "deconfig"})
_LOOKS = frozenset({"--help", "-h", "/?", "-help", "help", "--dry-run", "--dryrun", "--whatif", "-whatif", "/whatif",
                    "--check", "--plan", "--version", "--list", "list", "status", "--status", "--simulate"})


@triggered_by(_REMOVING)
def rule_verb_option(c: Ctx) -> Optional[tuple]:
    """``oneagentctl --uninstall``, ``setup.exe /ACTION=Uninstall``, ``deploy.sh --action=destroy``."""
    texts = c.texts
    if {t.lower() for t in texts} & _LOOKS:
        return None
    operands = [t.lower() for t in texts if not t.startswith("-")]
    for k, t in enumerate(texts):
        if _ACTION_OPTION.match(t):
            return _said(c, t)
        key = _ACTION_KEY.match(t)
        if key is None:
            continue
        value = key.group(4) if key.group(3) else (texts[k + 1] if k + 1 < len(texts) and t.startswith("--") else "")
        if _REMOVING_VALUE.match(value.strip("'\"")):
            return _said(c, t if key.group(3) else f"{t} {value}")
    if operands[:1] and operands[0] in _FIRST_WORDS:
        return _said(c, operands[0])
    return None


def _said(c: Ctx, option: str) -> tuple:
    return MEDIUM, f"{c.prog} {option}: the program is told to take down what it installed or configured, " \
        f"with what it served or kept ({c.text})"
