"""Effect: sensitive system files edited by tools other than sed and tee.

``sed -i`` on ``/etc/ssh/sshd_config`` is judged by the content rules; the same edit comes from many
other tools: line editors fed a script (``ed -s FILE <<< $',s/…/…/\\nw'``, ``ex -sc '%s/…/…/|x' FILE``,
``vim -es -c '…|wq' FILE``, and vi's kin nvi, elvis and vile), editors run as a filter or in batch (Kakoune's
``kak -f KEYS FILE`` writes each file back; ``emacs --batch FILE --eval '(… (save-buffer))'``, as xemacs, mg,
jed and zile take it), GNU sed under its other names (``gsed -i``, ``busybox sed -i``),
search-and-replace tools (``rpl``, ``sd``, MySQL's ``replace``, ``fart``, ``ruplacer --go``),
configuration editors (``augtool set /files/etc/…``, ``crudini --set``, ``setconf``, ``xmlstarlet ed
-L``, ``yq -i``), guest image editors (``virt-edit -a disk.img /etc/shadow``, ``virt-customize --edit``),
and tools that write one setting's meaning: FreeBSD's ``sysrc`` turning a firewall off or sshd's
logins open, SUSE's ``pam-config -a --unix-nullok`` (empty passwords accepted), ``lokkit
--disabled`` (the firewall off) and ``--selinux=disabled``.  Project files, reads and settings that
strengthen stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_SED_NAMES = frozenset({"gsed", "ssed", "gnused", "sed.exe", "busybox", "toybox"})
_LINE_EDITORS = frozenset({"ed", "red", "ex", "vim", "vi", "nvim", "vim.basic", "vim.tiny", "gvim", "nvi", "elvis",
                           "vile", "nex", "mvim"})
_FILTER_EDITORS = frozenset({"kak", "kakoune"})  # `kak -f KEYS FILE…`: the keys applied, each file written back
_BATCH_EDITORS = frozenset({"emacs", "xemacs", "mg", "jed", "zile", "qemacs", "emacs-nox"})
_BATCH_SAVES = lazy(r"save-buffer|write-file|save-some-buffers|write-region|save_buffer")
# Replacers: (program, option that makes it write when it only previews by default, or "" if it writes).
_REPLACERS = {"rpl": "", "sd": "", "replace": "", "fart": "", "ruplacer": "--go", "fastmod": "--accept-all",
              "setconf": "", "rep": "-w", "repren": "--full", "sad": "--commit", "amber": "", "ambr": ""}
# Configuration editors: the word or option that writes.
_CONFIG_EDITORS = {"augtool": ("set", "rm", "ins", "setm", "clear", "mv", "defvar"), "crudini": ("--set", "--del"),
                   "xmlstarlet": ("-L", "--inplace"), "yq": ("-i", "--inplace"), "dasel": ("put", "delete"),
                   "tomlq": ("-i", "--in-place"), "virt-edit": ("",), "virt-customize": ("--edit",),
                   "guestfish": ("write", "edit", "upload", "rm")}
# Files that decide who may log in, as whom and through what checks (group 1: losing them locks everyone out).
# (A line taken out of ~/.ssh/authorized_keys is everyday: an old key retired.)
_SECURITY_FILE = lazy(r"^(?:/etc/(shadow|gshadow|passwd|sudoers)$|/etc/(group|sudoers\.d/[^/]+|doas\.conf|"
                      r"ssh/sshd_config(\.d/[^/]+)?|pam\.d/[^/]+|pam\.conf|security/[^/]+|selinux/config|"
                      r"sysconfig/selinux|login\.defs|hosts\.(allow|deny)|audit/[^/]+|securetty|polkit-1/\S+|"
                      r"ld\.so\.preload|ufw/[^/]+|firewalld/\S+|sysconfig/iptables|nftables\.conf|"
                      r"default/ufw|fstab|crypttab|inittab|default/grub|shells|nsswitch\.conf)$|"
                      r"/etc/(selinux|pam\.d|sudoers\.d|ssh|security)/?$|/boot/(\S+/)?(cmdline|config)\.txt$|"
                      r"/boot/(\S+/)?grub\.cfg$)")
_AUGEAS_PATH = lazy(r"^/files(/etc/\S+)")
_VIM_WRITES = lazy(r"(^|[|:\s])(w|wq|wq!|x|x!|wall|wqa|xa|update|sav\w*)(\s|!|$|\|)")


def _sensitive_target(c: Ctx) -> Optional[tuple]:
    """The worst security-relevant system file among the command's words (who may log in, as whom, through
    what checks): a guest's ``/etc/fstab`` or a Homebrew ``/usr/local/etc`` file is everyday configuration."""
    best = None
    for w in c.args:
        text = w.text
        augeas = _AUGEAS_PATH.match(text)
        path = augeas.group(1) if augeas else text.split(":", 1)[0] if c.prog == "virt-customize" else text
        found = _SECURITY_FILE.search(path)
        if found is None:
            continue
        level = HIGH if found.group(1) else MEDIUM
        if best is None or level > best[0]:
            best = (level, path)
    return best


def _edits(c: Ctx, name: str, lowered: list) -> bool:
    """Does this tool write what it is given (not only show it)?"""
    if name in _SED_NAMES:
        if name in ("busybox", "toybox") and lowered[:1] != ["sed"]:
            return False
        return any(t.startswith("-i") or t == "--in-place" for t in lowered)
    if name in ("ed", "red"):
        return bool(c.seg.redirects or c.chain)  # a script fed on standard input
    if name in _LINE_EDITORS:
        scripts = [c.texts[k + 1] for k, t in enumerate(lowered[:-1]) if t in ("-c", "-sc", "-esc", "+")] + \
            [t[1:] for t in c.texts if t.startswith("+") and len(t) > 1]
        return any(_VIM_WRITES.search(s) for s in scripts) or \
            name == "ex" and bool(c.seg.redirects or c.chain)
    if name in _FILTER_EDITORS:
        return "-f" in lowered
    if name in _BATCH_EDITORS:
        return bool({"--batch", "-batch", "--script", "-script"} & set(lowered)) and \
            any(_BATCH_SAVES.search(t) for t in lowered)
    if name in _REPLACERS:
        needed = _REPLACERS[name]
        return not needed or needed in lowered
    words = _CONFIG_EDITORS.get(name)
    if words is None:
        return False
    return words == ("",) or any(t in words for t in lowered) or any(w in lowered for w in words if w)


# ------------------------------------------------------------------ tools that write one setting's meaning
_SYSRC_OFF = lazy(r"^(pf|ipfw|firewall|ipfilter|blacklistd|sshguard|auditd)_enable=[\"']?(no|false|0|off)", 0)
_SYSRC_OPEN = lazy(r"^(firewall_type=[\"']?open|sshd_flags=.*(permitrootlogin[= ]yes|passwordauthentication[= ]yes|"
                   r"permitemptypasswords[= ]yes)|kern_securelevel=[\"']?-1)")


_PAM_CHECKS = frozenset({"--pwquality", "--cracklib", "--faillock", "--tally2", "--passwdqc", "--pwhistory"})
_AUTHCONFIG_WEAK = frozenset({"--disableshadow", "--disablefaillock", "--disablemd5"} |
                             {"--enablenullok", "--disablepwquality"})


def _meaning(c: Ctx, name: str, lowered: list) -> Optional[str]:
    if name == "sysrc":
        said = next((t for t in lowered if _SYSRC_OFF.match(t) or _SYSRC_OPEN.match(t)), None)
        return f"sets {said}: a protection is switched off" if said else None
    if name == "pam-config" and set(lowered) & {"-a", "--add"} and any(t.endswith("-nullok") for t in lowered):
        return "makes PAM accept empty passwords (nullok)"
    if name == "pam-config" and set(lowered) & {"-d", "--delete"} and set(lowered) & _PAM_CHECKS:
        return "takes a password or lockout check out of PAM"
    if name == "authconfig" and (set(lowered) & _AUTHCONFIG_WEAK or
                                 any(t.startswith("--passalgo=") and t[11:] in ("md5", "descrypt", "bigcrypt")
                                     for t in lowered)):
        return "weakens how passwords are kept or checked"
    if name in ("lokkit", "system-config-firewall-tui", "system-config-firewall"):
        if "--disabled" in lowered:
            return "switches the firewall off"
        if any(t in ("--selinux=disabled", "--selinux=permissive") for t in lowered):
            return "switches SELinux off"
    return None


def rule_config_edited(c: Ctx) -> Optional[tuple]:
    """A sensitive system file written by an editor, a replacer or a configuration tool."""
    name = c.prog.lower().rsplit("/", 1)[-1]
    lowered = [t.lower() for t in c.texts]
    if {"--help", "-h", "--version"} & set(lowered):
        return None
    said = _meaning(c, name, lowered)
    if said:
        return MEDIUM, f"{c.prog} {said} ({c.text})"
    if not _edits(c, name, lowered):
        return None
    found = _sensitive_target(c)
    if found is None:
        return None
    level, path = found
    return level, f"{c.prog} edits {path}, a system or credential file: a bad edit locks you out ({c.text})"


NAMES = _SED_NAMES | _LINE_EDITORS | _FILTER_EDITORS | _BATCH_EDITORS | set(_REPLACERS) | set(_CONFIG_EDITORS) | {
    "sysrc", "pam-config", "lokkit", "system-config-firewall-tui", "system-config-firewall", "authconfig"}


# A file's replacement given first: nothing (`/dev/null`) or a scratch file (`/tmp/…`, `$(mktemp)`).
_EMPTY_OR_SCRATCH = lazy(r"^(?:/dev/null|/tmp/\S+|/var/tmp/\S+|\$\(mktemp[^)]*\)|\$tmp\w*|\$\{?tmp\w*\}?)$",
                         re.IGNORECASE)
_REPLACE_GATE = ("/dev/null", "/tmp/", "mktemp", "$tmp", "${tmp")


@triggered_by(*_REPLACE_GATE, otherwise=False)
def may_replace_config(c: Ctx) -> bool:
    return any(w in c.lowered for w in _REPLACE_GATE)


def rule_config_replaced(c: Ctx) -> Optional[tuple]:
    """Any tool given nothing or a scratch file first and a security file last (``ucf /dev/null
    /etc/pam.d/common-auth``, ``UCF_FORCE_CONFFNEW=1 ucf /tmp/new /etc/ssh/sshd_config``): the file that
    decides who may log in is replaced by what nobody reviewed."""
    operands = [w.text for w in c.args if not w.text.startswith("-")]
    if len(operands) < 2 or not _EMPTY_OR_SCRATCH.match(operands[0]):
        return None
    name = c.prog.lower().rsplit("/", 1)[-1]
    if name == "git" or any(w in name for w in ("diff", "cmp", "meld", "compare")):  # comparers read both
        return None
    last = operands[-1]
    if not _SECURITY_FILE.search(last):
        return None
    return MEDIUM, f"{c.prog} replaces {last} with {operands[0]}: who may log in is decided by a file nobody " \
        f"reviewed ({c.text})"
