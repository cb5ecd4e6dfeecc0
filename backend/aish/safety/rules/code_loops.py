"""What a delete inside a loop reaches: every name a listing of a directory gives (read by ``code_effects``).

``interp`` reads Python's, Ruby's and Node's walks (``os.listdir``, ``Dir.glob``, ``readdirSync``); other
languages loop over a directory in their own words and delete each name the loop gives:

- Lua's ``for f in io.popen("ls /data"):lines() do os.remove("/data/"..f) end`` and ``lfs.dir("/data")``;
- Tcl's ``foreach f [glob /data/*] {file delete -force $f}``;
- Groovy's ``new File("/opt/app/data").eachFile { it.delete() }`` (and ``listFiles()``);
- R's ``list.files("/data")``, Julia's ``readdir("/data")``, a name joined to a directory literal by any
  language's concatenation (``"/data/"..f``, ``"/data/" + f``, ``"/data/" . $f``, ``"/data/$f"``,
  ``"/data/#{f}"``) inside a loop.

The target is then ``DIR/*``, every name in it, as ``interp`` reads a walk's deletes.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy

_LOOP = lazy(r"\bfor\b|\bforeach\b|\beach\w*|\bmap\b|\bwhile\b|\bdoseq\b|\bfor-each\b|:lines\(\)|\.forEach\b")
# A directory literal joined to a name by concatenation or interpolation.
_JOINED = lazy(r"""["']((?:/|~/)[\w.@%+/-]*?)/?(?:["']\s*(?:\.\.|\+\+|\+|\.|<>|\*)\s*\$?[A-Za-z_]\w*|"""
               r"""/\$\{?[A-Za-z_]\w*\}?["']|/#\{[A-Za-z_]\w*\}["'])""")
# Listings of a literal directory a loop goes over.
_LISTING = lazy(r"""\[glob\s+(?:-\w+\s+)*["']?(?P<glob>(?:/|~/)[^\s\]"']+)|"""
                r"""popen\(\s*["'](?:ls|find)\s+(?:-\S+\s+)*(?P<ls>(?:/|~/)[^\s"']+)|"""
                r"""File\s*\(\s*["'](?P<each>(?:/|~/)[^"']+)["']\s*\)\s*\.\s*(?:eachFile\w*|listFiles)\b|"""
                r"""(?:lfs\.dir|readdir|list\.files|dir)\(\s*["'](?P<dir>(?:/|~/)[^"']+)["']""")


def joined_target(region: str, code: str) -> Optional[str]:
    """``DIR/*`` for a delete given a name joined to a directory literal, inside a loop."""
    m = _JOINED.search(region)
    if m is None or not _LOOP.search(code):
        return None
    return m.group(1).rstrip("/") + "/*"


def listed_target(code: str) -> Optional[str]:
    """``DIR/*`` (or the glob itself) for the directory a loop in the code lists, if any."""
    if not _LOOP.search(code):
        return None
    m = _LISTING.search(code)
    if m is None:
        return None
    if m.group("glob"):
        return m.group("glob")
    found = m.group("ls") or m.group("each") or m.group("dir") or ""
    return found.rstrip("/") + "/*"
