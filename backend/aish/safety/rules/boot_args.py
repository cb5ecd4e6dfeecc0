"""Kernel command-line words that make the next boot unsafe, whoever writes them: a protection switched
off (CPU mitigations, SELinux, AppArmor, lockdown, module signatures, audit), or a boot straight into a
root shell or a rescue target (``init=/bin/bash``, ``rd.break``, ``systemd.unit=emergency.target``,
``systemd.debug-shell``, ``single``), or onto another root device (``root=/dev/sda9``).

One reading for every writer of a command line: boot-entry tools (``grubby --args``, ``kernelstub -a``,
``rpm-ostree kargs --append``; read by ``weakened``) and the files the boot loader reads
(``/etc/default/grub``, ``cmdline.txt``, loader entries, ``/etc/kernel/cmdline``; read through
``system_files``).  Removing such a word (``--remove-args selinux=0``) protects and stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

RISKY = re.compile(r"(^|[\s'\"=])(mitigations=off|nopti|pti=off|nospectre_v[12]|spectre_v[12]=off|"
                   r"spectre_bhi=off|nospec_store_bypass_disable|spec_store_bypass_disable=off|l1tf=off|"
                   r"mds=off|tsx_async_abort=off|mmio_stale_data=off|retbleed=off|srbds=off|gather_data_"
                   r"sampling=off|kpti=0|noibrs|noibpb|nosmap|nosmep|lockdown=none|module\.sig_enforce=0|"
                   r"apparmor=0|selinux=0|enforcing=0|security=none|audit=0|"
                   # a root shell or a rescue boot instead of the system
                   r"init=/\S*/(ba|z|da|k|c|tc|fi|a)?sh|init=/\S*busybox|rd\.break(=\w+)?|rd\.shell(=1)?|"
                   r"systemd\.unit=(rescue|emergency)(\.target)?|systemd\.debug[-_]shell(=1|=yes|=on)?|"
                   r"single|emergency|root=/dev/\S+)(?=$|[\s'\"])")


class BootArgText:
    """A content pattern for ``meaning``'s file table: ``search`` finds an unsafe word in a command line."""

    @staticmethod
    def search(text: str) -> Optional[re.Match]:
        return RISKY.search(text)
