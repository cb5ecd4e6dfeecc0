"""Effect: a firmware image written to a device by a program ``firmware_writes`` does not know by name.

``firmware_writes`` knows the vendors' flashers by their names.  Any other tool says the same thing with two words:
a writing verb (``download``, ``flash``, ``burn``, ``load``, ``update``, ``upgrade``, ``program``, ``-UP=``, a
verb fused to the firmware: ``--downloadFW``, ``romupdate``, ``download_fw``, ``--download-firmware``) and an
image whose name or option says firmware (``fw``, ``firmware``, ``bios``, ``rom``, ``ucode``, ``microcode``,
``eeprom``, ``bmc``, ``uefi`` as a word of the name, or the flashers' extensions ``.lod``, ``.grp``, ``.flb``,
``.rom``, ``.fw``, ``.cap``, ``.hpm``, ``.fwpkg``, ``.ufi``, ``.ima``).  A wrong, corrupt or interrupted image
leaves the card, drive or board dead.

Quiet: programs that download onto this machine (``gh release download``, ``curl``, ``wget``, object stores and
package managers), reads (``query``, ``list``, ``--version``, ``info``), help.  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_VERB = re.compile(r"^(-{0,2}|/)(download|flash|burn|load|update|upgrade|write|program|up)"
                   r"([-_]?(fw|firmware|rom|bios|image|microcode|ucode|eeprom))?(=.*)?$|"
                   r"^(-{0,2}|/)(fw|firmware|rom|bios)[-_]?(download|update|upgrade|flash|load|write|burn)(=.*)?$|"
                   r"^(-{0,2}|/)(download|flash|update|upgrade|write|burn)[-_]?(fw|firmware)\b",
                   re.IGNORECASE)
_IMAGE = re.compile(r"(^|[^a-z])(fw|firmware|bios|rom|ucode|microcode|eeprom|bmc|uefi)([^a-z]|$)|"
                    r"\.(lod|grp|flb|rom|fw|cap|hpm|fwpkg|ufi|ima)$", re.IGNORECASE)
_FETCHERS = frozenset({"gh", "glab", "curl", "wget", "aria2c", "axel", "hf", "huggingface-cli", "gsutil", "aws", "az",
                       "gcloud", "rclone", "scp", "rsync", "git", "apt", "apt-get", "dnf", "yum", "pip", "pip3", "npm",
                       "cargo", "go", "brew", "docker", "podman", "skopeo", "oras", "helm", "snap", "flatpak", "yt-dlp",
                       "mc", "s3cmd", "b2", "gdown", "kaggle", "conda", "nix", "opkg", "apk", "pacman", "zypper"})
_LOOKS = frozenset({"query", "list", "ls", "--version", "-v", "info", "show", "status", "--help", "-h", "help",
                    "--list", "--query", "--info", "verify", "--verify", "--dry-run"})


@triggered_by(("download", "flash", "burn", "load", "update", "upgrade", "write", "program", "up=", "up"))
def rule_firmware_file(c: Ctx) -> Optional[tuple]:
    """``hbactl download 10:00:00:90:fa:94:2b:11 emulex_fw.grp``, ``ssdtool --downloadFW EDA7.bin``."""
    name = c.prog.lower().rsplit("/", 1)[-1]
    if name in _FETCHERS:
        return None
    texts = c.texts
    if {t.lower() for t in texts} & _LOOKS:
        return None
    verb = next((t for t in texts[:8] if _VERB.match(t)), None)
    if verb is None:
        return None
    fused = bool(re.search(r"fw|firmware|rom|bios|microcode|ucode|eeprom", verb, re.IGNORECASE))
    values = [t.partition("=")[2] if "=" in t else t for t in texts if t is not verb]
    image = next((v for v in values if "." in v and _IMAGE.search(v.rsplit("/", 1)[-1])), None)  # a file, not a word
    if image is None and not (fused and any(v and not v.startswith("-") for v in values)):
        return None
    return MEDIUM, f"{c.prog} {verb} writes {image or 'a firmware image'} into the device's flash: a wrong or " \
        f"interrupted image leaves it dead ({c.text})"
