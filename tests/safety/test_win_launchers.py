"""Commands Windows launchers run (wsl, start, call, conhost, psexec on this machine, winrs, Windows at,
Invoke-Expression 'text') are judged as the command they run; a quiet command keeps the line quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("wsl rm -rf ~/Documents", "medium"),
    ("wsl.exe -u root rm -rf /home/alice", "high"),
    ("wsl --exec rm -rf ~/projects", "medium"),
    ("wsl -d Debian -e bash -c 'rm -rf ~/work'", "medium"),
    ("wsl.exe sudo dd if=/dev/zero of=/dev/sda", "high"),
    ("wsl --cd ~ shred -u ~/.ssh/id_ed25519", "medium"),
    ("start /b cmd /c rd /s /q C:\\Users\\alice\\Documents", "medium"),
    ("start \"\" /wait cmd /c rd /s /q C:\\Users\\alice\\Documents", "medium"),
    ("start \"cleanup\" /min vssadmin delete shadows /all /quiet", "high"),
    ("call rd /s /q C:\\Users\\alice\\Documents", "medium"),
    ("call wevtutil cl Security", "medium"),
    ("conhost.exe cmd /c rd /s /q C:\\Users\\alice\\Documents", "medium"),
    ("conhost --headless powershell -c \"Clear-Disk -Number 1 -RemoveData\"", "high"),
    ("psexec -s -i cmd /c rd /s /q C:\\Users\\alice\\Documents", "medium"),
    ("psexec -i 1 -s powershell -c \"Stop-Computer -Force\"", "medium"),
    ("PsExec64.exe -accepteula -s bcdedit /delete {current} /f", "high"),
    ("winrs -r:srv01 rd /s /q C:\\Data", "medium"),
    ("winrs.exe -r:http://srv02:5985 -u:corp\\admin vssadmin delete shadows /all /quiet", "high"),
    ("at 23:00 cmd /c rd /s /q C:\\Data", "medium"),
    ("at \\\\srv01 03:00 /every:M,T shutdown /s /f /t 0", "medium"),
    ("Invoke-Expression \"Remove-Item C:\\Users\\alice\\Documents -Recurse -Force\"", "medium"),
    ("iex 'Format-Volume -DriveLetter D -Force'", "high"),
    ("Invoke-Expression -Command 'vssadmin delete shadows /all /quiet'", "high"),
])
def test_commands_windows_launchers_run_are_judged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "wsl ls -la /mnt/c/Users/alice",
    "wsl --list --verbose",
    "wsl ~",
    "wsl -d Ubuntu -- uname -a",
    "start notepad",
    "start https://example.com",
    "start \"\" /wait msiexec /i setup.msi /qb",
    "call build.bat",
    "call npm test",
    "conhost.exe cmd /c dir",
    "psexec -s cmd",
    "psexec -i 1 -s whoami",
    "winrs -r:srv01 ipconfig /all",
    "at 23:00 cmd /c echo done",
    "iex \"Get-Date\"",
    "Invoke-Expression 'Get-ChildItem C:\\Users\\alice'",
])
def test_quiet_commands_windows_launchers_run_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("Start-Process -FilePath powershell.exe -ArgumentList '-NoProfile','-Command','Stop-Computer -Force' -Verb RunAs",
     "medium"),
    ("Start-Process cmd -ArgumentList '/c','rd /s /q C:\\Data' -Verb runAs -WindowStyle Hidden", "medium"),
    ("Start-Process -FilePath \"cmd.exe\" -ArgumentList \"/c format D: /q /y\" -Wait", "high"),
    ("saps -FilePath vssadmin.exe -ArgumentList 'delete','shadows','/all','/quiet'", "high"),
    ("Start-Process -FilePath wevtutil -ArgumentList 'cl','Security' -NoNewWindow", "medium"),
    ("%COMSPEC% /c rd /s /q C:\\Users\\alice\\Documents", "medium"),
    ("%ComSpec% /k vssadmin delete shadows /all /quiet", "high"),
    ("$env:ComSpec /c rd /s /q C:\\Data", "medium"),
])
def test_start_process_arrays_and_the_comspec_are_followed(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Start-Process msiexec.exe -ArgumentList '/i','C:\\Temp\\app.msi','/qb'",
    "Start-Process -FilePath notepad.exe -ArgumentList 'C:\\Users\\alice\\notes.txt'",
    "%COMSPEC% /c dir",
])
def test_their_quiet_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("Invoke-AzVMRunCommand -ResourceGroupName rg -Name vm01 -CommandId RunPowerShellScript "
     "-ScriptString 'Remove-Item C:\\Data -Recurse -Force'", "medium"),
    ("Invoke-VMScript -VM web01 -ScriptText 'rm -rf /var/www' -GuestCredential $cred", "high"),
    ("Set-AzVMRunCommand -ResourceGroupName rg -VMName vm01 -RunCommandName wipe "
     "-SourceScript \"vssadmin delete shadows /all /quiet\"", "high"),
    ("New-ScheduledTaskAction -Execute cmd.exe -Argument '/c rd /s /q C:\\Data'", "medium"),
    ("New-ScheduledTaskAction -Execute powershell.exe -Argument '-c Format-Volume -DriveLetter D -Force'", "high"),
    ("Invoke-AzVmssVMRunCommand -ResourceGroupName rg -VMScaleSetName ss -InstanceId 0 -CommandId RunShellScript "
     "-ScriptString 'shutdown -h now'", "medium"),
])
def test_scripts_given_as_option_values_are_judged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Invoke-AzVMRunCommand -ResourceGroupName rg -Name vm01 -CommandId RunPowerShellScript -ScriptString 'Get-Service'",
    "New-ScheduledTaskAction -Execute notepad.exe -Argument 'C:\\notes.txt'",
    "Invoke-VMScript -VM web01 -ScriptText 'uptime'",
])
def test_quiet_scripts_given_as_option_values_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("pcalua.exe -a cmd.exe -c \"/c rd /s /q C:\\Data\"", "medium"),
    ("pcalua -a C:\\Windows\\System32\\vssadmin.exe -c \"delete shadows /all /quiet\"", "high"),
    ("forfiles /p C:\\Windows\\System32 /m notepad.exe /c \"cmd /c rd /s /q C:\\Data\"", "medium"),
    ("SyncAppvPublishingServer.exe \"n; Remove-Item C:\\Data -Recurse -Force\"", "medium"),
    ("scriptrunner.exe -appvscript cmd.exe \"/c rd /s /q C:\\Data\"", "medium"),
])
def test_windows_own_launchers_are_followed(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "pcalua -a notepad.exe",
    "forfiles /p C:\\Logs /m *.log /c \"cmd /c echo @file\"",
    "forfiles /p C:\\Logs /c \"cmd /c echo hello\"",
    "SyncAppvPublishingServer.exe \"n; Get-Date\"",
    "scriptrunner -appvscript notepad.exe",
])
def test_quiet_commands_they_run_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
