"""Windows' own parts removed, switched off or weakened by its cmdlets and admin tools (the target decides:
Windows' own apps and tasks, disks, TCP/IP, DNS zones, application control, the Security log, the
Administrator, replication, the default domain policy, the functional level), and the command
``forfiles /c`` runs for every file it finds."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("Remove-AppxPackage -Package Microsoft.WindowsStore_22210.1401.6.0_x64__8wekyb3d8bbwe -AllUsers", "high"),
    ("Remove-AppxProvisionedPackage -Online -PackageName Microsoft.SecHealthUI_1000.0_neutral_~_8wekyb3d8bbwe",
     "high"),
    ("Get-AppxPackage *Microsoft.Windows.ShellExperienceHost* | Remove-AppxPackage", "high"),
    ("Remove-AppxProvisionedPackage -Online -PackageName Contoso.Tool_1.0_neutral_~_abc", "medium"),
    ("Disable-ScheduledTask -TaskPath '\\Microsoft\\Windows\\WindowsUpdate\\' -TaskName 'Scheduled Start'", "high"),
    ("Get-ScheduledTask -TaskPath '\\Microsoft\\Windows\\UpdateOrchestrator\\' | Disable-ScheduledTask", "high"),
    ("Disable-ScheduledTask -TaskName 'Microsoft\\Windows\\Windows Defender\\Windows Defender Scheduled Scan'",
     "high"),
    ("schtasks /Change /TN \"\\Microsoft\\Windows\\WindowsUpdate\\Scheduled Start\" /Disable", "high"),
    ("schtasks /Delete /TN \"\\Microsoft\\Windows\\Application Experience\\ProgramDataUpdater\" /F", "medium"),
    ("Set-Disk -Number 1 -IsOffline $true", "high"),
    ("Get-Disk | Where-Object IsSystem -eq $false | Set-Disk -IsOffline $true", "high"),
    ("Set-Disk -Number 0 -IsReadOnly:$true", "high"),
    ("Disable-NetAdapterBinding -Name * -ComponentID ms_tcpip", "high"),
    ("Disable-NetAdapterBinding -Name Ethernet -ComponentID ms_tcpip6", "medium"),
    ("Set-DnsServerPrimaryZone -Name corp.example -DynamicUpdate NonsecureAndSecure", "high"),
    ("Add-DnsServerPrimaryZone -Name lab.example -ZoneFile lab.dns -DynamicUpdate NonsecureAndSecure", "high"),
    ("Set-AppLockerPolicy -XmlPolicy C:\\temp\\empty.xml", "high"),
    ("Set-AppLockerPolicy -PolicyObject $policy -Merge:$false", "medium"),
    ("citool --remove-policy {d2bda982-ccf6-4344-ac5b-0b44427b6816}", "high"),
    ("citool.exe -rp {d2bda982-ccf6-4344-ac5b-0b44427b6816} -json", "high"),
    ("Limit-EventLog -LogName Security -MaximumSize 64KB -OverflowAction OverwriteAsNeeded", "high"),
    ("Limit-EventLog -LogName 'Windows PowerShell' -MaximumSize 64KB", "medium"),
    ("wevtutil sl Security /ms:1048576 /rt:false", "high"),
    ("dsmod user \"CN=Administrator,CN=Users,DC=corp,DC=example\" -disabled yes", "high"),
    ("dsmod user \"CN=svc_backup,OU=Svc,DC=corp,DC=example\" -pwdneverexpires yes", "medium"),
    ("Set-ADUser -Identity Administrator -Enabled $false", "high"),
    ("Set-LocalUser -Name Administrator -Enabled:$false", "high"),
    ("repadmin /options DC01 +DISABLE_OUTBOUND_REPL", "high"),
    ("repadmin /options * +DISABLE_INBOUND_REPL", "high"),
    ("secedit /configure /db C:\\Windows\\security\\local.sdb /cfg C:\\temp\\weak.inf /overwrite /quiet", "high"),
    ("secedit /configure /db secedit.sdb /cfg defltbase.inf /areas SECURITYPOLICY", "medium"),
    ("Import-GPO -BackupGpoName Baseline -Path C:\\GPOBackups -TargetName \"Default Domain Policy\"", "high"),
    ("Import-GPO -BackupId 1a2b3c4d-0000-0000-0000-000000000000 -Path C:\\b "
     "-TargetName 'Default Domain Controllers Policy' -CreateIfNeeded", "high"),
    ("Restore-GPO -All -Domain corp.example -Path \\\\fs01\\GpoBackups", "high"),
    ("Set-ADDomainMode -Identity corp.example -DomainMode Windows2016Domain", "high"),
    ("Set-ADForestMode -Identity corp.example -ForestMode Windows2016Forest -Confirm:$false", "high"),
    ("Set-DhcpServerv4Scope -ScopeId 10.0.0.0 -State InActive", "medium"),
    ("Remove-WindowsDriver -Online -Driver oem1.inf", "medium"),
    ("forfiles /p C:\\Users /s /m *.* /c \"cmd /c del /f /q @path\"", "high"),
    ("forfiles /p D:\\Backups /s /d -0 /c \"cmd /c rd /s /q @path\"", "medium"),
    ("forfiles /P C:\\Windows\\System32 /M *.dll /C \"cmd /c del @file\"", "medium"),
])
def test_windows_own_parts_removed_or_weakened_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Get-AppxPackage -AllUsers",
    "Get-AppxPackage *Spotify* | Remove-AppxPackage",
    "Remove-AppxPackage -Package Contoso.MyApp_1.0.0.0_x64__abc",
    "Get-AppxProvisionedPackage -Online",
    "Get-ScheduledTask -TaskPath '\\Microsoft\\Windows\\WindowsUpdate\\'",
    "Disable-ScheduledTask -TaskName MyBackupJob",
    "Enable-ScheduledTask -TaskPath '\\Microsoft\\Windows\\WindowsUpdate\\' -TaskName 'Scheduled Start'",
    "schtasks /Query /TN \"\\Microsoft\\Windows\\WindowsUpdate\\Scheduled Start\"",
    "Set-Disk -Number 2 -IsOffline $false",
    "Set-Disk -Number 1 -IsReadOnly $false",
    "Get-Disk",
    "Get-NetAdapterBinding -Name *",
    "Enable-NetAdapterBinding -Name Ethernet -ComponentID ms_tcpip6",
    "Set-DnsServerPrimaryZone -Name corp.example -DynamicUpdate Secure",
    "Get-AppLockerPolicy -Effective -Xml",
    "Set-AppLockerPolicy -XmlPolicy C:\\policies\\extra-rules.xml -Merge",
    "citool --list-policies",
    "Limit-EventLog -LogName Application -MaximumSize 20MB",
    "Get-EventLog -LogName Security -Newest 10",
    "wevtutil gl Security",
    "dsmod user \"CN=jdoe,CN=Users,DC=corp,DC=example\" -tel 555-0100",
    "Set-ADUser -Identity jdoe -Enabled $true",
    "repadmin /showrepl",
    "repadmin /options DC01 -DISABLE_OUTBOUND_REPL",
    "secedit /export /cfg C:\\temp\\current.inf",
    "secedit /analyze /db secedit.sdb /cfg baseline.inf",
    "Backup-GPO -Name \"Default Domain Policy\" -Path C:\\GPOBackups",
    "Import-GPO -BackupGpoName Baseline -Path C:\\GPOBackups -TargetName TestOU-Policy -CreateIfNeeded",
    "Get-ADDomain | Select-Object DomainMode",
    "Set-DhcpServerv4Scope -ScopeId 10.0.0.0 -State Active",
    "Get-WindowsDriver -Online",
    "forfiles /p C:\\logs /s /m *.log /d -30 /c \"cmd /c echo @path\"",
    "forfiles /p C:\\Temp\\build /s /m *.tmp /d -7 /c \"cmd /c del @path\"",
])
def test_the_same_tools_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
