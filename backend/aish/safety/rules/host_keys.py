"""Effect: ssh told to trust any host.  ``StrictHostKeyChecking no`` (or ``UserKnownHostsFile
/dev/null``) means a machine in the middle is accepted in place of the real one, and gets the
logins, keys forwarded and commands sent to it.  Written into ``ssh_config`` or ``~/.ssh/config``
it holds for every later connection; given with ``-o`` in a script that walks a list of hosts
(a variable or ``{}`` as the host, ``xargs``, ``pssh``-like fleet tools) or through the
variables tools pass to ssh (``GIT_SSH_COMMAND``, ``RSYNC_RSH``, ``ANSIBLE_HOST_KEY_CHECKING``),
for every host at once.  ``accept-new`` (trust on first use, then check) and one ``ssh -o … host``
by hand stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

CHECKS_OFF = re.compile(r"StrictHostKeyChecking\s*[= ]\s*[\"']?(no|off|false)\b|"
                        r"UserKnownHostsFile\s*[= ]\s*[\"']?/dev/null|GlobalKnownHostsFile\s*[= ]\s*/dev/null",
                        re.IGNORECASE)
_WHY = "switches off ssh's check of the host's key: a machine in the middle is trusted"
# (file pattern, [(content pattern, level, what it means)], level of any other write, what that means)
FILES = [
    (re.compile(r"^(/private)?/etc/ssh/ssh_config(\.d/.*)?$|^~/\.ssh/config$|^(/root|/home/[^/]+|/Users/[^/]+)"
                r"/\.ssh/config$"),
     [(CHECKS_OFF, MEDIUM, _WHY + " for every later connection")], None, ""),
    (re.compile(r"^(/etc/ansible/ansible\.cfg|~/\.ansible\.cfg|(.*/)?ansible\.cfg)$"),
     [(re.compile(r"host_key_checking\s*=\s*(false|no|0|off)\b|StrictHostKeyChecking=no", re.IGNORECASE), MEDIUM,
       _WHY + " for every host ansible reaches")], None, ""),
]
_SSH_CLIENTS = {"ssh", "scp", "sftp", "autossh", "mosh", "sshpass", "rsync"}
_FLEET = lazy(r"^(pssh|parallel-ssh|prsync|parallel-scp|pscp\.pssh|pdsh|clush|mussh|sshpt|pdcp|ansible|"
              r"ansible-playbook|parallel)$")
_SSH_VARIABLES = lazy(r"^(GIT_SSH_COMMAND|RSYNC_RSH|ANSIBLE_SSH_ARGS|ANSIBLE_SSH_COMMON_ARGS|"
                      r"SVN_SSH|CVS_RSH|BORG_RSH|RESTIC_SSH_COMMAND)=(.*)$", re.DOTALL)
_HOST_KEY_OFF_VARIABLE = lazy(r"^ANSIBLE_HOST_KEY_CHECKING=[\"']?(false|no|0|off)[\"']?$", re.IGNORECASE)


def _scripted_host(texts: list) -> bool:
    """A host that is a loop's variable (lower case by convention: ``$h``, ``${host}``) or a placeholder
    (``{}``): the line walks a list of hosts.  ``$HOST`` from the environment is one machine."""
    return any(re.search(r"\$\{?[a-z_][a-z0-9_]*\b(?!\})|\$\{[a-z_][a-z0-9_]*\}|\{\}|^%\w*$", t)
               for t in texts if not t.startswith("-"))


_SETTERS = ("export", "setenv", "set", "setx", "declare", "typeset")


@triggered_by(CHECKS_OFF, _SETTERS)
def rule_checks_off(c: Ctx) -> Optional[tuple]:
    p = c.prog.lower()
    joined = " ".join(c.texts)
    if p in _SETTERS:
        for t in c.texts:
            m = _SSH_VARIABLES.match(t)
            if m and CHECKS_OFF.search(m.group(2)) or _HOST_KEY_OFF_VARIABLE.match(t):
                return MEDIUM, f"{_WHY}, for every tool that reads {t.split('=', 1)[0]} ({c.text})"
        return None
    if not CHECKS_OFF.search(joined):
        return None
    if p == "git" and "config" in c.texts[:3]:  # core.sshCommand: every later fetch and push
        return MEDIUM, f"{_WHY}, for every later git fetch and push ({c.text})"
    if _FLEET.match(p):
        return MEDIUM, f"{_WHY}, on every host of the list ({c.text})"
    if p in _SSH_CLIENTS and (c.xargs or _scripted_host([w.raw for w in c.args])):
        return MEDIUM, f"{_WHY}, on every host the script reaches ({c.text})"
    return None

