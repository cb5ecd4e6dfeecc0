"""Effect: a credential store's file copied away, by any program (issue 23: a credential store harvested).

Where credentials are kept is known by path on every system, whatever program touches it:

- the machine's or many people's secrets (high): ``/etc/shadow``, ``master.passwd``, ``/etc/krb5.keytab``,
  Windows' SAM, SYSTEM and SECURITY hives (``System32\\config``, ``RegBack``, a shadow copy's path, ``sam.save``),
  ``ntds.dit``, an ``lsass`` dump, macOS' ``System.keychain`` and ``dslocal`` users, SSSD's cached domain
  logins, Samba's ``secrets.tdb``;
- one user's store (medium): a browser's ``Login Data``, ``Cookies``, ``Local State``, Firefox's ``logins.json``
  and ``key4.db``, DPAPI's ``Microsoft\\Protect``/``Credentials``/``Vault``, keychains, Kerberos ticket caches
  (``krb5cc_*``, ``.kirbi``, ``.ccache``) and keytabs, password managers' databases (``.kdbx``, ``.opvault``),
  GNOME keyrings and KWallet, Wi-Fi profiles with their keys.

"Copied away" is the store read as a source and written elsewhere: a copier's or archiver's destination
(``cp``, ``robocopy``, ``esentutl /y … /d``, ``dd if= of=``, ``tar c``, ``Compress-Archive``, any program whose
name or verb copies, extracts or backs up), an output option, a redirect of what a reader printed (``base64
/etc/shadow > x``), or a pipe into ``tee``.  A machine store copied anywhere but beside itself (``cp /etc/shadow
/etc/shadow.bak`` stays quiet) is high; one user's store copied to a temporary, public, shared or removable place
is medium (into their own home: a backup, quiet; packed into an archive anywhere: made to be carried off, medium).
Directories holding stores (``/etc``, the home) copied whole
are backups and stay quiet.
"""
from __future__ import annotations

import posixpath
import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_MACHINE = lazy(
    r"(?:^|/)etc/(?:g?shadow|master\.passwd|spwd\.db|security/passwd|krb5\.keytab)$|"
    r"(?:system32/config|/repair|regback)/(?:sam|system|security)$|ntds\.dit$|/windows/ntds/?$|"
    r"harddiskvolumeshadowcopy\d+/windows/(?:ntds|system32/config)|"
    r"(?:^|/)(?:sam|system|security)\.(?:save|hiv|hive|sav)$|(?:^|/)lsass[\w.-]*\.(?:dmp|dump|mdmp)$|"
    r"/library/keychains/system\.keychain$|/var/db/systemkey$|/var/db/dslocal/nodes/[^/]+/users(?:/|$)|"
    r"/var/lib/sss/db/cache_[^/]*\.ldb$|/samba/private/(?:secrets|passdb)\.tdb$")
_USER = lazy(
    r"(?:^|/)(?:login data(?: for account)?|web data|local state)$|/(?:default|profile \d+|network)/cookies$|"
    r"(?:^|/)(?:logins\.json|key[34]\.db|signons\.sqlite|cookies\.sqlite|cookies\.binarycookies)$|"
    r"/microsoft/(?:protect|credentials|vault)(?:/|$)|(?:^|/)[\w.-]+\.keychain(?:-db)?$|/library/keychains/?$|"
    r"(?:^|/)krb5cc[\w.-]*$|\.kirbi$|\.ccache$|\.keytab$|\.(?:kdbx|kdb|psafe3|opvault|agilekeychain|1pux|1pif)$|"
    r"/keyrings/[^/]+\.keyring$|(?:^|/)\.password-store/?$|(?:^|/)private-keys-v1\.d(?:/|$)|\.kwl$|wlansvc/profiles(?:/|$)|networkmanager/system-connections(?:/|$)|"
    r"/wpa_supplicant[\w.-]*\.conf$|/var/lib/iwd(?:/|$)|/\.aws/credentials$|/gcloud/(?:credentials|access_tokens)\.db$|"
    r"/\.azure/(?:accesstokens\.json|msal_token_cache\.\w+)$")
# Words one of which every store's path holds (the reading's trigger: a necessary condition).
_STORE_WORDS = frozenset({"shadow", "master.passwd", "spwd.db", "/security", "\\security", "security.", "keytab",
                          "/sam", "\\sam", "sam.", "/system", "\\system", "system.", "ntds", "lsass",
                          "keychain", "systemkey", "dslocal", "cache_", "secrets.tdb", "passdb.tdb", "login data",
                          "web data", "local state", "cookies", "logins.json", "key3.db", "key4.db", "signons",
                          "microsoft", "krb5cc", "kirbi", "ccache", ".kdb", "psafe3", "opvault", "1pux", "1pif",
                          "keyring", ".kwl", "password-store", "private-keys-v1", "wlansvc", "system-connections",
                          "wpa_supplicant", "iwd", "credentials",
                          "access_tokens", "accesstokens", "msal_token_cache"})
_WINDOWS = lazy(r"^(?:[-/]\w+[:=])?([a-z]:|%\w+%|\$env:|\\\\|\.\\|\\\\\?\\)|^[\w.-]+\\", re.IGNORECASE)


def path_of(raw: str, text: str) -> str:
    """A word as a lowered path with ``/`` between its parts (a Windows path as typed, its backslashes turned)."""
    raw = raw.strip("'\"")
    if "\\" in raw and _WINDOWS.match(raw) and "\\ " not in raw:
        return raw.replace("\\", "/").lower()
    return text.lower()


def store_level(path: str) -> int:
    """HIGH for a store of the machine's or many people's secrets, MEDIUM for one user's, 0 for neither."""
    if _MACHINE.search(path):
        return HIGH
    return MEDIUM if _USER.search(path) else 0


def operand_paths(c: Ctx) -> list:
    """(index, path) of each argument, and of an option's value given in the same word (``if=F``, ``/in:F``)."""
    found = []
    for k, w in enumerate(c.args):
        path = path_of(w.raw, w.text)
        if "=" in path[:24] and not path.startswith(("/", ".", "~")) or path.startswith("-") and "=" in path:
            path = path.split("=", 1)[1]
        elif re.match(r"^[/-]\w+:.", path):
            path = path.split(":", 1)[1]
        found.append((k, path))
    return found


_COPIERS = frozenset({"cp", "gcp", "copy", "xcopy", "robocopy", "copy-item", "cpi", "mv", "move", "move-item", "mi",
                      "rsync", "scp", "install", "ditto", "esentutl", "rclone", "gio", "pscp", "expand", "extrac32",
                      "makecab", "print", "replace", "certutil", "dd", "dcfldd", "tee", "hobocopy",
                      "rawcopy", "ninjacopy", "invoke-ninjacopy", "vshadow", "bcp", "cpio", "pax"})
_ARCHIVERS = frozenset({"tar", "bsdtar", "gtar", "zip", "7z", "7za", "7zr", "rar", "jar", "compress-archive", "hdiutil",
                        "zstd", "gzip", "bzip2", "xz", "lz4", "pigz", "ouch", "atool", "apack"})
_COPY_NAME = lazy(r"copy|cp$|backup|extract|grab|steal|collect|harvest|loot|exfil|snatch|sync$", re.IGNORECASE)
_COPY_VERBS = frozenset({"cp", "copy", "get", "download", "export", "extract", "backup", "save", "pull", "put",
                         "upload", "collect", "push", "send", "store"})
_OUT_OPTION = lazy(r"^(?:--?(?:o|out|output|outfile|output-?file|outputfile|dest|destination|destinationpath|target|"
                   r"targetpath|to|save|save-?to|w|backuptarget|localdestination)|/(?:d|o|out|dest))$", re.IGNORECASE)
# Programs that read a file's name, metadata or checksum, not what it holds.
_METADATA = frozenset({"ls", "dir", "stat", "file", "getfacl", "icacls", "cacls", "attrib", "lsattr", "du", "wc",
                       "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "find", "test", "[", "echo",
                       "printf", "namei", "realpath", "readlink", "klist", "get-acl", "get-item", "gi",
                       "get-childitem", "gci", "get-filehash", "chmod", "chown", "chgrp", "chattr",
                       "setfacl", "takeown", "ln", "touch", "rm", "shred", "srm", "del", "erase", "remove-item"})
_NOT_A_FILE = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "-", "nul", "$null", "&1", "&2"})
# A temporary, public, shared or removable place, another machine, or a web root: where one user's store is carried.
_AWAY = lazy(r"^(?:/tmp/|/var/tmp/|/dev/shm/|/private/tmp/|\$tmpdir|\$\{tmpdir|\$env:te?mp|%te?mp%|[a-z]:/(?:windows/)?"
             r"te?mp/|[a-z]:/users/public/|/users/shared/|[a-z]:/programdata/|//|/mnt/|/media/|/volumes/|/run/media/|"
             r"/var/www/|/srv/|[a-z][\w.-]*@|[a-z][\w.-]*:(?!/)|[a-z]+://|[d-z]:/)|(?:^|/)(?:temp|tmp)/")


@triggered_by(_STORE_WORDS)
def rule_store_copied(c: Ctx) -> Optional[tuple]:
    """A store named as a source, and a destination elsewhere for what is read from it."""
    line = c.lowered
    if not any(word in line for word in _STORE_WORDS):
        return None  # (one search: a line of thousands of words wakes every rule)
    paths = operand_paths(c)
    stores = [(k, p, store_level(p)) for k, p in paths if not p.startswith("-") or "=" in p]
    stores = [(k, p, level) for k, p, level in stores if level]
    if not stores:
        return None
    k, store, level = stores[0]
    prog = c.prog.lower().removesuffix(".exe")
    if prog in _METADATA:
        return None
    dest = _destination(c, prog, paths, k)
    if dest is None or dest in _NOT_A_FILE or store_level(dest) and dest.rstrip("/") == store.rstrip("/"):
        return None
    if dest.startswith(store) or posixpath.dirname(dest) == posixpath.dirname(store) and "/" in store:
        return None  # `cp /etc/shadow /etc/shadow.bak`: a copy kept beside it
    packed = prog in _ARCHIVERS or prog == "ditto" and "-c" in c.texts
    if level < HIGH and not packed and not _AWAY.search(dest):
        return None  # one user's store copied within their own home: a backup (packed into one file: to carry off)
    kind = "the machine's password or key store" if level == HIGH else "a user's saved passwords, cookies or tickets"
    return level, f"{c.prog} copies {kind} ({store.rsplit('/', 1)[-1] or store}) to {dest} ({c.text})"


def fed_to_file(c: Ctx) -> bool:
    """Is this command fed by a pipe and writing what it reads to a file (``… | tee F``, ``… | base64 > F``)?"""
    return bool(c.chain) and (c.prog == "tee" or any(r.op in _WRITES for r in c.seg.redirects))


def rule_store_piped_away(c: Ctx) -> Optional[tuple]:
    """A store read by a command that pipes it into one writing a file (``cat /etc/shadow | gzip > /tmp/s.gz``)."""
    if c.prog.lower() in _METADATA or c.prog.lower() in ("sort", "uniq", "cut"):
        return None  # a count, a checksum or a listing of it
    found = [(store_level(path_of(w.raw, w.text)), w.text) for seg in c.chain if seg.words and
             seg.words[0].text.rsplit("/", 1)[-1].lower() not in _METADATA for w in seg.words[1:]]
    level, store = max(found, default=(0, ""))
    if not level:
        return None
    texts = [t for t in c.texts if not t.startswith("-")]
    target = next((r.target for r in c.seg.redirects if r.op in _WRITES and r.target is not None), None)
    dest = (texts[0].lower() if texts else "") if c.prog == "tee" else \
        path_of(target.raw, target.text) if target is not None else ""
    if not dest or dest in _NOT_A_FILE or level < HIGH and not _AWAY.search(dest):
        return None
    kind = "the machine's password or key store" if level == HIGH else "a user's saved passwords, cookies or tickets"
    return level, f"{kind} ({store.rsplit('/', 1)[-1]}) read into a pipe and written to {dest} ({c.text})"


_WRITES = frozenset({">", ">>", ">|", "1>", "1>>", "&>", "&>>"})


def _destination(c: Ctx, prog: str, paths: list, at: int) -> Optional[str]:
    for red in c.seg.redirects:
        if red.op in _WRITES and red.target is not None:
            return path_of(red.target.raw, red.target.text)
    texts = c.texts
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=" if "=" in t or not t.startswith(("-", "/")) else ":")
        if _OUT_OPTION.match(name) and (eq or k + 1 < len(texts)):
            return value.lower() if eq else paths[k + 1][1]
        if prog in ("dd", "dcfldd") and name == "of" and eq:
            return value.lower()
    operands = [(k, p) for k, p in paths if not texts[k].startswith("-") and not re.match(r"^/\w", texts[k])
                or k == at or p.startswith("/") and "/" in p[1:]]
    if prog in _ARCHIVERS:
        return _archive(prog, texts, operands, at)
    copier = prog in _COPIERS or _COPY_NAME.search(prog) or any(t.lower() in _COPY_VERBS for t in texts[:3])
    after = [p for k, p in operands if k > at]
    if copier and after and prog not in ("tee",):
        return after[-1]
    if prog == "robocopy" and len(operands) > 2:
        return operands[1][1]  # `robocopy SRC DEST FILE`
    if prog == "tee" and operands:
        return operands[0][1]
    return None


def _archive(prog: str, texts: list, operands: list, at: int) -> Optional[str]:
    """The archive a store is packed into (creation only: an extraction or a listing writes no archive of it)."""
    first = texts[0].lower() if texts else ""
    creating = {"tar": lambda: "c" in first.lstrip("-") and not first.startswith("--") or "--create" in texts,
                "zip": lambda: True, "jar": lambda: "c" in first, "compress-archive": lambda: True,
                "hdiutil": lambda: "create" in texts}
    if prog in ("bsdtar", "gtar"):
        prog = "tar"
    if prog in ("7z", "7za", "7zr", "rar", "ouch", "atool", "apack"):
        ok = first in ("a", "u", "compress", "-a") or prog == "apack"
    elif prog in ("zstd", "gzip", "bzip2", "xz", "lz4", "pigz"):
        ok = False  # only through a redirect (read above) or -o
    else:
        ok = creating.get(prog, lambda: False)()
    if not ok:
        return None
    if prog == "tar":
        named = [texts[k + 1] for k, t in enumerate(texts[:-1])
                 if t == "-f" or not t.startswith("--") and k == 0 and "f" in t] + \
            [t.split("=", 1)[1] for t in texts if t.startswith("--file=")]
        return named[0].lower() if named else "an archive"
    names = [p for k, p in operands if k != at and p not in ("a", "u", "create", "compress")]
    return names[0] if names else "an archive"
