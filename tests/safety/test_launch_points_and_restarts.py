"""Registry values that make Windows run a program at logon, at boot or in place of one (Winlogon Shell and
Userinit, AppInit_DLLs, BootExecute, Lsa packages, SilentProcessExit) in any writer and key spelling; a
command told to restart the machine when done by a switch of its own (-Restart, -AutoReboot, /forcerestart)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("reg add \"HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\" /v Shell /t REG_SZ "
     "/d \"cmd.exe\" /f", "medium"),
    ("reg add \"HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\" /v Userinit /t REG_SZ "
     "/d \"C:\\Windows\\system32\\userinit.exe,C:\\Users\\Public\\x.exe\" /f", "medium"),
    ("Set-ItemProperty -Path \"HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\" -Name Shell "
     "-Value \"C:\\Users\\Public\\kiosk.exe\"", "medium"),
    ("New-ItemProperty -Path \"Registry::HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Windows\""
     " -Name AppInit_DLLs -Value \"C:\\Users\\Public\\hook.dll\" -Force", "medium"),
    ("reg add \"HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\" /v BootExecute /t REG_MULTI_SZ "
     "/d \"autocheck autochk *\\0C:\\x.exe\" /f", "medium"),
    ("reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa /v \"Notification Packages\" /t REG_MULTI_SZ "
     "/d \"scecli\\0evilfilter\" /f", "medium"),
    ("reg add \"HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\SilentProcessExit\\notepad.exe\" "
     "/v MonitorProcess /d \"C:\\x.exe\" /f", "medium"),
    ("sp 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon' Taskman C:\\Users\\Public\\t.exe",
     "medium"),
    ("Rename-Computer -NewName WS-NEW -Restart -Force", "medium"),
    ("Add-Computer -DomainName corp.local -Credential corp\\admin -Restart", "medium"),
    ("Install-WindowsFeature -Name Hyper-V -IncludeManagementTools -Restart", "medium"),
    ("Remove-Computer -UnjoinDomainCredential corp\\admin -WorkgroupName WG -Restart", "medium"),
    ("msiexec /i C:\\Temp\\agent.msi /qn /forcerestart", "medium"),
    ("wusa C:\\Temp\\kb5034441.msu /quiet /forcerestart", "medium"),
    ("pnputil /add-driver C:\\Drivers\\net.inf /install /reboot", "medium"),
    ("Install-ADDSForest -DomainName corp.local -InstallDns -Force -Restart", "medium"),
])
def test_launch_points_and_restarts_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Set-ItemProperty -Path \"HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\" -Name Shell "
    "-Value explorer.exe",
    "reg query \"HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\" /v Shell",
    "reg add HKCU\\Software\\MyApp /v Shell /d cmd.exe /f",
    "Install-WindowsFeature -Name Web-Server -Restart:$false",
    "Enable-WindowsOptionalFeature -Online -FeatureName Microsoft-Hyper-V -All -NoRestart",
    "msiexec /i setup.msi /qn /norestart",
    "Restart-Service Spooler",
    "Get-Help Restart-Computer",
    "echo restart",
])
def test_their_quiet_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
