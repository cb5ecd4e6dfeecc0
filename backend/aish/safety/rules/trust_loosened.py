"""Effect: what the machine trusts loosened by any tool (round 19's trust class, beside ``trust_anchors``).

A root certificate added is ``trust_anchors``; the same trust is given away in other shapes, each the
same for every tool that says it:

* signing keys imported over a plain channel: a key-import word (``--import``, ``--fetch-keys``,
  ``--recv-keys``, ``import``) with an ``http://`` address or a keyserver by a bare IP
  (``rpmkeys --import http://…``, ``gpg --fetch-keys http://…``, ``pacman-key --keyserver hkp://IP``):
  whoever sits on the path chooses which packages verify;
* a package source marked trusted at a plain ``http://`` address (``Set-PSRepository -SourceLocation
  http://… -InstallationPolicy Trusted``, ``Register-PackageSource -Location http://… -Trusted``);
* FIPS mode switched off (``fips-mode-setup --disable``, ``fips=0``, ``FipsAlgorithmPolicy … 0``);
* anonymous access switched on (``anonymousAuthentication … enabled … $true``, ``anonymous_enable=YES``,
  ``--anonymous-auth=true``, ``allow-anonymous true``);
* a file-transfer account whose home is ``/`` (``pure-pw useradd U -d /``, ``ftpasswd --home=/``): it
  reads and writes the whole filesystem.

Keys over https or from a keyserver's name, trusted sources over https, FIPS enabled or checked, anonymous
access switched off and readings stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_GATE = ("http://", "hkp://", "fips", "anonymous", "ftp", "pw")
_KEY_IMPORT = frozenset({"--import", "import", "--fetch-keys", "--fetch-key", "--recv-keys", "--recv-key", "--recv",
                         "-import", "--keyserver", "-keyserver", "adv"})
_PLAIN_KEY_URL = lazy(r"^(?:http://|hkp://\d{1,3}(?:\.\d{1,3}){3}(?:[:/]|$))", re.IGNORECASE)
_TRUSTED = lazy(r"^(?:-+trusted(?::\$?true)?|trusted|\[?trusted=(?:yes|true|1)\]?)$", re.IGNORECASE)
_OFF = frozenset({"--disable", "disable", "-disable", "off", "0", "false", "$false", "no", "disabled"})
_FIPS_OFF = lazy(r"fips[\w.-]*=(?:0|off|false|no)\b", re.IGNORECASE)
_ON = lazy(r"^(?:\$?true|yes|1|on|enabled?)$|[=:](?:\$?true|yes|1|on)$", re.IGNORECASE)
_HOME = frozenset({"-d", "--home", "-home", "--home-dir", "--homedir", "-homedir", "--dir"})
_READS = ("get-", "test-", "show", "list")


@triggered_by(*_GATE, otherwise=False)
def may_loosen_trust(c: Ctx) -> bool:
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _GATE)


def _keys_plain(words: list) -> Optional[str]:
    if not set(words) & _KEY_IMPORT:
        return None
    url = next((w for w in words if _PLAIN_KEY_URL.match(w)), None)
    return url and f"imports signing keys over a plain channel ({url}): whoever is on the path picks the keys " \
        "every package is verified against"


def _trusted_plain(words: list) -> Optional[str]:
    if not any(_TRUSTED.match(w) for w in words):
        return None
    url = next((w for w in words if w.startswith("http://")), None)
    return url and f"marks a package source at a plain address ({url}) trusted: what it serves installs unasked"


def _fips_off(prog: str, words: list) -> Optional[str]:
    said = [prog, *words]
    if any(_FIPS_OFF.search(w) for w in said) or \
            (any("fips" in w for w in said) and set(words) & _OFF and "--check" not in words):
        return "switches FIPS mode off: the machine accepts the ciphers and keys its policy forbade"
    return None


def _anonymous_on(words: list) -> Optional[str]:
    for i, w in enumerate(words):
        if "anonymous" not in w:
            continue
        if any(_ON.search(v) for v in [w, *words[i + 1:i + 6]]) and not any(v in _OFF for v in words[i:]):
            return f"switches anonymous access on ({w}): anyone reaches it without a login"
    return None


def _ftp_home_root(prog: str, words: list) -> Optional[str]:
    if not ("ftp" in prog or prog.endswith("pw") or "ftp" in words):
        return None
    for i, w in enumerate(words):
        key, _, value = w.partition("=")
        if (value == "/" and key in _HOME) or (w in _HOME and i + 1 < len(words) and words[i + 1] == "/"):
            return "gives a file-transfer account / as its home: it reads and writes the whole filesystem"
    return None


def rule_trust_loosened(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if prog.startswith(_READS):
        return None
    words = [t.lower() for t in c.texts[:40]]
    if set(words) & {"--help", "-h", "--status", "status", "--check"}:
        return None
    why = _keys_plain(words) or _trusted_plain(words) or _fips_off(prog, words) or _anonymous_on(words) or \
        _ftp_home_root(prog, words)
    if why is None:
        return None
    return MEDIUM, f"{c.prog} {why} ({c.text})"
