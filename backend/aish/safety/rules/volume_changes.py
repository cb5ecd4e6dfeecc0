"""Effect: an array, pool, volume or disk changed in place so that what it holds is at risk: a member
failed, removed or detached (the redundancy that kept the data is gone), an array stopped or reshaped,
redundancy converted away, a volume group told to drop the volumes on a missing disk, a filesystem given a
new identity (``/etc/fstab`` and the boot loader name the old one: ``tune2fs -U``, ``xfs_admin -U``,
``btrfstune -u``, ``swaplabel -U``, ``cryptsetup luksUUID --uuid``, ``sgdisk --partition-guid``), a mirror
converted to a volume without redundancy (``lvconvert -m 0``), a namespace detached, the initramfs deleted, an
encrypted volume re-encrypted or its header replaced, a drive locked with a password or cut to a smaller
size, a partition table copied over another disk or loaded from a file, the free space of a volume
overwritten, a boot loader written into a disk's boot sectors (``grub-bios-setup``, ``lilo -M``,
``refind-install``, ``extlinux --install``).

Tools of the same class, read by what they do to the medium: ``mdadm``, ``vgreduce``, ``zpool``, ``btrfs``,
``tune2fs``, ``cryptsetup``, ``hdparm``, ``sgdisk``, Windows' ``cipher /w``.  Their reading forms (status,
detail, list, print, dump) stay quiet, and so do the forms that only grow or add.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, is_device
from aish.safety.lazy_regex import lazy

_MDADM_GROW = frozenset({"--raid-devices", "-n", "--level", "-l", "--size", "-z", "--array-size", "-Z", "--chunk",
                         "-c", "--layout", "-p"})


def rule_mdadm(c: Ctx) -> Optional[tuple]:
    """``mdadm --stop``, ``--fail``/``--remove`` of a member, ``--grow`` to another shape."""
    texts = c.texts
    names = {t.split("=", 1)[0] for t in texts}
    if names & {"--stop", "-S"}:
        return MEDIUM, f"mdadm stops the array: its filesystems and whatever uses them go away ({c.text})"
    if names & {"--fail", "--set-faulty", "--remove"} or \
            ("--manage" in names or texts[:1] and texts[0].startswith("/dev/md")) and names & {"-f", "-r"}:
        return MEDIUM, f"mdadm fails or removes a member: the array runs without its redundancy ({c.text})"
    if names & {"--grow", "-G"} and names & _MDADM_GROW:
        return MEDIUM, f"mdadm reshapes the array: an interrupted or wrong reshape loses it ({c.text})"
    return None


def rule_vgreduce(c: Ctx) -> Optional[tuple]:
    if "--removemissing" in c.texts:
        forced = bool({"--force", "-f", "-ff"} & set(c.texts))
        return (HIGH if forced else MEDIUM), \
            f"vgreduce drops the missing disk and the logical volumes that used it ({c.text})"
    return None


def rule_zpool(c: Ctx) -> Optional[tuple]:
    verb = next((t for t in c.texts if not t.startswith("-")), "")
    if verb in ("offline", "detach", "remove", "split"):
        return MEDIUM, f"zpool {verb} takes a device out of the pool: its redundancy is gone ({c.text})"
    if verb == "upgrade" and not {"-v"} & set(c.texts) and len(c.texts) > 1:
        return MEDIUM, f"zpool upgrade enables new features for good: older systems can no longer import it ({c.text})"
    return None


_LOW_PROFILES = lazy(r"^-[dms]convert=(single|raid0|dup)\b")


def rule_btrfs(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    head = [t for t in texts if not t.startswith("-")][:2]
    if head == ["balance", "start"] and (any(_LOW_PROFILES.match(t) for t in texts) or
                                         any(t.startswith(("-d", "-m")) and "convert" in t for t in texts) and
                                         {"-f", "--force"} & set(texts)):
        return MEDIUM, f"btrfs converts the data or metadata to a profile with less redundancy ({c.text})"
    if head[:1] == ["rescue"] and len(head) > 1 and head[1] in ("zero-log", "chunk-recover", "super-recover",
                                                                "fix-device-size", "clear-uuid-tree"):
        return MEDIUM, f"btrfs rescue {head[1]} rewrites filesystem structures: recent writes may be lost ({c.text})"
    if head == ["replace", "start"]:
        return MEDIUM, f"btrfs replace overwrites the target device with a member's data ({c.text})"
    if head == ["device", "add"] and {"-f", "--force"} & set(texts):
        return HIGH, f"btrfs device add -f takes over a device that holds a filesystem ({c.text})"
    return None


# A filesystem, volume or partition given a new identity: /etc/fstab, crypttab and the boot loader name the old one.
_NEW_IDENTITY = {"tune2fs": re.compile(r"^-U"), "xfs_admin": re.compile(r"^-U"),
                 "swaplabel": re.compile(r"^-U|^--uuid"), "btrfstune": re.compile(r"^-[A-Za-z]*[uUmM]$"),
                 "sgdisk": re.compile(r"^(-[A-Za-z]*[uU]|--partition-guid|--disk-guid)"),
                 "cryptsetup": re.compile(r"^--uuid")}


def rule_new_identity(c: Ctx) -> Optional[tuple]:
    pattern = _NEW_IDENTITY.get(c.prog)
    if pattern is None or c.prog == "cryptsetup" and "luksUUID" not in c.texts:
        return None
    if any(pattern.match(t) for t in c.texts):
        return MEDIUM, f"{c.prog} gives the filesystem or volume a new UUID: fstab, crypttab and the boot loader " \
            f"still name the old one ({c.text})"
    return None


def rule_tune2fs(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if any(t == "-I" for t in texts):
        return MEDIUM, f"tune2fs rewrites every inode to a new size: an interrupted run corrupts it ({c.text})"
    return None


def rule_cryptsetup(c: Ctx) -> Optional[tuple]:
    verb = next((t for t in c.texts if not t.startswith("-")), "")
    if verb == "luksHeaderRestore":
        return HIGH, f"cryptsetup replaces the volume's header and keys with a backup's ({c.text})"
    if verb in ("reencrypt", "convert") or "--reduce-device-size" in c.texts:
        return MEDIUM, f"cryptsetup {verb} rewrites the whole volume in place: an interruption or a lost key " \
            f"loses it ({c.text})"
    return None


def rule_hdparm(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if "--security-set-pass" in texts:
        return HIGH, f"hdparm locks the drive with a password (the first step of a secure erase) ({c.text})"
    if {"--make-bad-sector", "--write-sector", "--dco-restore", "--dco-setmax", "--please-destroy-my-drive"} & \
            set(texts) or any(t == "-N" or re.fullmatch(r"-Np?\d+", t) for t in texts) and \
            any(re.fullmatch(r"(-N)?p?\d+", t) for t in texts):
        return HIGH, f"hdparm rewrites sectors or the drive's visible size: data there is lost ({c.text})"
    return None


def rule_sgdisk(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if any(re.fullmatch(r"-[A-Za-z]*R(=\S+)?|--replicate(=\S+)?", t) for t in texts):
        return HIGH, f"sgdisk copies a partition table over another disk's ({c.text})"
    if any(re.fullmatch(r"-[A-Za-z]*l|--load-backup(=\S+)?", t) for t in texts):
        return HIGH, f"sgdisk loads a partition table from a file over the disk's ({c.text})"
    if any(re.fullmatch(r"-[A-Za-z]*G|--randomize-guids", t) for t in texts):
        return MEDIUM, f"sgdisk gives the disk and its partitions new GUIDs: what names them by GUID breaks " \
            f"({c.text})"
    return None


def rule_lvconvert(c: Ctx) -> Optional[tuple]:
    """``lvconvert --type raid0``, ``-m 0``: a mirrored or RAID volume converted to one without redundancy."""
    texts = c.texts
    joined = " ".join(texts)
    if re.search(r"--type[= ](raid0\w*|striped|linear)\b|(^|\s)(-m|--mirrors)[= ]?0\b", joined):
        return MEDIUM, f"lvconvert removes the volume's redundancy: one failed disk loses it ({c.text})"
    return None


def rule_nvme(c: Ctx) -> Optional[tuple]:
    if c.texts[:1] in (["detach-ns"], ["ns-detach"]):
        return MEDIUM, f"nvme detaches a namespace: its data disappears from the system ({c.text})"
    return None


def rule_initramfs(c: Ctx) -> Optional[tuple]:
    if any(t in ("-d", "--delete") for t in c.texts):
        return HIGH, f"update-initramfs deletes the initramfs: the kernel it belongs to no longer boots ({c.text})"
    return None


_LOADER_WRITERS = frozenset({"grub-bios-setup", "grub2-bios-setup", "grub-setup", "lilo", "refind-install",
                             "extlinux", "grub-install", "grub2-install"})


def rule_boot_loader_written(c: Ctx) -> Optional[tuple]:
    """``grub-bios-setup /dev/sdb``, ``lilo -M /dev/sda mbr``, ``refind-install --usedefault /dev/sdb1``,
    ``extlinux --install /boot``: a boot loader written into a disk's or partition's boot sectors."""
    texts = c.texts
    device = next((t for t in texts if is_device(t)), None)
    if device is None and not (c.prog == "extlinux" and {"-i", "--install", "-U", "--update"} & set(texts)):
        return None
    if c.prog in ("grub-install", "grub2-install") and "--force" not in texts:
        return None  # `lockout` reads grub-install onto a device; forced, it writes where grub itself refuses to
    return MEDIUM, f"{c.prog} writes a boot loader into {device or 'the partition'}'s boot sectors: what booted " \
        f"from it before no longer does ({c.text})"


def rule_cipher(c: Ctx) -> Optional[tuple]:
    if any(t.lower().startswith("/w") for t in c.texts):
        return MEDIUM, f"cipher /w overwrites the volume's free space: deleted files are gone for good ({c.text})"
    return None


RULES: dict = {"mdadm": [rule_mdadm], "vgreduce": [rule_vgreduce], "zpool": [rule_zpool], "btrfs": [rule_btrfs],
               "tune2fs": [rule_tune2fs], "cryptsetup": [rule_cryptsetup], "hdparm": [rule_hdparm],
               "sgdisk": [rule_sgdisk], "cipher": [rule_cipher], "lvconvert": [rule_lvconvert], "nvme": [rule_nvme],
               "update-initramfs": [rule_initramfs]}
for _name in _LOADER_WRITERS:
    RULES.setdefault(_name, []).append(rule_boot_loader_written)
for _name in _NEW_IDENTITY:
    RULES.setdefault(_name, []).append(rule_new_identity)
