"""Effect: a system file changed by any program's setter verb, in-place letters or copy, for programs no rule names.

``system_targets`` reads a system file named as a destination (``dest=``, ``-o``, a template's pair, the
words ``-i``/``--in-place``/``--write`` of a rewriter).  Programs that edit one key of a file, or copy a
file over another, say so in other words, and the file they are given is the same class (sudoers, PAM,
sshd, passwd/shadow, hosts, resolv.conf, nsswitch, fstab, crypttab, crontabs, sysctl, SELinux's config, the
boot loader's files and environment block, ``system_targets.SYSTEM_FILE``):

- a setter verb, as a subcommand or a long option, beside the file: ``set``, ``put``, ``write``,
  ``append``, ``replace``, ``unset``, ``del``/``delete``/``remove``, ``insert``, ``--set``, ``--put``,
  ``--append``, ``--del`` (``hcledit -f /etc/default/grub attribute set GRUB_TIMEOUT 0``, ``toml-cli set
  /etc/containers/registries.conf …``, ``crudini --set /etc/sssd/sssd.conf … access_provider permit``,
  ``initool --del /etc/krb5.conf …``): the file's
  meaning is changed in place;
- an interpreter's in-place letters bundled with its loop letter (``ruby -pi -e …``, ``-ni``, ``-pie``,
  ``-i.bak``) before the file: every line is rewritten by a one-liner;
- a copy, move or install whose program's name says so (``xcp``, ``fcp``, ``pycp``, ``advcp``, ``uu-cp``,
  ``gmv``, ``ditto``) and whose last operand is a file whose loss locks users out or stops the boot
  (``common.CRITICAL_FILE``; a new drop-in under a ``.d`` folder is not), or a copy subcommand of any
  program (``rclone copyto ./resolv.conf /etc/resolv.conf``): the file is replaced by another;
- a diff applied to the file (``patch /etc/sudoers < nopasswd.diff``, ``gpatch``): its lines are changed.

Tuning files (logind, journald, sysctl: their breaking values are read elsewhere), the same words on a user's
own files, reading the system's (``get``, ``show``, ``--get``, ``list``),
and copies *from* a system file (a backup) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import CRITICAL_FILE, HIGH, MEDIUM, Ctx
from aish.safety.rules.system_targets import SYSTEM_FILE
from aish.safety.rules.transfer_clients import CLIENTS

_SETTERS = frozenset({"set", "put", "write", "append", "replace", "unset", "del", "delete", "remove", "insert",
                      "--set", "--put", "--append", "--replace", "--del", "--delete", "--unset", "--remove",
                      "--insert", "--write", "-set", "-put", "-append", "-del", "-delete", "-unset"})
_READS = frozenset({"get", "show", "list", "ls", "print", "cat", "read", "dump", "--get", "--list", "--show",
                    "--print", "-get", "-list", "--check", "--dry-run", "-n", "--help", "-h", "diff", "validate",
                    "lint", "check", "export"})
_IN_PLACE_LETTERS = LazyRegex(r"^-([pn]i|i[pn])(e|\.\w+)?$|^-i\.\w+$")
# File transfer programs, whose `put` uploads the local file named first (read, not set).
_TRANSFERS = CLIENTS | {"hdfs", "hadoop", "mc", "s3cmd", "rclone", "curl", "tftp", "adb"}
_UPLOADS = frozenset({"put", "-put", "--put", "mput", "-copyfromlocal", "-moveFromLocal".lower()})
_COPY_NAME = LazyRegex(r"(cp|copy|copyto|mv|move|ditto|install)(\.exe|\.py)?$", re.IGNORECASE)
# Settings files whose keys tune behaviour (lid switch, journal size, a kernel knob): ``kernel_breaks`` and
# ``meaning`` read the values that break; a key set there is everyday work.
_TUNING = LazyRegex(r"/etc/systemd/(logind|journald|resolved|timesyncd)\.conf|/etc/sysctl\.|grubenv$")
_PATCH_NAME = LazyRegex(r"patch(\.exe)?$", re.IGNORECASE)
_COPY_VERBS = frozenset({"cp", "copy", "copyto", "mv", "move", "moveto", "install", "copy-file", "copyfile"})
_LOGIN = LazyRegex(r"sudoers|shadow|passwd|pam\.|authorized_keys|sshd_config|/\.ssh")


# Options whose value is the next word (`install -m 644 -o root F DEST`): no operand.
_VALUED = frozenset({"-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-t", "--target-directory",
                     "--chmod", "--chown", "-e", "--rsh", "-i", "-F", "-P", "--port"})

def _system(word: str) -> bool:
    word = word.strip("'\"")
    return bool(word) and SYSTEM_FILE.search(word) is not None


def rule_system_setter(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    if set(low) & _READS:
        return None
    # The boot loader's environment block holds which entry boots: ``boot_choices`` reads the entry chosen.
    files = [t for t in texts if not t.startswith("-") and _system(t) and not _TUNING.search(t)]
    if not files:
        return None
    shown = files[0].strip("'\"")
    level = HIGH if _LOGIN.search(shown) else MEDIUM
    setter = next((t for t in low if t in _SETTERS), None)
    if setter in _UPLOADS and c.prog in _TRANSFERS and low.index(setter) + 1 < len(texts) and \
            _system(texts[low.index(setter) + 1]):
        return None  # `hdfs dfs -put /etc/hosts /user/a/`, `smbclient -c 'put /etc/hosts x'`: copied from it
    if setter:
        return level, f"{c.prog} {setter} changes {shown} in place: a system file's meaning is changed ({c.text})"
    letters = next((t for t in texts if _IN_PLACE_LETTERS.match(t)), None)
    if letters:
        return level, f"{c.prog} {letters} rewrites every line of {shown}: a system file's meaning is changed " \
                      f"({c.text})"
    if _PATCH_NAME.search(c.prog) and not set(low) & {"--dry-run", "-r", "--reverse", "-o", "--output"}:
        return level, f"{c.prog} applies a diff to {shown}: a system file's meaning is changed ({c.text})"
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1] in _VALUED)]
    if operands and operands[0].lower() in _COPY_VERBS:  # `rclone copyto ./resolv.conf /etc/resolv.conf`
        operands = operands[1:]
    elif not _COPY_NAME.search(c.prog):
        return None
    into = operands[-1].strip("'\"") if len(operands) >= 2 else ""
    if into.endswith("/"):  # `install -m 644 app.service /etc/systemd/system/`: the file lands inside
        into += operands[0].strip("'\"").rstrip("/").rsplit("/", 1)[-1]
        shown = into
    if into and CRITICAL_FILE.search(into) and not _system(operands[0]):
        return level, f"{c.prog} puts {operands[0]} over {shown}: a system file is replaced ({c.text})"
    return None
