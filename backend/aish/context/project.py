"""A project's own files: ``AISH.md`` notes and the ``.aish.toml`` overlay, once trusted.

The project root is the git root of the ask's cwd, else the nearest directory
upwards holding ``AISH.md`` or ``.aish.toml``.  Both files are ignored until
``aish trust`` (trust.py); an ignored file costs one status line per content.

The overlay may set only a safe subset: which configured model to prefer
(``default_model``), ``[routing.classes]`` (to configured models), context caps
and ``notes``.  Endpoints, keys, models, MCP servers, approvals and anything
else are refused: a cloned repository must never send the user's prompts
elsewhere or approve a tool.
"""
from __future__ import annotations

import copy
import os
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from aish.context import git as git_mod
from aish.context import stamps
from aish.context.trust import TrustStore

if TYPE_CHECKING:
    from aish.config.schema import Config

NOTES_FILE = "AISH.md"
OVERLAY_FILE = ".aish.toml"
SAFE_CONTEXT_KEYS = ("max_turns", "budget_tokens", "max_summary_chars")
SAFE_TOP_KEYS = ("default_model", "routing", "context", "notes")
_KEPT = 1024  # roots' listings and paths kept across asks (``ProjectContext``)


def project_root(cwd: str, git_root: Any = git_mod.LOOK) -> Optional[Path]:
    """The repository holding ``cwd``, else the nearest directory with ``AISH.md`` or
    ``.aish.toml``; ``git_root``: the repository already found for ``cwd`` (one look at
    ``.git`` per ask)."""
    root = git_mod.find_root(cwd) if git_root is git_mod.LOOK else git_root
    if root is not None:
        return root
    found = [p for p in (git_mod.walk_up(cwd, name, os.path.isfile) for name in (NOTES_FILE, OVERLAY_FILE)) if p]
    return Path(max(found, key=len)) if found else None  # both hold cwd: the longer is the nearer


def _text(data: bytes, errors: str = "strict") -> str:
    """``data`` as ``Path.read_text`` gives it (UTF-8, newlines made ``\\n``)."""
    return data.decode("utf-8", errors=errors).replace("\r\n", "\n").replace("\r", "\n")


def apply_overlay(cfg: "Config", raw: dict) -> tuple["Config", list[str]]:
    """``cfg`` with the safe part of ``raw`` applied; the refused keys, named, for a status line."""
    out = copy.deepcopy(cfg)
    refused = [key for key in raw if key not in SAFE_TOP_KEYS]
    model = raw.get("default_model")
    if model is not None:
        if isinstance(model, str) and model in cfg.models:
            out.default_model = model
        else:
            refused.append(f"default_model={model!r} (not a configured model)")
    routing = raw.get("routing")
    if isinstance(routing, dict):
        refused += [f"routing.{k}" for k in routing if k != "classes"]
        classes = routing.get("classes")
        for name, target in (classes.items() if isinstance(classes, dict) else ()):
            if name in out.routing.classes and (target in cfg.models or target in ("", None)):
                out.routing.classes[name] = target or None
            else:
                refused.append(f"routing.classes.{name}")
    elif routing is not None:
        refused.append("routing")
    context = raw.get("context")
    if isinstance(context, dict):
        for key, value in context.items():
            if key in SAFE_CONTEXT_KEYS and isinstance(value, int) and not isinstance(value, bool) \
                    and value > 0:
                setattr(out.context, key, value)
            else:
                refused.append(f"context.{key}")
    elif context is not None:
        refused.append("context")
    return out, refused


class ProjectContext:
    """Daemon-wide: trust records, git cache and the status lines already said."""

    def __init__(self, state_dir: Path, *, notes_max_chars: int = 4000) -> None:
        self.trust = TrustStore(state_dir)
        self.git = git_mod.GitContext()
        self.notes_max_chars = notes_max_chars
        self._said: set = set()
        self._lock = threading.Lock()
        self._ask = threading.local()  # .memo: what this thread's ask found (``looking_from``)
        # across asks: a root's project files with the root's stamp (one stat instead of a
        # stat per file), an overlay's TOML by its digest, one Path per directory string
        self._listings: dict[str, tuple[stamps.Stamp, dict[str, bool]]] = {}
        self._overlays: dict[str, dict] = {}
        self._paths: dict[str, Path] = {}

    @contextmanager
    def looking_from(self, cwd: str) -> Iterator[None]:
        """One ask's look at its project: the root, its trusted files and the overlay are
        found once for all that asks for them (overlay, notes, their header, the MCP root),
        not once each: each was a walk check and a few stats, for every one of 50 shells
        asking at once.  The next ask looks afresh, through what is kept across asks while
        its stamps hold (the root's listing, the trust verdicts with the files' bytes, the
        overlay's TOML: ``stamps``), so a change made between two asks is seen by the second."""
        previous = getattr(self._ask, "memo", None)
        self._ask.memo = {}
        try:
            yield
        finally:
            self._ask.memo = previous

    def _remembered(self, key: tuple, find: Callable[[], Any]) -> Any:
        memo = getattr(self._ask, "memo", None)
        if memo is None:
            return find()
        if key not in memo:
            memo[key] = find()
        return memo[key]

    def _root(self, cwd: str) -> Optional[Path]:
        return self._remembered(("root", cwd), lambda: project_root(cwd, self._git_root(cwd)))

    def _git_root(self, cwd: str) -> Optional[Path]:
        """The repository of ``cwd``: found once per ask for the project's root and the git line
        (each a stat of ``.git``, a GIL hand-off at 50 shells)."""
        return self._remembered(("git root", cwd),
                                lambda: self._path(git_mod.walk_up(cwd, ".git", os.path.exists)))

    def _path(self, found: Optional[str]) -> Optional[Path]:
        """One ``Path`` per directory found (a new one on every ask was most of a look's work)."""
        if found is None:
            return None
        path = self._paths.get(found)
        if path is None:
            if len(self._paths) >= _KEPT:
                self._paths.clear()
            path = self._paths[found] = Path(found)
        return path

    def _file(self, cwd: str, name: str) -> Optional[Path]:
        """The project's file ``name``, if there is one."""
        def find() -> Optional[Path]:
            root = self._root(cwd)
            if root is None or not self._remembered(("listing", root), lambda: self._listing(root))[name]:
                return None
            return root / name

        return self._remembered(("file", cwd, name), find)

    def _listing(self, root: Path) -> dict[str, bool]:
        """Which of the project's files ``root`` holds, as regular files: looked at again only
        when the directory's stamp changed (a file made, removed or renamed there changes it)."""
        key = str(root)
        now = stamps.stamp(key)
        kept = self._listings.get(key)
        if now and kept is not None and kept[0] == now:
            return kept[1]
        found = {name: os.path.isfile(os.path.join(key, name)) for name in (NOTES_FILE, OVERLAY_FILE)}
        if now:
            if len(self._listings) >= _KEPT:
                self._listings.clear()
            self._listings[key] = (now, found)
        return found

    def _checked(self, path: Path) -> tuple[bool, Optional[bytes], Optional[str]]:
        """The trust verdict on ``path`` with the bytes it is about (``TrustStore.check``)."""
        return self._remembered(("trusted?", path), lambda: self.trust.check(path))

    def _is_trusted(self, path: Path) -> bool:
        return self._checked(path)[0]

    def _once(self, key: tuple, line: str, status: Callable[[str], None]) -> None:
        with self._lock:
            if key in self._said:
                return
            self._said.add(key)
        status(line)

    def _trusted_file(self, cwd: str, name: str, status: Callable[[str], None]) -> Optional[Path]:
        return self._remembered(("trusted", cwd, name), lambda: self._find_trusted(cwd, name, status))

    def _find_trusted(self, cwd: str, name: str, status: Callable[[str], None]) -> Optional[Path]:
        path = self._file(cwd, name)
        if path is None:
            return None
        trusted, data, digest = self._checked(path)
        if trusted:
            return path
        if data is None and not os.path.isfile(path):  # gone since the root's listing (a link's target)
            return None
        self._once((str(path), digest),
                   f"{path} ignored: not trusted (run 'aish trust' in {path.parent} after reading it)", status)
        return None

    def trusted_root(self, cwd: str) -> Optional[Path]:
        """The project root around ``cwd`` when the user trusted one of its files, else None
        (what MCP servers are told they may work in, instead of the bare cwd)."""
        root = self._root(cwd)
        if root is None:
            return None
        for name in (NOTES_FILE, OVERLAY_FILE):
            path = self._file(cwd, name)
            if path is not None and self._is_trusted(path):
                return root
        return None

    def notes_block(self, cwd: str, status: Callable[[str], None] = lambda line: None) -> str:
        """``AISH.md`` and the overlay's ``notes`` for the system message ('' if none trusted)."""
        parts = []
        path = self._trusted_file(cwd, NOTES_FILE, status)
        if path is not None:
            text = _text(self._checked(path)[1] or b"", errors="replace").strip()
            if len(text) > self.notes_max_chars:
                text = text[:self.notes_max_chars] + "\n... (notes cut)"
            parts.append(text)
        notes = self._overlay_raw(cwd, status).get("notes")
        if isinstance(notes, str) and notes.strip():
            parts.append(notes.strip()[:self.notes_max_chars])
        if not parts:
            return ""
        return f"[project notes ({self._root(cwd)})]\n" + "\n\n".join(parts)

    def _overlay_raw(self, cwd: str, status: Callable[[str], None]) -> dict:
        return self._remembered(("overlay", cwd), lambda: self._read_overlay(cwd, status))

    def _read_overlay(self, cwd: str, status: Callable[[str], None]) -> dict:
        path = self._trusted_file(cwd, OVERLAY_FILE, status)
        if path is None:
            return {}
        _, data, digest = self._checked(path)
        parsed = self._overlays.get(digest) if digest is not None else None
        if parsed is not None:
            return parsed
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # Python 3.10
            import tomli as tomllib
        try:
            if data is None or digest is None:
                raise OSError(f"cannot read {path}")
            parsed = tomllib.loads(_text(data))
        except (OSError, ValueError) as err:
            self._once((str(path), "bad", digest), f"{path} ignored: {err}", status)
            return {}
        if len(self._overlays) >= _KEPT:
            self._overlays.clear()
        self._overlays[digest] = parsed  # read only by its callers (``apply_overlay`` copies the config)
        return parsed

    def overlay(self, cfg: "Config", cwd: str, status: Callable[[str], None] = lambda line: None) -> "Config":
        raw = self._overlay_raw(cwd, status) if cwd else {}
        if not raw:
            return cfg
        out, refused = apply_overlay(cfg, raw)
        if refused:
            self._once(("refused", cwd and str(self._root(cwd)), tuple(refused)),
                       f"{OVERLAY_FILE}: ignored keys a project may not set: {', '.join(refused)}", status)
        return out

    def git_line(self, cwd: str) -> str:
        info = self.git.info(cwd, root=self._git_root(cwd)) if cwd else None
        return info.line() if info else ""
