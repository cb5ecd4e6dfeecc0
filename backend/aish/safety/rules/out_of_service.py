"""Effect: an account, a node or a registered thing taken out of service for good, by a program no rule names.

Identity, cluster and inventory tools rarely say ``delete`` for the end of what they manage: a user is
deactivated (``zitadel-ctl users deactivate 18433``: a step before deletion, its sessions and grants end), a node,
runner or peer unregistered or deregistered (``gridctl node unregister node3``, ``fabricctl peer deregister
peer0``), a member retired or offboarded (``tenantctl offboard acme-corp``).  The thing named can no longer
sign in or be used, its sessions and jobs end, and many tools release what it held.  The verb is read in a
leading subcommand word, alone or fused with its object (``deactivate-user``, ``deactivateUser``), in an
option (``--unregister``, ``-sr_unregister``, ``--deactivate-user bob``), or in the program's own name
(``zorg-deregister node3``, ``unregister-runner.sh``).

Quiet: no name given (``mozillavpn deactivate``, ``git maintenance unregister``: the program's own
registration, or a virtual environment left), what is cheap to turn back on (``wp plugin deactivate akismet``,
an extension, a theme, an environment), package managers, and ``disable``, ``suspend`` or ``lock``, which are
undone as easily (``ipa user-disable bob`` is an administrator's routine; an administrator locked out is
``credentials_replaced``'s).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.action import is_option_value
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word
from aish.safety.verbs import PACKAGE_TOOLS

# Verbs that end a thing's service whatever it is.
_ENDS = frozenset({"deactivate", "unregister", "deregister", "offboard", "unenroll", "unenrol", "disenroll",
                   "deprovision", "retire"})
# What is cheap to turn back on, or the user's own session.
_LIGHT = frozenset("""
plugin plugins extension extensions module modules theme themes addon addons add-on env envs environment
environments venv virtualenv profile hook hooks license licence feature features flag flags rule rules alias
shortcut key-binding keybinding trigger triggers schedule schedules job-schedule cron timer timers alert alerts
notification notifications webhook webhooks session sessions mode repo repository maintenance provider providers
""".split())
# Options whose value names the thing (`-id web1`, `--token abc`), read before the others (`--url`).
_NAMING = frozenset({"id", "name", "n", "token", "user", "u", "email", "node", "node-id", "host", "device", "serial",
                     "runner", "instance", "account", "uid", "username", "member", "client"})
# Words naming the kind of thing before its name (`deactivate user bob`).
_KINDS = frozenset("""
user users account accounts node nodes host hosts device devices member members client clients agent agents runner
runners peer peers instance instances tenant tenants machine machines computer computers service services
""".split())
_PEOPLE = frozenset("""
user users account accounts member members tenant tenants customer customers client clients person people
identity identities principal principals login logins employee employees
""".split())
_FUSED_KINDS = _KINDS | {"vm", "vms", "target", "targets", "s", "d"}  # `unregistervm`, `deactivates`
# Package and environment managers whose deactivate takes an extension out of a view (`spack deactivate py-numpy`).
_EXTENSION_MANAGERS = frozenset({"spack", "easybuild", "eb", "module", "ml", "lmod", "nix-env", "guix", "pkgsrc",
                                 "pyenv-virtualenv", "virtualenv", "pew", "vf", "workon"})
_CMDLET = re.compile(r"^[A-Z][a-z]+-[A-Z]")
_LOOKS = frozenset({"list", "ls", "show", "status", "info", "get", "help", "describe", "--help", "-h", "check"})
_READ = 4  # leading words read for the verb


@triggered_by(("deactivat", "regist", "offboard", "enrol", "provision", "retire"))
def rule_out_of_service(c: Ctx) -> Optional[tuple]:
    """``users deactivate 18433``, ``node unregister node3``, ``account disable alice``, ``--unregister 2``."""
    texts = c.texts
    prog = c.prog.lower()
    if prog in READ_ONLY or prog in PACKAGE_TOOLS or prog in _EXTENSION_MANAGERS or _CMDLET.match(c.prog):
        return None  # a cmdlet's verb is ps_taking_verbs' (`Unregister-PSRepository`: a package feed)
    lowered = [t.lower() for t in texts]
    if set(lowered[:3]) & _LOOKS:
        return None
    by_name = _named_for(c, prog)
    if by_name is not None or not texts:
        return by_name
    leading = [k for k, t in enumerate(lowered) if t[:1] not in "-/" and not (k and is_option_value(texts, k))][:_READ]
    nouns: list = []
    for k in leading:
        parts = split_word(texts[k])  # the word as written: `deactivateUser` is read in its camel case
        verb = _verb_of(parts)
        if verb:
            named = [t for j, t in enumerate(texts[k + 1:], k + 1) if t[:1] not in "-" and texts[j - 1][:1] != "-"]
            # the name given by an option: `--id web1`, `--token abc`, `lctl --device fs-OST0003-osc deactivate`
            named = named or _option_values(texts, 0)
            return _judged(c, verb, " ".join(texts[j] for j in leading if j <= k), nouns + parts, named)
        nouns += parts
    for k, t in enumerate(lowered):
        if t[:1] != "-" or len(t) < 5:
            continue
        parts = split_word(t.lstrip("-").split("=", 1)[0])
        verb = _verb_of(parts)
        if not verb:
            continue
        value = t.split("=", 1)[1] if "=" in t else ""
        named = ([value] if value else []) + [w for w in texts if w[:1] != "-"]
        if len(parts) > 1 and not set(parts) & _LIGHT:  # `-sr_unregister`, `--deactivate-user`: the object said
            named = named or ["its " + "-".join(p for p in parts if p != verb)]
        return _judged(c, verb, texts[k], nouns + parts, named)
    return None


def _named_for(c: Ctx, prog: str) -> Optional[tuple]:
    """``zorg-deregister node3``, ``deregister-node.sh n3``, ``unregister-runner.sh``: the program's name says it."""
    if "-" not in prog and "_" not in prog:
        return None  # `deactivate` (a virtual environment's), a name of one piece
    parts = split_word(prog.rsplit("/", 1)[-1].removesuffix(".sh"))
    verb = _verb_of(parts)
    if not verb:
        return None
    kinds = [p for p in parts if p in _KINDS]
    named = [t for t in c.texts if t[:1] != "-"] or ["the " + k for k in kinds]
    return _judged(c, verb, "", parts, named)


def _verb_of(parts: list) -> str:
    """The out-of-service verb among a word's pieces, or one a piece starts with (``deactivateuser``)."""
    return next((verb for part in parts for verb in _ENDS
                 if part == verb or part.startswith(verb) and part[len(verb):] in _FUSED_KINDS), "")


def _option_values(texts: list, start: int) -> list:
    """``deregister --node-id 7``: the names given through options' values, those of naming options first."""
    pairs = [(texts[k - 1], t) for k, t in enumerate(texts[start:], start) if t[:1] != "-" and k and
             texts[k - 1][:1] == "-" and "=" not in texts[k - 1]] + \
        [tuple(t.split("=", 1)) for t in texts[start:] if t.startswith("-") and "=" in t and t.split("=", 1)[1]]
    return [v for o, v in pairs if o.lstrip("-").lower() in _NAMING] + [v for o, v in pairs
                                                                      if o.lstrip("-").lower() not in _NAMING]


def _judged(c: Ctx, verb: str, said: str, nouns: list, named: list) -> Optional[tuple]:
    if not named or set(nouns) & _LIGHT or named[0].lower() in _LOOKS:
        return None
    kinds = [t for t in named if t.lower() in _KINDS]
    what = next((t for t in named if t.lower() not in _KINDS), named[0]) if kinds else named[0]  # `deactivate user bob`
    name = f"{c.prog} {said}" if said else c.prog
    words = {w.lower() for w in nouns + named}
    if verb in ("deactivate", "offboard") or words & _PEOPLE:
        effect = "it can no longer sign in or be used"
    else:
        effect = "it no longer serves or takes work"
    return MEDIUM, f"{name} takes {what} out of service: {effect} ({c.text})"
