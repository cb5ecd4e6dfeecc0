"""Windows emptied, reset or cut off in its own tools' words: Clear-* cmdlets for any noun, event logs
cleared through .NET, resetting switches of any program, the way remote users come in switched off,
shutdown through WMI or CIM; programs called by their full Windows path."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("Clear-Item -Path C:\\Data\\* -Force", "medium"),
    ("Clear-ItemProperty -Path HKLM:\\SOFTWARE\\App -Name * -Force", "medium"),
    ("Clear-Content C:\\inetpub\\wwwroot\\web.config -Force", "medium"),
    ("Clear-AzContext -Force", "medium"),
    ("Clear-AppvClientPackage -All", "medium"),
    ("Clear-ClusterDiskReservation -Disk 1 -Force", "medium"),
    ("Clear-StorageBusDisk -Force", "medium"),
    ("[System.Diagnostics.Eventing.Reader.EventLogSession]::GlobalSession.ClearLog('Security')", "medium"),
    ("(New-Object System.Diagnostics.Eventing.Reader.EventLogSession).ClearLog(\"System\")", "medium"),
    ("Get-EventLog -List | ForEach-Object { $_.Clear() }", "medium"),
    ("[System.Diagnostics.EventLog]::new('Security').Clear()", "medium"),
    ("Get-WinEvent -ListLog * | % { [System.Diagnostics.Eventing.Reader.EventLogSession]::GlobalSession"
     ".ClearLog($_.LogName) }", "medium"),
    ("Get-ChildItem C:\\Logs -Recurse | Clear-Content", "medium"),
    ("[System.IO.File]::WriteAllText('C:\\Windows\\System32\\drivers\\etc\\hosts', '')", "high"),
])
def test_clear_cmdlets_and_event_logs_cleared_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command,at_least", [
    ("C:\\Windows\\System32\\Sysprep\\sysprep.exe /generalize /quiet /oobe", "medium"),
    ("bootsect /nt60 C: /mbr /force", "high"),
    ("bootsect.exe /nt52 ALL /force /mbr", "high"),
    ("bootrec /fixmbr", "medium"),
    ("pnputil /delete-driver oem12.inf /uninstall /force", "medium"),
    ("pnputil /remove-device /deviceid 'PCI\\VEN_8086'", "medium"),
    ("MpCmdRun -RemoveDefinitions -All", "medium"),
    ("\"%ProgramFiles%\\Windows Defender\\MpCmdRun.exe\" -RemoveDefinitions -All", "medium"),
    ("DISM /Online /Remove-Package /PackageName:Package_for_KB123", "medium"),
    ("dism /online /cleanup-image /startcomponentcleanup /resetbase", "medium"),
    ("Uninstall-WindowsFeature -Name Web-Server -Remove", "medium"),
    ("Remove-AppxProvisionedPackage -Online -PackageName *", "medium"),
    ("Remove-WindowsCapability -Online -Name OpenSSH.Server~~~~0.0.1.0", "high"),
    ("bootrec /fixboot", "medium"),
    ("bootrec /rebuildbcd", "medium"),
])
def test_resetting_switches_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command,at_least", [
    ("Disable-NetFirewallRule -DisplayGroup 'Remote Desktop'", "high"),
    ("Disable-NetFirewallRule -Name RemoteDesktop-UserMode-In-TCP", "high"),
    ("Disable-NetFirewallRule -DisplayGroup 'Windows Remote Management'", "high"),
    ("Get-NetFirewallRule -DisplayGroup 'Remote Desktop' | Disable-NetFirewallRule", "high"),
    ("Set-NetFirewallRule -DisplayGroup 'Remote Desktop' -Enabled False", "high"),
    ("Set-NetFirewallRule -Name sshd -Action Block", "high"),
    ("Remove-NetFirewallRule -DisplayName 'OpenSSH Server (sshd)'", "high"),
    ("netsh advfirewall firewall set rule group=\"remote desktop\" new enable=No", "high"),
    ("netsh advfirewall firewall delete rule name=\"OpenSSH\"", "high"),
    ("Set-ItemProperty 'HKLM:\\System\\CurrentControlSet\\Control\\Terminal Server' -Name fDenyTSConnections "
     "-Value 1", "high"),
    ("reg add \"HKLM\\SYSTEM\\CurrentControlSet\\Control\\Terminal Server\" /v fDenyTSConnections /t REG_DWORD "
     "/d 1 /f", "high"),
    ("Stop-Service TermService -Force", "high"),
    ("Set-Service -Name sshd -StartupType Disabled", "high"),
    ("Disable-PSRemoting -Force", "medium"),
    ("Invoke-CimMethod -ClassName Win32_OperatingSystem -MethodName Win32Shutdown -Arguments @{Flags=5}", "medium"),
    ("Invoke-CimMethod -ClassName Win32_OperatingSystem -MethodName Reboot", "medium"),
    ("Invoke-WmiMethod -Class Win32_OperatingSystem -Name Shutdown", "medium"),
    ("(Get-WmiObject Win32_OperatingSystem).Win32Shutdown(1)", "medium"),
    ("gwmi win32_operatingsystem | % { $_.Win32Shutdown(5) }", "medium"),
    ("Get-CimInstance Win32_OperatingSystem | Invoke-CimMethod -MethodName Shutdown", "medium"),
    ("wmic os where primary=1 call shutdown", "medium"),
    ("(Get-CimInstance Win32_OperatingSystem).Reboot()", "medium"),
    ("Disable-NetFirewallRule -Group '@FirewallAPI.dll,-28752'", "high"),
    ("netsh firewall set service type=remotedesktop mode=disable", "high"),
    ("winrm delete winrm/config/Listener?Address=*+Transport=HTTP", "high"),
])
def test_remote_access_cut_and_wmi_shutdowns_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Clear-Host",
    "Clear-DnsClientCache",
    "Clear-BCCache -Force",
    "Clear-Content .\\out.log",
    "Clear-ADAccountExpiration -Identity bob",
    "Get-EventLog -List",
    "Get-WinEvent -ListLog *",
    "sysprep /?",
    "pnputil /enum-drivers",
    "dism /online /get-packages",
    "MpCmdRun -SignatureUpdate",
    "MpCmdRun -RemoveDefinitions",
    "bootsect /help",
    "Get-NetFirewallRule -DisplayGroup 'Remote Desktop'",
    "Enable-NetFirewallRule -DisplayGroup 'Remote Desktop'",
    "Disable-NetFirewallRule -DisplayName 'Block Telemetry'",
    "Set-NetFirewallRule -DisplayGroup 'Remote Desktop' -Enabled True",
    "Set-Service -Name sshd -StartupType Automatic",
    "Stop-Service Spooler",
    "Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine='notepad.exe'}",
    "Get-CimInstance Win32_OperatingSystem",
    "wmic os get caption",
    "C:\\Tools\\7z.exe l backup.7z",
    "Uninstall-WindowsFeature -Name Web-Server",
    "Get-ChildItem *.log | Clear-Content",
    "[System.IO.File]::WriteAllText('out.txt', 'hi')",
    "bootrec /scanos",
    "winrm enumerate winrm/config/Listener",
    "Remove-WindowsCapability -Online -Name Language.Handwriting~~~en-US~0.0.1.0",
])
def test_their_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
