"""Effect: disks, volumes, controllers' arrays and firmware acted on by vendor and OS tools no rule names,
read in the words every such tool shares rather than by its name.

- A verb or an option fusing what it does with the storage object it does it to: ``delwedge``
  (``dkctl wd0 delwedge dk1``), ``-CfgLdDel``, ``-LDInit``, ``-PDClear``, ``-CfgClr`` (``MegaCli``),
  ``deletevd:…``, ``resetconfig:RAID…``, ``deletevolume``, ``rmfbvol``, ``eraseall``, ``init-array``:
  a volume, an array or a controller's whole configuration, and the data on it, is gone.
- A converter or an initializer given a disk (``btrfs-convert /dev/sdb1``, ``fstransform /dev/sdb1 xfs``,
  ``mediainit /dev/rdsk/c0t1d0``): the filesystem is rewritten in place or the medium formatted.
- A volume group, a pool or an array built by force over a disk (``mkvg -f -y datavg hdisk2``): what the disk
  held, another group's data perhaps, is lost.
- A medium labelled anew by force by a tape or volume labeller (``bplabel … -o``, ``amlabel -f``): its catalog
  forgets what it held (a filesystem's own labeller, ``e2label``, ``ntfslabel --force``, is not one).
- A drive's capacity cut (``--setMaxLBA N``, ``set-max-lba``): what lies past the new end is unreachable.
- A cleaner told to protect nothing (``nilfs-clean --protection-period=0``, ``--keep-days=0``): every
  checkpoint or old version it would have kept is reclaimed now.
- A firmware or network OS image applied by a flasher or an installer (``Yafuflash -cd fw.ima``,
  ``onie-nos-install http://…/sonic.bin``, ``sonic-installer install -y sonic.bin``, ``switchfw-update -u``):
  a wrong or interrupted image leaves the board, the BMC or the switch dead.
Listing, showing, querying and help stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, is_device
from aish.safety.rules.device_operands import disk_word
from aish.safety.rules.triggers import triggered_by

# What a storage tool's verb does, fused with the object it does it to (either order; `cfg` may lead).
_ACTS = r"(del|delete|remove|rem|rm|destroy|clear|clr|erase|init|initialize|reinit|wipe|zap|format|eradicate|purge|" \
        r"detach)"
_OBJECTS = (r"(wedge|vd|ld|pd|lun|luns|vol|volume|vdisk|vdisks|array|arrays|container|partition|part|slice|"
            r"pool|raid|cfg|config|ns|namespace|mirror|mdisk|fbvol|ckdvol|logicaldrive|logicaldisk|"
            r"virtualdisk|virtualdrive|foreign|foreigncfg|meta|metadevice)")
# Volume managers' and arrays' own names fusing the act and the object (`metaclear d10`, `metadetach d10 d12`):
# the program's name is read as the option would be.
_NAMED = lazy(r"^(meta|md|vx|sm|sym|lun|vol|vd|raid)[-_]?(clear|detach|del|delete|remove|rm|destroy)$", 0)
# An array's or an attachment point's storage unbound or unconfigured (`naviseccli lun -unbind 12`: the LUN and
# its data are gone; `cfgadm -c unconfigure c1::dsk/c1t1d0`: the disk is taken from the system under what uses it).
_UNBINDS = frozenset({"unbind", "-unbind", "--unbind", "unconfigure", "-unconfigure", "--unconfigure"})
# A storage object taken offline by name (`vol offline vol1`, `volume offline -vserver s -volume data1`, `sanctl lun
# offline 7`): every client of it loses access until it is brought back online.
_OFFLINES = frozenset({"offline", "-offline", "--offline", "take-offline", "set-offline"})
_OFFLINE_OBJECTS = frozenset({"vol", "volume", "volumes", "lun", "luns", "aggr", "aggregate", "pool", "vdisk", "ld",
                              "vd", "array", "qtree", "share", "datastore", "lu", "namespace", "fs", "filesystem"})
_STORAGE_WORD = lazy(r"\b(lun|luns|lu|vd|ld|raid|rg|raidgroup|disk|disks|dsk|rdsk|sata\d*|scsi\d*|volume|vol|"
                     r"array|pool|c\d+::\S+)\b|::dsk/|/dsk/", re.IGNORECASE)
_FUSED = lazy(rf"^-{{0,2}}(cfg)?({_ACTS}[-_]?{_OBJECTS}s?|{_OBJECTS}[-_]?{_ACTS})(:\S*)?$", re.IGNORECASE)
_RESET_CONFIG = lazy(r"^-{0,2}reset[-_]?(config|cfg)(:\S*)?$", re.IGNORECASE)
_CONTROLLER = lazy(r"raid|ctrl|controller|adapter|storage|/c\d|-a\d|-aall|array", re.IGNORECASE)
# A medium's label rewritten by force (a tape's or a volume's: what it holds is forgotten by its catalog); a
# filesystem's name changed by its own labeller is not one.
_LABELLER = lazy(r"^(?!(e2|ntfs|fat|exfat|swap|xfs|btrfs|dos|hfs|udf|f2fs|jfs|reiserfs|nilfs|m|g|e|fs|disk|bsd|"
                 r"sun|mac)label$)\w*label$")
_FORCED = frozenset({"-f", "-o", "--force", "--overwrite", "overwrite=yes", "-force", "--overwrite=yes", "/force"})
# A volume group, a pool or an array built by force over disks that may belong to another (`mkvg -f … hdisk2`).
_BUILDER = lazy(r"^(mk|make|create)[-_]?(vg|pv|pool|array|raid|volume|vol|md|mirror|stripe)$")
_IN_PLACE = lazy(r"convert|transform|mediainit|^\w*init$")
_MAX_LBA = lazy(r"^-{0,2}set[-_]?max[-_]?(lba|sectors?|address)$|^--?setmaxlba$", re.IGNORECASE)
_KEEP_NONE = lazy(r"^--?(protection|retention|protect|keep|min[-_]?age|grace)[-_]?(period|time|days?|hours?|"
                  r"count|age|min)?(=0+[smhdw]?)?$", re.IGNORECASE)
_CLEANER = lazy(r"clean|prune|purge|reap|expire|gc\b|vacuum|snap|backup|bak\b|rotate", re.IGNORECASE)
_FLASHER = lazy(r"flash|firmware|(fw|bios|bmc|nos)\w*[-_]?(update|upgrade|install|load)|^\w+-installer$",
                re.IGNORECASE)
_IMAGE = lazy(r"\.(bin|ima|rom|hpm|swi|cap|fd|fw|upd|signed|itb|ubi|hex|cfg)$", re.IGNORECASE)
_APPLIES = frozenset({"install", "upgrade", "update", "flash", "burn", "apply", "load", "program", "-u", "--apply",
                      "--update", "--upgrade", "--flash", "--install", "-cd", "--burn"})
_READS = frozenset({"list", "show", "status", "info", "display", "query", "--query", "-q", "get", "print", "dump",
                    "--help", "-h", "help", "-?", "/?", "--version", "-v", "-V", "version", "verify", "--verify",
                    "check", "--check", "-l", "--list", "ls", "scan", "--scan", "--info", "--dry-run", "--dump"})
# A flasher's reads: the image is saved from the device, not written to it.
_FLASH_READS = frozenset({"read", "-r", "--read", "backup", "save", "--save", "-i", "ld", "-n", "--test", "-t",
                          "dump", "-d", "--diff", "compare", "--compare", "-c", "info"})

_GATE = lazy(r"del|rm|rem|destroy|clear|clr|erase|init|wipe|zap|format|eradicate|purge|reset|convert|transform|"
             r"unbind|unconfigure|detach|offline|"
             r"lba|protect|retention|keep|grace|min-age|min_age|minage|label|mkvg|mkpv|mkpool|mkarray|mkraid|mkvol|mkmd|"
             r"create[-_]?(vg|pv|pool|array|raid|vol|md|mirror|stripe)|flash|fw|firmware|bios|bmc|nos|installer",
             re.IGNORECASE)


@triggered_by(_GATE, otherwise=False)
def may_act_on_storage(c: Ctx) -> bool:
    """Cheap: an argument, no read among the first words, one of the gate's words in the line."""
    return bool(c.texts) and not (set(c.texts[:3]) & _READS and not _host_option(c.texts)) and \
        bool(_GATE.search(c.prog + " " + c.lowered))


def _host_option(texts: list) -> bool:
    """``naviseccli -h spa …``: ``-h`` given a host, not asking for help."""
    return texts[0] == "-h" and len(texts) > 2 and texts[1][:1] != "-" and not set(texts[2:3]) & _READS


def rule_storage_words(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:48]
    if set(texts) & {"--help", "-h", "help", "--version", "-?", "/?"} and not (
            _host_option(texts) and not set(texts[2:]) & {"--help", "-h", "help", "--version", "-?", "/?"}):
        return None
    prog = c.prog.lower()
    low = [t.lower() for t in texts]
    disks = [t for t in texts if not t.startswith("-") and disk_word(t)]
    if _NAMED.match(prog) and any(not t.startswith("-") for t in texts):
        loses = MEDIUM if "detach" in prog else HIGH
        return loses, f"{c.prog}: the volume it names is destroyed or split from its mirror ({c.text})"
    offline = next((k for k, t in enumerate(low[:4]) if t in _OFFLINES), None)
    if offline is not None:
        kind = {t.lstrip("-") for t in low[max(0, offline - 1):offline + 3]} | {prog}
        named = [t for t in texts[offline + 1:] if not t.startswith("-")]
        if kind & _OFFLINE_OBJECTS and named and "online" not in low:
            return MEDIUM, f"{c.prog} takes the storage {named[-1]} offline: every client of it loses access " \
                           f"({c.text})"
    unbind = next((t for t in low if t in _UNBINDS), None)
    if unbind and _STORAGE_WORD.search(c.lowered):
        if "unbind" in unbind:
            return HIGH, f"{c.prog} {unbind}: the array's volume is unbound, its data gone ({c.text})"
        return MEDIUM, f"{c.prog} {unbind}: the disk is taken from the system under what uses it ({c.text})"
    for k, t in enumerate(texts):
        fused = _FUSED.match(t)
        if fused and (disks or _CONTROLLER.search(c.lowered) or _CONTROLLER.search(prog) or t.startswith("-")):
            loses = HIGH if re.search(r"erase|init|wipe|zap|format|eradicate|destroy|clea?r|purge", t, re.I) else MEDIUM
            return loses, f"{c.prog} {t}: the volume, array or configuration it names is destroyed, with its " \
                f"data ({c.text})"
        if _RESET_CONFIG.match(t) and (_CONTROLLER.search(c.lowered) or _CONTROLLER.search(prog)):
            return HIGH, f"{c.prog} {t}: the controller's arrays are cleared, every volume on them lost ({c.text})"
        if _MAX_LBA.match(t):
            return HIGH, f"{c.prog} {t}: the drive's capacity is cut, data past the new end unreachable ({c.text})"
        given = t if "=" in t else t + "=" + (texts[k + 1] if k + 1 < len(texts) else "")
        if _KEEP_NONE.match(given) and "=" in given and (_CLEANER.search(prog) or _CLEANER.search(c.lowered)):
            return HIGH, f"{c.prog} {t}: nothing is protected, every kept version is reclaimed now ({c.text})"
    labels = bool(_LABELLER.match(prog)) or ("relabel" in low[:4])
    if labels and set(low) & _FORCED:
        return MEDIUM, f"{c.prog}: the medium is labelled anew by force, what it held is forgotten ({c.text})"
    if disks and set(low) & {"-f", "--force", "-force"} and \
            (_BUILDER.match(prog) or any(_BUILDER.match(t) for t in low[:3])):
        return HIGH, f"{c.prog} builds by force over {disks[0]}: what the disk held is lost ({c.text})"
    if disks and _IN_PLACE.search(prog) and any(t.startswith("/dev/") or is_device(t) for t in disks):
        return HIGH, f"{c.prog} {disks[0]}: the filesystem is rewritten in place or the medium formatted " \
            f"({c.text})"
    if _FLASHER.search(prog) and not set(texts) & _FLASH_READS:
        image = next((t for t in texts if _IMAGE.search(t.strip("'\"")) or t.startswith(("http://", "https://",
                                                                                          "tftp://", "ftp://"))),
                     None)
        applies = next((t for t in texts if t.lower() in _APPLIES), None)
        applies = applies or next(iter(re.findall(r"install|upgrade|update", prog)), None)
        if image and applies and not re.search(r"read|dump|backup|save", prog):
            return MEDIUM, f"{c.prog} {applies or ''} {image}: the device's firmware or OS is replaced; a wrong or " \
                f"interrupted image leaves it dead ({c.text})"
        if applies and applies.startswith("-") and re.search(r"fw|firmware|bios|bmc", prog):
            return MEDIUM, f"{c.prog} {applies}: the device's firmware is replaced ({c.text})"
    return None
