"""Effect: a disk named by its bare name given to a verb that takes it away, and a drive told to erase
itself, for programs no rule names.

BSD, Solaris, AIX and mainframe tools take disks by the names their kernels give them, without
``/dev`` (``ada0p3``, ``c0t0d0s7``, ``hdisk3``, ``dasd 0.0.0150``), and say what they do to them in a
letter or a verb the vocabulary does not read as a loss on a disk:

- a removing letter (``-d``, ``-D``, or a bundle starting with it: ``rmdev -dl hdisk3``, ``reducevg -df
  datavg hdisk3``, ``raidctl -d c1t0d0``, ``metadb -d -f c0t0d0s7``, ``chzdev -d dasd 0.0.0150``);
- a verb that ends the disk's use: ``kill`` (``geli kill ada0p3``: its keys destroyed, the data with them),
  ``detach``, ``offline``, ``fail``, ``clear``, ``zap``, ``label``/``restore`` over it (``disklabel -R sd1
  proto``);
- a drive's own erase, by any vendor tool's option or verb (``intelmas start -intelssd 1 -secureerase``,
  ``SeaChest_Erase --ataSecureErase``, ``mmc sanitize``, ``-cryptoerase``, ``--block-erase``): every block
  it holds is gone.

Listing, showing and checking the same disks, and adding them, stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.disk_names import BARE_DISK, is_device
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# Bare disk names beyond disk_names.BARE_DISK: AIX hdisks, SVM and md metadevices' disks, mainframe DASD bus ids.
_MORE_DISKS = LazyRegex(r"^(hdisk\d+|hdiskpower\d+|vpath\d+|dasd[a-z]*\d*|0\.[0-3]\.[0-9a-f]{4}|wd\d+|"
                        r"sd\d+[a-p]?|cd\d+|rsd\d+[a-p]?|gpt/\S+|label/\S+|disk\d+s\d+)$", re.IGNORECASE)
_REMOVING_LETTERS = lazy(r"^-[dD][a-zA-Z]{0,3}$")
_ENDING_VERBS = frozenset({"kill", "detach", "offline", "fail", "clear", "zap", "destroy", "delete", "remove",
                           "rm", "del", "erase", "wipe", "restore", "reinit", "forget", "unconfigure",
                           "deconfigure", "-kill", "--kill", "-detach", "--detach", "-offline", "--offline"})
_READS = frozenset({"list", "show", "status", "info", "-l", "-L", "--list", "display", "query", "dump", "-p", "-i",
                    "-s", "-h", "--help", "print", "get", "check", "verify", "add", "create", "attach", "online",
                    "-a"})
_ERASE = LazyRegex(r"^-{0,2}(ata|nvme|sata|sas|scsi)?[-_]?(secure[-_]?erase(all)?|sanitize|crypto[-_]?erase|"
                   r"block[-_]?erase|overwrite[-_]?erase|user[-_]?data[-_]?erase|low[-_]?level[-_]?format|"
                   r"nvmeformat|cryptographic[-_]?erase|perform\w*erase|erase[-_]?(all|drive|disk|device|ssd))$",
                   re.IGNORECASE)
_WORDS = ("erase", "sanitize", "format", "kill", "detach", "offline", "-d", "-r", "clear", "zap", "fail", "del",
          "remove", "rm", "restore", "wipe", "forget", "configure")


@triggered_by(_WORDS, otherwise=False)
def may_act(c: Ctx) -> bool:
    """Cheap: two words or more (a verb and a disk, or an erase option and the drive), one of the gate's words."""
    if len(c.texts) < 2:
        return False
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _WORDS)


def disk_word(word: str) -> bool:
    """A disk by any name: a device path, a BSD, Solaris, AIX or mainframe disk name."""
    word = word.strip("'\"")
    return bool(BARE_DISK.match(word) or _MORE_DISKS.match(word) or is_device(word))


def rule_device_operand(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    erase = next((t for t in texts if _ERASE.match(t)), None)
    if erase and "sanitize" in erase.lower() and erase.startswith("-") and not any(disk_word(t) for t in texts):
        erase = None  # `lshw -sanitize`: the report's addresses left out
    if erase and not (set(texts) & {"--help", "-h", "show", "list", "status", "--list"}):
        return HIGH, f"{c.prog} {erase}: the drive erases every block it holds ({c.text})"
    if set(texts[:2]) & _READS:
        return None
    disks = [t for t in texts if not t.startswith("-") and disk_word(t)]
    if not disks:
        return None
    bare = [t for t in disks if not t.startswith("/")]  # `grub-probe -d /dev/sdX`: -d names a folder there
    letter = next((t for t in texts if _REMOVING_LETTERS.match(t)), None) if bare else None
    verb = next((t for t in texts if t in _ENDING_VERBS), None)
    if letter or verb:
        return MEDIUM, f"{c.prog} {letter or verb} {disks[0]}: the disk is taken away from what uses it ({c.text})"
    return None
