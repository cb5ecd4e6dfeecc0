"""Long options as their programs read them: any unambiguous prefix names the whole option.

GNU ``getopt_long`` and git's option parser take ``--rec`` for ``--recursive`` and ``--har`` for
``--hard`` when no other long option of the program starts the same way.  The rules read the full
names, so ``rm --recur --forc /srv`` and ``git reset --har`` went unread.  Each program's long
options are listed here as its manual gives them (git's by subcommand); a prefix that fits one of
them is written out before the rules run, one that fits several or none is left as typed (the
program refuses it too).  ``--`` ends the options.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

_COMMON = ("help", "version")
_CHOWN = ("changes", "dereference", "no-dereference", "from", "no-preserve-root", "preserve-root", "quiet",
          "silent", "recursive", "reference", "verbose") + _COMMON
LONG_OPTIONS: dict = {
    "rm": ("force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir",
           "verbose") + _COMMON,
    "cp": ("archive", "attributes-only", "backup", "copy-contents", "dereference", "force", "interactive", "link",
           "no-dereference", "no-clobber", "no-preserve", "no-target-directory", "one-file-system", "parents",
           "preserve", "recursive", "reflink", "remove-destination", "sparse", "strip-trailing-slashes", "suffix",
           "symbolic-link", "target-directory", "update", "verbose", "context", "debug",
           "keep-directory-symlink") + _COMMON,
    "mv": ("backup", "context", "debug", "exchange", "force", "interactive", "no-clobber", "no-copy",
           "no-target-directory", "strip-trailing-slashes", "suffix", "target-directory", "update",
           "verbose") + _COMMON,
    "chmod": ("changes", "no-preserve-root", "preserve-root", "quiet", "silent", "reference", "recursive",
              "verbose") + _COMMON,
    "chown": _CHOWN,
    "chgrp": tuple(o for o in _CHOWN if o != "from"),
    "shred": ("force", "iterations", "random-source", "size", "remove", "verbose", "exact", "zero") + _COMMON,
    "truncate": ("no-create", "io-blocks", "reference", "size") + _COMMON,
    "ln": ("backup", "directory", "force", "interactive", "logical", "no-dereference", "no-target-directory",
           "physical", "relative", "suffix", "symbolic", "target-directory", "verbose") + _COMMON,
    "wipefs": ("all", "backup", "force", "no-act", "no-headings", "output", "parsable", "quiet", "types", "offset",
               "lock") + _COMMON,
    "userdel": ("force", "remove", "root", "prefix", "selinux-user", "help"),
}
GIT_LONG_OPTIONS: dict = {
    "reset": ("hard", "soft", "mixed", "merge", "keep", "quiet", "no-quiet", "refresh", "no-refresh", "patch",
              "intent-to-add", "pathspec-from-file", "pathspec-file-nul", "recurse-submodules",
              "no-recurse-submodules"),
    "clean": ("force", "dry-run", "quiet", "interactive", "exclude"),
    "checkout": ("force", "quiet", "progress", "no-progress", "merge", "conflict", "detach", "track", "no-track",
                 "guess", "no-guess", "orphan", "ignore-skip-worktree-bits", "ignore-other-worktrees", "ours",
                 "theirs", "patch", "overlay", "no-overlay", "pathspec-from-file", "pathspec-file-nul",
                 "recurse-submodules", "no-recurse-submodules"),
    "branch": ("delete", "force", "move", "copy", "list", "all", "remotes", "verbose", "quiet", "track", "no-track",
               "set-upstream-to", "unset-upstream", "edit-description", "contains", "no-contains", "merged",
               "no-merged", "sort", "points-at", "format", "color", "no-color", "column", "no-column",
               "show-current", "create-reflog", "ignore-case", "abbrev", "no-abbrev", "recurse-submodules"),
    "stash": ("all", "include-untracked", "keep-index", "no-keep-index", "patch", "staged", "quiet", "message",
              "pathspec-from-file", "pathspec-file-nul", "index"),
}


def _expanded(name: str, options: tuple) -> Optional[str]:
    """The one long option ``--name`` abbreviates, or None (exact, ambiguous or unknown)."""
    if name in options:
        return None
    fits = [o for o in options if o.startswith(name)]
    return fits[0] if len(fits) == 1 else None


def _write_out(words: list, start: int, options: tuple) -> list:
    out = list(words)
    for k in range(start, len(words)):
        text = words[k].text
        if text == "--":
            break
        if not text.startswith("--") or len(text) < 3:
            continue
        name, eq, value = text[2:].partition("=")
        full = _expanded(name, options)
        if full is not None:
            out[k] = replace(words[k], text=f"--{full}{eq}{value}")
    return out


def expand_long_options(prog: str, words: list) -> list:
    """``words`` (the program first) with abbreviated long options written out, for the programs listed."""
    if prog == "git":
        k = 1
        while k < len(words) and words[k].text.startswith("-"):
            k += 2 if words[k].text in ("-C", "-c") else 1
        options = GIT_LONG_OPTIONS.get(words[k].text) if k < len(words) else None
        return _write_out(words, k + 1, options) if options else words
    options = LONG_OPTIONS.get(prog)
    return _write_out(words, 1, options) if options else words
