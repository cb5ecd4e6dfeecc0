"""Effect: what a thing set to start by itself runs, when it is what an intruder leaves behind to come back.

Starting a program by itself is everyday (a backup at night, an agent at logon); what no installer or setup guide
keeps in a start is a way back in: a shell handed to another machine or a listener (``nc -e``, ``/dev/tcp``,
``socat … exec:``, a ``TCPClient`` loop), a script fetched and run (``curl … | sh``, ``iex`` of a web client's
string, ``mshta http:…``), a command hidden in base64 (``powershell -enc …``, ``base64 -d | sh``), an account
made (``net user x /add``, ``useradd``, ``New-LocalUser``, ``dscl . -create /Users/x``, ``sysadminctl
-addUser``) or given an administrator's rights (``net localgroup administrators x /add``, ``usermod -aG
sudo``, ``Add-LocalGroupMember -Group Administrators``, ``dscl . -append /Groups/admin``, a sudoers grant, a
second user id 0).  ``payload`` reads a kept command for those, whichever launcher kept it (registry Run keys,
tasks, services, WMI consumers, timers, ``at``, login hooks: ``autostart_writable``; crontabs, units, start-up
files, udev, apt hooks: ``meaning``'s run files).  High for a shell, a download run, an administrator or a second
root (access is gained each time it starts); medium for a hidden command or an ordinary account.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM

_SHELL_OUT = lazy(
    r"(?i)/dev/(tcp|udp)/|\b(nc|ncat|netcat|nc64|pwncat|sbd|cryptcat)(\.exe)?['\"]?\s[^|;&]*?(?<=\s)-[a-z]*[ec]\s|"
    r"\bsocat\b[^|;&]*\b(exec|system):|net\.sockets\.tcp(client|listener)|\bfsockopen\s*\(|\btcpsocket\.(new|open)|"
    r"\bio::socket::inet\b|socket\.socket\(.*(subprocess|pty\.spawn|dup2)|\bmkfifo\b.*\b(nc|ncat|telnet)\b")
_DOWNLOAD_RUN = lazy(
    r"(?i)\b(curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|;&]*\|\s*(sudo\s+)?(\S*/)?"
    r"((ba|z|da|k|fi)?sh|python3?|perl|ruby|php|node|iex|invoke-expression)\b|"
    r"\b(iex|invoke-expression)\b.*\b(downloadstring|downloaddata|iwr|irm|invoke-webrequest|invoke-restmethod|"
    r"net\.webclient)\b|\bmshta(\.exe)?['\"]?\s+['\"]?(https?|vbscript|javascript):|"
    r"\bregsvr32(\.exe)?\b.*/i:['\"]?https?:|\brundll32(\.exe)?\b.*\bjavascript:|"
    r"\b(ba|z|da)?sh\s+(-c\s+['\"]?\$\(|<\(\s*)(curl|wget)\b")
_ENCODED = lazy(
    r"(?i)\b(powershell|pwsh)(\.exe)?['\"]?\s(.*?\s)??[-/]e(c|n|nc|nco|ncod|ncode|ncoded|ncodedc[a-z]*)?\s+['\"]?"
    r"[a-z0-9+/]{8,}={0,2}|\bfrombase64string\s*\(.*\b(iex|invoke-expression)\b|"
    r"\b(iex|invoke-expression)\b.*\bfrombase64string\b|"
    r"\bbase64\s+(-d|--decode|-D)\b[^|;&]*\|\s*(sudo\s+)?(\S*/)?((ba|z|da)?sh|python3?|perl)\b")
_SECOND_ROOT = lazy(r"(?i)\b(useradd|usermod|adduser|luseradd)\b.*\s(-[a-z]*u|--uid)[\s=]*0+\b|"
                    r"\bdscl\b.*\buniqueid\s+0+\b")
_ADMIN_GIVEN = lazy(
    r"(?i)\bnet1?(\.exe)?\s+(localgroup\s+['\"]?(administrators|administrateurs|administratoren|"
    r"remote desktop users)|group\s+['\"]?(domain|enterprise|schema) admins)\b.*\s/add\b|"
    r"\badd-(localgroupmember|adgroupmember)\b.*\b(administrators|domain admins|enterprise admins)\b|"
    r"\b(usermod|useradd|adduser)\b.*\s(-[a-z]*G|--groups)[\s=]+\S*\b(sudo|wheel|admin|root)\b|"
    r"\bgpasswd\s+-a\s+\S+\s+(sudo|wheel|admin)\b|\badduser\s+\S+\s+(sudo|wheel|admin)\s*$|"
    r"\bdscl\s+\S+\s+-(append|merge)\s+/groups/(admin|wheel)\b|\bdseditgroup\b.*\s(admin|wheel)\b|"
    r"\bsysadminctl\s+-adduser\b.*\s-admin\b|\bnopasswd\s*:|\ball\s*=\s*\(all(\s*:\s*all)?\)\s*all\b")
_ACCOUNT_MADE = lazy(
    r"(?i)\bnet1?(\.exe)?\s+user\s+(/add\s+)?\S+(\s+\S+)?\s+/add\b|"
    r"\b(useradd|adduser|luseradd|new-localuser|new-aduser)\b|\bsysadminctl\s+-adduser\b|"
    r"\bdscl\s+\S+\s+-create\s+['\"]?/users/|\bpw\s+useradd\b|\bdsadd\s+user\b")
# (pattern, level, what the start does each time) in the order a reason names them.
_PAYLOADS = (
    (_SHELL_OUT, HIGH, "hands a shell to another machine"),
    (_DOWNLOAD_RUN, HIGH, "runs a script fetched from the network"),
    (_SECOND_ROOT, HIGH, "makes a second root account"),
    (_ADMIN_GIVEN, HIGH, "gives an account an administrator's rights"),
    (_ENCODED, MEDIUM, "runs a command hidden in base64"),
    (_ACCOUNT_MADE, MEDIUM, "makes an account"),
)


def payload(command: str) -> Optional[tuple]:
    """(level, what it does) when ``command``, kept to start by itself, is a way back in; None otherwise."""
    for pattern, level, what in _PAYLOADS:
        if pattern.search(command):
            return level, what
    return None
