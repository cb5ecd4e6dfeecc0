"""An uploader or importer told to delete the local copy once it has sent it.

``immich upload --delete --recursive ~/Pictures``, ``gphotos-uploader-cli push --delete``, ``rclone move ~/Photos
remote:``, ``icloudpd --delete-after-download`` (the cloud's copy): the only other copy is where it was sent, in
whatever state the transfer and the service left it, and a wrong destination or a failed sync leaves nothing.
Read for any program: an upload, import, push, move or backup verb (a word or the program's own name) with an
option that deletes the source afterwards.  A move is such an upload by itself: an object store's or a remote
file system's client told to ``mv``/``move`` local files to a remote (``s3cmd mv ./exports s3://b/``,
``ossutil mv -r ./dist oss://b/``, ``hdfs dfs -moveFromLocal ./events /data``, ``git annex move --to backup``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_SENDING = lazy(r"upload|import|push|backup|archive|send|put|sync|move|mv|download|transfer|offload|ingest",
                re.I)
_DELETES_SOURCE = frozenset({"--delete", "--remove-source-files", "--move", "--delete-after-upload",
                             "--delete-after-download", "--delete-source", "--delete-local", "--remove-local",
                             "--delete-originals", "--delete-after", "--remove-after-upload", "--delete-uploaded",
                             "--rm-source", "--delete-source-files", "--remove-source", "--delete-on-success"})
# The same said in other words: `--cleanup-local-files`, `--purge-source`, `--erase-originals`, `--rm-local`.
_SOURCE_OPTION = lazy(r"--(?:delete|remove|rm|cleanup|clean-up|purge|erase|wipe)[-_]"
                      r"(?:local|source|sources|src|originals?|uploaded|sent)"
                      r"(?:[-_](?:files?|cop(?:y|ies)|data|after(?:[-_][a-z]+)?|on[-_]success|when[-_]done))?")
_WORDS = ("--delete", "--remove", "--move", "--rm-", "--cleanup-", "--clean-up-", "--purge-", "--erase-", "--wipe-")
# Subcommands and options that move what they are given (the source is deleted once copied).
_MOVES = frozenset({"mv", "move", "-mv", "-movefromlocal", "movefromlocal", "move-from-local", "moveto"})
_MOVE_WORDS = ("mv", "move")
# Where a move sends files off this machine: a URL (`s3://b/k`, `sftp://host/dir`) or a named remote (`gdrive:dir`).
_REMOTE = lazy(r"^[a-z][a-z0-9+.-]*://\S|^[A-Za-z][\w.-]+:(?![/\\]{2})[^=\\]*$")
_PATH_LIKE = lazy(r"/|^[.~]|\*|\.\w{1,5}$")
_DRY = frozenset({"--dry-run", "-n", "--dryrun", "--dry", "-dryrun", "--help", "-h"})


@triggered_by(_WORDS, otherwise=False)
def may_drop(c: Ctx) -> bool:
    """Cheap: an option of the kind on the line."""
    return any(w in c.lowered for w in _WORDS)


def rule_local_copy_dropped(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]
    told = next((t for t in texts if t.partition("=")[0].lower() in _DELETES_SOURCE or
                 _SOURCE_OPTION.fullmatch(t.partition("=")[0].lower())), None)
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


@triggered_by(_MOVE_WORDS, otherwise=False)
def may_move(c: Ctx) -> bool:
    """Cheap: a move's word on a line with arguments."""
    return len(c.texts) >= 2 and any(w in c.lowered for w in _MOVE_WORDS)


def rule_local_copy_moved(c: Ctx) -> Optional[tuple]:
    """A client's own move of local files to a remote: once copied, the local files are deleted."""
    if c.prog in ("mv", "git", "gio", "kioclient", "kioclient5", "busybox") and c.texts[:1] != ["annex"]:
        return None  # a local move (`git mv`, `gio move`); `git annex move` is read through its add-on below
    texts = c.texts[:64]
    lowered = [t.lower() for t in texts]
    if set(lowered) & _DRY:
        return None
    at = next((k for k, t in enumerate(lowered[:4]) if t in _MOVES and
               (t.startswith("-") or k == 0 or not lowered[k - 1].startswith("-"))), None)  # not `-Name move`
    if at is None:
        return None
    said = texts[at]
    if said.startswith("-"):  # `hdfs dfs -moveFromLocal SRC DST`: the option names the direction
        return MEDIUM, f"{c.prog} {said}: the local files are deleted once copied, the only copy left is the " \
            f"remote one ({c.text})"
    rest = [t for t in texts[at + 1:] if not t.startswith("-")]
    to = next((texts[k + 1] for k in range(at + 1, len(texts) - 1) if lowered[k] in ("--to", "-t", "--dest")), None)
    if to is None and "=" in " ".join(lowered):
        to = next((t.split("=", 1)[1] for t in lowered if t.startswith(("--to=", "--dest="))), None)
    if to is not None:  # `git annex move --to backup`: the remote is named by an option
        sources = [t for t in rest if t != to]
    else:
        if len(rest) < 2 or not _REMOTE.match(rest[-1]):
            return None
        to, sources = rest[-1], rest[:-1]
    if any(_REMOTE.match(t) for t in sources):
        return None  # from a remote: the move happens there
    if sources and not any(_PATH_LIKE.search(t) for t in sources) or not sources and "--all" not in lowered:
        return None  # `task move 12 project:home`: an item of the program's own, not a file
    return MEDIUM, f"{c.prog} {said} to {to}: the local files are deleted once copied, the only copy left is " \
        f"the remote one ({c.text})"
