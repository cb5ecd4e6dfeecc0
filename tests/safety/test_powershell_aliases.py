"""PowerShell's built-in aliases read as their cmdlets (``gsv | ? … | spsv -Force``), for any cmdlet the
rules know; the typed name keeps its own reading (``cli -c`` is Junos' shell too)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("gsv | ? Status -eq Running | spsv -Force", "medium"),
    ("gsv | ? {$_.Status -eq 'Running'} | spsv -Force", "medium"),
    ("gps | ? {$_.Name -ne 'explorer'} | kill -Force", "medium"),
    ("ls C:\\Users\\*\\AppData -Recurse | del -Force -Recurse", "medium"),
    ("rp -Path HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters -Name * -Force", "medium"),
    ("gwmi Win32_UserAccount | rwmi", "medium"),
    ("gwmi Win32_ShadowCopy | rwmi", "medium"),
    ("gcim Win32_ShadowCopy | rcim", "medium"),
    ("sc C:\\Windows\\System32\\drivers\\etc\\hosts -Value ''", "medium"),
    ("gsv *sql* | spsv -Force", "medium"),
    ("gsv | spsv -Force -ErrorAction SilentlyContinue", "medium"),
    ("gp HKLM:\\x | rni -NewName y; rd C:\\Windows\\Fonts -r -fo", "medium"),
    ("gsv | ? Name -like 'Win*' | Stop-Service -Force", "medium"),
    ("cli -c 'request system power-off'", "medium"),  # the typed name's own reading is kept
    ("gci C:\\Users -Recurse | % { ri $_.FullName -Force }", "high"),  # $_ is each path the listing walks
    ("Get-ChildItem C:\\Windows\\System32\\drivers | ForEach-Object { Remove-Item $_.FullName -Force }", "medium"),
])
def test_aliases_are_judged_as_their_cmdlets(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "gsv | ? Status -eq Running",
    "gsv | spsv -WhatIf",
    "gps | sort CPU -Descending | select -First 10",
    "gci C:\\Users -Recurse -Filter *.log",
    "ri .\\build -Recurse -Force",
    "rm -r -fo node_modules",
    "gci *.tmp | ri",
    "kill -Id 1234",
    "spsv -Name Spooler",
    "sasv -Name Spooler",
    "iwr https://example.com/file.zip -OutFile file.zip",
    "gc .\\log.txt -Tail 50 -Wait",
    "sc .\\out.txt -Value 'hello'",
    "mi .\\a.txt .\\b.txt",
    "Get-Help spsv",
    "Get-Alias spsv",
    "1..10 | % { $_ * 2 } | ? { $_ -gt 5 }",
    "gci | % { $_.Name }",
    "ls -la /etc",
    "kill -9 1234",
    "ps aux | sort -k3 | tail",
    "gci .\\build | % { ri $_.FullName -Force -Recurse }",
    "Get-ChildItem -Path .\\logs -Filter *.log | ForEach-Object { Remove-Item $_.FullName }",
])
def test_everyday_aliases_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("Stop-EC2Instance -InstanceId (Get-EC2Instance).Instances.InstanceId -Force", "medium"),
    ("Disable-PnpDevice -InstanceId (Get-PnpDevice -Class Net).InstanceId -Confirm:$false", "medium"),
    ("Set-NetFirewallRule -Name * -Enabled False", "medium"),
    ("Stop-Process -Id (Get-Process).Id -Force", "medium"),
    ("Disable-ScheduledTask -TaskName (Get-ScheduledTask).TaskName", "medium"),
    ("Stop-WebAppPool -Name (Get-IISAppPool).Name", "medium"),
    ("Set-NetAdapter -Name * -AdminStatus Down", "medium"),
    ("Stop-Service -Name (Get-Service).Name -Force", "medium"),
    ("Uninstall-Package -Name (Get-Package).Name -Force", "medium"),
    ("Dismount-DiskImage -ImagePath (Get-DiskImage).ImagePath", "medium"),
    ("spsv -Name * -Force", "medium"),
    ("gsv | Set-Service -StartupType Disabled", "medium"),
    ("Restart-Computer -ComputerName (Get-Content servers.txt) -Force", "medium"),
    ("Remove-Item -Path (Get-ChildItem -Path C:\\Users -Directory).FullName -Recurse -Force", "medium"),
    ("Remove-Item -LiteralPath ($env:SystemDrive + '\\') -Recurse -Force", "medium"),
])
def test_every_target_computed_inline_or_by_wildcard_is_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Stop-VM -Name * -WhatIf",
    "Set-NetFirewallRule -Name * -Enabled True",
    "Get-EC2Instance -InstanceId (Get-EC2Instance).Instances.InstanceId",
    "Start-EC2Instance -InstanceId (Get-EC2Instance).Instances.InstanceId",
    "Disable-NetAdapter -Name (Get-NetAdapter -Name Wi-Fi).Name -WhatIf",
    "Stop-Service -Name (Get-Service -Name Spooler).Name",
    "Enable-NetAdapter -Name *",
    "Remove-Variable -Name * -ErrorAction SilentlyContinue",
    "Remove-PSSession -Name *",
    "Remove-Job -Name * -Force",
    "Get-Job | Remove-Job -Force",
    "gjb | rjb -Force",
    "Get-PSSession | Remove-PSSession",
    "Remove-Module -Name *",
])
def test_everyday_wildcards_and_the_sessions_own_state_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("gsv Sense,WinDefend | Set-Service -StartupType Disabled", "medium"),  # the listing's names are the targets
    ("Start-Process cmd '/c rd /s /q C:\\Users' -Verb RunAs", "medium"),
    ("Expand-Archive -Path x.zip -DestinationPath C:\\ -Force", "high"),  # `C:\ -Force` is one POSIX word
    ("cpi .\\evil.dll C:\\Windows\\System32\\ -Force", "medium"),
    ("robocopy .\\payload C:\\Windows\\System32 /E /IS /IT", "medium"),
    ("Add-ADGroupMember -Identity Administrators -Members eve", "medium"),
])
def test_names_piped_positional_arguments_and_trailing_backslashes_are_read(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "help Remove-Item -Examples",
    "Get-Command -Verb Remove",
    "Get-Service -Name Spooler | Restart-Service",
    "Get-Service Spooler | Set-Service -StartupType Automatic",
    "robocopy C:\\Projects D:\\Backup\\Projects /E",
    "Add-LocalGroupMember -Group 'Event Log Readers' -Member svc_mon",
])
def test_help_and_everyday_copies_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
