"""Effect: a user's files lost in Windows' own everyday spellings, beyond ``del /s`` and ``Remove-Item -Recurse``.

- every file of a personal folder deleted by a wildcard, without recursion (``del /q
  C:\\Users\\alice\\Documents\\*.*``, ``erase %USERPROFILE%\\Pictures\\*``,
  ``Remove-Item $env:USERPROFILE\\Desktop\\*``),
  as ``rm ~/Documents/*`` is judged; downloads, temporary files and a project's output stay quiet;
- a file or directory object's own ``Delete()`` (``(Get-Item D:\\Projects).Delete($true)``,
  ``[IO.DirectoryInfo]::new('C:\\Data').Delete($true)``, ``(New-Object IO.FileInfo 'x.db').Delete()``): judged
  as ``Remove-Item`` of the path, recursive when ``$true`` is passed;
- ``cipher /w:DIR``: the free space of the volume overwritten, so files deleted before can no longer be
  recovered;
- every file a listing walks written over (``Get-ChildItem D:\\Data -Recurse | Set-Content -Value ""``,
  ``gci C:\\Users\\alice\\Documents -r | % { [IO.File]::WriteAllBytes($_.FullName, @()) }``, ``… | % { Out-File
  $_.FullName -InputObject '' }``): judged as a recursive delete of the folder listed, since every file's
  content is gone; a listing's files deleted one level deep (``ls C:\\Users\\alice\\Documents | ? {…} | rm``)
  as the folder's wildcard above.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.winpaths import typed_text
from aish.safety.lazy_regex import lazy

_PERSONAL_GLOB = lazy(r"^(?:[A-Za-z]:\\Users\\[^\\*?]+|%userprofile%|\$env:userprofile|\$home|~)\\"
                      r"(documents|desktop|pictures|photos|music|videos|onedrive[^\\]*|dropbox|"
                      r"google drive|nextcloud)(\\[^\\*?]+)*\\[^\\]*[*?][^\\]*$", re.IGNORECASE)
_DELETERS = frozenset({"del", "erase", "del.exe", "remove-item", "ri", "rm"})
_ITEM_DELETE = lazy(
    r"(?:\(\s*(?:get-item|gi|get-childitem|gci)\s+(?:-(?:literal)?path\s+)?(?P<a>['\"]?[^\s)'\"]+['\"]?)[^)]*\)"
    r"|\[(?:system\.)?io\.(?:directory|file)info\]::new\(\s*(?P<b>['\"][^'\"]+['\"])\s*\)"
    r"|\(\s*new-object\s+(?:system\.)?io\.(?:directory|file)info\s+(?:-argumentlist\s+)?(?P<c>['\"]?[^\s)'\"]+['\"]?)"
    r"\s*\))\s*\.delete\(\s*(?P<all>\$true)?", re.IGNORECASE)


def rule_folder_emptied(c: Ctx) -> Optional[tuple]:
    """``del /q C:\\Users\\alice\\Documents\\*.*``: every document in the folder, one by one."""
    if c.prog.lower() not in _DELETERS or not any("*" in w.raw or "?" in w.raw for w in c.args):
        return None
    for w in c.args:
        typed = typed_text(w)
        if _PERSONAL_GLOB.match(typed):
            folder = typed.rsplit("\\", 1)[0]
            return MEDIUM, f"deletes every matching file in {folder} ({c.text})"
    return None


def rule_free_space_wiped(c: Ctx) -> Optional[tuple]:
    """``cipher /w:C:\\``: deleted files' data overwritten for good."""
    if any(t.lower().startswith("/w") for t in c.texts):
        return MEDIUM, f"cipher /w overwrites the volume's free space: deleted files can no longer be recovered " \
                       f"({c.text})"
    return None


def line_item_deleted(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """A file or directory object's ``Delete()``, judged as ``Remove-Item`` of its path."""
    if "elete(" not in text or ".delete(" not in text.lower():
        return None
    m = _ITEM_DELETE.search(text)
    if m is None:
        return None
    path = m.group("a") or m.group("b") or m.group("c")
    found = recurse(f"Remove-Item {path}{' -Recurse' if m.group('all') else ''} -Force")
    return (found[0], f"{found[1]}, by the item's own Delete()") if found else None


_LISTING = lazy(r"(?:^|[|;(]\s*)(?:get-childitem|gci|ls|dir)\s+(?P<args>[^|;]*?)(?=\|)", re.IGNORECASE)
# Each file written: its path bound from the pipe (`| Set-Content -Value ""`, no path of its own), or `$_` named.
_PIPED_WRITER = lazy(r"\|\s*(?:set-content|sc|clear-content|clc)\b(?P<a>[^|;}]*)", re.IGNORECASE)
_WRITES_EACH = lazy(r"\bwriteall(?:bytes|text|lines)\s*\(\s*\$_|\b(?:set-content|sc|out-file)\s+(?:-\w+\s+)?"
                    r"\$_(?:\.fullname)?\b", re.IGNORECASE)
_DELETES_EACH = lazy(r"\|\s*(?:remove-item|ri|rm|del|erase)\b(?![^|]*-r)", re.IGNORECASE)


def line_listed_files_lost(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """Every file a listing walks written over, or deleted one level deep (see the module's doc)."""
    if "|" not in text:
        return None
    lowered = text.lower()
    if not any(w in lowered for w in ("gci", "get-childitem", "ls ", "dir ")):
        return None
    m = _LISTING.search(text)
    if m is None:
        return None
    words = [w for w in m.group("args").split() if not w.startswith("-")]
    deep = re.search(r"(?:^|\s)-r(?:ecurse|ec|e)?\b", m.group("args"), re.IGNORECASE) is not None
    if not words:
        return None
    path = words[0].strip("'\"")
    rest = text[m.end():]
    piped = _PIPED_WRITER.search(rest)
    own_path = piped is not None and re.search(r"-(literal)?path\b|^\s*[^-\s]", piped.group("a"), re.IGNORECASE)
    if piped is not None and not own_path or _WRITES_EACH.search(rest):
        found = recurse(f"Remove-Item '{path}' -Recurse -Force" if deep else f"Remove-Item '{path}\\*' -Force")
        return (found[0], f"writes over every file under {path} ({' '.join(text.split()[:6])}…)") if found else None
    if not deep and _DELETES_EACH.search(rest):
        found = recurse(f"Remove-Item '{path}\\*'")
        return (found[0], f"deletes every file {path} lists ({' '.join(text.split()[:6])}…)") if found else None
    return None


RULES: dict = {**{p: [rule_folder_emptied] for p in _DELETERS}, "cipher": [rule_free_space_wiped],
               "cipher.exe": [rule_free_space_wiped]}
