"""Effect: a credential store dumped or decrypted in clear, by any program (issue 23: a credential store harvested).

``secrets_dumped`` knows dumpers by name; what they do has words of its own, whatever the program is called:

- a credential module's command (``sekurlsa::``, ``lsadump::``, ``dpapi::cred``/``masterkey``/``chrome``,
  ``vault::cred``, ``ts::logonpasswords``, ``kerberos::list /export``, ``crypto::certificates /export``) in
  mimikatz, a renamed build, ``Invoke-Mimikatz -Command``, a C2's ``mimikatz`` verb or a loader: high for the
  machine's memory and hives, medium for one user's store; listing (``/list``) and ``dpapi::protect`` stay quiet;
- a hive read offline with its key: the SAM, SECURITY or ntds.dit named with the SYSTEM hive or a boot key
  (``samdump2 SYSTEM SAM``, ``-sam S -system Y``, ``-ntds F -bootkey K``), macOS' ``ShadowHashData``, every account's
  hash joined for cracking (``unshadow``, ``getent shadow`` into a file): high;
- the OS's own store tools asked to decrypt everything (``security dump-keychain -d``, a browser's "Safe Storage" key
  shown with ``-w``/``-g``; the domain's DPAPI backup key taken (``backupkeys --export``, ``/backupkey``); ``netsh
  wlan export profile key=clear`` for every profile, ``show profile * key=clear``),
  Kerberos keys shown (``klist -K`` of a keytab) or tickets harvested (``kerberoast``, ``asreproast``, ``tgtdeleg``,
  ``Rubeus dump``/``harvest``/``monitor``, ``GetUserSPNs -request``), a password manager's export in clear
  (``lpass export``, ``bw export`` but ``--format encrypted_json``, ``keepassxc-cli export``);
- a browser's or DPAPI's store read into code that decrypts it (``CryptUnprotectData``, ``ProtectedData]::Unprotect``,
  ``win32crypt``, ``PK11SDR_Decrypt``, ``encrypted_key``) or into a database shell or interpreter (``sqlite3 "Login
  Data"``, ``python3 … key4.db``): medium, high where code decrypts.

One entry the user asks for (``security find-generic-password -s github -w``, ``netsh wlan show profile home
key=clear``, ``pass show x``, ``bw get password x``), listings (``klist``, ``cmdkey /list``, ``vault::list``) stay
quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.stores_copied import operand_paths, store_level
from aish.safety.rules.triggers import triggered_by

_MODULE = lazy(r"(?<![\w:])(sekurlsa|lsadump|dpapi|vault|kerberos|crypto|ts|tgt)::(\w+)", re.IGNORECASE)
_MACHINE_MODULES = frozenset({"sekurlsa", "lsadump", "ts"})
_AUTH_PATCHES = frozenset({"setntlm", "changentlm", "zerologon", "postzerologon", "dcshadow"})
_EXPORTS = frozenset({"/export", "-export", "--export"})
# Hives read offline: the SAM, SECURITY or the domain database, and the SYSTEM hive (or a boot key) that unlocks them.
_HIVE = lazy(r"(?:^|/|-)(sam|security|ntds|system)(?:\.(?:save|hiv|hive|sav|bak|dit))?$")
_SYSTEM_DIRS = lazy(r"^/(?:etc|sys|usr|lib|proc|run|var/lib)/|systemd")
_HIVE_OPTIONS = lazy(r"^--?(sam|security|system|ntds|bootkey|boot-?key|systemhivepath|ntds-?file)$", re.IGNORECASE)
_LISTERS = frozenset({"ls", "dir", "icacls", "cacls", "attrib", "stat", "file", "get-acl", "get-childitem", "gci",
                      "takeown", "vssadmin", "reg", "echo", "printf", "sam"})
_DECRYPT_CODE = lazy(r"cryptunprotectdata|protecteddata\]?::unprotect|protecteddata\.unprotect|win32crypt|"
                     r"pk11sdr_decrypt|encrypted_key|os_crypt|unprotect_data|dpapi\.unprotect", re.IGNORECASE)
_CODE_READERS = lazy(r"^(?:sqlite\d?|litecli|sqlitebrowser|python[\d.]*|py|pypy\d?|node|deno|bun|ruby|perl|php[\d.]*|"
                     r"pwsh|powershell|osascript|lua[\d.]*|jq)(?:\.exe)?$", re.IGNORECASE)
# A store named inside code (no operand of its own), and the stores a database shell or interpreter reads.
_IN_CODE = lazy(r"login data|logins\.json|key[34]\.db|local state|/microsoft/(?:protect|credentials|vault)/|\.keychain")
_READ_STORES = lazy(r"login data|logins\.json|key[34]\.db|signons|cookies|local state|web data|keychain|/microsoft/|"
                     r"credentials\.db|access_tokens\.db|msal_token_cache")
_BROWSER = lazy(r"^(?:google )?(?:chrome|chromium|brave|microsoft edge|edge|opera|vivaldi|arc|yandex)$")
_CRACKERS = frozenset({"john", "hashcat", "johnny", "ophcrack", "rcrack", "rcracki_mt", "samdump", "hashcat.bin"})
_ROAST = lazy(r"kerberoast|asreproast|tgtdeleg|spnroast", re.IGNORECASE)
_RUBEUS_VERBS = frozenset({"dump", "harvest", "monitor", "tgtdeleg", "kerberoast", "asreproast"})
_MANAGERS = frozenset({"lpass", "bw", "bitwarden", "keepassxc-cli", "kpcli", "keeper", "dcli", "enpass-cli", "op",
                       "passbolt", "psono", "rbw", "gopass", "nordpass", "roboform", "proton-pass", "pass-cli"})
_ENCRYPTED = lazy(r"encrypted|\.gpg$|\.age$|^--?(?:password|encrypt)", re.IGNORECASE)


class _Gate:
    """A rule's trigger words looked for in the whole line (a line of thousands of words wakes every rule)."""

    def __init__(self, words: frozenset) -> None:
        self.words = tuple(words)

    def search(self, line: str) -> bool:
        return any(word in line for word in self.words)


def _line(c: Ctx) -> str:
    return c.prog.lower() + " " + c.lowered


_HIVE_WORDS = frozenset({"system", "bootkey", "boot-key", "shadowhashdata"})
_TOOL_WORDS = frozenset({"unshadow", "getent", "dump-keychain", "find-generic-password", "find-internet-password",
                         "key=clear", "backupkey", "secret-tool", "john", "hashcat", "ophcrack", "rcrack"})
_TICKET_WORDS = frozenset({"klist", "roast", "tgtdeleg", "rubeus", "getuserspns", "getnpusers"})
_CODE_WORDS = frozenset({"unprotect", "win32crypt", "pk11sdr", "encrypted_key", "os_crypt", "login data",
                         "logins.json", "key3.db", "key4.db", "signons", "cookies", "local state", "web data",
                         "keychain", "microsoft", "credentials.db", "access_tokens.db", "msal_token_cache",
                         "retrievepassword"})
_GATES = {name: _Gate(words) for name, words in (("hive", _HIVE_WORDS), ("tool", _TOOL_WORDS),
                                                  ("ticket", _TICKET_WORDS), ("code", _CODE_WORDS))}


@triggered_by("::")
def rule_module_command(c: Ctx) -> Optional[tuple]:
    """A credential module's command, in any program's words."""
    if "::" not in c.lowered:
        return None
    lowered = [t.lower() for t in c.texts]
    words = set(re.split(r"[\s\"']+", " ".join(lowered)))
    best = None
    for t in lowered:
        for module, command in _MODULE.findall(t):
            if not _dumps(module.lower(), command.lower(), words):
                continue
            level = HIGH if module.lower() in _MACHINE_MODULES or "/rpc" in words or command.lower() == "backupkeys" \
                else MEDIUM
            best = level if best is None else max(best, level)
    if best is None:
        return None
    what = "every signed-in user's or the machine's credentials" if best == HIGH else "a user's saved credentials"
    return best, f"{c.prog} runs a credential module that prints {what} in clear ({c.text})"


def _dumps(module: str, command: str, words: set) -> bool:
    if module == "sekurlsa":
        return command not in ("minidump", "pth", "process")  # a dump file chosen; pass-the-hash is another class
    if module == "lsadump":
        return command not in _AUTH_PATCHES  # `auth_patches` reads the ones that change the domain
    if module == "dpapi":
        return command != "protect" and "/list" not in words
    if module == "vault":
        return command == "cred"
    if module in ("kerberos", "crypto"):
        return bool(_EXPORTS & words)  # `kerberos::list /export`, `crypto::certificates /export`
    if module == "tgt":
        return command == "deleg"  # kekeo's usable TGT taken without a password
    return command in ("logonpasswords", "mstsc")  # ts::


@triggered_by(_HIVE_WORDS)
def rule_hive_read(c: Ctx) -> Optional[tuple]:
    """A password hive read with its key (any program), macOS' password hashes."""
    if not _GATES["hive"].search(_line(c)):
        return None
    prog = re.sub(r"\.(exe|py|ps1)$", "", c.prog.lower())
    return _hives(c, prog, c.texts, [t.lower() for t in c.texts])


@triggered_by(_TOOL_WORDS)
def rule_store_tool(c: Ctx) -> Optional[tuple]:
    """The system's own store tools asked for everything, decrypted."""
    if not _GATES["tool"].search(_line(c)):
        return None
    return _os_tools(c, c.prog.lower().removesuffix(".exe"), [t.lower() for t in c.texts])


@triggered_by(_TICKET_WORDS)
def rule_tickets_harvested(c: Ctx) -> Optional[tuple]:
    """Kerberos keys shown, tickets or their hashes harvested."""
    if not _GATES["ticket"].search(_line(c)) or not c.texts or \
            set(c.texts) & {"-h", "--help", "help", "--version", "/?"}:
        return None
    return _kerberos(c, re.sub(r"\.(exe|py|ps1)$", "", c.prog.lower()), [t.lower() for t in c.texts])


@triggered_by("export")
def rule_manager_export(c: Ctx) -> Optional[tuple]:
    """A password manager's whole store exported in clear."""
    if c.prog.lower().removesuffix(".exe") not in _MANAGERS:
        return None
    return _exports(c, c.prog.lower().removesuffix(".exe"), [t.lower() for t in c.texts])


@triggered_by(_CODE_WORDS)
def rule_store_decrypted(c: Ctx) -> Optional[tuple]:
    """A browser's or DPAPI's store read into code or a database shell."""
    if not c.texts or not _GATES["code"].search(_line(c)):
        return None
    return _decrypted_in_code(c, re.sub(r"\.(exe|py|ps1)$", "", c.prog.lower()), [t.lower() for t in c.texts])


@triggered_by("lsass")
def rule_lsass_dumped(c: Ctx) -> Optional[tuple]:
    """LSASS' memory dumped by any program: every signed-in user's credentials (``PPLBlade --mode dump --name
    lsass.exe``, ``adplus -hang -pn lsass.exe``, ``ppldump lsass l.dmp``)."""
    line = c.lowered
    if "lsass" not in line and "lsass" not in c.prog.lower() or c.prog.lower() in _LSASS_QUIET:
        return None
    if not any(word in line for word in _DUMP_WORDS) or \
            not any("lsass" in t and not re.search(r"[\\/][^\\/]*lsass", t) for t in line.split()):
        return None  # `dumpbin /headers C:\Windows\System32\lsass.exe`: the program's file, not its memory
    return HIGH, f"{c.prog} dumps lsass' memory: every signed-in user's credentials ({c.text})"


_DUMP_WORDS = ("dump", "dmp", "-ma", "-mm", "-mp", "-hang", "-crash", "core", "snapshot", "-full", "--write", "/write",
               "-w ")
_LSASS_QUIET = frozenset({"tasklist", "get-process", "gps", "ps", "pgrep", "pidof", "taskkill", "stop-process",
                          "findstr", "grep", "select-string", "echo", "write-host", "reg", "set-processmitigation"})
# A hive exported by any program (`regedit /e F HKLM\SAM`, impacket's `reg.py … save -keyName HKLM\SAM`).
_HIVE_KEY = lazy(r"^['\"]?(?:hklm|hkey_local_machine)[\\/:]+(sam|security|system)[\\/]?['\"]?$", re.IGNORECASE)
_SAVES = frozenset({"save", "export", "backup", "/e", "-e", "dump", "copy", "/a"})


@triggered_by({"hklm", "hkey_local_machine"})
def rule_hive_exported(c: Ctx) -> Optional[tuple]:
    """A password hive saved or exported whole, by any program but ``reg`` (``winadmin``'s)."""
    if c.prog.lower().removesuffix(".exe") == "reg":
        return None
    hive = next((m.group(1) for w in c.args for m in [_HIVE_KEY.match(w.raw)] if m), None)
    if hive is None or not _SAVES & {t.lower() for t in c.texts}:
        return None
    return HIGH, f"{c.prog} saves the {hive.upper()} hive: password hashes or the key to them ({c.text})"


def _hives(c: Ctx, prog: str, texts: list, lowered: list) -> Optional[tuple]:
    if prog in _LISTERS:
        return None
    named = set()
    for k, t in enumerate(lowered):
        option = _HIVE_OPTIONS.match(t)
        if option and k + 1 < len(texts):
            named.add(option.group(1).replace("-", "").replace("systemhivepath", "system").replace("ntdsfile", "ntds"))
            continue
        if t.startswith("-"):
            continue
        m = _HIVE.search(t.replace("\\", "/"))
        if m and (t == m.group(1) or "." in m.group(0) or "config/" in t.replace("\\", "/") or
                  "/" in t and not _SYSTEM_DIRS.match(t)):  # `/tmp/sam`, not `/etc/security` or `…/systemd/system`
            named.add(m.group(1))
    if ("system" in named or "bootkey" in named) and named & {"sam", "security", "ntds"}:
        return HIGH, f"{c.prog} reads a password hive with the key that unlocks it: every account's hash ({c.text})"
    if "shadowhashdata" in c.lowered:
        return HIGH, f"{c.prog} reads macOS' password hashes (ShadowHashData) ({c.text})"
    return None


def _os_tools(c: Ctx, prog: str, lowered: list) -> Optional[tuple]:
    redirected = any(r.op in (">", ">>", "&>") for r in c.seg.redirects)
    if any(t.lstrip("/-").startswith("backupkey") for t in lowered):
        return HIGH, f"{c.prog} takes the domain's DPAPI backup key: every user's saved secrets can be decrypted " \
                     f"with it ({c.text})"
    if prog == "unshadow":
        return (HIGH if redirected or "-o" in lowered else MEDIUM), \
            f"unshadow joins every account's password hash to its name, for cracking ({c.text})"
    if prog == "getent" and lowered[:1] == ["shadow"] and len(lowered) == 1 and redirected:
        return HIGH, f"getent shadow writes every account's password hash to a file ({c.text})"
    if prog == "security" and lowered[:1] == ["dump-keychain"] and "-d" in lowered:
        return HIGH, f"security dump-keychain -d prints every password the keychain holds, decrypted ({c.text})"
    if prog == "security" and lowered[:1] in (["find-generic-password"], ["find-internet-password"]) and \
            any(re.fullmatch(r"-[a-z]*[wg][a-z]*", t) for t in lowered) and \
            ("safe storage" in c.lowered or _BROWSER.match(lowered[-1])):
        return HIGH, f"security prints a browser's Safe Storage key: every saved login of that browser can be " \
                     f"decrypted with it ({c.text})"
    if prog == "secret-tool" and "--all" in lowered and "--unlock" in lowered:
        return MEDIUM, f"secret-tool prints every matching secret of the keyring, unlocked ({c.text})"
    if prog in _CRACKERS:
        level = max((store_level(p) for _, p in operand_paths(c)), default=0)
        if level:
            return level, f"{prog} cracks a credential store's hashes ({c.text})"
    if prog == "netsh" and "wlan" in lowered and "key=clear" in lowered and \
            ("export" in lowered and not any(t.startswith("name=") for t in lowered) or
             any(t in ("*", "name=*", 'name="*"') for t in lowered)):
        return MEDIUM, f"netsh writes or prints every saved Wi-Fi network's key in clear ({c.text})"
    return None


def _kerberos(c: Ctx, prog: str, lowered: list) -> Optional[tuple]:
    clusters = "".join(t[1:] for t in c.texts if re.fullmatch(r"-[A-Za-z]+", t))
    if prog == "klist" and "K" in clusters and "k" in clusters:
        return MEDIUM, f"klist -K prints the keys a keytab holds ({c.text})"
    if any(_ROAST.search(t) for t in lowered) or "roast" in prog or \
            prog == "rubeus" and lowered[0] in _RUBEUS_VERBS or \
            prog.removeprefix("impacket-") in ("getuserspns", "getnpusers") and "-request" in lowered:
        return MEDIUM, f"{c.prog} harvests Kerberos tickets or their crackable hashes ({c.text})"
    return None


def _exports(c: Ctx, prog: str, lowered: list) -> Optional[tuple]:
    if prog not in _MANAGERS or "export" not in lowered[:2] or any(_ENCRYPTED.search(t) for t in lowered):
        return None
    return MEDIUM, f"{c.prog} exports every saved password in clear ({c.text})"


def _decrypted_in_code(c: Ctx, prog: str, lowered: list) -> Optional[tuple]:
    line = " ".join(lowered).replace("\\", "/")
    if "retrievepassword" in line or "retrievepassword" in prog:
        return MEDIUM, f"{c.prog} reads every password the Windows vault keeps, in clear ({c.text})"
    levels = [store_level(p) for _, p in operand_paths(c)]
    store = max(levels, default=0) or (MEDIUM if _IN_CODE.search(line) else 0)
    if store and _DECRYPT_CODE.search(line):
        return HIGH, f"{c.prog} decrypts a credential store (browser logins, DPAPI blobs) in code ({c.text})"
    if store and _CODE_READERS.match(prog) and _READ_STORES.search(line):
        return MEDIUM, f"{c.prog} reads a browser's or the system's saved logins ({c.text})"
    return None
