"""Effect: the same destruction in cmd and PowerShell spelling.  ``del /s /q``, ``rd /s``,
``format C:``, ``vssadmin delete shadows``, ``reg delete``, ``robocopy /MIR``, ``wsl --unregister``,
``Remove-Item -Recurse -Force``, ``Format-Volume``, ``Clear-Disk``, security switched off
(``Set-MpPreference -DisableRealtimeMonitoring``, ``netsh advfirewall … state off``), the
network lease released (``ipconfig /release``).

Paths are read as typed (``C:\\Windows``: a POSIX shell would eat the backslashes) and
classified by ``winpaths``.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, describe, target, worst
from aish.safety.rules.content import overwrite_level
from aish.safety.rules.defences import exclusion_level
from aish.safety.rules.delete import delete_level
from aish.safety.rules import diskpart_scripts, ps_targets
from aish.safety.rules.own_options import broad_listing
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_ACCESS_SERVICES = lazy(r"^(sshd|winrm|termservice|remoteregistry|mpssvc|bfe|dhcp|dnscache|"
                        r"lanmanserver|netlogon|wlansvc|tailscale)$", re.IGNORECASE)
_SECURITY_SWITCHES = lazy(r"^-(disable\w+|exclusion\w+|attacksurfacereductiononlyexclusions)$", re.IGNORECASE)
_EXCLUDING = lazy(r"^-(exclusion\w+|attacksurfacereductiononlyexclusions)$", re.IGNORECASE)


def _set_false(texts: list, k: int) -> bool:
    """Is the switch at ``texts[k]`` given false (``-DisableX $false``, ``-DisableX:$false``, ``0``)?"""
    value = texts[k].split(":", 1)[1] if ":" in texts[k] else texts[k + 1] if k + 1 < len(texts) else ""
    return value.lower() in ("$false", "false", "0")


def _exclusion_level(texts: list) -> Optional[int]:
    """The most any ``-Exclusion*`` value blinds Defender (``defences.exclusion_level``: 2 the whole machine, 0 a
    build cache); None when a ``-Disable*`` switch is set too (or no exclusion's value is read)."""
    if any(t.lower().startswith("-disable") for t in texts):
        return None
    values = [v for k, t in enumerate(texts[:-1]) if _EXCLUDING.match(t)
              for v in texts[k + 1].split(",") if v.strip("'\"")]
    return max((exclusion_level(v) for v in values), default=None)


def _value_of(texts: list, option: str) -> str:
    """The word after ``option`` (lowered, any case of the option), '' when absent."""
    low = [t.lower() for t in texts]
    return low[low.index(option) + 1] if option in low[:-1] else ""


def _raw(w: Word) -> Word:
    """The word as typed, quotes removed, backslashes kept: ``C:\\Windows`` stays itself."""
    text = w.raw.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return Word(text, w.raw, quoted=w.quoted, has_var=w.has_var, glob=w.glob or "*" in text)


def _switches(c: Ctx) -> set:
    heads = (t.lower().split(":", 1)[0] for t in c.texts if t.startswith("/"))
    return {h for h in heads if len(h) <= 12 and "/" not in h[1:]}


def _operands(c: Ctx) -> list:
    return [_raw(w) for w in c.args if not (w.text.startswith("/") and len(w.text) <= 12 and "/" not in w.text[1:])
            and not w.text.startswith("-")]


def rule_del(c: Ctx) -> Optional[tuple]:
    """cmd ``del``/``erase``/``rd``/``rmdir`` with switches (a POSIX ``rmdir`` has none)."""
    switches = _switches(c)
    prog = c.prog.lower()
    if prog in ("rd", "rmdir") and "/s" not in switches:
        return None
    recursive = "/s" in switches
    best = None
    for w in _operands(c):
        t = target(w)
        kind = "all" if w.text in ("*", "*.*") else t.kind
        level = delete_level(t if kind == t.kind else type(t)(kind, t.path, t.shown), recursive)
        if level is not None:
            what = "recursive delete" if recursive else "delete"
            best = worst(best, (level, f"{what} of {describe(t)} ({c.text})"))
    return best


def rule_format(c: Ctx) -> Optional[tuple]:
    drive = next((w.text for w in c.args if re.fullmatch(r"[A-Za-z]:\\?", w.raw)), None)
    return (HIGH, f"format erases the drive {drive} ({c.text})") if drive else None


def _reg_data(texts: list) -> str:
    """The data `reg add` writes (`/d 0`), or ""."""
    return next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "/d"), "")


def rule_cmd_admin(c: Ctx) -> Optional[tuple]:
    """vssadmin, wbadmin, bcdedit, reg, net, sc, schtasks, takeown, icacls, robocopy, wsl, netsh, ipconfig…"""
    p = c.prog.lower().removesuffix(".exe")
    texts = [t.lower() for t in c.texts]
    switches = _switches(c)
    joined = " ".join(texts)
    if p == "vssadmin" and texts[:2] == ["delete", "shadows"]:
        return HIGH, f"deletes the volume shadow copies (Windows' own backups) ({c.text})"
    if p == "wbadmin" and texts[:1] == ["delete"]:
        return HIGH, f"deletes Windows backups ({c.text})"
    if p == "bcdedit":
        if "/delete" in switches or "/deletevalue" in switches:
            return HIGH, f"deletes a boot entry: Windows may not start ({c.text})"
        if re.search(r"recoveryenabled\s+no|testsigning\s+on|nointegritychecks\s+on|bootstatuspolicy\s+ignore|"
                     r"\bnx\s+alwaysoff|hypervisorlaunchtype\s+off|"
                     r"\bsafeboot\s+(minimal|network)", joined):
            return MEDIUM, f"turns off a Windows boot protection ({c.text})"
    if p == "reg" and texts[:1] == ["delete"]:
        whole = "/va" in switches or re.fullmatch(r"hk(lm|ey_local_machine)\\+(software|system)\\*", texts[1] if
                                                 len(texts) > 1 else "")
        return (HIGH if whole else MEDIUM), f"deletes registry keys ({c.text})"
    if p == "reg" and texts[:1] == ["add"] and re.search(r"disable(antispyware|realtimemonitoring|behaviormonitoring)|"
                                                        r"enablelua\b.*\b0\b", joined) and \
            not (re.search(r"/v\s+disable", joined) and _reg_data(texts) in ("0", "0x0", "0x00000000")):
        return MEDIUM, f"switches Windows Defender or UAC off ({c.text})"  # `Disable… /d 0` turns it back on
    if p == "net" and texts[:1] in (["user"], ["localgroup"]) and "/delete" in switches:
        return (HIGH if "administrator" in texts or "administrators" in texts else MEDIUM,
                f"deletes an account or a group membership ({c.text})")
    if p == "net" and texts[:1] == ["user"] and "/active:no" in texts:
        return (HIGH if "administrator" in texts else MEDIUM), f"disables an account: it cannot log in ({c.text})"
    if p == "vssadmin" and texts[:2] == ["resize", "shadowstorage"]:
        return HIGH, f"shrinks shadow copy storage: Windows deletes the copies that no longer fit ({c.text})"
    if p == "wmic" and texts[:2] == ["shadowcopy", "delete"]:
        return HIGH, f"deletes the volume shadow copies (Windows' own backups) ({c.text})"
    if p == "wmic" and "delete" in texts and "process" not in texts:
        return MEDIUM, f"wmic deletes what the query matches ({c.text})"  # `wmic useraccount where name='bob' delete`
    if p == "reagentc" and "/disable" in switches:
        return MEDIUM, f"switches the Windows recovery environment off ({c.text})"
    if p == "sc" and texts[:1] == ["config"] and "disabled" in texts and any(_ACCESS_SERVICES.match(t) for t in texts):
        return HIGH, f"disables a service remote access depends on ({c.text})"
    if p in ("net", "sc") and texts[:1] in (["stop"],) and any(_ACCESS_SERVICES.match(t) for t in texts[1:]):
        return HIGH, f"stops a service remote access depends on ({c.text})"
    if p == "sc" and texts[:1] == ["delete"]:
        return MEDIUM, f"deletes a Windows service ({c.text})"
    if p == "schtasks" and "/delete" in switches:
        return (HIGH if "*" in texts else MEDIUM), f"deletes scheduled tasks ({c.text})"
    if p in ("takeown", "icacls"):
        tree = "/r" in switches or "/t" in switches
        grants_all = re.search(r"everyone:\(?[fm]|\*s-1-1-0:\(?[fm]|/reset", joined)
        for w in _operands(c):
            t = target(w)
            if t.kind in ("root", "system-top", "system", "critical") and (tree or grants_all):
                return HIGH, f"{c.prog} changes ownership or access of {describe(t)} ({c.text})"
        return (MEDIUM, f"gives everyone full control ({c.text})") if grants_all and tree else None
    if p == "robocopy" and switches & {"/mir", "/purge"} and "/l" not in switches:  # /L: only lists
        ops = _operands(c)
        dest = target(ops[1]) if len(ops) > 1 else None
        if dest is not None and dest.kind in ("root", "system-top", "system", "home", "userhome"):
            return HIGH, f"robocopy /MIR deletes whatever {describe(dest)} has that the source lacks ({c.text})"
        return MEDIUM, f"robocopy /MIR deletes files in the destination that the source lacks ({c.text})"
    if p == "wsl":
        if "--unregister" in texts:
            return HIGH, f"wsl --unregister deletes the distribution and every file in it ({c.text})"
        if "--shutdown" in texts:
            return MEDIUM, f"stops every running WSL distribution and what runs in it ({c.text})"
    if p == "netsh":
        if re.search(r"advfirewall\s+set\s+\w+\s+state\s+off", joined):
            return HIGH, f"switches the Windows firewall off: every port is open to the network ({c.text})"
        if re.search(r"firewallpolicy\s+blockinbound", joined):
            return HIGH, f"blocks all inbound traffic: remote access stops ({c.text})"
        if re.search(r"interface\s+(set\s+interface|ip\s+delete)\b.*\b(disable|address)", joined):
            return HIGH, f"takes a network interface down ({c.text})"
    if p == "ipconfig" and switches & {"/release", "/release6"}:
        return HIGH, f"releases the network lease: the machine drops off the network ({c.text})"
    if p == "manage-bde" and "-off" in texts:
        return MEDIUM, f"switches BitLocker off ({c.text})"
    if p == "manage-bde" and "-protectors" in texts and "-disable" in texts:
        return MEDIUM, f"suspends BitLocker: the disk's key is left in the clear ({c.text})"
    flags = switches | set(texts)
    if p == "systemreset" and flags & {"-factoryreset", "--factoryreset", "/factoryreset", "-cleanpc", "--cleanpc"}:
        return HIGH, f"resets Windows to its factory state: apps, settings and files go ({c.text})"
    if p.startswith("psshutdown") and flags & {"-k", "-s", "-r", "-h", "-d", "-o", "-f"} and "-a" not in flags:
        remote = any(w.raw.startswith("\\\\") or w.text.startswith("@") for w in c.args)
        which = "another machine" if remote else "this machine"
        return (HIGH if remote else MEDIUM), f"psshutdown stops or restarts {which} ({c.text})"
    if p == "netsh" and re.search(r"firewall\s+add\s+rule\b", joined) and "dir=in" in texts and \
            "action=block" in texts and _blocks_remote_access(joined, "localport=", "remoteip="):
        return HIGH, f"blocks inbound remote access (RDP, WinRM or SSH): remote sessions stop ({c.text})"
    if p == "wevtutil" and texts[:1] in (["cl"], ["clear-log"]):
        return MEDIUM, f"clears a Windows event log (the audit trail is gone) ({c.text})"
    if p == "wevtutil" and texts[:1] in (["sl"], ["set-log"]) and re.search(r"/e(nabled)?:(false|0)\b", joined):
        return MEDIUM, f"switches a Windows event log off ({c.text})"
    if p == "auditpol" and (switches & {"/clear", "/remove"} or "/set" in switches and "disable" in joined):
        return MEDIUM, f"switches Windows auditing off ({c.text})"
    if p == "net" and texts[:1] == ["accounts"] and re.search(r"/lockoutthreshold:0\b|/minpwlen:0\b", joined):
        return MEDIUM, f"switches account lockout or password length checks off ({c.text})"
    if p == "winrm" and texts[:1] in (["set"], ["s"]) and re.search(
            r"allowunencrypted\s*=\s*\"?true|basic\s*=\s*\"?true|trustedhosts\s*=\s*\"?\*", joined):
        return MEDIUM, f"lets remote PowerShell run unencrypted, with plain passwords or to any host ({c.text})"
    if p == "cmdkey" and "/delete" in switches:
        return MEDIUM, f"deletes stored credentials ({c.text})"
    if p == "diskpart":
        return diskpart_scripts.rule_diskpart(c)
    return None


# ----------------------------------------------------------------- PowerShell cmdlets
# What each cmdlet the rules level by name does, said plainly, and how bad it is.
_CMDLET_SAYS = {
    "format-volume": (HIGH, "formats the volume: every file on it is gone"),
    "clear-disk": (HIGH, "wipes the disk: every partition and file on it is gone"),
    "initialize-disk": (MEDIUM, "initializes the disk: a new partition table is written on it"),
    "remove-partition": (HIGH, "deletes the partition and every file on it"),
    "reset-physicaldisk": (HIGH, "resets the physical disk: its data is gone"),
    "clear-recyclebin": (MEDIUM, "empties the Recycle Bin: its files are gone for good"),
    "stop-computer": (MEDIUM, "shuts the computer down: unsaved work and every session are lost"),
    "restart-computer": (MEDIUM, "restarts the computer: unsaved work and every session are lost"),
    "remove-computer": (MEDIUM, "takes the computer out of its domain: domain accounts can no longer log in"),
    "clear-eventlog": (MEDIUM, "clears the event log: its record of what happened is gone"),
    "remove-eventlog": (MEDIUM, "deletes the event log and its entries"),
    "remove-localuser": (MEDIUM, "deletes the local user account"),
    "remove-aduser": (MEDIUM, "deletes the Active Directory user"),
    "remove-adgroupmember": (MEDIUM, "takes members out of the Active Directory group: the access it gave them goes"),
    "disable-localuser": (MEDIUM, "disables the local user: it can no longer log in"),
    "disable-adaccount": (MEDIUM, "disables the Active Directory account: it can no longer log in"),
    "disable-netadapter": (HIGH, "disables the network adapter: remote access over it stops"),
    "remove-netipaddress": (HIGH, "removes the IP address: the machine drops off that network"),
    "remove-netroute": (HIGH, "removes the route: what it reached is unreachable"),
    "remove-vm": (MEDIUM, "deletes the virtual machine"),
    "remove-vmsnapshot": (MEDIUM, "deletes the virtual machine's checkpoints"),
    "remove-vmharddiskdrive": (MEDIUM, "detaches the virtual disk from the virtual machine"),
    "clear-tpm": (HIGH, "clears the TPM: the keys it holds (BitLocker, Windows Hello) are lost"),
    "disable-bitlocker": (MEDIUM, "turns BitLocker off: the volume is decrypted"),
    "remove-bitlockerkeyprotector": (MEDIUM, "removes a BitLocker key protector: that way to unlock it is gone"),
    "remove-smbshare": (MEDIUM, "removes the share: whoever uses it loses access"),
    "remove-mailbox": (HIGH, "deletes the mailbox and its mail"),
    "remove-azresourcegroup": (HIGH, "deletes the Azure resource group and everything in it"),
    "remove-azvm": (MEDIUM, "deletes the Azure virtual machine"),
    "remove-azstorageaccount": (HIGH, "deletes the Azure storage account and its data"),
    "disable-computerrestore": (MEDIUM, "turns System Restore off: no more restore points are made"),
    "remove-appxpackage": (LOW, "removes the app package"),
    "uninstall-windowsfeature": (LOW, "uninstalls a Windows feature"),
    "remove-windowsfeature": (LOW, "uninstalls a Windows feature"),
}
_CMDLET_LEVEL = {name: level for name, (level, _) in _CMDLET_SAYS.items()}


def rule_cmdlet(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower()
    texts = [t.lower() for t in c.texts]
    if name in ("remove-item", "ri", "rm", "del", "erase", "rd", "rmdir") and \
            (name not in ("rm", "del", "rd", "rmdir", "erase") or any(t.startswith("-rec") or t.startswith("-fo")
                                                                       and t != "-f" for t in texts)):
        recursive = any(t.startswith("-r") and "-recurse".startswith(t[:4]) for t in texts) or "-recurse" in texts
        paths = [_raw(w) for k, w in enumerate(c.args) if not w.text.startswith("-")
                 or (k and texts[k - 1] in ("-path", "-literalpath"))]
        listings = [f for f in c.chain if f.words and f.words[0].text.lower() in _LISTINGS]  # `Get-Item D:\\x |`
        paths += [_raw(w) for f in listings for w in f.words[1:] if not w.text.startswith("-")]
        recursive = recursive or any(w.text.lower().startswith("-r") and "-recurse".startswith(w.text.lower()[:4])
                                     for f in listings for w in f.words[1:])
        best = None
        for w in paths:
            t = target(w)
            level = delete_level(t, recursive)
            if level is not None:
                best = worst(best, (level, f"Remove-Item{' -Recurse' if recursive else ''} deletes {describe(t)} "
                                           f"({c.text})"))
        return best
    emptied = name in ("clear-content", "clc") or name in ("set-content", "sc") and re.search(
        r"-value\s+(\$null|''|\"\")(\s|$)", " ".join(w.raw.lower() for w in c.args))
    listed = [w for f in c.chain if f.words and f.words[0].text.lower() in ("get-childitem", "gci", "ls", "dir")
              for w in f.words[1:]]  # `Get-ChildItem D:\Data\*.csv | Clear-Content`
    if emptied and any(_DATA_FILE.search(w.raw.strip("'\"")) and target(_raw(w)).kind not in ("output", "temp")
                       for w in list(c.args) + listed if not w.text.startswith("-")):
        return MEDIUM, f"{c.prog} empties a data file ({c.text})"
    if name in ("start-process", "saps"):  # `Start-Process msiexec.exe -ArgumentList '/i https://… /qn'`
        valued = {"-filepath", "-argumentlist", "-args", "-verb", "-workingdirectory", "-credential"}
        program = next((c.args[k + 1].raw for k, t in enumerate(texts[:-1]) if t == "-filepath"), "") or \
            next((w.raw for k, w in enumerate(c.args) if not texts[k].startswith("-")
                  and (k == 0 or texts[k - 1] not in valued)), "")
        arguments = [_array_items(c.args[k + 1].raw) for k, t in enumerate(texts[:-1])
                     if t in ("-argumentlist", "-args")]
        positional = [w.text for k, w in enumerate(c.args) if not texts[k].startswith("-") and
                      (k == 0 or texts[k - 1] not in valued)]
        arguments = arguments or positional[1:2]  # `Start-Process cmd '/c …'`: the second is the -ArgumentList
        found = c.recurse(" ".join([program.strip("'\"")] + arguments)) if program else None
        return (found[0], f"{found[1]}, started by {c.prog}") if found else None
    if name in ("clear-content", "clc", "set-content", "sc", "out-file"):
        best = None
        for w in [_raw(w) for w in c.args if not w.text.startswith("-")][:1]:
            level = overwrite_level(target(w))
            if level is not None:
                best = worst(best, (level, f"{c.prog} overwrites {describe(target(w))} ({c.text})"))
        return best
    if name in ("set-mppreference", "add-mppreference") and any(
            _SECURITY_SWITCHES.match(t.split(":", 1)[0]) and not _set_false(texts, k) for k, t in enumerate(texts)):
        excluded = _exclusion_level(texts)
        if excluded == 2:
            return HIGH, f"excludes the whole machine from Windows Defender: nothing is scanned any more ({c.text})"
        if excluded != 0:
            return MEDIUM, f"switches Windows Defender protection off or excludes paths from it ({c.text})"
    if name == "set-ruleoption" and _value_of(texts, "-option") == "3" and "-delete" not in texts:
        return MEDIUM, f"sets the application control (WDAC) policy to audit only: what it would block runs ({c.text})"
    if name == "remove-etwtraceprovider":
        return MEDIUM, f"takes a provider out of an event trace session: its events are no longer recorded ({c.text})"
    if name == "set-netfirewallprofile" and any(t in ("-enabled", "-enabled:$false") for t in texts) and \
            ("false" in " ".join(texts) or "0" in texts):
        return HIGH, f"switches the Windows firewall off: every port is open to the network ({c.text})"
    if name == "new-netfirewallrule" and "block" in texts and "inbound" in texts and \
            _blocks_remote_access(" ".join(texts), "-localport ", "-remoteaddress ") and "-program" not in texts:
        return HIGH, f"blocks inbound remote access: remote sessions stop ({c.text})"
    if name in ("set-item", "si") and "trustedhosts" in " ".join(texts) and re.search(r"-value\s+['\"]?\*", " ".join(
            texts)):
        return MEDIUM, f"trusts every host for remote PowerShell: credentials go to whoever answers ({c.text})"
    if name == "set-smbserverconfiguration" and re.search(r"-enablesmb1protocol\s*:?\s*\$?true", " ".join(texts)) or \
            name == "enable-windowsoptionalfeature" and "smb1protocol" in " ".join(texts):
        return MEDIUM, f"switches SMB1 on, a protocol worms spread through ({c.text})"
    if name == "disable-netfirewallrule" and "-all" in texts:
        return MEDIUM, f"disables every firewall rule, the ones that let remote access in too ({c.text})"
    if name == "suspend-bitlocker" and re.search(r"-rebootcount\s*:?\s*0\b", " ".join(texts)):
        return MEDIUM, f"suspends BitLocker until someone resumes it: the disk's key is left in the clear ({c.text})"
    if name == "do":  # cmd's `for /F … %1 in (…) DO wevtutil cl "%1"`: what follows DO runs for each one
        found = c.check(list(c.args)) if c.args else None
        return (found[0], f"{found[1]}, for each one") if found else None
    if name in _BLOCK_RUNNERS and any(".clearlog" in t for t in texts):
        return MEDIUM, f"clears Windows event logs (the audit trail is gone) ({c.text})"
    if name in _BLOCK_RUNNERS:  # `… | ForEach-Object { wevtutil cl $_ }`: the block is a command
        words = c.args[next((k for k, w in enumerate(c.args) if w.text == "{"), len(c.args)) + 1:]
        block = [w for w in words if w.text != "}"]
        each = ps_targets.each_listed(c, block) if block else None  # `gci C:\Users | % { ri $_.FullName }`
        every = _each_listed_switched_off(c, block)
        if every is not None:
            return every
        found = c.check(each or block) if block else None  # ($_ is each path the listing walks)
        if found and found[0] < HIGH and _every_event_log(c) and "log" in found[1]:
            return HIGH, f"{found[1]}, for every event log the listing gives (Security too)"
        return (found[0], f"{found[1]}, for each one") if found else None
    if name == "set-executionpolicy" and any(t in ("unrestricted", "bypass") for t in texts):
        return LOW, f"lets every PowerShell script run unsigned ({c.text})"
    level = _CMDLET_LEVEL.get(name)
    if level == LOW and broad_listing(c):  # `Get-AppxPackage -AllUsers | Remove-AppxPackage`: every one
        return MEDIUM, f"{c.prog} acts on everything {broad_listing(c)} lists ({c.text})"
    if level is not None:
        return level, f"{c.prog} {_CMDLET_SAYS[name][1]} ({c.text})"
    return None


def _every_event_log(c: Ctx) -> bool:
    """The pipe is fed by a listing of every event log (`wevtutil el`, `Get-EventLog -List`, `Get-WinEvent -ListLog *`):
    whatever clears each one clears the Security log too."""
    for f in c.chain:
        said = " ".join(w.text.lower() for w in f.words)
        if said.startswith(("wevtutil el", "wevtutil.exe el", "wevtutil enum-logs", "wevtutil.exe enum-logs")) or \
                said.startswith(("get-eventlog", "get-winevent")) and ("-list" in said or "-listlog" in said):
            return True
    return False


def _each_listed_switched_off(c: Ctx, block: list) -> Optional[tuple]:
    """``Get-TlsCipherSuite | ForEach-Object { Disable-TlsCipherSuite -Name $_.Name }``: the block's cmdlet
    removes, stops or disables each one an unfiltered listing gives (``$_``), so every one of the kind goes."""
    if c.prog.lower() in ("where-object", "invoke-command", "icm") or not block:
        return None
    m = re.match(r"(?i)(remove|stop|uninstall|disable|clear|suspend|unregister)-(\w+)$", block[0].text)
    listing = broad_listing(c)
    if m is None or not listing or not any("$_" in w.text or "$psitem" in w.text.lower() for w in block[1:]):
        return None
    if any(f.words and f.words[0].text.lower() in ("where-object", "where", "?", "select-object", "select")
           for f in c.chain):
        return None  # a filter chooses which ones
    level = HIGH if m.group(2).lower() == "eventlog" else MEDIUM  # every event log, the Security log too
    return level, f"{block[0].text} is run on every one {listing} lists: all of them are " \
        f"{m.group(1).lower()}{'d' if m.group(1).lower().endswith('e') else 'ed'} ({c.text})"


def _array_items(raw: str) -> str:
    """``'/c','rd /s /q C:\\Data'`` (a PowerShell array of arguments) as one command line; a single string as it is."""
    items = re.findall(r"'([^']*)'|\"([^\"]*)\"", raw)
    if len(items) < 2 or re.sub(r"'[^']*'|\"[^\"]*\"|\s|,", "", raw):
        return raw.strip("'\"")
    return " ".join(a or b for a, b in items)


# Cmdlets whose output piped into Remove-Item names the paths it deletes.
_LISTINGS = frozenset({"get-childitem", "gci", "ls", "dir", "get-item", "gi"})
# Ports of remote access: SSH, RDP, WinRM
_REMOTE_PORTS = lazy(r"^(22|3389|5985|5986|any)$")
_DATA_FILE = lazy(r"\.(db|sqlite3?|mdb|accdb|mdf|ldf|ndf|xlsx?|docx?|pptx?|csv|pst|ost|kdbx|qbw|dat|parquet|"
                  r"sql|bak)$", re.IGNORECASE)
_BLOCK_RUNNERS = {"foreach-object", "%", "foreach", "where-object", "invoke-command", "icm"}


def _blocks_remote_access(joined: str, port_option: str, source_option: str) -> bool:
    """A block rule on the ports remote access uses, or on every port from everywhere."""
    port = re.search(re.escape(port_option) + r"\s*(\S+)", joined)
    if port:
        return any(_REMOTE_PORTS.match(p.strip("'\"")) for p in port.group(1).split(","))
    return source_option not in joined


# Commands other Windows tools run or store to run later: (program, how to find the command, when it runs).
_LAUNCH_RUN = lazy(r"\bRun(Once)?(Ex)?$", re.IGNORECASE)


def rule_launches(c: Ctx) -> Optional[tuple]:
    """``wmic /node:h process call create "CMD"``, ``Invoke-WmiMethod … -Name Create -ArgumentList "CMD"``,
    ``schtasks /create … /tr "CMD"``, ``sc create x binPath= "CMD"``, ``reg add …\\Run /d
    "CMD"``: judged as the command they run."""
    p = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    lowered = [t.lower() for t in texts]
    command, when = "", ""
    if p == "wmic" and "create" in lowered and "call" in lowered:
        command = texts[lowered.index("create") + 1] if lowered.index("create") + 1 < len(texts) else ""
        when = next((f" on {t.split(':', 1)[1]}" for t in lowered if t.startswith("/node:")), "")
    elif p in ("invoke-wmimethod", "invoke-cimmethod") and "create" in lowered:
        command = next((texts[k + 1] for k, t in enumerate(lowered[:-1]) if t in ("-argumentlist", "-arguments")), "")
        command = re.sub(r"^@\{\s*CommandLine\s*=\s*['\"]?|['\"]?\s*\}$", "", command, flags=re.IGNORECASE)
    elif p == "schtasks" and ("/create" in lowered or "/change" in lowered):  # a task made or changed to run CMD
        command = next((c.args[k + 1].raw.strip("'\"") for k, t in enumerate(lowered[:-1]) if t == "/tr"), "")
        when = ", each time the task runs"
    elif p == "sc" and lowered[:1] in (["create"], ["config"]):
        command = next((texts[k + 1] for k, t in enumerate(lowered[:-1]) if t in ("binpath=", "binpath")), "")
        when = ", each time the service starts"
    elif p == "reg" and lowered[:1] == ["add"] and len(texts) > 1 and \
            _LAUNCH_RUN.search(c.args[1].raw.strip("'\"").rstrip("\\")):
        command = next((c.args[k + 1].raw.strip("'\"") for k, t in enumerate(lowered[:-1]) if t == "/d"), "")
        when = ", at every logon"
    found = c.recurse(command) if command else None
    return (found[0], f"{found[1]}{when or ', run by ' + c.prog}") if found else None


RULES: dict = {"del": [rule_del], "erase": [rule_del], "rd": [rule_del], "rmdir": [rule_del],
               "del.exe": [rule_del], "format": [rule_format], "format.com": [rule_format]}
for _p in ("vssadmin", "wbadmin", "bcdedit", "reg", "net", "sc", "schtasks", "takeown", "icacls", "robocopy", "wsl",
           "netsh", "ipconfig", "manage-bde", "wevtutil", "diskpart", "cmdkey", "wmic", "reagentc", "systemreset",
           "psshutdown", "psshutdown64", "auditpol", "winrm"):
    RULES[_p] = [rule_cmd_admin]
    RULES[_p + ".exe"] = [rule_cmd_admin]
for _p in list(_CMDLET_LEVEL) + ["remove-item", "ri", "clear-content", "clc", "set-content", "out-file",
                                 "set-mppreference", "add-mppreference", "set-netfirewallprofile",
                                 "new-netfirewallrule", "set-executionpolicy", "suspend-bitlocker", *_BLOCK_RUNNERS,
                                 "do", "start-process", "saps", "set-item", "si", "set-smbserverconfiguration",
                                 "enable-windowsoptionalfeature", "disable-netfirewallrule", "set-ruleoption",
                                 "remove-etwtraceprovider"]:
    RULES[_p] = [rule_cmdlet]
for _p in ("wmic", "schtasks", "sc", "reg"):
    RULES[_p] = RULES[_p] + [rule_launches]
    RULES[_p + ".exe"] = RULES[_p + ".exe"] + [rule_launches]
for _p in ("invoke-wmimethod", "invoke-cimmethod"):  # (psexec's command is judged by `fleets`)
    RULES[_p] = [rule_launches]
