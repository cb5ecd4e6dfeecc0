"""A path's ``..`` steps taken before it is classified: the quiet classes must not be a way around the rest.

``rm -rf build/../../`` deletes the directory above the project, ``rm -rf ~/.cache/../Documents`` the user's
documents, ``rm -rf node_modules/../src`` the project's source; read from their first name they were build
output or a cache, and quiet.  Each ``..`` after a name takes that name back (lexically: the shell and ``rm`` do
the same unless a name on the way is a symbolic link), so the path is classified as where it ends: ``..``,
``~/Documents``, ``src``.  A leading ``..`` stays (``../x`` is the parent's ``x``), and so does a ``..`` right
after ``~`` or ``/`` (``~/..`` is the directory of homes, ``/..`` is ``/``: both classified as such already).
"""
from __future__ import annotations


def collapsed(path: str) -> str:
    """``path`` with every ``name/..`` pair taken out (``build/../../`` -> ``../``, ``~/.cache/../x`` -> ``~/x``)."""
    if ".." not in path:
        return path
    parts = path.split("/")
    kept: list = []
    for part in parts:
        if part == ".." and kept and kept[-1] not in ("..", "~", "", "."):
            kept.pop()
        elif part != "." or not kept:
            kept.append(part)
    out = "/".join(kept)
    if path.endswith("/") and not out.endswith("/"):
        out += "/"
    return out or "."
