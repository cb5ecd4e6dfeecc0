"""WMI and CIM methods read by their names in any spelling (.Method(), -MethodName, Invoke-WmiMethod -Name,
wmic's call), Win32_Process.Create("…") judged as its command; system files renamed (ren, Rename-Item) judged
as moved away; a redirect onto a Windows path read as typed."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("Invoke-CimMethod -ClassName Win32_ShadowCopy -MethodName Delete", "high"),
    ("(Get-WmiObject Win32_Volume -Filter \"DriveLetter='D:'\").Format('NTFS', $true)", "high"),
    ("Get-CimInstance Win32_Volume -Filter \"DriveLetter='E:'\" | Invoke-CimMethod -MethodName Format", "high"),
    ("(Get-WmiObject Win32_Process -Filter \"Name='sqlservr.exe'\").Terminate()", "medium"),
    ("Get-CimInstance Win32_Process -Filter \"Name='w3wp.exe'\" | Invoke-CimMethod -MethodName Terminate", "medium"),
    ("Invoke-WmiMethod -Path \"Win32_Service.Name='WinDefend'\" -Name StopService", "medium"),
    ("(Get-WmiObject Win32_Service -Filter \"Name='wuauserv'\").ChangeStartMode('Disabled')", "medium"),
    ("Invoke-CimMethod -InputObject $svc -MethodName ChangeStartMode -Arguments @{StartMode='Disabled'}", "medium"),
    ("(Get-WmiObject -Class Win32_Product -Filter \"Name='Contoso Agent'\").Uninstall()", "medium"),
    ("gwmi Win32_UserProfile | ? { -not $_.Special } | % { $_.Delete() }", "high"),
    ("wmic product where \"name like 'Symantec%'\" call uninstall /nointeractive", "medium"),
    ("wmic process where name=\"sqlservr.exe\" call terminate", "medium"),
    ("wmic service where name='WinDefend' call stopservice", "medium"),
    ("([wmiclass]\"Win32_Process\").Create(\"cmd /c vssadmin delete shadows /all /quiet\")", "high"),
    ("Get-CimInstance -ClassName Win32_Share -Filter \"Name='Finance'\" | Invoke-CimMethod -MethodName Delete",
     "high"),
])
def test_wmi_methods_that_destroy_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "(Get-WmiObject Win32_Service -Filter \"Name='wuauserv'\").ChangeStartMode('Automatic')",
    "([wmiclass]\"Win32_Process\").Create(\"notepad.exe\")",
    "Get-WmiObject Win32_Process | ForEach-Object { $_.GetOwner() }",
    "Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine='notepad.exe'}",
    "Get-CimInstance Win32_Product | Select-Object Name",
    "wmic process list brief",
    "Get-WmiObject Win32_LogicalDisk | Select-Object DeviceID, FreeSpace",
])
def test_wmi_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("ren C:\\Windows\\System32\\winload.exe winload.bak", "high"),
    ("Rename-Item -Path C:\\Windows\\System32\\ntoskrnl.exe -NewName ntoskrnl.old", "high"),
    ("rni C:\\Windows\\System32\\drivers\\etc\\hosts hosts.bak", "high"),
    ("rename C:\\Windows\\System32\\config\\SAM SAM.old", "high"),
    ("Rename-Item 'C:\\Windows\\System32\\hal.dll' -NewName hal.bak", "high"),
    ("Rename-Item -LiteralPath C:\\bootmgr -NewName bootmgr.old", "high"),
    ("\"\" > C:\\Windows\\win.ini", "medium"),
    ("echo x > C:\\Windows\\System32\\drivers\\etc\\hosts", "high"),
    ("Get-Process > C:\\Windows\\System32\\config\\SAM", "high"),
    ("type nul > \"C:\\Program Files\\Contoso\\app.config\"", "medium"),
])
def test_windows_system_files_renamed_or_written_over_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "ren notes.txt notes-old.txt",
    "Rename-Item .\\old-name.txt new-name.txt",
    "Rename-Item C:\\Users\\alice\\Documents\\draft.docx final.docx",
    "echo x > .\\out.txt",
    "dir > C:\\Users\\alice\\listing.txt",
    "ipconfig > %TEMP%\\ip.txt",
])
def test_own_files_renamed_or_written_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
