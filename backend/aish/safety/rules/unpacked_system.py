"""Effect: an archive unpacked, or files copied, over the system's own directories by extractors
``unpacked_over`` does not read: PowerShell's ``Expand-Archive -DestinationPath C:\\Windows\\System32
-Force``, .NET's ``[IO.Compression.ZipFile]::ExtractToDirectory('x.zip', 'C:\\Windows', $true)``,
``extrac32 /Y /L C:\\Windows``, 7-Zip's ``-oC:\\Windows\\System32``, ``dpkg -x pkg.deb /``, ``python -m
zipfile -e x.zip /``, ``ditto -x -k x.zip /usr/local/bin``, ``pax -rw DIR /``, lha's ``xfw=/``, and
``Copy-Item x.dll C:\\Windows\\System32 -Force``.

Where it lands decides, as in ``unpacked_over``: the root, the system's top directories and the files
it boots with are high, its other directories medium; anywhere else stays quiet.  PowerShell refuses to
replace files without ``-Force`` (and .NET without its last ``$true``), so those stay quiet without it.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety import program_names
from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, target
from aish.safety.shell_words import Word
from aish.safety.winpaths import typed_texts

_LEVELS = {"root": HIGH, "system-top": HIGH, "critical": HIGH, "system": MEDIUM}
NAMES = frozenset({"robocopy", "expand-archive", "extrac32", "dpkg", "dpkg-deb", "ditto", "pax", "lha", "lzh",
                   "copy-item", "cpi", "7z", "7za", "7zr", "7zz", "7zg", "python"})


def _landing(c: Ctx, place: str, verb: str) -> Optional[tuple]:
    t = target(Word(place, place, has_var="$" in place))
    level = _LEVELS.get(t.kind)
    if level is None:
        return None
    return level, f"{c.prog} {verb} {describe(t)}, replacing what is there ({c.text})"


def _operands(typed: list, valued: frozenset = frozenset()) -> list:
    return [t for k, t in enumerate(typed) if not t.startswith("-") and not (k and typed[k - 1].lower() in valued)]


def may_unpack(prog: str) -> bool:
    name = prog.lower().removesuffix(".exe")
    return name in NAMES or name[:2] == "py" and program_names.canonical(name) == "python"  # python3.12, pypy3


def rule_unpacked_into_system(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower().removesuffix(".exe")
    name = name if name in NAMES else program_names.canonical(name)
    typed = typed_texts(c.args)
    lowered = [t.lower() for t in typed]
    if name == "expand-archive" and any(t in ("-force", "-fo", "-f") for t in lowered):
        dest = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t in ("-destinationpath", "-destination",
                                                                             "-d")), None)
        positional = _operands(typed, frozenset({"-path", "-literalpath", "-destinationpath", "-destination"}))
        skip = 0 if set(lowered) & {"-path", "-literalpath"} else 1  # the archive named by -Path or first
        dest = dest or (positional[skip] if len(positional) > skip else None)
        return _landing(c, dest, "unpacks over") if dest else None
    if name == "extrac32" and "/y" in lowered and "/l" in lowered:
        k = lowered.index("/l")
        return _landing(c, typed[k + 1], "unpacks over") if k + 1 < len(typed) else None
    if name.startswith("7z") and lowered[:1] in (["x"], ["e"]) and \
            (set(lowered) & {"-y", "-aoa"}):
        dest = next((t[2:] for t in typed if re.match(r"^-o([A-Za-z]:|\\\\|%\w+%|\$env:)", t, re.IGNORECASE)), None)
        return _landing(c, dest, "unpacks over") if dest else None
    if name in ("dpkg", "dpkg-deb") and set(lowered) & {"-x", "--extract", "--vextract"}:
        positional = _operands(typed)
        return _landing(c, positional[-1], "unpacks a package over") if len(positional) >= 2 else None
    if name == "python" and lowered[:2] in (["-m", "zipfile"], ["-m", "tarfile"]) and \
            set(lowered) & {"-e", "--extract"}:
        positional = _operands(typed[2:])
        return _landing(c, positional[-1], "unpacks over") if len(positional) >= 2 else None
    if name == "ditto" and any(re.fullmatch(r"-x\w*", t) for t in lowered):
        positional = _operands(typed)
        return _landing(c, positional[-1], "unpacks over") if len(positional) >= 2 else None
    if name == "pax" and (any(re.fullmatch(r"-\w*r\w*w\w*|-\w*w\w*r\w*", t) for t in lowered) or
                          "-r" in lowered and "-w" in lowered):
        positional = _operands(typed, frozenset({"-f", "-s", "-x", "-o", "-p"}))
        return _landing(c, positional[-1], "copies a tree over") if len(positional) >= 2 else None
    if name in ("lha", "lzh") and typed:
        m = re.fullmatch(r"-?[xe]\w*w=(\S+)", typed[0])
        return _landing(c, m.group(1), "unpacks over") if m else None
    if name == "robocopy" and not any(t in ("/l", "/?") for t in lowered):
        positional = [t for t in typed if not t.startswith("/")]
        return _landing(c, positional[1], "copies files over") if len(positional) >= 2 else None
    if name in ("copy-item", "cpi") and any(t in ("-force", "-fo") for t in lowered):
        dest = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-destination"), None)
        positional = _operands(typed, frozenset({"-path", "-literalpath", "-destination", "-filter", "-include",
                                                 "-exclude"}))
        dest = dest or (positional[-1] if len(positional) > 1 else None)
        return _landing(c, dest, "copies files over") if dest and "\\" in dest else None
    return None


_EXTRACT_TO = lazy(r"ExtractToDirectory\(\s*['\"]?[^'\",)]+['\"]?\s*,\s*['\"]?([^'\",)]+)['\"]?\s*"
                   r"(,\s*\$true|,\s*\[?\w*\]?\s*\$true)?", re.IGNORECASE)


def line_extracted(text: str) -> Optional[tuple]:
    """``[IO.Compression.ZipFile]::ExtractToDirectory('x.zip', 'C:\\Windows\\System32', $true)``: .NET's unpacking,
    overwriting when its last argument is true."""
    if "irectory(" not in text and "IRECTORY(" not in text:
        return None
    m = _EXTRACT_TO.search(text)
    if m is None or not m.group(2):
        return None
    place = m.group(1).strip()
    t = target(Word(place, place, has_var="$" in place))
    level = _LEVELS.get(t.kind)
    if level is None:
        return None
    return level, f"ExtractToDirectory unpacks over {describe(t)}, replacing what is there ({text[:60]})"
