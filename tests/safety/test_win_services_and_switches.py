"""Windows services that protect, record, back up or serve, stopped or disabled in every spelling (net stop,
sc stop/pause/config, Stop-Service, Suspend-Service, Set-Service -Status/-StartupType) by short or display
name; a Windows tool's action given as a slash switch (/zonedelete) read as the vocabulary reads --delete;
netsh's `delete` and net's `/delete` in their own grammar."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("net stop \"Windows Defender Antivirus Service\" /y", "medium"),
    ("net stop \"Windows Firewall\"", "medium"),
    ("net stop MSSQLSERVER /y", "medium"),
    ("net stop \"Windows Event Log\" /y", "medium"),
    ("net stop vss", "medium"),
    ("net stop \"SQL Server (MSSQLSERVER)\" /y", "medium"),
    ("net stop w3svc /y", "medium"),
    ("sc stop \"Sense\"", "medium"),
    ("sc.exe pause LanmanServer", "medium"),
    ("sc config VSS start= disabled", "medium"),
    ("sc config wbengine start= disabled", "medium"),
    ("Set-Service -Name EventLog -Status Stopped", "medium"),
    ("Stop-Service -DisplayName \"Windows Update\"", "medium"),
    ("Suspend-Service -Name MSSQLSERVER", "medium"),
    ("Stop-Service -Name VSS, wbengine -Force", "medium"),
    ("spsv -Name sdrsvc", "medium"),
    ("Set-Service -Name 'Background Intelligent Transfer Service' -StartupType Disabled", "medium"),
    ("net stop \"Microsoft Exchange Information Store\" /y", "medium"),
])
def test_guarding_and_serving_services_stopped_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "net stop spooler",
    "net stop MyDevService",
    "sc stop MyDevService",
    "Stop-Service Spooler",
    "net stop w3svc",
    "Stop-Service W3SVC",
    "Set-Service -Name wuauserv -StartupType Automatic",
    "net start wuauserv",
    "sc query WinDefend",
    "Restart-Service -Name MSSQLSERVER -Force",
    "Get-Service -DisplayName 'Windows Update'",
])
def test_other_services_and_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("dnscmd DC01 /zonedelete corp.contoso.com /f", "high"),
    ("dnscmd /recorddelete corp.contoso.com www A /f", "medium"),
    ("winmgmt /resetrepository", "medium"),
    ("netsh interface ipv4 delete address \"Ethernet\" 10.0.0.5", "high"),
    ("netsh wlan delete profile name=* i=*", "medium"),
    ("netsh http delete sslcert ipport=0.0.0.0:443", "medium"),
    ("netsh http delete urlacl url=http://+:80/", "medium"),
    ("netsh dhcp server delete scope 10.0.0.0 dhcpfullforce", "medium"),
    ("netsh ras delete authtype type=MSCHAPv2", "medium"),
    ("net share C$ /delete", "medium"),
    ("net share Data /delete /y", "medium"),
    ("net group \"Sales\" /delete /domain", "medium"),
    ("net computer \\\\WS-0142 /del", "medium"),
    ("schtasks /change /tn \"Backup Nightly\" /tr \"cmd /c rd /s /q C:\\Data\"", "medium"),
])
def test_windows_tools_own_deletes_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "dnscmd /zoneinfo corp.contoso.com",
    "dnscmd /enumrecords corp.contoso.com @",
    "bitsadmin /list /allusers",
    "w32tm /query /status",
    "winmgmt /verifyrepository",
    "sfc /scannow",
    "netsh interface ip delete arpcache",
    "netsh wlan show profiles",
    "net use Z: /delete",
    "net use * /delete /y",
    "net share",
    "schtasks /change /tn \"Backup Nightly\" /st 23:00",
    "du -sh /usr /var",
])
def test_their_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
