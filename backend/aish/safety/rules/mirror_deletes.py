"""Effect: a sync or mirror tool that deletes at the destination what the source lacks, for any such tool
(``fpsync -E``, ``mc mirror --remove``, ``azcopy sync --delete-destination=true``, ``dirsync --purge``,
``msrsync --rsync '-a --delete'``), and the tools that do it by default (``cpdup``, ``lsyncd SRC TGT``,
``mirrordir``, ``osync``: judged only where the destination or an empty source makes it serious).

High when the destination is the root, a home or the system's directories, or when the source is spelled
empty (``/tmp/empty``): then everything there goes; medium into what looks like production or a backup; low
otherwise (a deploy or a mirror into its copy is routine).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, SEVERE, Ctx, describe, target
from aish.safety.shell_words import Word
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_SYNC_NAME = lazy(r"sync|mirror|cpdup|copy|^mc$|^lftp$")
_DELETING = lazy(r"^--(delete([-_]\w+)?|del|remove|purge|delete-removed|delete-extraneous|prune-dest\w*)"
                 r"(=(true|yes|1|on))?$", re.IGNORECASE)
# Tools that delete at the destination without being told (their manuals).
_BY_DEFAULT = lazy(r"^(cpdup|mirrordir|lsyncd|osync(\.sh)?)$")
# A mode that makes the destination a replica of the source (mutagen's one-way-replica, a mirror mode).
_MODE = lazy(r"--?(?:sync-?)?mode(?:=.*)?", re.IGNORECASE)
_REPLICA = lazy(r"one-way-replica|mirror|replica|one-way-mirror", re.IGNORECASE)
_FALSE = lazy(r"=(false|no|0|off)$", re.IGNORECASE)
_TARGET_OPTIONS = {"--target", "--destination", "--dest", "-target", "--to"}
_SEVERE_KINDS = SEVERE + ("system", "critical", "dot-critical", "userhome")


@triggered_by(_SYNC_NAME)
def rule_mirror_deletes(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    words = [t for t in texts if not t.startswith("-")]
    if not (_SYNC_NAME.search(c.prog.lower()) or words[:1] and _SYNC_NAME.search(words[0].lower())):
        return None
    said = next((t for t in texts if _DELETING.match(t) and not _FALSE.search(t)), None)
    said = said or next((t for t in texts if c.prog.lower().startswith("fpsync") and t == "-E"), None)
    said = said or next((t for t in texts if " --delete" in f" {t}" and " " in t), None)  # `--rsync '-a --delete'`
    said = said or next((f"{t} {n}".strip() for t, n in zip(texts, texts[1:] + [""])  # `--sync-mode=one-way-replica`
                         if _MODE.fullmatch(t) and (_REPLICA.fullmatch(t.partition("=")[2]) or
                                                    "=" not in t and _REPLICA.fullmatch(n))), None)
    by_default = said is None and bool(_BY_DEFAULT.match(c.prog.lower()))
    if said is None and not by_default:
        return None
    dest = next((t.split("=", 1)[1] for t in texts if t.split("=", 1)[0] in _TARGET_OPTIONS and "=" in t), None)
    operands = [t for k, t in enumerate(texts) if not t.startswith("-") and
                not (k and texts[k - 1].startswith("-") and len(texts[k - 1]) == 2 and texts[k - 1] != "-E")]
    dest = dest or (operands[-1] if len(operands) >= 2 else "")
    source = next((t.split("=", 1)[1] for t in texts if "=" in t and t.startswith("--initiator")), None) or \
        (operands[-2] if len(operands) >= 2 else "")
    what = f"{c.prog} deletes at the destination what the source lacks" + (f" ({said})" if said else "")
    if dest:
        t = target(Word(dest, dest, has_var="$" in dest))
        if t.kind in _SEVERE_KINDS:
            return HIGH, f"{what}: {describe(t)} ({c.text})"
    if re.search(r"(^|/)(empty|new|blank)[\w-]*/?$", source):
        return HIGH, f"{what}, from an empty source: everything at {dest or 'the destination'} goes ({c.text})"
    if by_default:
        return None  # a backup by a tool that always mirrors
    if re.search(r"prod|live|backup", dest, re.IGNORECASE):
        return MEDIUM, f"{what}: {dest} ({c.text})"
    return LOW, f"{what} ({c.text})"  # a deploy or a mirror of a tree into its copy: routine
