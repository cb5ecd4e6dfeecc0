"""Effect: the machine told to boot from the network, or in another firmware mode, by any firmware or BMC tool.

``boot_choices`` reads the next boot chosen to be a rescue shell; ``firmware_writes`` the firmware rewritten.
A server's firmware settings also decide what it is at its next boot, and every vendor's tool names them
with the word boot in a key or an option:

- the boot device set to the network (``ipmitool chassis bootdev pxe options=persistent``, ``racadm set
  BIOS.BiosBootSettings.BootSeq NIC.PxeDevice.1-1``, ``cctk --bootorder --sequence=nic``, ``redfishtool …
  BootSourceOverrideTarget Pxe``, ``--boot-device network``, ``eeprom boot-device=net``, a boot tool's own
  ``--default pxe``): the machine boots an installer from the network,
  which commonly wipes its disks and reinstalls it;
- the firmware's boot mode switched (``BootMode Uefi``/``Bios``/``Legacy``, ``--bootmode=legacy``): the
  installed system no longer boots.

Reading the settings (``get``, ``show``, ``status``, ``list``) and a boot device set to the local disk stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_BOOT_KEY = LazyRegex(r"boot[-_.]?(dev|device|order|seq|sequence|source|target|list|from|mode)|"
                      r"bootsourceoverride|^-{0,2}sequence$", re.IGNORECASE)
_DEFAULT_KEY = LazyRegex(r"^-{0,2}(set[-_]?)?(default|next|once|oneshot)$", re.IGNORECASE)
_MODE_KEY = LazyRegex(r"boot[-_.]?mode$", re.IGNORECASE)
_NETWORK = LazyRegex(r"^(pxe|network|net|lan|nic|http|ipv4|ipv6|iscsi)\b|pxe|\bnic\.|network", re.IGNORECASE)
_MODES = LazyRegex(r"^(uefi|bios|legacy|efi|csm)", re.IGNORECASE)
_READS = frozenset({"get", "show", "status", "list", "info", "print", "-g", "--get", "--show", "jobqueue", "view",
                    "--list", "--help", "-h", "getconfig", "query"})


@triggered_by(("boot", "sequence"), otherwise=False)
def may_choose_boot(c: Ctx) -> bool:
    """Cheap: a word after the program and the word boot (or sequence) in the line."""
    line = c.prog.lower() + " " + c.lowered
    return bool(c.texts) and ("boot" in line or "sequence" in line)


def _settings(texts: list) -> list:
    """(key, value) pairs: `key=value`, `--key value`, `key value` after a setting verb."""
    pairs = []
    for k, t in enumerate(texts):
        key, eq, value = t.partition("=")
        if eq:
            pairs.append((key, value))
        elif k + 1 < len(texts):
            pairs.append((t, texts[k + 1]))
    return pairs


def rule_boot_device(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    if set(t.lower() for t in texts) & _READS:
        return None
    boot_tool = "boot" in c.prog.lower()  # `bootsel --default pxe`: the tool's own default is the boot's
    for key, value in _settings(texts):
        value = value.strip("'\"")
        if not (_BOOT_KEY.search(key) or boot_tool and _DEFAULT_KEY.match(key)):
            continue
        if _NETWORK.search(value):
            return MEDIUM, f"{c.prog} {key} {value}: the machine boots from the network, often into an installer " \
                           f"that wipes it ({c.text})"
        if _MODE_KEY.search(key) and _MODES.match(value):
            return MEDIUM, f"{c.prog} {key} {value}: the firmware's boot mode changes, the installed system no " \
                           f"longer boots ({c.text})"
    return None
