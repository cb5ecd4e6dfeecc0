"""Effect: what holds secrets dumped or packed into a file that can be carried off.

- A process that holds keys in memory (``ssh-agent``, ``gpg-agent``, password managers, ``lsass``) dumped
  to a core file (``gcore``, ``createdump``, ``gdb -p … generate-core-file``, ``lldb … save-core``,
  ``dotnet-dump collect``): the dump holds them in clear.  Credential dumpers by name (``pypykatz``,
  ``lsassy``, ``secretsdump.py``, ``lazagne``, ``mimipenguin``) do nothing else.
- The operating system's credential stores packed into one archive (``hdiutil create -srcfolder
  ~/Library/Keychains``, ``ditto -c -k``, ``tar``, ``zip`` of the keychains, a browser's ``Login Data``,
  Windows' ``Microsoft\\Credentials``/``Protect``/``Vault``, ``/etc/shadow``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

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


# The system's credential stores, wherever they are named.
_STORES = lazy(r"Library/Keychains|/Login Data$|/Microsoft/(Credentials|Protect|Vault)(/|$)|^/etc/g?shadow$|"
               r"/\.password-store/?$|private-keys-v1\.d|/var/db/dslocal", re.IGNORECASE)
_ARCHIVERS = {"hdiutil": ("-srcfolder", "-srcdir"), "ditto": (), "tar": (), "bsdtar": (), "gtar": (), "zip": (),
              "7z": (), "7za": (), "rar": (), "compress-archive": ("-path", "-literalpath")}


def rule_stores_packed(c: Ctx) -> Optional[tuple]:
    """Credential stores packed into an archive."""
    texts = [w.raw.strip("'\"").replace("\\", "/") if "\\" in w.raw else w.text for w in c.args]
    if not any(_STORES.search(t) for t in texts):
        return None
    if c.prog == "hdiutil" and "create" not in texts or c.prog == "ditto" and "-c" not in texts:
        return None
    return MEDIUM, f"{c.prog} packs the system's saved passwords (keychains, browser logins, credential stores) " \
                   f"into one file that can be carried off ({c.text})"


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


RULES: dict = {name: [rule_proc_memory] for name in _READERS}
for _name in _NAMED_DUMPERS | _KITS:
    for _spelling in (_name, _name + ".py", _name + ".exe"):
        RULES.setdefault(_spelling, []).append(rule_named_dumper)
for _name in _DUMPERS:
    RULES.setdefault(_name, []).append(rule_memory_dumped)
for _name in _ARCHIVERS:
    RULES.setdefault(_name, []).append(rule_stores_packed)
