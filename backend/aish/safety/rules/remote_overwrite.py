"""Effect: a file copied over one that matters on another machine.

``scp nginx.conf root@web1:/etc/nginx/nginx.conf`` replaces that server's configuration as ``cp``
would here, and ``scp id.pub host:.ssh/authorized_keys`` replaces every key that may log in there
(a path after ``host:`` with no leading slash is under that user's home).  The remote path is
classified like a local one and judged as an overwrite; a copy into a directory, a temp path or a
project stays quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import Ctx, Target, classify, describe
from aish.safety.rules.content import overwrite_level
from aish.safety.lazy_regex import lazy

_COPIERS = {"scp", "pscp", "rsync", "sftp"}
_VALUED = {"-P", "-p", "-i", "-F", "-o", "-c", "-l", "-J", "-S", "-e", "--rsh", "--exclude", "--include",
           "--filter", "--backup-dir", "--files-from", "--port"}
_REMOTE = lazy(r"^(?:[\w.+-]+@)?(?:\[[^\]]+\]|[\w.-]+):(?!//)(.*)$")


def rule_remote_overwrite(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    pos = [t for k, t in enumerate(texts) if not t.startswith("-") and not (k and texts[k - 1] in _VALUED)]
    if len(pos) < 2:
        return None
    m = _REMOTE.match(pos[-1])
    if not m or any(_REMOTE.match(p) for p in pos[:-1]):
        return None  # a download, or a copy between two remote hosts
    path = m.group(1) or "~"
    if path.endswith("/") or path in ("~", "."):
        return None  # into a directory: files are added
    if not path.startswith(("/", "~")):
        path = "~/" + path
    host = pos[-1][:m.start(1) - 1].split("@")[-1]
    t = Target(classify(path), path, path)
    level = overwrite_level(t)
    if level is None:
        return None
    return level, f"{c.prog} replaces {describe(t)} on {host} ({c.text})"


RULES: dict = {p: [rule_remote_overwrite] for p in _COPIERS}
