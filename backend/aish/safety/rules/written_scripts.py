"""Effect: a script written by echo into a file, then run by a tool's script switch, judged as what it says.

``echo delete shadows all | diskshadow`` is judged by the lines fed into the tool; the same lines written into a
file first and handed to the tool's script option are the same command: ``echo delete shadows all> %TEMP%\\ds.txt
&& diskshadow /s %TEMP%\\ds.txt``, ``(echo open host& echo mdelete *)> c.txt & ftp -s:c.txt``, ``echo advfirewall
reset > n.txt && netsh -f n.txt``, ``printf 'drop database x;' > q.sql; mysql < q.sql``.  Each line written is
judged as ``TOOL LINE`` (how the tool reads its script), or else as fed to the tool (``echo DROP DATABASE x; >
d.sql & sqlcmd -i d.sql``), and a tool that reads no script from the file is not asked (only a file named after
a script switch, joined to it, or redirected in is followed).  A batch file written the same way and run by its
name or a runner (``echo rd /s /q D:\\Shares > x.bat & x.bat``, ``call x.cmd``, ``cmd /c x.bat``) is its lines,
each judged as a command.
"""
from __future__ import annotations

from typing import Callable, Optional

from aish.safety.shell_words import segments

_WRITERS = frozenset({"echo", "echo.", "printf", "write-output", "echo:"})
_BATCH = (".bat", ".cmd", ".ps1", ".sh", ".vbs")
_RUNNERS = frozenset({"call", "start", "cmd", "cmd.exe", "sh", "bash", "powershell", "pwsh", "cscript", "wscript"})
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


def _script_file(seg, files: dict) -> Optional[str]:
    """The written file a script switch names (``-S sql01 -i d.sql``: the switch whose file was written)."""
    texts = [w.text for w in seg.words[1:]]
    for k, t in enumerate(texts):
        low = t.lower()
        if low in _SCRIPT_SWITCHES and k + 1 < len(texts) and texts[k + 1].lower() in files:
            return texts[k + 1].lower()
        head, colon, rest = low.partition(":")
        if colon and head in _SCRIPT_SWITCHES and rest in files:
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
        own = _run_by_name(seg, files)
        name = own or _script_file(seg, files)
        if name is None or name not in files:
            continue
        prog = seg.words[0].raw
        best = None
        for line in files[name]:
            for part in line.split("\n"):
                found = _judge_line(prog, part, judge, alone=own is not None) if part.strip() else None
                if found is not None and (best is None or found[0] > best[0]):
                    best = found
        if best is not None:
            return best[0], f"{best[1]}, written to {name} and run by {prog}"
    return None


def _run_by_name(seg, files: dict) -> Optional[str]:
    """The written file a segment runs as a script of commands: by its own name (``x.bat``, ``.\\x.cmd``), or handed
    to a runner (``call x.cmd``, ``start x.bat``, ``cmd /c x.bat``, ``sh x.sh``): its lines are commands."""
    words = [w.text.lower() for w in seg.words]
    head = words[0].removeprefix(".\\").removeprefix("./")
    head = head[1:] if head.startswith(".") and head[1:] in files else head  # `.\\x.cmd`, its backslash read away
    if head in files and head.endswith(_BATCH):
        return head
    if head in _RUNNERS:
        return next((w for w in words[1:4] if w in files and w.endswith(_BATCH)), None)
    return None


def _judge_line(prog: str, line: str, judge: Callable[[str], Optional[tuple]], alone: bool) -> Optional[tuple]:
    """A batch file's line is a command of its own; a tool's script line is read as ``TOOL LINE`` (how diskshadow
    and netsh read theirs), or else as fed to it (``sqlcmd -i q.sql`` reads the file as its input)."""
    if alone:
        return judge(line)
    found = judge(f"{prog} {line}")
    if found is None and "'" not in line:
        found = judge(f"echo '{line}' | {prog}")
    return found
