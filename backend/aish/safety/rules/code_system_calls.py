"""System calls made from code, written out as the commands they are (read by ``code_translated``).

Beside deletes and shell-outs, code reaches the system through calls that have a command of their own:

- a process signalled by number (``os.kill(1, 9)``, ``process.kill(1)``, ``Process.kill("KILL", 1)``,
  ``posix_kill(1, 9)``, perl's ``kill 9, 1``): ``kill -9 PID``; a kill over every number ``/proc`` lists
  or every process a library lists (``[os.kill(int(p), 9) for p in os.listdir('/proc')]``, ``[p.kill() for p
  in psutil.process_iter()]``): ``kill -9 -1``;
- a file copied (``shutil.copyfile``, ``fs.copyFileSync``, ``FileUtils.cp``, ``File.copy``, ``copy``):
  ``cp SRC DST`` (``/dev/zero`` onto a disk, a file over ``/etc/passwd``);
- a device opened for writing (``os.open('/dev/sda', os.O_WRONLY)``, ``open('/dev/sdb', 'r+b')``,
  ``fs.openSync('/dev/sda', 'w')``): ``dd of=DEVICE``;
- a mode changed (``os.chmod(p, 0o777)``, ``fs.chmodSync(p, 0o666)``, ``File.chmod(0777, p)``, ``chmod(p,
  0777)``): ``chmod MODE PATH``;
- git driven through a library (GitPython's ``repo.git.push('--force', …)``, ``repo.git.reset('--hard')``):
  ``git VERB ARGS``; Docker's SDK pruning (``client.volumes.prune()``): ``docker volume prune -f``.
"""
from __future__ import annotations

import re

from aish.safety.lazy_regex import LazyRegex
from aish.safety.lazy_regex import lazy

_Q = r"""(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`]*)`)"""
_STRING = lazy(_Q)
_PER_KIND = 4

_KILL = LazyRegex(r"(?<![\w-])(?:os\.kill|process\.kill|posix_kill|Process\.kill\s*\(\s*[:'\"]?\w+['\"]?\s*,|"
                  r"(?<![.\w])kill\s*\(?\s*['\"]?\w+['\"]?\s*,)\s*\(?\s*(-?\d+|[A-Za-z_]\w*(?:\([^()]*\))?)")
_EVERY_PID = LazyRegex(r"(?:listdir|readdir|scandir|glob|Dir\.(?:entries|children|glob)|opendir)\s*\(\s*['\"]/proc|"
                       r"\bprocess_iter\b|\bpids\s*\(\s*\)")
_COPY = LazyRegex(r"(?<![\w-])(?:shutil\.(?:copy|copy2|copyfile)|(?:fs|fse|fsp)\.(?:copyFileSync|copyFile|copySync|"
                  r"cpSync)|FileUtils\.(?:cp|copy|copy_file)|File\.(?:copy|cp!?)|Files\.copy|(?<![.\w])copy)\s*\(")
_DEVICE_OPEN = LazyRegex(r"(?<![\w-])(?:os\.open|open|openSync|fopen|File\.open|sysopen)\s*\(\s*(?:\w+\s*,\s*)?"
                         r"['\"](/dev/(?:sd|nvme|hd|vd|xvd|mmcblk|disk|rdisk|md|dm-|mapper/)[^'\"]*)['\"]\s*,\s*"
                         r"(?:[^)]*O_(?:WRONLY|RDWR)|['\"](?:[rw]\+b?|wb?|r\+|a)['\"])")
_DEVICE = r"/dev/(?:sd|nvme|hd|vd|xvd|mmcblk|disk|rdisk|md|dm-|mapper/)[^'\"]*"
_PERL_DEVICE_OPEN = LazyRegex(r"\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['\"](?:\+?[<>]|>>)['\"]\s*,\s*['\"]("
                              + _DEVICE + r")['\"]|\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['\"](?:\+?[<>]|>>)\s*("
                              + _DEVICE + r")['\"]")
_EACH_KILLED = LazyRegex(r"\.\s*(?:kill|terminate|send_signal)\s*\(")
_CHMOD = LazyRegex(r"(?<![\w-])(?:os\.chmod|(?:fs|fsp|fse)\.chmod(?:Sync)?|chmod)\s*\(\s*" + _Q +
                   r"\s*,\s*(0o?[0-7]{3,4}|\d{3})\b|(?<![\w-])(?:File\.chmod|FileUtils\.chmod|chmod)\s*\(?\s*"
                   r"(0o?[0-7]{3,4})\s*,\s*" + _Q)
_GIT = LazyRegex(r"\.git\.(push|reset|clean|checkout|branch|tag|rebase|filter_branch|gc|prune|rm|stash|update_ref|"
                 r"reflog)\s*\(")
_PRUNE = LazyRegex(r"\b(containers|images|volumes|networks)\.prune\s*\(")


def _strings(text: str) -> list:
    return [next((g for g in m.groups() if g is not None), "") for m in _STRING.finditer(text)][:10]


def _quote(part: str) -> str:
    return part if re.fullmatch(r"[\w@%+=:,./~$-]+", part) else "'" + part.replace("'", "'\\''") + "'"


def _args(code: str, start: int) -> str:
    depth = 0
    for k in range(start, min(len(code), start + 300)):
        ch = code[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return code[start:k]
            depth -= 1
    return code[start:start + 300]


def _mode(text: str) -> str:
    text = text.replace("0o", "").lstrip("0") or "0"
    return text if len(text) <= 4 else ""


_CHEAP = LazyRegex(r"kill|cop[yi]|cp|/dev/|chmod|\.git\.|prune", re.IGNORECASE)


def commands(code: str) -> list:
    """The commands the code's system calls amount to (at most a few of each kind)."""
    if not _CHEAP.search(code):
        return []
    out = []
    every = _EVERY_PID.search(code) is not None
    for m in list(_KILL.finditer(code))[:_PER_KIND]:
        pid = m.group(1)
        if re.fullmatch(r"-?\d+", pid):
            out.append(f"kill -9 {pid}")
        elif every:
            out.append("kill -9 -1")
    for m in list(_COPY.finditer(code))[:_PER_KIND]:
        parts = _strings(_args(code, m.end()))
        if len(parts) >= 2 and parts[0].startswith("/") and parts[1].startswith(("/", "~")):
            out.append(f"cp {_quote(parts[0])} {_quote(parts[1])}")
    for m in list(_DEVICE_OPEN.finditer(code))[:_PER_KIND] + list(_PERL_DEVICE_OPEN.finditer(code))[:_PER_KIND]:
        out.append(f"dd if=/dev/zero of={_quote(m.group(1) or m.group(m.lastindex or 1))}")
    if every and _EACH_KILLED.search(code):
        out.append("kill -9 -1")
    for m in list(_CHMOD.finditer(code))[:_PER_KIND]:
        if m.group(4) is not None:
            path, mode = next(g for g in m.groups()[:3] if g is not None), _mode(m.group(4))
        else:
            path, mode = next((g for g in m.groups()[5:8] if g is not None), ""), _mode(m.group(5) or "")
        if mode and path.startswith(("/", "~")):
            out.append(f"chmod {mode} {_quote(path)}")
    for m in list(_GIT.finditer(code))[:_PER_KIND]:
        given = [_quote(s) for s in _strings(_args(code, m.end()))]
        out.append(" ".join(["git", m.group(1).replace("_", "-")] + given))
    for m in list(_PRUNE.finditer(code))[:_PER_KIND]:
        out.append(f"docker {m.group(1).rstrip('s')} prune -f")
    return out
