"""Effect: a whole tool, store, device or cluster put back to nothing in its own words, for any program.

Each tool names its "start again from nothing" its own way, and the vocabulary's reset (medium only where
a database or a snapshot is named) misses most of them:

- the tool removed with everything it installed: ``rvm seppuku``, ``mise implode``, ``ghcup nuke``,
  ``pipx uninstall-all`` (package managers' removals are otherwise cheap);
- a reset word that says "everything" by itself (``restore-default``, ``restoredefaults``, ``reset-all``,
  ``factory-reset``), a reset as a task's last word (``user-management:reset``, ``config.reset``), a
  ``reset`` told not to ask (``agent reset --unattended``, ``-y reset``) or said of a whole store
  (``netsh winsock reset``, ``... config reset``), and options that reset everything (``--reset-all``,
  ``--reinit``, ``--reset`` of a configuration tool);
- an administrator's password replaced by a reset (``admin reset-admin-password``, ``-resetPasswordFor``,
  ``--new-password=``, ``recover-account``): the administrators are locked out (one user's reset by the
  helpdesk is everyday);
- a security key or TPM set up again or cleared (``yubikey-agent -setup`` resets the PIV applet,
  ``pkcs11-tool --init-token``, ``tpm2 clear``): the keys it held are destroyed;
- a cluster initialised again over the one there (``crm cluster init -y``, ``pcs cluster setup --force``).

A reset of one setting (``gsettings reset KEY``), of a terminal (``tput reset``), of a cache or of
counters stays quiet, as do resets without a word that widens or forces them.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# Any of these in the lowered line: the only lines read further.
_GATE = LazyRegex(r"reset|master_clear|wipe_data|implode|seppuku|nuke|-all\b|reinit|default|setup|init|clear|passw|"
                  r"recover|restore|cleanse|uninstall|unset|-r -r")  # `self uninstall`
# The tool itself removed with everything it installed or holds.
_WHOLE_TOOL = frozenset({"implode", "seppuku", "nuke", "uninstall-all", "uninstallall", "remove-all", "purge-all",
                         "self-destruct", "selfdestruct", "nuke-all", "uninstall_all", "nukeall"})
_SELF_REMOVE = frozenset({"uninstall", "remove", "destroy", "implode", "delete", "nuke"})
# Words (lowered, separators taken out) that reset everything by themselves.
_ALL_RESET = LazyRegex(r"(force)?reset(to|2)?(factory)?(defaults?|settings|config|configuration|all|everything)|"
                       r"reset(fusion|disks?|drives?|volumes?|array|raid|pool|storage|cluster|node|keychain|vault)|"
                       r"(restore|load)(factory)?defaults?|factory(reset|defaults?|settings)|(config|settings|system)reset|forcereset|"
                       r"resetfactory|hardreset|wipeconfig")
# Options that reset everything (or initialise again over what is there).
_ALL_RESET_OPTION = LazyRegex(r"--?(reset[-_]?(all|everything|config|configuration|settings|state|security[-_]key|"
                              r"keys|to[-_]defaults?|defaults?)|restore[-_]defaults?|load[-_]defaults?|"
                              r"re[-_]?init(iali[sz]e)?|wipe[-_]config)(=.*)?", re.IGNORECASE)
# Network appliances' tools, whose `set-default` is a factory reset (Ubiquiti's).
_APPLIANCE = LazyRegex(r"ubnt|^mca-|unifi|edgeos|vyos|syswrapper")
# A system message or intent that factory-resets a device (Android's MASTER_CLEAR, FACTORY_RESET).
_FACTORY_INTENT = LazyRegex(r"[._](MASTER_CLEAR|FACTORY_RESET|WIPE_DATA)$", re.IGNORECASE)
# A plain `--reset` of a tool whose business is a configuration or firmware (`firmwareConfig.sh --reset`).
_CONFIG_TOOL = LazyRegex(r"config|firmware|setup|settings|factory|defaults", re.IGNORECASE)
# Told not to ask.
_UNASKED = frozenset({"-y", "--yes", "-f", "--force", "--unattended", "--non-interactive", "--noninteractive",
                      "--no-prompt", "--noprompt", "--assume-yes", "--confirm", "-force", "--no-confirm",
                      "--yes-i-really-mean-it", "-q", "--quiet", "-confirm:$false", "--accept"})
# What a reset takes whole when it is named before or after it (`netsh winsock reset`, `agent config reset`).
_WHOLE_NOUNS = frozenset("""
all everything config configuration settings system agent winsock ip ipv4 ipv6 tcp stack network firewall
advfirewall security user-management users admin management cluster node db database data state store factory
defaults keys applet piv fido openpgp tpm instance server device appliance account accounts vault
""".split())
# What a reset of loses nothing: a terminal, a cache, counters, one setting's value.
_LIGHT = frozenset("""
cache caches stats statistics counters counter view layout zoom timer color colors colour theme terminal tty
window failed tracking bisect head index soft mixed keep pointer cursor password-attempts faillock tally
""".split())
# Programs whose reset is their own business, judged by their rules or harmless (`git reset`, `tput reset`).
_OWN_RESET = frozenset({"git", "hg", "jj", "svn", "tput", "stty", "gsettings", "dconf", "yadm", "vcsh", "sl",
                        "faillock", "pam_tally2", "pam_tally", "usbreset", "reset", "tset", "kubectl", "oc",
                        "tmux", "screen", "xrandr", "redis-cli", "valkey-cli", "nvme", "ipmitool", "docker",
                        "podman", "pulumi"})
# A login's password replaced by a reset (a change the user asks for is their own business): the words (lowered,
# separators out) of a subcommand or an option's name.
_PASSWORD_RESET = LazyRegex(r"^(reset|recover|new|force|set|change|update|clear)(admin|root|user|account|the|"
                            r"computer|machine)*"
                            r"(password|passwd|pw|credentials?)(for)?$|^(password|passwd)(reset|recover)$|"
                            r"^recover(admin|root)?account$|^resetpasswordfor$")
# A program named for resetting or setting up passwords (`elasticsearch-reset-password`).
_PASSWORDS_BY_NAME = LazyRegex(r"(reset|setup|recover)[-_]?(admin[-_]?|root[-_]?)?passw(or)?ds?$")
# The account whose password reset locks the administrators out.
_ADMIN = LazyRegex(r"admin|root|superuser|\bsa\b|\bpostgres\b|\belastic\b")
# Security keys, smart cards and TPMs by their tools' names.
_KEY_TOOL = LazyRegex(r"yubi|piv|fido|nitro|^solo\d?$|onlykey|trezor|ledger|tpm|smartcard|pkcs1[15]|opensc|"
                      r"sc-hsm|gpg-card|openpgp|u2f|cardos", re.IGNORECASE)
_KEY_SETUP = frozenset({"setup", "-setup", "--setup", "init", "--init", "--init-token", "--initialize", "-initialize",
                        "format", "--format", "reset", "factory-reset", "--reset-security-key", "--delete-token",
                        "delete-token", "--erase", "--erase-card"})
_KEY_CLEAR = frozenset({"clear", "forceclear", "--clear", "-c", "--force-clear", "force-clear"})
# A cluster initialised again over the one there.
_CLUSTER_INIT = frozenset({"init", "setup", "bootstrap", "initialize", "initialise", "create", "new"})
_CLUSTER_NOUNS = frozenset({"cluster", "quorum", "ring", "raft", "ha"})
_CLUSTER_FORCED = frozenset({"-y", "--yes", "-f", "--force", "--yes-i-really-mean-it"})


@triggered_by(_GATE, otherwise=False)
def may_reset(c: Ctx) -> bool:
    """A cheap test before the readings: one search of the lowered line."""
    return bool(_GATE.search(c.lowered) or _GATE.search(c.prog.lower()))


def _flat(word: str) -> str:
    return re.sub(r"[-_.:]", "", word.lower())


def rule_whole_reset(c: Ctx) -> Optional[tuple]:
    """A whole tool, store, key or cluster reset, or a password replaced."""
    prog = c.prog.lower().removesuffix(".exe")
    tree = _tree_unset(c)
    if tree is not None:
        return tree
    if prog in _OWN_RESET:
        return None
    return _key_reset(c, prog) or _whole_tool(c) or _password_replaced(c) or _reset_words(c, prog) or \
        _cluster_init(c)


def _words(c: Ctx) -> list:
    """The words that are not options (subcommands, nouns, names)."""
    return [t for t in c.texts if not t.startswith("-")]


def _tree_unset(c: Ctx) -> Optional[tuple]:
    """A settings tree unset or reset recursively from its root: ``gconftool-2 --recursive-unset /``,
    ``dconf reset -f /``, ``xfconf-query -c X -p / -r -R`` (every key of the tree, not one)."""
    if "/" not in c.texts:
        return None
    unset = next((t for t in c.texts if "unset" in t.lower() or "reset" in t.lower() or t == "-r"), None)
    recursive = unset is not None and ("recursive" in unset.lower() or
                                      any(t in ("-f", "-R", "--recursive", "--force") for t in c.texts))
    if not recursive:
        return None
    return MEDIUM, f"{c.prog} {unset} from / takes every setting of the tree back: all of them are lost ({c.text})"


def _whole_tool(c: Ctx) -> Optional[tuple]:
    words = [t.lower() for t in _words(c)]
    said = next((t for t in words[:3] if t in _WHOLE_TOOL), None)
    if said is None and words[:1] == ["self"] and words[1:2] and words[1] in _SELF_REMOVE:
        said = f"self {words[1]}"  # `juliaup self uninstall`
    if said is None:
        return None
    return MEDIUM, f"{c.prog} {said} removes {c.prog} with everything it installed and holds ({c.text})"


def _password_replaced(c: Ctx) -> Optional[tuple]:
    if _PASSWORDS_BY_NAME.search(c.prog.lower()) and (_ADMIN.search(c.lowered) or "passwords" in c.prog.lower()):
        return MEDIUM, f"{c.prog} replaces the built-in administrators' passwords: whoever signs in with the old " \
            f"ones is locked out ({c.text})"  # `elasticsearch-reset-password -u elastic`, `…-setup-passwords auto`
    if not (_ADMIN.search(c.lowered) or "machinepassword" in c.prog.lower()):
        return None  # one user's password reset by the helpdesk is everyday (`Set-ADAccountPassword -Reset`)
    for k, t in enumerate([c.prog] + c.texts):  # the program's own name too (`Reset-ComputerMachinePassword`)
        k -= 1
        if k > 0 and c.texts[k - 1].startswith("-") and not t.startswith("-") and "=" not in c.texts[k - 1]:
            continue  # an option's value (`--root-password password:NEW`) is not a subcommand
        parts = [_flat(p) for p in re.split(r"[:.\[\]/]", t.split("=", 1)[0].lstrip("-")) if p]
        found = [p for p in parts + [a + b for a, b in zip(parts, parts[1:])] if _PASSWORD_RESET.search(p)]
        if any(t.startswith("-") or not p.startswith("new") for p in found):  # a bare `new_password` is a value
            return MEDIUM, f"{c.prog} {t.split('=', 1)[0]} replaces the administrator's password: whoever signs " \
                f"in with the old one is locked out ({c.text})"
    return None


def _reset_words(c: Ctx, prog: str) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    if set(lowered) & _LIGHT:
        return None
    option = next((t for t in c.texts if t.startswith("-") and _ALL_RESET_OPTION.fullmatch(t)), None)
    if option is None and "--reset" in lowered and _CONFIG_TOOL.search(c.prog):
        option = "--reset"
    if option is not None:
        return MEDIUM, f"{c.prog} {option.split('=', 1)[0]} puts everything it holds back to its first state: " \
            f"what was set up or stored is lost ({c.text})"
    if _APPLIANCE.search(prog) and set(lowered) & {"set-default", "setdefault", "restore-default"}:
        return MEDIUM, f"{c.prog} puts the appliance back to factory defaults: its configuration is lost ({c.text})"
    if prog.startswith("reset-") and c.chain and c.chain[-1].words and \
            c.chain[-1].words[0].text.lower().startswith("get-"):  # `Get-AppxPackage | Reset-AppxPackage`
        return MEDIUM, f"{c.prog} resets every one the listing feeds it: what each kept is lost ({c.text})"
    intent = next((t for t in c.texts if _FACTORY_INTENT.search(t)), None)
    if intent is not None:  # `am broadcast -a android.intent.action.MASTER_CLEAR`
        return MEDIUM, f"{c.prog} sends {intent}: the device is reset to its factory state ({c.text})"
    words = _words(c)
    for k, t in enumerate(words):
        flat = _flat(t)
        joined = re.split(r"[:.]", t.lower())
        whole = _ALL_RESET.fullmatch(flat) or len(joined) > 1 and joined[-1] in ("reset", "reinit", "wipe") and \
            joined[0] not in _LIGHT
        if not whole and t.lower() not in ("reset", "reinit", "reinitialize"):
            continue
        near = {w.lower() for w in words[max(k - 3, 0):k + 2]}
        if whole or prog in ("netsh", "netsh.exe") or near & _WHOLE_NOUNS or set(lowered) & _UNASKED:
            return MEDIUM, f"{c.prog} {t} puts what it manages back to its first state: its settings and what " \
                f"it stored are lost ({c.text})"
    return None


def _key_reset(c: Ctx, prog: str) -> Optional[tuple]:
    if not _KEY_TOOL.search(prog):
        return None
    lowered = [t.lower() for t in c.texts]
    tpm = "tpm" in prog
    if tpm and (prog.endswith(("clear", "forceclear")) or set(lowered[:1]) & _KEY_CLEAR or
                any(t.startswith("-allowclear") for t in lowered)):  # `Initialize-Tpm -AllowClear $true`
        return HIGH, f"{c.prog} clears the TPM: the keys sealed in it (disk encryption, attestation) are " \
            f"destroyed ({c.text})"
    said = next((t for t in lowered if t in _KEY_SETUP), None)
    if said is None or tpm:
        return None
    return MEDIUM, f"{c.prog} {said} resets the security key or card: the keys on it are destroyed ({c.text})"


def _cluster_init(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    if not (set(lowered) & _CLUSTER_INIT and set(lowered) & _CLUSTER_NOUNS and set(lowered) & _CLUSTER_FORCED):
        return None
    return MEDIUM, f"{c.prog} sets the cluster up again, told not to ask: the cluster there and its " \
        f"configuration are replaced ({c.text})"
