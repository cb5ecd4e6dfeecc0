"""Effect: the means of getting data back switched off or removed, by any program.

Deleting shadow copies, backup catalogs, snapshots and backups is read by ``windows``, ``vocabulary`` and the
volume rules; what they missed is the other half: nothing is kept from now on, or backups known by their
format removed.  For any program:

- **versions and soft deletes switched off** on an object store or a backup vault: ``versioning`` set off or
  suspended (``gsutil versioning set off``, ``--no-versioning``, ``Status=Suspended``, ``mc version suspend``,
  ``--enable-versioning false``), deleted data no longer kept (``--enable-delete-retention false``,
  ``--soft-delete-feature-state Disable``, ``--clear-soft-delete``, ``--soft-delete-duration 0``);
- **local backups switched off**: Time Machine (``tmutil disable``, ``tmutil disablelocal``, its ``AutoBackup``
  set false), Windows' System Restore task (``Disable-ScheduledTask … SystemRestore``);
- **backup files deleted by their format**: Veeam's ``.vbk``/``.vib``/``.vrb``/``.vbm``, Windows Backup's
  ``.wbcat``/``.bkf``, Acronis' ``.tib``/``.tibx``, Macrium's ``.mrimg``, ShadowProtect's ``.spf``, Ghost's ``.v2i``.

Medium: an overwrite, an encryption or a delete after it can no longer be undone.  High for backup files
deleted across a drive or recursively, and for Windows' recovery environment switched off (``bcdedit …
recoveryenabled no``, ``bootstatuspolicy ignoreallfailures``, ``reagentc /disable``), read by ``windows`` at medium.
Quiet: versioning or soft delete switched on, listing versions and
snapshots, ``tmutil enable``/``listlocalsnapshots``, a named backup copied or verified.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import listing
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_OFF = frozenset({"off", "suspended", "suspend", "false", "disable", "disabled", "0", "0d", "0s", "no", "$false"})
_VERSIONING = lazy(r"versioning|version[-_]?state|^status=suspended$", re.IGNORECASE)
_SOFT_DELETE = lazy(r"soft[-_]?delete|delete[-_]retention|deleteretention|purge[-_]?protection", re.IGNORECASE)
_CLEARS = frozenset({"--no-versioning", "--no-enable-versioning", "--clear-soft-delete", "--no-soft-delete",
                     "--disable-versioning", "--disable-soft-delete"})


def _said_off(texts: list, k: int) -> bool:
    """Is the setting at ``k`` given an off value (``=false``, the next word, or ``set off`` around it)?"""
    word = texts[k].lower()
    _, eq, value = word.partition("=")
    if eq and value.strip("'\"") in _OFF:
        return True
    after = [t.lower().strip("'\"").partition("=")[2] or t.lower().strip("'\"") for t in texts[k + 1:k + 3]]
    return any(a in _OFF for a in after[:2] if a not in ("set",)) or \
        word == "versioning" and after[:2] == ["set", "off"]


@triggered_by(("versioning", "version suspend", "version-state", "soft-delete", "softdelete", "soft_delete",
               "delete-retention", "deleteretention", "status=suspended"))
def rule_versions_off(c: Ctx) -> Optional[tuple]:
    """``gsutil versioning set off gs://b``, ``aws s3api put-bucket-versioning … Status=Suspended``,
    ``az … --enable-delete-retention false``, ``mc version suspend s3/b``."""
    texts = c.texts[:64]
    lowered = [t.lower() for t in texts]
    said = next((t for t in lowered if t.partition("=")[0] in _CLEARS), None)
    if said is None and lowered[:2] == ["version", "suspend"]:
        said = "version suspend"
    for k, t in enumerate(lowered):
        if said is not None:
            break
        if "status=suspended" in t or "status=\"suspended\"" in t:
            said = texts[k]
        elif (_VERSIONING.search(t) or _SOFT_DELETE.search(t)) and _said_off(texts, k):
            said = " ".join(texts[k:k + 3]) if "=" not in t else texts[k]
            if _SOFT_DELETE.search(t) and "purge" in t:
                said = None  # purge protection cannot be switched off; a false value there is a no-op
    if said is None:
        return None
    kept = "deleted data is no longer kept" if _SOFT_DELETE.search(said) else "earlier versions are no longer kept"
    return MEDIUM, f"{c.prog} {said}: {kept}, an overwrite, an encryption or a delete from now on cannot be " \
        f"undone ({c.text})"


_TIME_MACHINE_OFF = frozenset({"disable", "disablelocal", "removedestination"})


@triggered_by(("tmutil", "timemachine", "systemrestore"))
def rule_backups_off(c: Ctx) -> Optional[tuple]:
    """``tmutil disable``, ``defaults write … com.apple.TimeMachine AutoBackup -bool false``,
    ``Disable-ScheduledTask -TaskPath \\Microsoft\\Windows\\SystemRestore\\``."""
    texts = c.texts[:32]
    lowered = [t.lower() for t in texts]
    name = c.prog.lower()
    if name == "tmutil" and lowered[:1] and lowered[0] in _TIME_MACHINE_OFF:
        return MEDIUM, f"tmutil {texts[0]}: Time Machine stops backing up this Mac, nothing new can be restored " \
            f"({c.text})"
    if name == "defaults" and any("timemachine" in t for t in lowered) and "autobackup" in lowered and \
            lowered[-1] in ("false", "0", "no"):
        return MEDIUM, f"Time Machine's automatic backups switched off ({c.text})"
    if name in ("disable-scheduledtask", "unregister-scheduledtask") and any("systemrestore" in t for t in lowered):
        return MEDIUM, f"{c.prog}: Windows' System Restore task no longer makes restore points ({c.text})"
    return None


_BACKUP_FORMAT = lazy(r"\.(?:vbk|vib|vrb|vbm|vlb|vsb|wbcat|bkf|tib|tibx|mrimg|mrbak|spf|v2i|iv2i|bacpac)"
                      r"['\"]?(?:,|$)", re.IGNORECASE)
_DELETERS = frozenset({"rm", "del", "erase", "remove-item", "ri", "unlink", "find", "srm", "shred", "wipe", "sdelete",
                       "sdelete64", "trash", "trash-put", "gio", "fd", "fdfind"})
_WIDE = lazy(r"^(?:[a-z]:[\\/]?\*?|/\*?|~/?\*?|/(?:mnt|media|volumes|srv|backups?)/?\*?)$|^\*\*|[\\/]\*\*[\\/]",
             re.IGNORECASE)


@triggered_by(("vbk", "vib", "vrb", "vbm", "vlb", "vsb", "wbcat", "bkf", "tib", "mrimg", "mrbak", "spf", "v2i",
               "bacpac"))
def rule_backup_files_deleted(c: Ctx) -> Optional[tuple]:
    """``rm -f /backup/*.vbk``, ``del /s c:\\*.wbcat``, ``Remove-Item … -Include *.tib,*.vib``."""
    name = c.prog.lower().removesuffix(".exe")
    if name not in _DELETERS:
        return None
    texts = c.texts[:64]
    lowered = [t.lower() for t in texts]
    if name == "find" and not ({"-delete", "-exec"} & set(lowered)):
        return None
    if name == "gio" and lowered[:1] not in (["remove"], ["trash"]):
        return None
    named = [t for t in texts if _BACKUP_FORMAT.search(t)]
    if not named:
        return None
    wide = {"/s", "-recurse", "-r", "-rf", "-fr"} & set(lowered) or any(_WIDE.search(t) for t in texts) or \
        any("*" in t and not re.search(r"[\\/]", t.split("*")[0]) for t in named)
    return (HIGH if wide else MEDIUM), f"{c.prog} deletes backup files by their format ({named[0]}): the copies " \
        f"data would be restored from are gone ({c.text})"


_BOOT_RECOVERY_OFF = lazy(r"^(?:recoveryenabled\s+(?:no|off|false|0)|bootstatuspolicy\s+ignore\w*failures)$",
                          re.IGNORECASE)
@triggered_by(("recoveryenabled", "bootstatuspolicy", "reagentc"))
def rule_recovery_disabled(c: Ctx) -> Optional[tuple]:
    """``bcdedit /set {default} recoveryenabled No``, ``… bootstatuspolicy ignoreallfailures``, ``reagentc
    /disable``: a machine that fails to start no longer reaches its recovery environment (restore points
    switched off stay medium, as ``Disable-ComputerRestore`` is)."""
    name = c.prog.lower().removesuffix(".exe")
    lowered = " ".join(c.texts[:32]).lower()
    said = None
    if name == "bcdedit":
        m = re.search(r"(recoveryenabled\s+\S+|bootstatuspolicy\s+\S+)", lowered)
        said = m.group(1) if m and _BOOT_RECOVERY_OFF.match(m.group(1)) else None
    elif name == "reagentc" and re.search(r"(?:^|\s)[/-]disable\b", lowered):
        said = "reagentc /disable"
    if said is None:
        return None
    return HIGH, f"{said}: a Windows that fails to start no longer reaches its recovery environment, the way " \
        f"ransomware prepares a machine ({c.text})"


# Every snapshot, backup, recovery point, shadow copy or object version a listing names, deleted: nothing is left to
# restore from.  (One named, or a filtered listing such as a retention prune, stays as the verb's own reading.)
_COPY_NOUN = lazy(r"snapshot|backup|recovery-?point|versions?\b|version-id|shadow|checkpoint", re.IGNORECASE)
_DELETE_WORD = lazy(r"^(?:delete|remove|rm|del|destroy|purge|forget)$|^delete-|-delete$|^delsnapshot$|^remove-",
                    re.IGNORECASE)
_NARROWED = lazy(r"--filter|--query\s+\S*[?<>]|\bgrep\b|\bawk\b|\bhead\b|\btail\b|\bsed\b|where-object|\?\s*\{|"
                 r"\bwhere\b|(?:^|\s)-name\s+(?!\*)\S|--older|--before|-lt\b|--keep|--status\b|--state\b",
                 re.IGNORECASE)
_LISTS_COPIES = lazy(r"(?:^|\s)(?:describe|list|ls|get|show)(?:-[\w-]+)?(?:\s|$)|^get-\w+|^(?:gwmi|gcim)\b",
                     re.IGNORECASE)


def _feeding(c: Ctx) -> str:
    """The listing that feeds this command every name it acts on: through xargs, a loop or a substitution
    (``listing.from_listing``), or a PowerShell pipeline from a ``Get-`` cmdlet; "" when names are written out."""
    found = listing.from_listing(c)
    if found:
        return found
    if not c.chain or not c.chain[0].words:
        return ""
    head = " ".join(w.text for w in c.chain[0].words)
    if c.xargs and _LISTS_COPIES.search(head) and _COPY_NOUN.search(head):
        return head
    if c.prog.lower().startswith("remove-") and _LISTS_COPIES.search(head):
        return head
    return ""


@triggered_by(("del", "remove", "rm", "destroy", "purge", "forget"))  # the noun may be the listing's alone
def rule_every_copy_deleted(c: Ctx) -> Optional[tuple]:
    """``gcloud compute snapshots list … | xargs gcloud compute snapshots delete``, ``… | xargs aws backup
    delete-recovery-point …``, ``Get-VMSnapshot -VMName * | Remove-VMSnapshot``: every copy data would be
    restored from, deleted."""
    if not (c.chain or c.xargs or listing.LOOP_LISTS.get() or any(w.subs for w in c.args[:16])):
        return None  # names written out: the verb's own reading
    texts = c.texts[:32]
    if not (_DELETE_WORD.search(c.prog) or any(_DELETE_WORD.search(t) for t in texts[:4] if not t.startswith("-"))):
        return None
    fed = _feeding(c)
    if not fed or not (_COPY_NOUN.search(fed) or _COPY_NOUN.search(c.prog + " " + " ".join(texts[:4]))):
        return None
    listed = " ".join(w.text for s in c.chain for w in s.words) if c.chain else fed
    if _NARROWED.search(listed) or _NARROWED.search(fed) or _NARROWED.search(" ".join(texts)):
        return None  # `… list --filter="creationTimestamp<2024-01-01" | xargs … delete`: a chosen few
    return HIGH, f"deletes every snapshot, backup or version '{fed[:40]}' lists: nothing is left to restore " \
        f"from ({c.text})"


# The services that make shadow copies, restore points and Windows backups.
_BACKUP_SERVICES = frozenset({"vss", "swprv", "wbengine", "sdrsvc", "srservice", "volsnap"})


@triggered_by(("sdset",))
def rule_backup_service_denied(c: Ctx) -> Optional[tuple]:
    """``sc sdset VSS D:(D;;GA;;;WD)…``: everyone denied the service that makes shadow copies, so none can be made."""
    texts = c.texts[:8]
    if c.prog.lower().removesuffix(".exe") != "sc" or len(texts) < 3:
        return None
    at = 1 if texts[0].startswith("\\\\") else 0  # `sc \\host sdset …`
    if texts[at].lower() != "sdset" or len(texts) < at + 3 or texts[at + 1].lower() not in _BACKUP_SERVICES:
        return None
    if "(d;" not in texts[at + 2].lower():
        return None
    return MEDIUM, f"sc sdset {texts[at + 1]} denies the service to everyone: shadow copies and restore points " \
        f"can no longer be made ({c.text})"


def rule_time_machine_deletes(c: Ctx) -> Optional[tuple]:
    """``tmutil deletelocalsnapshots /`` (a volume's local snapshots: the answer to a full disk) and ``tmutil delete``
    (a backup on the backup disk), each said as what goes: the ``/`` names the volume, it is no target."""
    texts = c.texts
    verb = texts[0].lower() if texts else ""
    if verb == "deletelocalsnapshots":
        what = texts[1] if len(texts) > 1 else "the volume"
        said = f"the local Time Machine snapshots of {what}" if what.startswith("/") or what == "the volume" \
            else f"the local Time Machine snapshot {what}"
        return MEDIUM, f"tmutil deletelocalsnapshots deletes {said}: what they could restore is gone " \
            f"(the backup disk keeps its own) ({c.text})"
    if verb == "delete":
        return MEDIUM, f"tmutil delete deletes a Time Machine backup: what it could restore is gone ({c.text})"
    return None


# tmutil's own forms are judged here first: `deletelocalsnapshots /` names a volume, not a target under /
RULES: dict = {"tmutil": [rule_time_machine_deletes]}
