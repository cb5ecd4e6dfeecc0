"""Effect: what holds secrets dumped or packed into a file that can be carried off.

- A process that holds keys in memory (``ssh-agent``, ``gpg-agent``, password managers, ``lsass``) dumped
  to a core file (``gcore``, ``createdump``, ``gdb -p … generate-core-file``, ``lldb … save-core``,
  ``dotnet-dump collect``): the dump holds them in clear.  Credential dumpers by name (``pypykatz``,
  ``lsassy``, ``secretsdump.py``, ``lazagne``, ``mimipenguin``) do nothing else.
- Programs named for pulling credentials out (``samdump2``, ``keychaindump``, ``SharpDPAPI``, ``…katz``, a cookie or
  password ``stealer``), also run as a script (``python3 secretsdump.py``).  Stores packed or copied away are
  ``stores_copied``'s; stores dumped or decrypted in a tool's own words are ``stores_dumped``'s.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy
from aish.safety.rules.triggers import triggered_by

# Processes that hold keys, passwords or tokens in memory.
_HOLDERS = lazy(r"ssh-agent|gpg-agent|keepass\w*|1password|bitwarden|enpass|lastpass|gnome-keyring\w*|"
                r"kwalletd\w*|secretd|lsass|sshd|vault|op-daemon|keychain|pageant|proton-?pass", re.IGNORECASE)
_DUMPERS = {"gcore": (), "createdump": (), "gdb": ("generate-core-file", "gcore"), "lldb": ("save-core",),
            "dotnet-dump": ("collect",), "procdump": (), "procdump64": (), "minidump": (), "out-minidump": ()}


def rule_memory_dumped(c: Ctx) -> Optional[tuple]:
    """A dump of a process that holds keys."""
    name = c.prog.lower().removesuffix(".exe")
    if not c.texts or any(t in ("-h", "--help", "--version", "-V") for t in c.texts):
        return None
    needs = _DUMPERS.get(name)
    if needs is None:
        return None
    line = " ".join(c.texts) + " " + " ".join(s for w in c.args for s in w.subs)
    feeders = " ".join(w.text for seg in c.chain for w in seg.words)
    if (not needs or any(n in line for n in needs)) and _HOLDERS.search(line + " " + feeders):
        return HIGH, f"{c.prog} dumps the memory of a process that holds keys or passwords: the dump holds them " \
                     f"in clear ({c.text})"
    return None


# A holder's memory read through /proc (`dd if=/proc/$(pgrep ssh-agent)/mem`).
_PROC_MEM = lazy(r"/proc/[^/]*(?:" + _HOLDERS.pattern + r")[^/]*/mem\b", re.IGNORECASE)
_READERS = ("dd", "cat", "strings", "xxd", "hexdump", "od", "python", "python3")


def rule_proc_memory(c: Ctx) -> Optional[tuple]:
    """The memory of a process that holds keys read through ``/proc/PID/mem``."""
    if "/mem" not in c.lowered:
        return None
    line = " ".join(w.raw for w in c.args)
    if _PROC_MEM.search(line):
        return HIGH, f"{c.prog} reads the memory of a process that holds keys or passwords ({c.text})"
    return None


# Programs that exist to pull saved or in-memory credentials out in clear (the docstring's dumpers by name), and the
# options of the network admin kits that do the same on every host they reach.
_NAMED_DUMPERS = frozenset({"pypykatz", "lsassy", "secretsdump", "impacket-secretsdump", "lazagne", "mimipenguin",
                            "donpapi", "nanodump", "gosecretsdump", "pwdump", "pwdump7", "fgdump", "dploot",
                            "laZagne".lower(), "mimikatz"})
_KITS = frozenset({"nxc", "netexec", "crackmapexec", "cme"})
_KIT_DUMPS = frozenset({"--sam", "--lsa", "--ntds", "--dpapi"})  # (`--laps` authenticates with LAPS' password)
_KIT_MODULES = frozenset({"lsassy", "nanodump", "handlekatz", "procdump", "mimikatz", "ntdsutil", "masky"})


def rule_named_dumper(c: Ctx) -> Optional[tuple]:
    """A credential dumper run by name, or a network kit told to dump what a host keeps."""
    name = re.sub(r"\.(py|exe)$", "", c.prog.lower())
    texts = [t.lower() for t in c.texts]
    if set(c.texts) & {"-h", "--help", "--version", "-V", "help", "version"}:  # as typed: `-H HASH` is no help
        return None
    if name in _NAMED_DUMPERS and (name != "mimikatz" or any("sekurlsa::" in t or "lsadump::" in t for t in texts)):
        return MEDIUM, f"{c.prog} pulls saved or signed-in credentials out in clear: the screen, its scrollback and " \
                       f"any log of it hold them ({c.text})"
    if name in _KITS and (set(texts) & _KIT_DUMPS or any(texts[k - 1] == "-m" and t in _KIT_MODULES
                                                          for k, t in enumerate(texts) if k)):
        return MEDIUM, f"{c.prog} dumps the credentials every host it reaches keeps, in clear ({c.text})"
    return None


# A program named for pulling credentials out, whatever its maker called it: a dump of a store's noun (`samdump2`,
# `cachedump`, `keychaindump`, `hashdump`), a `…katz` build, a grabber or stealer of logins, cookies or tokens, a
# browser's or DPAPI's decrypter; also when an interpreter runs it as a script (`python3 secretsdump.py`).
_DUMPER_NAME = lazy(r"^cachedump$|^(?:sam|hash|cred|creds|lsa|lsass|ntds|secrets?|keychain|keytab|ticket|kerb|krb|"
                    r"dpapi|"
                    r"vault|wifi|wlan|browser|chrome|cookies?|logins?|passwords?|gpp)[-_]?dump(?:er)?\d*$|"
                    r"^dump[-_]?(?:creds?|credentials|hash(?:es)?|sam|lsa(?:ss)?|ntds|secrets|keychain|tickets?|"
                    r"passwords?|logins?|cookies|wifi|vault|dpapi)$|katz$|lazagne|mimipenguin|^bkhive$|gsecdump|creddump|"
                    r"keytabextract|chainbreaker|^wce$|firepwd|^kee(?:thief|farce|passdump)|firefox[-_]?decrypt|"
                    r"(?:cred|cookie|password|pass|token|login|browser|wifi)s?[-_]?(?:stealer|grabber|thief|harvester)$|"
                    r"^(?:sharp|hack-?)(?:dpapi|chrome|chromium|browser-?data|web|cookie|vault|wifi|keepass)\w*$|"
                    r"^decrypt[-_]?(?:chrome|chromium|browser|firefox|dpapi|edge)|"
                    r"^(?:get|invoke|dump)-\w*(?:dump|hashes|lsasecret|vaultcredential|gpppassword|"
                    r"kerberoast|mimikatz|chromepass|browserdata|wifipassword|dcsync)\w*$", re.IGNORECASE)
_SCRIPT_RUNNERS = lazy(r"^(?:python[\d.]*|py|pypy\d?|perl|ruby|php[\d.]*|pwsh|powershell|node|bash|sh|dotnet|mono)"
                       r"(?:\.exe)?$", re.IGNORECASE)
_NAME_WORDS = frozenset({"dump", "katz", "lazagne", "penguin", "bkhive", "keytabextract", "chainbreaker", "wce",
                         "firepwd", "lsassy", "donpapi", "dploot", "keethief", "keefarce", "keepassdump", "decrypt",
                         "stealer", "grabber", "thief",
                         "harvester", "sharp", "hack", "gpppassword",
                         "lsasecret", "vaultcredential", "kerberoast", "chromepass", "browserdata",
                         "wifipassword", "dcsync"})


@triggered_by(_NAME_WORDS)
def rule_named_for_dumping(c: Ctx) -> Optional[tuple]:
    """A program (or a script an interpreter runs) whose name says it pulls credentials out."""
    name, texts = c.prog, c.texts
    if _SCRIPT_RUNNERS.match(name):
        script = next((k for k, t in enumerate(texts) if not t.startswith("-")), None)
        if script is None:
            return None
        name, texts = texts[script].replace("\\", "/").rsplit("/", 1)[-1], texts[script + 1:]
    name = re.sub(r"\.(py|exe|ps1|pl|rb|sh|js)$", "", name, flags=re.IGNORECASE)
    if "::" in " ".join(texts) or name.lower() == "mimikatz":
        return None  # a credential module's command is `stores_dumped`'s to read; mimikatz's own console is quiet
    if not (_DUMPER_NAME.search(name) or name.lower() in _NAMED_DUMPERS) or \
            set(texts) & {"-h", "--help", "--version", "-V", "help", "version", "/?"}:
        return None
    return MEDIUM, f"{name} pulls saved or signed-in credentials out in clear: the screen, its scrollback and any " \
                   f"log of it hold them ({c.text})"


RULES: dict = {name: [rule_proc_memory] for name in _READERS}
for _name in _NAMED_DUMPERS | _KITS:
    for _spelling in (_name, _name + ".py", _name + ".exe"):
        RULES.setdefault(_spelling, []).append(rule_named_dumper)
for _name in _DUMPERS:
    RULES.setdefault(_name, []).append(rule_memory_dumped)
