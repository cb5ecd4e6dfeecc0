"""Effect: Windows reset, stripped or cut off from its remote users, in the words of its own tools.

- Resetters told by switch (``/generalize``, ``/factoryreset``, ``/mbr /force``, ``/fixmbr``,
  ``/delete-driver … /uninstall``, ``/remove-device``, ``/remove-package``, ``/resetbase``) or by a
  CamelCase option (``MpCmdRun -RemoveDefinitions -All``): the machine's identity, boot code, drivers,
  updates or protection are taken away.  Any program's switch counts; reading ones (``/enum-drivers``,
  ``/get-packages``) stay quiet.
- The way remote users come in switched off: firewall rules for Remote Desktop, WinRM or SSH disabled,
  removed or set to block (``Disable-NetFirewallRule -DisplayGroup 'Remote Desktop'``, ``netsh
  advfirewall firewall set rule group="remote desktop" new enable=No``), ``fDenyTSConnections`` set to 1,
  the services stopped or disabled (``Stop-Service TermService``, ``Set-Service sshd -StartupType
  Disabled``), ``Disable-PSRemoting``.
- The machine shut down through WMI or CIM (``Invoke-CimMethod -ClassName Win32_OperatingSystem
  -MethodName Win32Shutdown``, ``(Get-WmiObject Win32_OperatingSystem).Win32Shutdown(1)``, ``wmic os
  call shutdown``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# Switches that reset or strip the system, and how much (a force switch beside raises the medium ones).
_RESET_SWITCHES = {"/generalize": HIGH, "/factoryreset": HIGH, "-factoryreset": HIGH, "/fixmbr": MEDIUM,
                   "/delete-driver": MEDIUM, "/remove-device": MEDIUM, "/remove-package": MEDIUM,
                   "/resetbase": MEDIUM, "/disable-feature": MEDIUM, "/uninstall": MEDIUM, "/mbr": MEDIUM,
                   "/remove-provisionedappxpackage": MEDIUM, "/revertpendingactions": MEDIUM, "/fixboot": MEDIUM,
                   "/rebuildbcd": MEDIUM, "/remove-capability": MEDIUM}
_FORCE_SWITCHES = {"/force", "/f", "/quiet", "/q", "/norestart", "-force", "-all", "/all"}
_CAMEL_REMOVE = re.compile(r"^-(Remove|Delete|Reset|Clear|Wipe|Purge)[A-Z]\w*$")
_READS = re.compile(r"^/(enum|get|list|query|info|check|scan|\?|help)", re.IGNORECASE)

# What remote users come in by: Remote Desktop, WinRM, SSH.
_REMOTE = lazy(r"remote\s*desktop|remotedesktop|\brdp\b|3389|winrm|windows remote management|5985|5986|"
               r"\bssh|openssh|remote\s*management|termservice|\bsshd\b|firewallapi\.dll,-28752", re.IGNORECASE)
_RULE_OFF = lazy(r"(-enabled\s*:?\s*(\$?false|0|no)\b|-action\s*:?\s*block\b|new\s+enable\s*=\s*no\b|"
                 r"\benable\s*=\s*no\b|\baction\s*=\s*block\b|\bmode\s*=\s*disable\b)", re.IGNORECASE)
_REMOTE_SERVICES = lazy(r"^(termservice|sshd|winrm|umrdpservice|sessionenv|ssh-agent)$", re.IGNORECASE)
_SHUTDOWN_METHOD = lazy(r"(^|\.)(win32shutdown(tracker)?|shutdown|reboot)$", re.IGNORECASE)


# What every finding of ``rule_windows_reset`` holds in the lowered line: a resetting switch, a feature or package
# cmdlet's name, or a CamelCase removal's verb (asked on every unflagged command: a line with none is skipped).
_RESET_WORDS = frozenset(_RESET_SWITCHES) | {"uninstall-windowsfeature", "remove-appx", "remove-windows", "-remove",
                                             "-delete", "-reset", "-clear", "-wipe", "-purge"}


@triggered_by(_RESET_WORDS)
def rule_windows_reset(c: Ctx) -> Optional[tuple]:
    """A resetting switch (``sysprep /generalize``, ``bootsect … /mbr /force``, ``pnputil /delete-driver
    x.inf /uninstall``) or a CamelCase removal (``MpCmdRun -RemoveDefinitions -All``)."""
    if not any(t[:1] == "/" or t[:1] == "-" and t[1:2].isupper() or t.lower() == "-factoryreset" for t in c.texts):
        return None  # no Windows switch, no CamelCase option: most commands leave here
    lowered = [t.lower() for t in c.texts]
    if any(_READS.match(t) for t in lowered):
        return None
    forced = bool(set(lowered) & _FORCE_SWITCHES)
    said = max(((level, t) for t in lowered if (level := _RESET_SWITCHES.get(t.split(":", 1)[0])) is not None),
               default=None)
    if said is not None:
        level = HIGH if said[1] == "/mbr" and forced else said[0]
        return level, f"{c.prog} {said[1]} resets or strips the system: what it removes does not come back ({c.text})"
    name = c.prog.lower()
    if name in ("uninstall-windowsfeature", "remove-windowsfeature") and "-remove" in lowered or \
            name.startswith(("remove-appx", "remove-windows")) and any(t.strip("'\"") == "*" for t in lowered):
        return MEDIUM, f"{c.prog} deletes what Windows installs from ({c.text})"  # no reinstall without media
    camel = next((t for t in c.texts if _CAMEL_REMOVE.match(t)), None)
    if camel is not None and forced:
        return MEDIUM, f"{c.prog} {camel} removes what the system relies on ({c.text})"
    return None


def rule_remote_access_off(c: Ctx) -> Optional[tuple]:
    """Firewall rules, the registry switch and the services remote users come in by, switched off."""
    name = c.prog.lower().removesuffix(".exe")
    joined = " ".join(c.texts)
    feeders = " ".join(w.text for seg in c.chain for w in seg.words)
    if name in ("disable-netfirewallrule", "remove-netfirewallrule") and _REMOTE.search(joined + " " + feeders) or \
            name == "set-netfirewallrule" and _REMOTE.search(joined + " " + feeders) and _RULE_OFF.search(joined) or \
            name == "netsh" and "firewall" in joined.lower() and _REMOTE.search(joined) and \
            (" delete " in f" {joined.lower()} " or _RULE_OFF.search(joined)):
        return HIGH, f"switches off the firewall's way in for remote sessions: remote users are cut off ({c.text})"
    if "fdenytsconnections" in joined.lower() and re.search(r"(-value|/d)\s+1\b", joined, re.IGNORECASE):
        return HIGH, f"turns Remote Desktop connections off: remote users are cut off ({c.text})"
    if name in ("stop-service", "spsv", "set-service") and any(_REMOTE_SERVICES.match(t.strip("'\"")) for t in c.texts):
        if name != "set-service" or re.search(r"-startuptype\s+disabled|-status\s+stopped", joined, re.IGNORECASE):
            return HIGH, f"stops the service remote users come in by ({c.text})"
    if name in ("remove-windowscapability", "uninstall-windowsfeature", "remove-windowsfeature") and \
            _REMOTE.search(joined):  # `Remove-WindowsCapability -Online -Name OpenSSH.Server~~~~0.0.1.0`
        return HIGH, f"removes the server remote users come in by ({c.text})"
    if name == "winrm" and c.texts[:1] in (["delete"], ["d"]) and "listener" in joined.lower():
        return HIGH, f"deletes the WinRM listener remote PowerShell comes in by ({c.text})"
    if name == "disable-psremoting":
        return MEDIUM, f"switches PowerShell remoting off: remote sessions stop ({c.text})"
    return None


@triggered_by("invoke-cimmethod", "invoke-wmimethod", "wmic", "shutdown", "reboot")
def rule_wmi_shutdown(c: Ctx) -> Optional[tuple]:
    """The machine shut down or restarted by a WMI or CIM method."""
    name = c.prog.lower().removesuffix(".exe")
    if name not in ("invoke-cimmethod", "invoke-wmimethod", "wmic") and "shutdown" not in name and \
            "reboot" not in name:
        return None  # read once for every program, bare ones too: leave at once
    lowered = [t.lower() for t in c.texts]
    method = ""
    if name in ("invoke-cimmethod", "invoke-wmimethod"):
        method = next((c.texts[k + 1] for k, t in enumerate(lowered[:-1]) if t in ("-methodname", "-name")), "")
        if not ("win32_operatingsystem" in " ".join(lowered) or "win32shutdown" in method.lower() or
                any("win32_operatingsystem" in w.text.lower() for seg in c.chain for w in seg.words)):
            method = ""
    elif name == "wmic" and "os" in lowered and "call" in lowered:
        method = lowered[lowered.index("call") + 1] if lowered.index("call") + 1 < len(lowered) else ""
    elif _SHUTDOWN_METHOD.search(name) and name.startswith(("$", ".")):
        method = name  # `(Get-WmiObject Win32_OperatingSystem).Win32Shutdown(1)`, `% { $_.Win32Shutdown(5) }`
    if method and _SHUTDOWN_METHOD.search(method.lower()):
        return MEDIUM, f"shuts the machine down or restarts it through WMI ({c.text})"
    return None


_REMOTE_CMDLETS = ("disable-netfirewallrule", "remove-netfirewallrule", "set-netfirewallrule", "netsh", "netsh.exe",
                   "set-itemproperty", "sp", "new-itemproperty", "reg", "reg.exe", "stop-service", "spsv",
                   "set-service", "disable-psremoting", "remove-windowscapability", "uninstall-windowsfeature",
                   "remove-windowsfeature", "winrm", "winrm.exe")
RULES: dict = {p: [rule_remote_access_off] for p in _REMOTE_CMDLETS}
for _p in ("remove-windowscapability", "uninstall-windowsfeature", "remove-windowsfeature"):
    RULES[_p] = [rule_remote_access_off, rule_windows_reset]
for _p in ("invoke-cimmethod", "invoke-wmimethod", "wmic", "wmic.exe"):
    RULES[_p] = [rule_wmi_shutdown]
