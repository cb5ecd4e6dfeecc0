"""Effect: what confines programs or devices loosened, in the policy tools' own words.

- SELinux booleans that let a confined program run written memory or reach the network, or that turn a
  denial off, set persistently (``setsebool -P httpd_execmem 1``, ``allow_execstack=1``, ``deny_ptrace off``,
  ``togglesebool``, ``semanage boolean -m --on``): what the policy stopped now runs.  Without ``-P`` a boolean
  holds until the next boot (how one is tried) and stays quiet, as do booleans that widen nothing
  (``virt_use_nfs``) and any boolean set off.
- Policy modules disabled or removed (``semodule -d sandbox``, ``-r``): their domains lose what confined them;
  every login mapped to ``unconfined_u``, one file type given to the whole filesystem (``semanage fcontext -a -t
  T "/(.*)?"``).
- File contexts relabelled by hand over a whole system tree (``chcon -R -t unconfined_t /etc``, ``chcon -R …
  /``): services are denied their files, or run unconfined; ``restorecon`` puts the policy's back.
- USBGuard told to let every device in (``set-parameter ImplicitPolicyTarget allow``, ``InsertedDevicePolicy
  allow``, a bare ``allow`` rule appended): the protection against rogue USB devices is gone.
- File capabilities given with libcap-ng's ``filecap FILE CAP`` (``filecap /usr/bin/python3 setuid``): judged
  as ``setcap cap_CAP+ep FILE`` is.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

NAMES = frozenset({"setsebool", "togglesebool", "semanage", "semodule", "chcon", "usbguard", "filecap"})
# booleans that let a confined program run written memory, reach out, act as an admin or touch everything
_WIDENING = lazy(r"exec(mem|stack|heap|mod)|can_network|network_connect|_unified$|sysadm|_manage_all|"
                 r"_read_all|_write_all|full_access|mmap_low|use_execmem|anon_write|_all_files|"
                 r"_login$|_exec_content|unconfined|can_network_relay|nis_enabled|"
                 r"allow_ypbind|mount_anyfile|mmap_files", re.IGNORECASE)
_DENIAL = lazy(r"^(deny|secure|ssh_chroot_rw)|_deny_|restrict", re.IGNORECASE)
_ON = {"1", "on", "true"}
_OFF = {"0", "off", "false"}
_SYSTEM_TREES = ("/", "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var", "/boot", "/root")


def rule_confinement_loosened(c: Ctx) -> Optional[tuple]:
    prog, texts = c.prog, c.texts
    if prog in ("setsebool", "togglesebool") or prog == "semanage" and texts[:1] == ["boolean"]:
        return _booleans(c)
    if prog == "semanage" and texts[:1] in (["login"], ["fcontext"]):
        return _mapped_wide(c)
    if prog == "semodule":
        return _modules(c)
    if prog == "chcon":
        return _relabelled(c)
    if prog == "usbguard":
        return _usb_opened(c)
    if prog == "filecap" and len(texts) >= 2:
        caps = [t for t in texts[1:] if not t.startswith("-")]
        if caps and caps != ["none"]:
            return c.recurse(f"setcap {','.join('cap_' + x.lower() for x in caps)}+ep {texts[0]}")
    return None


def _booleans(c: Ctx) -> Optional[tuple]:
    texts = [t for t in c.texts if t not in ("-P", "-N", "-V", "boolean", "-m", "--modify")]
    pairs: list = []
    if c.prog == "togglesebool":
        pairs = [(t, "toggled") for t in texts]
    elif c.prog == "semanage":
        state = "1" if "--on" in texts or "-1" in texts else "0"
        pairs = [(t, state) for t in texts if not t.startswith("-")]
    else:
        k = 0
        while k < len(texts):
            name, eq, value = texts[k].partition("=")
            if not eq and k + 1 < len(texts):
                value, k = texts[k + 1], k + 1
            pairs.append((name, value.lower()))
            k += 1
    if c.prog == "setsebool" and "-P" not in c.texts:
        return None  # until the next boot only: how a boolean is tried before it is kept
    for name, value in pairs:
        widens = _WIDENING.search(name) and value in _ON | {"toggled"}
        lifts = _DENIAL.search(name) and value in _OFF | {"toggled"}
        if widens or lifts:
            return MEDIUM, f"loosens SELinux for good: {name} lets confined programs do what the policy " \
                           f"stopped ({c.text})"
    return None


def _mapped_wide(c: Ctx) -> Optional[tuple]:
    """``semanage login -m -s unconfined_u __default__``: every login unconfined; ``semanage fcontext -a -t T
    "/(.*)?"``: one type for the whole filesystem at its next relabel."""
    texts = c.texts
    if not set(texts) & {"-a", "--add", "-m", "--modify"}:
        return None
    if texts[0] == "login" and "__default__" in texts and any(t.startswith("unconfined") for t in texts):
        return MEDIUM, f"maps every login to an unconfined SELinux user: no one's session is confined ({c.text})"
    pattern = next((t for t in texts[1:] if t.startswith("/")), "")
    if texts[0] == "fcontext" and re.fullmatch(r"/(etc|usr|var|bin|lib|boot)?(\(/?\.\*\)\??|/?\.\*)", pattern):
        return MEDIUM, f"gives every file under {pattern} one SELinux type at the next relabel ({c.text})"
    return None


def _modules(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    for k, t in enumerate(texts):
        if re.fullmatch(r"-[A-Za-z]*[dr]|--(disable|remove)(=.*)?", t) and not t.startswith("-DB"):
            name = t.partition("=")[2] or (texts[k + 1] if k + 1 < len(texts) else "")
            if name and not name.startswith("-"):
                return MEDIUM, f"takes the SELinux policy module {name} out: what it confined is no longer held " \
                               f"({c.text})"
    return None


def _relabelled(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not any(re.fullmatch(r"-[A-Za-z]*R[A-Za-z]*|--recursive", t) for t in texts):
        return None
    for t in texts:
        path = t.rstrip("/") or "/"
        if path in _SYSTEM_TREES and not t.startswith("-"):
            level = HIGH if path in ("/", "/etc", "/usr", "/bin", "/lib", "/sbin") else MEDIUM
            return level, f"relabels every file under {path} by hand: services are denied their files or run " \
                          f"unconfined until restorecon ({c.text})"
    return None


def _usb_opened(c: Ctx) -> Optional[tuple]:
    texts = [t.lower() for t in c.texts]
    if texts[:1] == ["set-parameter"] and len(texts) >= 3 and \
            texts[1] in ("implicitpolicytarget", "presentdevicepolicy", "inserteddevicepolicy") and texts[2] == "allow":
        return MEDIUM, f"USBGuard lets every USB device in: rogue keyboards and disks are no longer stopped ({c.text})"
    if texts[:1] == ["append-rule"] and len(texts) >= 2 and texts[1].strip() == "allow":
        return MEDIUM, f"appends a rule that allows every USB device ({c.text})"
    return None
