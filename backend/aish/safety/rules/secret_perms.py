"""Effect: a secret made readable by others (``chmod``, ``setfacl``, ``chown``/``chgrp``, ``icacls``).

A private key, a credentials file or ``/etc/shadow`` is safe because only its owner can read it.
A mode, an ACL entry or an owner that lets a group, everyone or a service account read it hands
the secret to them (and ssh refuses a private key others can read).  The reverse, tightening
(``chmod 600 ~/.ssh/id_rsa``, ``chmod 640 /etc/shadow``, ``go-rwx``), is routine and stays quiet:
``perms`` asks :func:`tightens` before it judges a secret's mode as a system file's.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, parse_opts
from aish.safety.lazy_regex import lazy

# The user's own secrets, spelled from home (``~``); the system's, from the root.
_USER_SECRET = lazy(
    r"^~/\.(ssh|gnupg|password-store)/?$|^~/\.ssh/(id_[^/]*(?<!\.pub)|[^/]*\.(pem|key))$|"
    r"^~/\.gnupg/|^~/\.password-store/|^~/\.(netrc|git-credentials|pgpass|my\.cnf|vault-token|pypirc|npmrc|"
    r"docker/config\.json|kube/config|aws/credentials|aws/config|azure/[^/]+|terraform\.d/credentials\.tfrc\.json)$|"
    r"^~/\.config/(gcloud|gh|hub|doctl|op|rclone)(/|$)|^~/\.local/share/keyrings(/|$)")
_SYSTEM_SECRET = lazy(
    r"^(/private)?/etc/(g?shadow-?|master\.passwd|security/opasswd)$|^/etc/ssh/ssh_host_\w+_key$|"
    r"^/etc/(ssl|pki/tls|pki/[\w-]+)/private(/|$)|^/etc/letsencrypt/(live|archive)/.*/privkey[\w.-]*$|"
    r"^/etc/[\w./-]+\.key$|^/etc/(krb5\.keytab|sudoers)$|^/var/lib/[\w./-]+/(private|secrets?)/")
_HASHES = lazy(r"^(/private)?/etc/(g?shadow-?|master\.passwd|security/opasswd)$")
# Groups and accounts that are "everyone" or a service, never a secret's rightful reader.
_BROAD = lazy(r"^(users|everyone|staff|nogroup|nobody|www-data|www|apache|nginx|http|docker|daemon|guest|"
              r"authenticated users|builtin\\users|\*s-1-1-0|\*s-1-5-11|\*s-1-5-32-545)$", re.IGNORECASE)


def secret_kind(path: str) -> str:
    """"user", "system", "hashes" or "" for what losing this file's privacy would cost."""
    p = path.replace("\\", "/")
    if re.search(r"(^|/)id_(rsa|dsa|ecdsa|ed25519)(_sk)?$", p):
        return "user"  # a private key's own name, wherever it lies (`find /home -name id_rsa -exec chmod 644 {} +`)
    p = re.sub(r"^(\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|[A-Za-z]:/Users/[^/]+|/home/[^/]+|"
               r"/Users/[^/]+|/root|/var/root)(?=/|$)", "~", p, flags=re.IGNORECASE)
    p = re.sub(r"/+$", "", p) or p
    if _HASHES.match(p) or re.search(r"(^|/)g?shadow(\.bak|\.old|\.orig|-|~)$", p):
        return "hashes"
    if re.match(r"^([a-z]:|%programdata%)/programdata/ssh/ssh_host_\w+_key$|^%programdata%/ssh/ssh_host_\w+_key$", p,
                re.IGNORECASE) or re.search(r"(^|/)id_(rsa|dsa|ecdsa|ed25519)(_sk)?$", p):
        return "system" if "ssh_host_" in p else "user"
    if _SYSTEM_SECRET.match(p):
        return "system"
    return "user" if _USER_SECRET.match(p) else ""


def _clauses(mode: str) -> list:
    """``u=rw,go=`` -> [("u", "=", "rw"), ("go", "=", "")]."""
    return re.findall(r"([ugoa]*)([-+=])([rwxXst]*|[ugo])", mode)


def gives_others(mode: str, kind: str) -> str:
    """What ``chmod MODE`` gives readers other than the owner on a secret of this kind, or ""."""
    if re.fullmatch(r"0?[0-7]{3,4}", mode):
        group, other = int(mode[-2]), int(mode[-1])
        if other & 6:
            return "everyone"
        if group & 2 or group & 4 and kind == "user":
            return "its group"
        return ""
    given = ""
    for who, op, perms in _clauses(mode):
        if op == "-" or not set(perms) & set("rw"):
            continue
        who = who or "a"
        if set(who) & {"o", "a"}:
            return "everyone"
        if "g" in who and ("w" in perms or kind == "user"):
            given = "its group"
    return given


def tightens(mode: str, path: str) -> bool:
    """Does ``chmod MODE`` on this secret keep it from others (``600``, ``go-rwx``, ``u=rw,go=``)?"""
    kind = secret_kind(path)
    if not kind or not mode or gives_others(mode, kind):
        return False
    if re.fullmatch(r"0?[0-7]{3,4}", mode):
        return bool(int(mode[-3]) & 4)  # the owner still reads it (`chmod 000 /etc/shadow` breaks logins)
    return bool(re.fullmatch(r"([ugoa]*[-+=][rwxXst]*,?)+", mode)) and not re.search(r"[ua]*u[ugoa]*-[rwx]*r", mode)


def _finding(kind: str, path: str, who: str, c: Ctx) -> tuple:
    level = HIGH if kind == "hashes" else MEDIUM
    what = "the password hashes" if kind == "hashes" else "a private key or credentials"
    return level, f"lets {who} read {what} in {path} ({c.text})"


def rule_secret_perms(c: Ctx) -> Optional[tuple]:
    p = c.prog.lower()
    if p == "icacls":
        return _icacls(c)
    valued = frozenset({"-m", "-M", "-x", "-X", "--modify"} if p == "setfacl" else {"--reference", "--from"})
    flags, values, pos = parse_opts(c.args, valued)
    if p == "chmod" and c.args and re.fullmatch(r"-[rwxXst]+", c.args[0].text):
        pos = [c.args[0]] + pos
    if p == "setfacl":
        entries = values.get("-m") or values.get("--modify") or ""
        for w in pos:
            kind = secret_kind(w.text)
            for entry in entries.split(","):
                parts = entry.split(":")
                if kind and len(parts) >= 2 and re.search(r"[rw]", parts[-1]) and not (
                        parts[0] in ("u", "user") and parts[1] in ("", "root")):
                    who = "everyone" if parts[0] in ("o", "other") else (parts[1] or "its group")
                    return _finding(kind, w.text, who, c)
        return None
    if not pos:
        return None
    spec, targets = pos[0].text, pos[1:]
    for w in targets:
        kind = secret_kind(w.text)
        if not kind:
            continue
        if p == "chmod":
            who = gives_others(spec, kind)
            if who:
                return _finding(kind, w.text, who, c)
        else:  # chown OWNER[:GROUP], chgrp GROUP
            owner, _, group = spec.partition(":") if p == "chown" else ("", "", spec)
            owner = owner.split(".", 1)[0]
            if kind != "user" and owner and owner not in ("root", "0") and not owner.startswith("$"):
                return _finding(kind, w.text, owner, c)
            if group and _BROAD.match(group):
                return _finding(kind, w.text, f"the group {group}", c)
    return None


def _icacls(c: Ctx) -> Optional[tuple]:
    raws = [w.raw.strip("'\"") for w in c.args]  # the shell's reading would eat the backslashes
    for k, t in enumerate(raws):
        if t.lower().startswith("/grant") and k + 1 < len(raws):
            grantee = raws[k + 1].split(":", 1)[0]
            kind = secret_kind(raws[0])
            if kind and _BROAD.match(grantee):
                return _finding(kind, raws[0], grantee, c)
    return None


RULES = {"chmod": [rule_secret_perms], "chown": [rule_secret_perms], "chgrp": [rule_secret_perms],
         "setfacl": [rule_secret_perms], "icacls": [rule_secret_perms]}


# Directories a web server hands to anyone who asks.
_SERVED = lazy(r"^(/var/www|/srv/www|/srv/http|/usr/share/nginx/html|/var/lib/nginx/html|/usr/local/www|"
               r"/Library/WebServer/Documents|/opt/lampp/htdocs|[A-Za-z]:[\\/]inetpub[\\/]wwwroot|"
               r"~/public_html|/home/[^/]+/public_html)(/|$)", re.IGNORECASE)


def rule_secret_served(c: Ctx) -> Optional[tuple]:
    """``cp ~/.ssh/id_rsa /var/www/html/``: a key put where a web server hands it to anyone."""
    operands = [w for w in c.args if not w.text.startswith("-")]
    if len(operands) < 2 or not _SERVED.match(operands[-1].text):
        return None
    for w in operands[:-1]:
        kind = secret_kind(w.text)
        if kind:
            return HIGH, f"puts {w.text} where a web server hands it to anyone ({c.text})"
    return None


def secret_redirected_to_served(seg, files: list) -> Optional[tuple]:
    """``cat /etc/shadow > /var/www/html/s.txt``: a secret printed into a served directory (read by ``meaning``
    with the files the segment writes)."""
    served = [path for path, _ in files if _SERVED.match(path)]
    if served and any(secret_kind(w.text) for w in seg.words[1:] if not w.text.startswith("-")):
        return HIGH, f"puts a secret where a web server hands it to anyone ({served[0]})"
    return None


for _p in ("cp", "mv", "ln", "install", "rsync"):
    RULES.setdefault(_p, []).append(rule_secret_served)
