"""Effect: Windows' own parts removed, switched off or weakened by its cmdlets and admin tools, and the
command ``forfiles /c`` runs for every file it finds.

What decides is the TARGET, not the verb: the same cmdlet that tidies a user's app or task takes the
system apart when it is aimed at what Windows ships or what a domain relies on.

- Windows' own apps (``Microsoft.*``, ``Windows.*``) removed for every user or from the image
  (``Remove-AppxPackage -AllUsers``, ``Remove-AppxProvisionedPackage -Online``), named on the line or
  by the ``Get-AppxPackage`` that feeds the removal;
- Windows' own scheduled tasks (under ``\\Microsoft\\Windows\\``: update, Defender, backup) disabled or
  deleted (``Disable-ScheduledTask``, ``Unregister-ScheduledTask``, ``schtasks /change /disable``);
- disks taken offline or made read-only (``Set-Disk -IsOffline $true``): their volumes disappear;
- TCP/IP unbound from adapters (``Disable-NetAdapterBinding -ComponentID ms_tcpip``);
- a DNS zone opened to unsigned updates (``-DynamicUpdate NonsecureAndSecure``), an application
  control policy replaced or removed (``Set-AppLockerPolicy`` without ``-Merge``, ``citool
  --remove-policy``), the Security or System log shrunk (``Limit-EventLog``, ``wevtutil sl /ms:``);
- the built-in Administrator disabled (``dsmod user … -disabled yes``, ``Set-ADUser -Enabled $false``),
  passwords let never expire; AD replication disabled (``repadmin /options +DISABLE_*``); a security
  template applied over the machine's policy (``secedit /configure``); a GPO backup imported over the
  Default Domain (Controllers) Policy; the domain or forest functional level raised (irreversible);
  a DHCP scope deactivated; drivers removed from the running system.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_SYSTEM_APP = lazy(r"(^|[\s'\"*])(microsoft|windows)\.|windowsstore|sechealthui|shellexperiencehost|"
                   r"startmenuexperiencehost|desktopappinstaller|vclibs|net\.native|ui\.xaml|aad\.brokerplugin|"
                   r"accountscontrol|lockapp|windowsdefender|immersivecontrolpanel", re.IGNORECASE)
_SYSTEM_TASK = lazy(r"\\?microsoft\\windows\\", re.IGNORECASE)
# Windows' own update and protection tasks, by the names they carry without their folder.
_VITAL_TASK_NAME = lazy(r"^(scheduled start|schedule scan|schedule scan static task|updatemodeltask|"
                        r"uso_uxbroker\w*|windows defender [\w ]+|sih|sihboot|automatic app update|"
                        r"reboot_ac|reboot_battery|maintenanceinstall|wakeupandinstall)$", re.IGNORECASE)
_VITAL_TASK = lazy(r"update|orchestrator|waasmedic|defender|backup|systemrestore|\bsr\b|bitlocker|"
                   r"tpm|chkdsk|wininet|servicing", re.IGNORECASE)
_ADMIN = lazy(r"(^|[\s'\"=,\\])(administrator|admin|krbtgt|root)([\s'\",]|$)", re.IGNORECASE)
_TRUE = frozenset({"$true", "true", "1", "yes"})
_FALSE = frozenset({"$false", "false", "0", "no"})
_SIZE = lazy(r"^(\d+)\s*(kb|mb|gb)?$", re.IGNORECASE)
_CRITICAL_LOGS = frozenset({"security", "system"})
_DEFAULT_POLICY = lazy(r"default\s+domain(\s+controllers)?\s+policy", re.IGNORECASE)


def _value(texts: list, name: str) -> str:
    """The value of PowerShell's ``-Name value`` or ``-Name:value`` (any case), '' when absent."""
    name = name.lower()
    for k, t in enumerate(texts):
        low = t.lower()
        if low == name and k + 1 < len(texts):
            return texts[k + 1].strip("'\"")
        if low.startswith(name + ":"):
            return t.split(":", 1)[1].strip("'\"")
    return ""


def _has(texts: list, *names: str) -> bool:
    return any(t.lower().split(":", 1)[0] in names for t in texts)


def _feeders(c: Ctx) -> str:
    return " ".join(w.text for seg in c.chain for w in seg.words)


def _apps(c: Ctx, name: str) -> Optional[tuple]:
    everyone = _has(c.texts, "-allusers", "-online")
    named = " ".join(c.texts) + " " + _feeders(c)
    if _SYSTEM_APP.search(named):
        return HIGH, f"{c.prog} removes Windows' own apps{' for every user' if everyone else ''}: " \
                     f"the shell, the store or security may go with them ({c.text})"
    if everyone:
        where = "from the Windows image: no new user gets it" if name.endswith("provisionedpackage") else \
            "for every user of the machine"
        return MEDIUM, f"{c.prog} removes an app {where} ({c.text})"
    return None


def _tasks(c: Ctx, name: str) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    if name == "schtasks" and not ({"/change", "/delete"} & set(lowered) and
                                   ({"/disable", "/delete"} & set(lowered))):
        return None
    named = " ".join(c.texts) + " " + _feeders(c)
    task = _value(c.texts, "-taskname") or _value(c.texts, "/tn")
    if not _SYSTEM_TASK.search(named) and not _VITAL_TASK_NAME.match(task):
        return None
    what = "deletes" if name.startswith("unregister") or "/delete" in lowered else "disables"
    level = HIGH if _VITAL_TASK.search(named) or _VITAL_TASK_NAME.match(task) else MEDIUM
    return level, f"{c.prog} {what} Windows' own scheduled tasks (updates, protection, upkeep) ({c.text})"


def _disk(c: Ctx, name: str) -> Optional[tuple]:
    for option in ("-isoffline", "-isreadonly"):
        if _value(c.texts, option).lower() in _TRUE or any(t.lower() == option for t in c.texts) and \
                not _value(c.texts, option):
            what = "offline: its volumes disappear" if option == "-isoffline" else "read-only: every write fails"
            return HIGH, f"{c.prog} takes a {name.split('-', 1)[1]} {what} ({c.text})"
    return None


def _binding(c: Ctx, name: str) -> Optional[tuple]:
    component = _value(c.texts, "-componentid").lower()
    if component in ("ms_tcpip", "ms_tcpip6"):
        level = HIGH if component == "ms_tcpip" else MEDIUM
        return level, f"{c.prog} unbinds TCP/IP from network adapters: the machine drops off the network ({c.text})"
    return None


def _dns_zone(c: Ctx, name: str) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    if _value(c.texts, "-dynamicupdate").lower() == "nonsecureandsecure" or \
            name == "dnscmd" and "/config" in lowered and _value(lowered, "/allowupdate") == "1":
        return HIGH, f"{c.prog} lets anyone register DNS records in the zone (unsigned updates) ({c.text})"
    if _value(c.texts, "-securesecondaries").lower() == "transferanyserver" or \
            name == "dnscmd" and "/zoneresetsecondaries" in lowered and "/nonsecure" in lowered:
        return MEDIUM, f"{c.prog} hands the whole zone to any server that asks (zone transfers open) ({c.text})"
    return None


def _applocker(c: Ctx, name: str) -> Optional[tuple]:
    merge = _value(c.texts, "-merge").lower()
    if _has(c.texts, "-merge") and merge not in _FALSE:
        return None
    policy = _value(c.texts, "-xmlpolicy") + " " + _value(c.texts, "-policyobject")
    level = HIGH if re.search(r"empty|blank|allow|none|null|disable|audit", policy, re.IGNORECASE) else MEDIUM
    return level, f"{c.prog} replaces the whole application control policy ({c.text})"


def _citool(c: Ctx, name: str) -> Optional[tuple]:
    if _has(c.texts, "--remove-policy", "-rp"):
        return HIGH, f"citool removes an application control (WDAC) policy ({c.text})"
    return None


def _kilobytes(text: str) -> Optional[int]:
    m = _SIZE.match(text.strip())
    if not m:
        return None
    unit = {"kb": 1, "mb": 1024, "gb": 1024 * 1024}.get((m.group(2) or "").lower())
    return int(m.group(1)) * unit if unit else int(m.group(1)) // 1024  # bare numbers are bytes


def _event_log(c: Ctx, name: str) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    if name == "wevtutil":
        if not lowered[:1] or lowered[0] not in ("sl", "set-log"):
            return None
        log = lowered[1] if len(lowered) > 1 else ""
        size = next((_kilobytes(t.split(":", 1)[1]) for t in lowered if t.startswith(("/ms:", "/maxsize:"))), None)
    else:
        log = _value(c.texts, "-logname").lower()
        size = _kilobytes(_value(c.texts, "-maximumsize"))
    if size is None or size >= 4096 or not log:
        return None
    level = HIGH if log in _CRITICAL_LOGS else MEDIUM
    return level, f"{c.prog} shrinks the {log} event log to {size} KB: its record is overwritten within minutes " \
                  f"({c.text})"


def _accounts(c: Ctx, name: str) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    joined = " ".join(c.texts)
    if name in ("set-localuser", "set-adaccountpassword") and _has(c.texts, "-password", "-newpassword") and \
            _ADMIN.search(joined):
        return MEDIUM, f"{c.prog} replaces the administrator's password ({c.text})"
    disabled = name == "dsmod" and _value(c.texts, "-disabled").lower() == "yes" or \
        name != "dsmod" and _value(c.texts, "-enabled").lower() in _FALSE
    if disabled and _ADMIN.search(joined):
        return HIGH, f"{c.prog} disables the administrator account: no one may log in to fix things ({c.text})"
    if name == "dsmod" and (_value(c.texts, "-pwdneverexpires").lower() == "yes" or
                            _value(c.texts, "-reversiblepwd").lower() == "yes" or
                            "-pwd" in lowered and _ADMIN.search(joined)):
        return MEDIUM, f"dsmod weakens an account's password rules or replaces its password ({c.text})"
    return None


def _wmic_account(c: Ctx, name: str) -> Optional[tuple]:
    joined = " ".join(c.texts).lower()
    if "useraccount" in joined and re.search(r"\bdisabled\s*=\s*(true|1)\b", joined) and _ADMIN.search(joined):
        return HIGH, f"wmic disables the administrator account: no one may log in to fix things ({c.text})"
    return None


def _protection(c: Ctx, name: str) -> Optional[tuple]:
    if _value(c.texts, "-protectedfromaccidentaldeletion").lower() in _FALSE:
        return MEDIUM, f"{c.prog} removes the protection against deleting it by accident ({c.text})"
    return None


# A security service switched off in the registry: its Start value set to 4 (disabled).
_SERVICE_KEY = lazy(r"\\services\\(wuauserv|usosvc|waasmedicsvc|windefend|wdnissvc|sense|mpssvc|"
                    r"securityhealthservice|wscsvc|eventlog|wdfilter|wdboot|bfe|sysmon\w*|termservice|sshd|"
                    r"winrm)\\?$", re.IGNORECASE)


def _service_start(c: Ctx, name: str) -> Optional[tuple]:
    raws = [w.raw.strip("'\"") for w in c.args]
    lowered = [r.lower() for r in raws]
    key = next((r for r in raws if _SERVICE_KEY.search(r.replace("/", "\\"))), "")
    if not key or "start" not in lowered:
        return None
    value = _value(lowered, "/d") or _value(lowered, "-value")
    if value == "4":
        return HIGH, f"{c.prog} disables {key.rstrip(chr(92)).rsplit(chr(92), 1)[-1]} at its next start: " \
                     f"a protection or the way in is gone ({c.text})"
    return None


def _replication(c: Ctx, name: str) -> Optional[tuple]:
    if any(t.upper().startswith("+DISABLE_") for t in c.texts):
        return HIGH, f"repadmin switches Active Directory replication off: domain controllers drift apart ({c.text})"
    return None


def _secedit(c: Ctx, name: str) -> Optional[tuple]:
    lowered = {t.lower() for t in c.texts}
    if "/configure" not in lowered:
        return None
    level = HIGH if "/overwrite" in lowered else MEDIUM
    return level, f"secedit applies a security template over the machine's policy (rights, audit, passwords) " \
                  f"({c.text})"


def _gpo(c: Ctx, name: str) -> Optional[tuple]:
    target = _value(c.texts, "-targetname") + " " + _value(c.texts, "-name")
    if _DEFAULT_POLICY.search(target) or name == "restore-gpo" and _has(c.texts, "-all"):
        return HIGH, f"{c.prog} overwrites the domain's default policy with another's settings ({c.text})"
    return None


def _functional_level(c: Ctx, name: str) -> Optional[tuple]:
    return HIGH, f"{c.prog} raises the functional level: it cannot be lowered again ({c.text})"


def _dhcp(c: Ctx, name: str) -> Optional[tuple]:
    if _value(c.texts, "-state").lower() == "inactive":
        return MEDIUM, f"{c.prog} deactivates a DHCP scope: its clients get no address ({c.text})"
    return None


def _driver(c: Ctx, name: str) -> Optional[tuple]:
    if _has(c.texts, "-online"):
        what = "a driver" if name.endswith("driver") else "an installed package or update"
        return MEDIUM, f"{c.prog} removes {what} from the running system ({c.text})"
    return None


def _mount_point(c: Ctx, name: str) -> Optional[tuple]:
    said = " ".join(w.raw for w in c.args).lower()  # `mountvol D:\ /D`: the shell reads `\ ` as a space
    if said.endswith((" /d", " /p")):
        return MEDIUM, f"mountvol removes a volume's mount point: what is on it is out of reach ({c.text})"
    return None


def _new_item(c: Ctx, name: str) -> Optional[tuple]:
    """``New-Item -ItemType File -Force PATH`` over an existing file leaves it empty, as ``Out-File`` would."""
    if not _has(c.texts, "-force") or _value(c.texts, "-itemtype").lower() not in ("", "file"):
        return None
    path = _value([w.raw for w in c.args], "-path") or next(
        (w.raw for k, w in enumerate(c.args) if not w.text.startswith("-") and
         (k == 0 or c.texts[k - 1].lower() not in ("-itemtype", "-type", "-name", "-value"))), "")
    found = c.recurse(f"Out-File {path}") if path else None
    return (found[0], f"{c.prog} -Force empties an existing file: {found[1]}") if found else None


_BY_NAME = {
    "remove-appxpackage": _apps, "remove-appxprovisionedpackage": _apps,
    "disable-scheduledtask": _tasks, "unregister-scheduledtask": _tasks, "schtasks": _tasks,
    "set-disk": _disk, "set-partition": _disk, "set-storagepool": _disk, "set-virtualdisk": _disk,
    "disable-netadapterbinding": _binding, "set-dnsserverzonetransfer": _dns_zone, "dnscmd": _dns_zone,
    "remove-windowspackage": _driver, "mountvol": _mount_point, "new-item": _new_item, "ni": _new_item,
    "set-adaccountpassword": _accounts, "wmic": _wmic_account, "set-adobject": _protection,
    "set-adorganizationalunit": _protection, "set-adgroup": _protection, "set-adcomputer": _protection,
    "reg": _service_start, "set-itemproperty": _service_start, "sp": _service_start, "new-itemproperty": _service_start,
    "set-dnsserverprimaryzone": _dns_zone, "add-dnsserverprimaryzone": _dns_zone,
    "set-dnsserverstubzone": _dns_zone, "set-applockerpolicy": _applocker, "citool": _citool,
    "limit-eventlog": _event_log, "wevtutil": _event_log,
    "dsmod": _accounts, "set-aduser": _accounts, "set-localuser": _accounts,
    "repadmin": _replication, "secedit": _secedit, "import-gpo": _gpo, "restore-gpo": _gpo,
    "set-addomainmode": _functional_level, "set-adforestmode": _functional_level,
    "set-dhcpserverv4scope": _dhcp, "set-dhcpserverv6scope": _dhcp, "remove-windowsdriver": _driver,
}


def rule_system_part(c: Ctx) -> Optional[tuple]:
    """A cmdlet or admin tool aimed at what Windows ships or a domain relies on."""
    name = c.prog.lower().removesuffix(".exe")
    judge = _BY_NAME.get(name)
    return judge(c, name) if judge is not None and (c.texts or c.chain) else None


# forfiles: /p PATH (where), /m MASK (which files), /s (recursive), /c "COMMAND" (run for each, @path = the file)
_FORFILES_VALUED = {"/p": ".", "/m": "*", "/d": "", "/c": ""}
_CMD_PREFIX = lazy(r"^\s*cmd(\.exe)?\s+/[ck]\s+", re.IGNORECASE)


def rule_forfiles(c: Ctx) -> Optional[tuple]:
    """``forfiles /p C:\\Users /s /c "cmd /c del /f /q @path"``: the command is judged on what it is given."""
    values = dict(_FORFILES_VALUED)
    texts = [w.raw.strip("'\"") for w in c.args]  # as written: the shell's reading drops the backslashes
    recursive = False
    for k, t in enumerate(texts):
        low = t.lower()
        if low in values and k + 1 < len(texts):
            values[low] = texts[k + 1]
        elif low == "/s":
            recursive = True
    command = _CMD_PREFIX.sub("", values["/c"])
    if command and "@" not in command:  # `/c "cmd /c rd /s /q C:\Data"`: a command of its own, run for each match
        found = c.recurse(command)
        return (found[0], f"{found[1]}, for every file forfiles finds") if found else None
    if not command:
        return None
    where = values["/p"].rstrip("\\") + "\\" + values["/m"]
    inner = re.sub(r"@(path|file|fname)\b", lambda m: '"' + where + '"', command, flags=re.IGNORECASE)
    first, _, rest = inner.partition(" ")
    if recursive and first.lower() in ("del", "erase", "rd", "rmdir"):
        inner = f"{first} /s {rest}"
    found = c.recurse(inner)
    return (found[0], f"{found[1]}, for every file forfiles finds") if found else None


# cmd's `for /r PATH %f in (SET) do COMMAND`: the parser splits it at the parentheses.
_CMD_FOR_VAR = lazy(r"^%%?[A-Za-z]$")


def rule_cmd_for(segs: list, recurse) -> Optional[tuple]:
    """``for /r C:\\Users %f in (*) do del /f /q "%f"``: the command judged on the files the loop walks."""
    for k, seg in enumerate(segs[:-2]):
        words = [w.raw for w in seg.words]
        if len(words) < 3 or words[0].lower() != "for" or words[-1].lower() != "in" or \
                not _CMD_FOR_VAR.match(words[-2]) or segs[k + 1].link != "(" or segs[k + 2].link != ")":
            continue
        switches = {w.lower() for w in words[1:-2] if w.startswith("/")}
        where = next((w.strip('"') for w in words[1:-2] if not w.startswith("/")), "")
        items = " ".join(w.raw for w in segs[k + 1].words).strip('"') or "*"
        command = " ".join(w.raw for w in segs[k + 2].words)
        name = words[-2].lstrip("%")
        each = (where.rstrip("\\") + "\\" + items) if where else items
        inner = re.sub(r"%%?" + re.escape(name) + r"\b", each.replace("\\", "\\\\"), command).replace('""', '"')
        first, _, rest = inner.partition(" ")
        if "/r" in switches and first.lower() in ("del", "erase", "rd", "rmdir"):
            inner = f"{first} /s {rest}"
        found = recurse(inner)
        if found:
            return found[0], f"{found[1]}, for every file the for loop walks"
    return None


RULES: dict = {name: [rule_system_part] for name in _BY_NAME} | {"forfiles": [rule_forfiles],
                                                                  "forfiles.exe": [rule_forfiles]}
