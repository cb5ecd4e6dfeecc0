"""Effect: an account's login shell taken away or its password emptied, by any account tool.

``usermod``, ``chsh`` and ``passwd`` have rules of their own.  The BSDs' ``chpass``, first-boot and
image tools, libuser's and directory tools say the same in options a program no rule names shares:

- a shell that refuses logins given to root or an administrator (``chpass -s /sbin/nologin root``,
  ``systemd-firstboot --root-shell=/usr/sbin/nologin``, ``pw usermod root -s /usr/sbin/nologin``): nobody
  can become that user any more;
- an empty password set (``chpass -p '' toor``, ``systemd-firstboot --root-password=''``,
  ``--password=""``): anyone logs in as that user without one;
- a password-file line fed to a tool (``printf 'root:toor:0:0:…' | newusers``) or an ``EDITOR`` that
  rewrites the file for ``vipw``/``vigr`` (``EDITOR='sed -i s/^root:x:/root::/' vipw``): root's entry
  replaced or its password removed.

A user's own shell changed to another real shell, and reading accounts, stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.triggers import triggered_by

_NOLOGIN = LazyRegex(r"^(/usr)?(/s?bin)?/(nologin|false)$|^/sbin/noshell$")
_ADMIN = LazyRegex(r"^(root|toor|admin|administrator|[\w.-]*admin)$", re.IGNORECASE)
_SHELL_OPTIONS = frozenset({"-s", "--shell", "--root-shell", "-shell", "--login-shell", "--loginshell"})
_PASSWORD_OPTIONS = frozenset({"-p", "--password", "--root-password", "-password", "--passwd", "--root-passwd",
                               "--new-password", "--plain-password"})
_PASSWD_LINE = LazyRegex(r"(^|[\s'\"])(root|toor|[\w.-]+):(:|[^:\s]*:0:0:)")
_VIPW = frozenset({"vipw", "vigr", "vipw.bin", "vifs"})
_SETTING_PASSWORD = frozenset({"--root-password", "--root-passwd", "--new-password", "--set-password"})
_ACCOUNT_TOOL = LazyRegex(r"^(ch|l|mk)?(pass|passwd|user|usermod|useradd|account|pw)$|firstboot|^chpass|^pw$|"
                          r"user(mod|add|adm)", re.IGNORECASE)
_FED_TOOL = LazyRegex(r"user|passw|chpass|shadow")
_WORDS = ("nologin", "/false", "noshell", "passw", "-p", "root:", "vipw", "vigr", "toor:")


@triggered_by(_WORDS, otherwise=False)
def may_change(c: Ctx) -> bool:
    """Cheap: the program is an account-file editor, or has words after its name."""
    line = c.prog.lower() + " " + c.lowered
    return (bool(c.texts) or c.prog in _VIPW) and any(w in line for w in _WORDS)


def fed_account_tool(c: Ctx) -> bool:
    """Cheap: an account tool (by its name) with something piped into it; its feeder is not in the line."""
    return bool(c.chain) and _FED_TOOL.search(c.prog) is not None


def _value(texts: list, names: frozenset) -> Optional[str]:
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if eq and name in names:
            return value
        if t in names and k + 1 < len(texts):
            return texts[k + 1]
    return None


def rule_login_value(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    if c.prog in _VIPW:
        editor = next((w.text.split("=", 1)[1] for w in c.seg.words if w.text.startswith(("EDITOR=", "VISUAL="))),
                      "")
        if _PASSWD_LINE.search(editor) or re.search(r"(^|\s)-(i|pi|p?i\S*)(\s|$)", editor):  # sed -i, perl -pi
            return HIGH, f"{c.prog} with EDITOR={editor!r}: the account file is rewritten unseen ({c.text})"
        return None
    shell = _value(texts, _SHELL_OPTIONS)
    operands = [t for t in texts if not t.startswith("-")]
    root = "root" in c.prog or any(_ADMIN.match(t) for t in operands) or \
        any(t.startswith("--root-shell") for t in texts)
    if shell and _NOLOGIN.match(shell.strip("'\"")) and root:
        return HIGH, f"{c.prog} gives an administrator the shell {shell}: nobody can log in as it ({c.text})"
    password = _value(texts, _PASSWORD_OPTIONS)
    setter = any(t.split("=", 1)[0] in _SETTING_PASSWORD for t in texts) or _ACCOUNT_TOOL.search(c.prog)
    if password is not None and password.strip("'\"") == "" and setter:
        return HIGH, f"{c.prog} sets an empty password: anyone logs in without one ({c.text})"
    fed = " ".join(w.text for seg in c.chain for w in seg.words)
    if fed and _PASSWD_LINE.search(fed) and c.chain[-1].words[0].text in ("printf", "echo") and \
            _FED_TOOL.search(c.prog):
        return HIGH, f"{c.prog} is fed an account line for an administrator: its entry is replaced ({c.text})"
    return None
