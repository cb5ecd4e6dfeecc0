"""Effect: a script written by echo into a file, then run by a tool's script switch, judged as what it says.

``echo delete shadows all | diskshadow`` is judged by the lines fed into the tool; the same lines written into a
file first and handed to the tool's script option are the same command: ``echo delete shadows all> %TEMP%\\ds.txt
&& diskshadow /s %TEMP%\\ds.txt``, ``(echo open host& echo mdelete *)> c.txt & ftp -s:c.txt``, ``echo advfirewall
reset > n.txt && netsh -f n.txt``, ``printf 'drop database x;' > q.sql; mysql < q.sql``.  Each line written is
judged as ``TOOL LINE`` (how the tool reads its script), and a tool that reads no script from the file is not
asked (only a file named after a script switch, joined to it, or redirected in is followed).
"""
from __future__ import annotations

from typing import Callable, Optional

from aish.safety.shell_words import segments

_WRITERS = frozenset({"echo", "echo.", "printf", "write-output", "echo:"})
_SCRIPT_SWITCHES = frozenset({"/s", "-s", "-f", "/f", "-b", "/b", "-i", "/i", "-x", "/x", "-script", "/script",
                              "--script", "-file", "--file", "/file"})


def _written(segs: list) -> dict:
    """{file name lowered: [lines]} written by echo or printf, one by one or from a ( … ) group."""
    files: dict = {}
    group: list = []
    for seg in segs:
        words = [w.text for w in seg.words]
        line = ""
        if words and words[0].lower() in _WRITERS:
            line = " ".join(w for w in words[1:] if w not in ("-n", "-e")).replace("\\n", "\n")
        if seg.link == "(":
            group = []
        if line:
            group.append(line)
        for red in seg.redirects:
            if red.op in (">", ">>") and red.target is not None:
                body = [line] if line else (group if not words else [])
                if body:
                    files.setdefault(red.target.text.lower(), []).extend(body)
    return files


def _script_file(seg) -> Optional[str]:
    texts = [w.text for w in seg.words[1:]]
    for k, t in enumerate(texts):
        low = t.lower()
        if low in _SCRIPT_SWITCHES and k + 1 < len(texts):
            return texts[k + 1].lower()
        head, colon, rest = low.partition(":")
        if colon and head in _SCRIPT_SWITCHES and rest:
            return rest
    fed = next((r.target.text.lower() for r in seg.redirects if r.op == "<" and r.target is not None), None)
    return fed


def line_written_script(text: str, judge: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """The worst verdict of ``TOOL LINE`` over the lines written to the file a later tool runs as its script."""
    if ">" not in text or ("echo" not in text.lower() and "printf" not in text):
        return None
    segs = segments(text)
    files = _written(segs)
    if not files:
        return None
    for seg in segs:
        if not seg.words or seg.words[0].text.lower() in _WRITERS:
            continue
        name = _script_file(seg)
        if name is None or name not in files:
            continue
        prog = seg.words[0].raw
        best = None
        for line in files[name]:
            for part in line.split("\n"):
                found = judge(f"{prog} {part}") if part.strip() else None
                if found is not None and (best is None or found[0] > best[0]):
                    best = found
        if best is not None:
            return best[0], f"{best[1]}, written to {name} and run by {prog}"
    return None
