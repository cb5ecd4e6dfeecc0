"""Effect: a file from a temporary place copied, moved or linked into a place that starts it by itself.

``cp /tmp/x.plist ~/Library/LaunchAgents/``, ``mv /dev/shm/x.sh /etc/profile.d/``, ``install -m 755 /var/tmp/x
/etc/cron.hourly/x``, ``ln -s /tmp/x /etc/rc3.d/S99x``, ``rsync /tmp/u.service ~/.config/systemd/user/``, ``ditto
~/Downloads/x.sh .git/hooks/post-merge``: whatever was dropped in ``/tmp``, ``/var/tmp``, ``/dev/shm``, a Downloads
folder or ``/Users/Shared`` now runs at every boot, login, shell or event, for whoever put it there.  The places are
``run_files.RUN_FILES``' (crontabs and cron's folders, units, start-up files, rc and init scripts, autostart
entries, udev rules, launchd's property lists, git hooks…).  Medium; high where it runs as root (a system place).
Copies from a project or a package, and copies out of these places, stay quiet (other rules judge overwrites).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import system_files
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.run_files import RUN_FILES

_TEMPORARY = lazy(r"^(/tmp|/var/tmp|/dev/shm|/run/shm|~/Downloads|/Users/Shared|/home/[^/]+/Downloads)/[^/]")
_COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync", "ditto", "gcp", "gmv", "ginstall"})


def _landing(target: str, source: str) -> str:
    """Where ``source`` lands when given ``target`` (a folder keeps the source's name)."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    return target.rstrip("/") + "/" + name if target.endswith("/") or "." not in target.rsplit("/", 1)[-1] and \
        not any(p.match(system_files.spelled(target)) for p, _, _ in RUN_FILES) else target


def rule_dropped_start(c: Ctx) -> Optional[tuple]:
    """A temporary place's file put where it starts by itself (see the module's doc)."""
    line = c.lowered
    if "/tmp/" not in line and "/shm/" not in line and "downloads/" not in line and "/users/shared/" not in line:
        return None  # one look at the line: most copies name no temporary place
    operands = [t for t in c.texts if not t.startswith("-")]
    if len(operands) < 2:
        return None
    target, sources = operands[-1], [s for s in operands[:-1] if _TEMPORARY.match(s)]
    for source in sources:
        path = system_files.spelled(_landing(target, source))
        when = next((when for pattern, _, when in RUN_FILES if pattern.match(path)), "")
        if when:
            system = not path.startswith("~/") and "/.git/" not in path and not path.startswith(".git/")
            return (HIGH if system else MEDIUM,
                    f"puts {source} where it runs {when.removeprefix('as root ')}{' as root' if system else ''}: "
                    f"whoever wrote it there chooses what runs ({c.text})")
    return None


RULES: dict = {p: [rule_dropped_start] for p in _COPIERS}
