"""Prefixes that run the command after them: ``sudo``, ``env``, ``nohup``, ``timeout``, ``xargs``...

Every rule judges the command a prefix runs, not the prefix, so the words are
unwrapped once here (with the options each prefix takes a value for), and the
caller learns whether the command runs as root or takes its arguments from a pipe.
"""
from __future__ import annotations

import re

from aish.safety.program_names import alias, plain_name
from aish.safety.shell_words import tokenize

# option -> takes a value, for each wrapper that runs the command after it
_WRAPPERS: dict = {
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group",
             "--chdir", "--prompt", "--role", "--type", "--other-user", "--command-timeout"},
    "doas": {"-u", "-C"}, "pkexec": {"--user"}, "run0": {"--user", "-u", "--setenv", "--unit"},
    "env": {"-u", "-C", "--unset", "--chdir"},
    "nohup": set(), "builtin": set(), "chronic": set(), "unbuffer": set(), "caffeinate": {"-t", "-w"},
    "nice": {"-n", "--adjustment"}, "ionice": {"-c", "-n", "-p", "-P", "-u"}, "chrt": set(),
    "taskset": set(), "time": {"-f", "-o", "--format", "--output"}, "stdbuf": {"-i", "-o", "-e"},
    "exec": {"-a"}, "setsid": set(), "torsocks": set(), "proxychains": {"-f"},
    "proxychains4": {"-f"}, "command": set(), "busybox": set(), "toybox": set(), "noglob": set(), "nocorrect": set(),
    "timeout": {"-s", "-k", "--signal", "--kill-after"}, "flock": {"-w", "-E", "--timeout", "--conflict-exit-code"},
    "systemd-run": {"-u", "--unit", "-p", "--property", "-M", "--machine", "--uid", "--gid", "-E", "--setenv",
                    "-H", "--host", "--description", "--slice", "--on-calendar", "--on-active"},
    "firejail": set(), "unshare": set(), "nsenter": {"-t", "--target"}, "strace": {"-o", "-e", "-p", "-s"},
    "ltrace": {"-o", "-e"}, "gosu": set(), "su-exec": set(), "retry": {"-t", "--times", "-d", "--delay"},
    "xargs": {"-a", "-d", "-E", "-e", "-I", "-L", "-l", "-n", "-P", "-s", "--arg-file",
              "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs",
              "--max-chars", "--process-slot-var"},
    "sshpass": {"-p", "-f", "-d", "-P"},
    "chroot": {"--userspec", "--groups"},
    "parallel": {"-j", "--jobs", "-S", "--sshlogin", "--delay", "-a", "--arg-file", "--colsep", "-I"},
}
_TAKES_USER = {"gosu", "su-exec"}  # the first word after them is a user, not the command
_TAKES_ARG = {"chrt": 1, "taskset": 1, "chroot": 1}  # a priority / CPU mask / the new root before the command
ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")


def unwrap(words: list) -> tuple:
    """Strip ``VAR=x``, ``sudo``, ``env``, ``nohup``, ``time``, ``xargs``... in any order.

    Returns (command words, ran via sudo/doas, arguments come from xargs).
    """
    if words:  # most commands: no assignment or wrapper first, the words as they are
        text = words[0].text
        base = text.rsplit("/", 1)[-1] if "/" in text else text
        if "=" not in words[0].raw and base[:1] != "\\" and plain_name(base) not in _WRAPPERS:
            return _module_run(words[:]), False, False
    found, sudo, xargs = _unwrap_in_full(words)
    return _module_run(found), sudo, xargs


# Tools Python runs by their module's name (`python3 -m pip uninstall -y x`): judged as the tool itself is.
_MODULE_TOOLS = frozenset({"pip", "pip3", "pipx", "poetry", "pdm", "uv", "twine", "hatch", "conda"})


def _module_run(words: list) -> list:
    """``python3 -m pip …`` as ``pip …``; any other words as they are."""
    if len(words) > 2 and words[1].text == "-m" and words[2].text in _MODULE_TOOLS and \
            words[0].text.rsplit("/", 1)[-1][:2] == "py" and \
            (plain_name(words[0].text.rsplit("/", 1)[-1]) in ("python", "py") or
             alias(words[0].text.rsplit("/", 1)[-1]) == "python"):
        return words[2:]
    return words


def _unwrap_in_full(words: list) -> tuple:
    """``unwrap`` for any words."""
    sudo = xargs = False
    i, n = 0, len(words)
    for _ in range(32):  # bounded: each pass strips one prefix
        while i < n and "=" in words[i].raw and ASSIGN.match(words[i].raw):
            i += 1
        if i >= n:
            break
        name = plain_name(words[i].text.rsplit("/", 1)[-1].lstrip("\\"))  # `gtimeout` is GNU's timeout
        valued = _WRAPPERS.get(name)
        if valued is None:
            break
        if name == "command" and any(w.text in ("-v", "-V") for w in words[i + 1:i + 2]):
            return [], sudo, xargs  # `command -v x` only looks x up
        sudo = sudo or name in ("sudo", "doas", "pkexec", "run0")
        xargs = xargs or name in ("xargs", "parallel")
        i += 1
        while i < n and words[i].text.startswith("-") and words[i].text != "-":
            opt = words[i].text
            i += 1
            if opt == "--":
                break
            if name == "env" and opt in ("-S", "--split-string") and i < n:
                return unwrap(_split_words(words[i].text) + words[i + 1:])[0], sudo, xargs
            if "=" not in opt and (opt in valued or (opt[:2] in valued and len(opt) == 2)):
                i += 1
        if name in _TAKES_USER or name == "timeout" or name == "flock":
            i += 1  # the user, the duration, the lock file
        if name == "flock" and i + 1 < n and words[i].text in ("-c", "--command"):  # flock FILE -c 'CMD'
            return unwrap(_split_words(words[i + 1].text))[0], sudo, xargs
        i += _TAKES_ARG.get(name, 0)
        if name == "sudo" and i >= n:
            break
    return words[i:], sudo, xargs


def _split_words(text: str) -> list:
    return [t.value for t in tokenize(text) if t.kind == "word"]
