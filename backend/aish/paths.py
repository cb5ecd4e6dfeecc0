"""Where aish keeps things: config, state (logs, sessions, ledger), runtime (FIFOs).

The runtime dir is the trust boundary: anyone who can write a reply FIFO can put
text on the user's prompt line, so it must be ours, 0700 and not a symlink.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from aish.errors import DaemonError


def config_dir() -> Path:
    import platformdirs  # imported when used: the runtime dir needs none of it (nor does `aish ask`)

    return Path(platformdirs.user_config_dir("aish"))


def default_state_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_state_dir("aish"))


def state_dir() -> Path:
    override = os.environ.get("AISH_STATE_DIR")
    path = Path(override) if override else default_state_dir()
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def sessions_dir() -> Path:
    path = state_dir() / "sessions"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def runtime_dir(create: bool = True) -> Path:
    """``$AISH_RUNTIME_DIR``, else ``$XDG_RUNTIME_DIR/aish``, else ``${TMPDIR:-/tmp}/aish-$UID``."""
    override = os.environ.get("AISH_RUNTIME_DIR")
    if override:
        path = Path(override)
    elif os.environ.get("XDG_RUNTIME_DIR"):
        path = Path(os.environ["XDG_RUNTIME_DIR"]) / "aish"
    else:
        path = Path(os.environ.get("TMPDIR") or "/tmp") / f"aish-{os.getuid()}"
    if create:
        try:
            path.mkdir(mode=0o700, parents=False, exist_ok=True)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise DaemonError(f"cannot create runtime dir {path}: {exc.strerror}") from None
    check_runtime_dir(path)
    return path


def check_runtime_dir(path: Path) -> None:
    """Refuse a runtime dir that is a symlink, not ours, or open to others."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise DaemonError(f"runtime dir {path} is not a plain directory (symlink?)",
                          hint="remove it, or set AISH_RUNTIME_DIR to a private directory")
    if st.st_uid != os.getuid():
        raise DaemonError(f"runtime dir {path} belongs to uid {st.st_uid}, not you",
                          hint="remove it, or set AISH_RUNTIME_DIR to a private directory")
    if stat.S_IMODE(st.st_mode) & 0o077:
        raise DaemonError(f"runtime dir {path} is accessible to other users "
                          f"(mode {oct(stat.S_IMODE(st.st_mode))})",
                          hint=f"run 'chmod 700 {path}'")
