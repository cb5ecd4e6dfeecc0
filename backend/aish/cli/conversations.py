"""Which conversation an ``aish`` command speaks in.

``aish ask`` run from a shell with aish loaded continues that shell's conversation
(the integration exports ``AISH_CONV``); elsewhere each call is a conversation of its
own, so concurrent scripts never queue behind one shared conversation, unless ``-c``
(the last CLI conversation, as ``llm -c``) or ``--conv NAME`` says otherwise.
"""
from __future__ import annotations

import os

from aish.errors import AishError

LAST_CONV = "last-cli-conversation"  # in the state dir: what `aish ask -c` continues


def for_ask(name: str | None, cont: bool) -> str:
    """``--conv NAME``; else ``-c`` (the last CLI conversation); else the shell's own
    (its integration exports ``AISH_CONV``); else a new one for this call, so
    concurrent scripts never queue behind one shared conversation."""
    from aish.ipc.wire import valid_id

    if name is not None:
        if not valid_id(name):
            raise AishError(f"--conv {name!r} is not a usable name",
                            hint="use letters, digits, '.', '_' or '-' (at most 64)")
        conv = name
    elif cont:
        conv = last() or new()
    elif os.environ.get("AISH_CONV"):
        return os.environ["AISH_CONV"]
    else:
        conv = new()
    remember(conv)
    return conv


def for_verb() -> str:
    """Verbs (``reset``, ``cost``) act on the shell's conversation, else the last CLI one."""
    return os.environ.get("AISH_CONV") or last() or "cli"


def new() -> str:
    import time

    return f"cli-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"


def last() -> str | None:
    from aish import paths
    from aish.ipc.wire import valid_id

    try:
        name = (paths.state_dir() / LAST_CONV).read_text(encoding="ascii").strip()
    except (OSError, UnicodeError, AishError):
        return None
    return name if valid_id(name) else None


def remember(conv: str) -> None:
    from aish import paths

    try:  # best effort: an unwritable state dir costs only `-c`
        path = paths.state_dir() / LAST_CONV
        tmp = path.with_name(f".{LAST_CONV}.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(conv + "\n")
        os.replace(tmp, path)
    except (OSError, AishError):
        pass
