"""Git context, computed by the daemon (never by the shell): root, branch, upstream, dirty count.

One ``git status --porcelain=v2 --branch`` per refresh, cached per repository
and refreshed when ``.git/HEAD`` or ``.git/index`` changes (a commit, checkout,
add or pull touches one of them) or after ``TTL`` seconds (an edited file
changes neither).  ``start`` begins a status without waiting for it (a cold daemon's
first question: git runs on another core while the service still loads, 10-50 ms on a
small repository), and the next ``info`` for that repository collects it.  ``tree`` and
``diff`` build the attachments of `? :tree` and `? :diff`: capped, and masked here because
they are pasted into a question.
"""
from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

TTL = 30.0
GIT_TIMEOUT = 5.0
ROOT_TTL = 5.0  # seconds one walk up from a cwd is reused (what it found is checked each time)
_ROOTS_KEPT = 1024


@dataclass
class GitInfo:
    """What the git line of an ask says: root, branch, upstream and changed files."""

    root: str
    branch: str = ""
    upstream: str = ""
    ahead: int = 0
    behind: int = 0
    dirty: int = 0

    def line(self) -> str:
        parts = [f"git: repo {self.root}, branch {self.branch or '(detached)'}"]
        if self.upstream:
            parts.append(f"upstream {self.upstream} +{self.ahead}/-{self.behind}")
        parts.append(f"{self.dirty} changed files" if self.dirty else "clean")
        return ", ".join(parts)


LOOK: Any = object()  # "find the repository yourself" (``GitContext.info``, ``project_root``)


def find_root(cwd: str) -> Optional[Path]:
    """The nearest directory holding ``.git`` (a dir or a worktree's file), without a fork."""
    found = walk_up(cwd, ".git", os.path.exists)
    return Path(found) if found is not None else None


_walks: dict[tuple[str, str], tuple[float, Optional[str]]] = {}


def walk_up(cwd: str, name: str, present: Callable[[str], bool],
            clock: Callable[[], float] = time.monotonic) -> Optional[str]:
    """The nearest directory from ``cwd`` upwards where ``present(dir/name)``, or None.

    Every ask needs its project root, and fifty shells in one directory asking at once
    would each stat their way up the tree: one walk per cwd is reused for ``ROOT_TTL``
    seconds, as long as what it found is still there (a removed ``.git`` is seen at once,
    a new one within the TTL)."""
    key, now = (cwd, name), clock()
    hit = _walks.get(key)
    if hit is not None and now < hit[0] and (hit[1] is None or present(os.path.join(hit[1], name))):
        return hit[1]
    found = None
    try:
        path = os.path.realpath(cwd)
    except (OSError, ValueError):
        path = ""
    while path:
        if present(os.path.join(path, name)):
            found = path
            break
        parent = os.path.dirname(path)
        path = "" if parent == path else parent
    if len(_walks) >= _ROOTS_KEPT:
        _walks.clear()
    _walks[key] = (now + ROOT_TTL, found)
    return found


def _argv(root: Path, *args: str) -> list[str]:
    # --no-optional-locks: a background status must not rewrite the index (it would race
    # the user's own git commands, and change the index mtime the cache watches)
    return ["git", "--no-optional-locks", "-C", str(root), *args]


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(_argv(root, *args), capture_output=True, text=True, timeout=GIT_TIMEOUT, errors="replace")
    if done.returncode != 0:
        raise OSError(done.stderr.strip() or f"git {args[0]} failed")
    return done.stdout


_STATUS = ("status", "--porcelain=v2", "--branch")
# statuses begun by ``start``, not collected yet: root -> (stamp, monotonic start, process)
_started: dict[Path, tuple[tuple, float, subprocess.Popen]] = {}
_started_lock = threading.Lock()


def start(cwd: str) -> None:
    """Begin ``git status`` for ``cwd``'s repository without waiting (never raises): the
    next ``GitContext.info`` of that repository, with its HEAD and index unchanged, takes
    the result instead of running git again."""
    try:
        root = find_root(cwd) if cwd else None
        if root is None:
            return
        stamp = _stamp(root)
        with _started_lock:
            old = _started.get(root)
            if old is not None and old[0] == stamp and old[2].poll() is None:
                return  # one is running already
            proc = subprocess.Popen(_argv(root, *_STATUS), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, errors="replace")
            _started[root] = (stamp, time.monotonic(), proc)
        if old is not None:
            _finish(old[2])
    except (OSError, ValueError, subprocess.SubprocessError):
        return


def _collect(root: Path, stamp: tuple) -> Optional[str]:
    """The output of a status ``start`` began for ``root`` with these stamps (None: none
    was begun, it is stale or it failed: the caller runs git itself)."""
    with _started_lock:
        begun = _started.pop(root, None)
    if begun is None:
        return None
    began_stamp, began_at, proc = begun
    if began_stamp != stamp:
        _finish(proc)
        return None
    try:
        out, err = proc.communicate(timeout=max(0.1, GIT_TIMEOUT - (time.monotonic() - began_at)))
    except subprocess.TimeoutExpired:
        _finish(proc)
        raise OSError("git status timed out") from None
    if proc.returncode != 0:
        raise OSError(err.strip() or "git status failed")
    return out


def _finish(proc: subprocess.Popen) -> None:
    """A begun status nobody will read: ended and reaped (no zombie, no open pipes)."""
    try:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=1)
    except (OSError, ValueError, subprocess.SubprocessError):
        pass


def _stamp(root: Path) -> tuple:
    git = os.path.join(root, ".git")
    stamps: list[Optional[int]] = []
    for name in ("HEAD", "index"):
        try:
            stamps.append(os.stat(os.path.join(git, name)).st_mtime_ns)
        except OSError:
            stamps.append(None)
    return tuple(stamps)


def parse_status(root: str, text: str) -> GitInfo:
    info = GitInfo(root=root)
    for line in text.splitlines():
        if line.startswith("# branch.head "):
            head = line.split(" ", 2)[2]
            info.branch = "" if head == "(detached)" else head
        elif line.startswith("# branch.upstream "):
            info.upstream = line.split(" ", 2)[2]
        elif line.startswith("# branch.ab "):
            ahead, behind = line.split(" ")[2:4]
            info.ahead, info.behind = int(ahead.lstrip("+")), abs(int(behind))
        elif line and not line.startswith("#"):
            info.dirty += 1
    return info


class GitContext:
    """Per-repository cache of ``GitInfo``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._cache: dict[str, tuple[tuple, float, Optional[GitInfo]]] = {}
        self._lock = threading.Lock()
        self._clock = clock
        self.refreshes = 0  # how many times git ran (tests check the cache)
        self._refreshing: dict[str, threading.Lock] = {}  # root -> held while its status runs

    def info(self, cwd: str, root: Any = LOOK) -> Optional[GitInfo]:
        """``root``: ``cwd``'s repository if the caller found it already (None: not in one)."""
        if root is LOOK:
            root = find_root(cwd) if cwd else None
        if root is None:
            return None
        stamp, now = _stamp(root), self._clock()
        key = str(root)  # a Path hashes its parts again on every lookup
        with self._lock:
            cached = self._cache.get(key)
            if cached and cached[0] == stamp and now - cached[1] < TTL:
                return cached[2]
            refreshing = self._refreshing.setdefault(key, threading.Lock())
        # one refresh per repository at a time: fifty shells asking at once in one repository
        # (or at once when the line went stale) each ran ``git status``; the others wait for it
        with refreshing:
            with self._lock:
                cached = self._cache.get(key)
                if cached and cached[0] == stamp and self._clock() - cached[1] < TTL:
                    return cached[2]  # refreshed while this ask waited
            return self._refresh(root, stamp, now)

    def _refresh(self, root: Path, stamp: tuple, now: float) -> Optional[GitInfo]:
        try:
            text = _collect(root, stamp)
            if text is None:
                text = _git(root, *_STATUS)
            info = parse_status(str(root), text)
        except (OSError, subprocess.SubprocessError, ValueError):
            info = None
        with self._lock:
            self.refreshes += 1
            self._cache[str(root)] = (stamp, now, info)
        return info


def tree(cwd: str, *, depth: int = 3, max_entries: int = 300) -> str:
    """A compact tree of the project from ``cwd`` down, without what git ignores."""
    base = Path(cwd).resolve()
    root = find_root(cwd)
    if root is not None:
        names = _git(base, "ls-files", "--cached", "--others", "--exclude-standard").splitlines()
        files = [Path(n) for n in names if n]
    else:
        files = [p.relative_to(base) for p in base.rglob("*")
                 if p.is_file() and not any(part.startswith(".") for part in p.relative_to(base).parts)]
    shown: dict[str, int] = {}  # directory path (depth-limited) -> files below it not shown
    lines: list[str] = []
    seen: set[str] = set()
    for path in sorted(files):
        parts = path.parts
        for i in range(1, min(len(parts), depth + 1)):
            key = "/".join(parts[:i]) + "/"
            if key not in seen:
                seen.add(key)
                lines.append("  " * (i - 1) + parts[i - 1] + "/")
        if len(parts) <= depth:
            lines.append("  " * (len(parts) - 1) + parts[-1])
        else:
            key = "/".join(parts[:depth]) + "/"
            shown[key] = shown.get(key, 0) + 1
    cut = len(lines) > max_entries
    lines = lines[:max_entries]
    if cut:
        lines.append(f"... (cut at {max_entries} entries)")
    if shown:
        lines.append(f"({sum(shown.values())} files deeper than {depth} levels not listed)")
    return f"[tree of {base}]\n" + "\n".join(lines)


def diff(cwd: str, *, max_chars: int = 12000) -> str:
    """The staged and the unstaged diff, capped (the cut is said, never silent)."""
    root = find_root(cwd)
    if root is None:
        raise OSError(f"{cwd} is not inside a git repository")
    staged = _git(root, "diff", "--cached", "--no-color")
    unstaged = _git(root, "diff", "--no-color")
    text = ""
    if staged:
        text += "[staged diff]\n" + staged
    if unstaged:
        text += ("\n" if text else "") + "[unstaged diff]\n" + unstaged
    if not text:
        return ""
    if len(text) > max_chars:
        text = text[:max_chars] + f"\n... (diff cut at {max_chars} characters)"
    return text
