"""An uploader or importer told to delete the local copy once it has sent it.

``immich upload --delete --recursive ~/Pictures``, ``gphotos-uploader-cli push --delete``, ``rclone move ~/Photos
remote:``, ``icloudpd --delete-after-download`` (the cloud's copy): the only other copy is where it was sent, in
whatever state the transfer and the service left it, and a wrong destination or a failed sync leaves nothing.
Read for any program: an upload, import, push, move or backup verb (a word or the program's own name) with an
option that deletes the source afterwards.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx

_SENDING = re.compile(r"upload|import|push|backup|archive|send|put|sync|move|mv|download|transfer|offload|ingest",
                      re.I)
_DELETES_SOURCE = frozenset({"--delete", "--remove-source-files", "--move", "--delete-after-upload",
                             "--delete-after-download", "--delete-source", "--delete-local", "--remove-local",
                             "--delete-originals", "--delete-after", "--remove-after-upload", "--delete-uploaded",
                             "--rm-source", "--delete-source-files", "--remove-source", "--delete-on-success"})
_WORDS = ("--delete", "--remove", "--move", "--rm-source")


@triggered_by(_WORDS, otherwise=False)
def may_drop(c: Ctx) -> bool:
    """Cheap: an option of the kind on the line."""
    return any(w in c.lowered for w in _WORDS)


def rule_local_copy_dropped(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]
    told = next((t for t in texts if t.partition("=")[0].lower() in _DELETES_SOURCE), None)
    if told is None or "--dry-run" in texts:
        return None
    generic = told.partition("=")[0].lower() in ("--delete", "--delete-after", "--move")
    verb = not generic or _SENDING.search(c.prog) or \
        any(_SENDING.fullmatch(t) for t in texts[:4] if not t.startswith("-"))
    if not verb:
        return None
    if told.lower() in ("--delete", "--delete-after") and \
            not re.search(r"upload|import|offload|ingest|photo|push", c.prog + " " + " ".join(texts[:3]), re.I):
        return None  # `s3cmd sync --delete-after`, `b2 sync --delete`: the destination's extras, not the source
    return MEDIUM, f"{c.prog} {told}: the local copy is deleted once sent, the only copy left is the remote " \
        f"one ({c.text})"
