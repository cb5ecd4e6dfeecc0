"""System files in every spelling a line gives them, and what some of them mean when written.

``meaning`` judges a write by the file it lands in and what the line says.  That file is named in many
ways: macOS' ``/private/etc/hosts`` is ``/etc/hosts``; Windows' hosts file is
``C:\\Windows\\System32\\drivers\\etc\\hosts``, ``%SystemRoot%\\…``, ``%windir%\\…`` or ``$env:windir\\…``;
another user's start-up file is ``/home/NAME/.profile``, ``~NAME/.profile`` or ``/root/.bashrc`` and says
to that user's shell what ``~/.profile`` says to yours.  ``spelled`` gives the one name the file table
knows.

The table part (``FILES``, read by ``meaning`` like its own): the lines that change what the machine is at
its next boot, whoever writes them: a disk, filesystem or network driver blacklisted or replaced by
``/bin/true`` (modprobe configuration), a kernel command line that boots into a root shell, a rescue
target or another root filesystem, or with a protection off (``boot_args``), a kernel setting that cuts
the network or makes the running system fail (``kernel_breaks``), a security module's ``enabled``
parameter set to 0, a polkit rule that says yes to anyone; and a line appended to ``/etc/fstab`` or
``/etc/crypttab`` (as ``>>`` is judged): a bad one stops the boot.
"""
from __future__ import annotations

import re

from aish.safety.rules.boot_args import BootArgText
from aish.safety.rules.common import HIGH, MEDIUM
from aish.safety.rules.kernel_breaks import BreakingText
from aish.safety.lazy_regex import lazy

_WINDOWS_ROOT = lazy(r"^(?:[a-z]:|%(?:systemroot|windir)%|\$env:(?:systemroot|windir)|\$\{env:(?:systemroot|"
                     r"windir)\})(?=/)", re.IGNORECASE)
_WINDOWS_ETC = lazy(r"^(/windows)?/system32/drivers/etc/(hosts|networks|lmhosts)$")
_OTHER_HOME = lazy(r"^(/root|/var/root|/home/[^/]+|/Users/[^/]+|~(root|[a-z_][\w-]*))(?=/)")
_START_UP = lazy(r"^/\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|bash_login|config/fish/config\.fish|"
                 r"ssh/rc|xinitrc|xprofile|xsession|xsessionrc|bash_logout|zlogout|zlogin)$")


def spelled(path: str) -> str:
    """The name ``meaning``'s table knows ``path`` by (the path itself when it has no other)."""
    path = path.strip("'\"")
    if "\\" in path or path[1:2] == ":" or "%" in path or "env:" in path.lower():
        p = path.replace("\\", "/")
        root = _WINDOWS_ROOT.match(p)
        if root is not None:
            rest = p[root.end():].lower()
            m = _WINDOWS_ETC.match(rest)
            if m and (m.group(1) or root.group(0)[1:2] != ":"):  # C:\Windows\System32\…, %SystemRoot%\System32\…
                return "/etc/" + m.group(2)
        return path
    if path.startswith("/private/etc/"):
        return path[8:]
    other = _OTHER_HOME.match(path)
    if other is not None and _START_UP.match(path[other.end():]):
        return "~" + path[other.end():]  # a user's start-up file (root's, another's): it runs in their shells
    return path


# Drivers the machine needs to boot or to be reached: disk controllers, block and filesystem drivers, network cards.
_NEEDED_DRIVER = (r"(ahci|libata|nvme(_core)?|sd_mod|scsi_mod|virtio_(blk|scsi|net|pci)|megaraid\w*|mpt\dsas|mptsas|"
                  r"mptspi|hpsa|aacraid|smartpqi|hv_(storvsc|netvsc)|xen_(blkfront|netfront)|ata_piix|pata_\w+|sata_\w+|"
                  r"mmc_block|sdhci\w*|dm[-_](mod|crypt)|md[-_]mod|raid(0|1|10|456)|ext4|xfs|btrfs|vfat|zfs|"
                  r"e1000e?|igbv?f?|ixgbe(vf)?|i40e|iavf|ice|r816[89]|r8125|r8152|8139too|tg3|bnx2x?|bnxt_en|"
                  r"mlx[45]_(core|en)|vmxnet3|ena|gve|sky2|alx|atl1[ce]?|forcedeth|cdc_ether|iwlwifi|ath\d*k?|"
                  r"brcmfmac|rtw\w+|mt7\w+)")
# `blacklist e1000e`, `install nvme /bin/true` (the module "loads" as nothing); other drivers (graphics, the PC
# speaker, the filesystems and USB storage a hardening benchmark turns off) stay quiet.
_DRIVER_OFF = re.compile(r"^\s*(blacklist\s+" + _NEEDED_DRIVER + r"\s*$|install\s+" + _NEEDED_DRIVER +
                         r"\s+(/usr)?(/s?bin/)?(true|false)\b)", re.MULTILINE)
_MODULE_OFF = re.compile(r"^\s*(0|n|N|no|off|disable[d]?)\s*$")

_CONDITION = lazy(r"\bif\s*\(|isInGroup|action\.id|\.user\b|\blookup\(")


class _AnyoneAllowed:
    """A polkit rule that answers yes without asking who or what: every local user may do any privileged action."""

    @staticmethod
    def search(text: str) -> bool:
        return "polkit.Result.YES" in text and not _CONDITION.search(text)


# a line that cannot hold the boot up: swap (a failed swap is skipped), or a mount told not to wait for its device
_WAITS_NOT = lazy(r"^\S+\s+\S+\s+swap\b|\bswap\s+(sw|defaults)\b|[\s,](nofail|noauto)(,|\s|$)")


class _BootStopper:
    """Text for fstab or crypttab holding a line whose failure stops the boot; text not known counts as such."""

    @staticmethod
    def search(text: str) -> bool:
        if not text.strip():
            return True  # `cat new >> /etc/fstab`: what is added is not known
        lines = [line for line in text.splitlines() if len(line.split()) >= 3 and not line.lstrip().startswith("#")]
        return any(_WAITS_NOT.search(line) is None for line in lines)  # an edit's words (`swap #`) are no line


# `/ swap / s/^/#/`, `/swap/d`, `\|swap|s|^|#|`: a script whose every command is addressed to the swap lines
_SWAP_ADDRESSED = lazy(r"^(/[^/\n]*swap[^/\n]*/|\\(.)[^\n]*?swap[^\n]*?\2)\s*[^;\n{}!]*$")


def swap_lines_only(texts: list) -> bool:
    """sed's scripts (``-e S`` or the first operand) all act on lines that hold ``swap`` only."""
    scripts = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-e", "--expression")]
    if not scripts:
        operands = [t for t in texts if not t.startswith("-")]
        scripts = operands[:1]
    return bool(scripts) and all(_SWAP_ADDRESSED.match(s) for s in scripts)



FILES: list = [
    (re.compile(r"^/(etc|usr/share)/polkit-1/rules\.d/[^/]+\.rules$"),
     [(_AnyoneAllowed, HIGH, "lets every user do any privileged action without a password (polkit)")], None, ""),
    (re.compile(r"^/etc/(modprobe\.d/[^/]+|modprobe\.conf)$|^/(usr/lib|lib|run)/modprobe\.d/[^/]+$"),
     [(_DRIVER_OFF, MEDIUM, "keeps a disk, filesystem or network driver from loading at every "
                            "boot: the machine may not start or be reached")], None, ""),
    (re.compile(r"^/etc/(fstab|crypttab)$"), [(_BootStopper, MEDIUM, "a bad line there stops the boot")], None, ""),
    (re.compile(r"^/etc/default/grub(\.d/[^/]+)?$|^/boot/(grub2?/grub\.cfg|(firmware/)?cmdline\.txt|"
                r"loader/entries/[^/]+|extlinux/extlinux\.conf|syslinux/syslinux\.cfg|refind_linux\.conf)$|"
                r"^/etc/kernel/cmdline$|^/etc/kernelstub/configuration$"),
     [(BootArgText, MEDIUM, "the machine boots into a root shell, a rescue target, another root or with a "
                            "protection off")], None, ""),
    (re.compile(r"^/etc/audit/(audit\.rules|rules\.d/[^/]+\.rules)$"),
     [(re.compile(r"^\s*(-e\s+0|-a\s+(never,\w+|\w+,never)\b.*)\s*$", re.MULTILINE), HIGH,  # an audit trail off
       "switches the audit log off at every boot: who does what is not recorded"),
      (re.compile(r"^\s*-D\s*$", re.MULTILINE), MEDIUM, "deletes the audit rules at every boot")], None, ""),
    (re.compile(r"^/sys/fs/selinux/enforce$|^/sys/module/(apparmor|selinux|lockdown|yama|loadpin|integrity|ima)/"
                r"parameters/\w+$"),
     [(_MODULE_OFF, MEDIUM, "switches a kernel security module off")], None, ""),
    (re.compile(r"^(/etc/sysctl\.conf|/etc/sysctl\.d/.*|/usr/lib/sysctl\.d/.*|/run/sysctl\.d/.*)$"),
     [(BreakingText, MEDIUM, "a kernel setting that cuts the network or makes programs fail")], None, ""),
]
