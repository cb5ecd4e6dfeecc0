"""Windows administration from afar or through a file the line only names: Sysinternals' tools against
another machine or all of them, a machine named first, scripts run from a share, silent imports whose
file says what it does, BitLocker's recovery written over a drive, system files moved away."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("pskill -t \\\\DB01 sqlservr.exe", "medium"),
    ("pskill \\\\* explorer.exe", "high"),
    ("pskill64 -t \\\\APP02 -u corp\\admin w3wp", "medium"),
    ("psservice \\\\EXCH01 stop MSExchangeIS", "medium"),
    ("psservice \\\\DC01 config Netlogon disabled", "medium"),
    ("pssuspend \\\\DB01 sqlservr", "medium"),
    ("psfile \\\\FS01 D:\\Shares\\finance.xlsx -c", "medium"),
    ("psloglist -c Security", "medium"),
    ("psloglist \\\\DC01 -c System", "medium"),
    ("pspasswd \\\\* -u corp\\admin -p x Administrator NewP@ss1", "high"),
    ("handle -c 1A4 -p 4 -y", "medium"),
    ("movefile C:\\Windows\\System32\\drivers\\crowdstrike.sys \"\"", "medium"),
    ("sdelete64 -s -q C:\\Users", "medium"),
    ("sc \\\\DC01 config Netlogon start= disabled", "medium"),
    ("sc.exe \\\\APP01 delete AppSvc", "medium"),
    ("wevtutil /r:DC01 cl Security", "medium"),
    ("rwinsta 2 /server:TS01", "medium"),
    ("reset session 3 /server:TS01", "medium"),
    ("wscript //B //E:jscript \\\\HOST\\share\\update.js", "medium"),
    ("cscript //nologo \\\\fs01\\netlogon\\cleanup.vbs", "medium"),
    ("msiexec /i \\\\fs01\\share\\agent.msi /qn", "medium"),
    ("powershell -ExecutionPolicy Bypass -File \\\\fs01\\share\\deploy.ps1", "medium"),
    ("cmd /c \\\\fs01\\share\\wipe.bat", "medium"),
    ("regedit /s \\\\fs01\\share\\x.reg", "medium"),
    ("regedit.exe /s C:\\Temp\\remove-policies.reg", "medium"),
    ("reg import \\\\fs01\\share\\disable-defender.reg", "medium"),
    ("regini \\\\fs01\\share\\perms.ini", "medium"),
    ("ldifde -i -f \\\\fs01\\share\\delete-all-users.ldf", "medium"),
    ("csvde -i -f \\\\fs01\\share\\disable-users.csv", "medium"),
    ("ldapadd -x -D cn=admin,dc=corp -w x -f \\\\fs01\\share\\add-admins.ldif", "medium"),
    ("repair-bde C: E: -rp 111111-222222-333333-444444-555555-666666-777777-888888 -Force", "high"),
    ("repair-bde D: F: -kp E:\\key.bek -f", "high"),
    ("manage-bde -forcerecovery C:", "medium"),
    ("manage-bde -protectors -delete C:", "medium"),
    ("Move-Item C:\\Windows\\System32\\drivers\\netio.sys C:\\Temp\\", "medium"),
    ("reg add \"HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\" /v PendingFileRenameOperations "
     "/t REG_MULTI_SZ /d \"\\??\\C:\\Windows\\System32\\ntdll.dll\" /f", "medium"),
])
def test_remote_admin_tools_and_named_files_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "pslist \\\\DB01",
    "psinfo \\\\* -d",
    "pskill -?",
    "psservice \\\\EXCH01 query MSExchangeIS",
    "psservice \\\\EXCH01 start MSExchangeIS",
    "psloglist Security -n 50",
    "psloglist \\\\DC01 -s System",
    "psfile \\\\FS01",
    "pssuspend -r \\\\DB01 sqlservr",
    "handle -p 1234",
    "pendmoves",
    "psexec \\\\WEB01 ipconfig /all",
    "cscript //nologo C:\\Scripts\\inventory.vbs",
    "wscript .\\hello.js",
    "regedit",
    "reg export HKCU\\Software\\App app.reg",
    "reg query \\\\DC01\\HKLM\\SOFTWARE\\Policies",
    "reg import .\\app-settings.reg",
    "ldifde -f export.ldf -d \"DC=corp,DC=com\"",
    "csvde -f users.csv -r objectClass=user",
    "ldapadd -x -D cn=admin,dc=corp -w x -f new-users.ldif",
    "repair-bde -?",
    "manage-bde -status",
    "sc \\\\DB01 query MSSQLSERVER",
    "msiexec /i .\\agent.msi",
    "mi .\\a.txt .\\b.txt",
    "Move-Item C:\\Temp\\a.log C:\\Temp\\old\\",
])
def test_everyday_remote_admin_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("New-LocalUser 'support$' -NoPassword | Add-LocalGroupMember -Group Administrators", "high"),
    ("dsadd user \"CN=svc,OU=Users,DC=corp,DC=com\" -pwd P@ss1 -memberof \"CN=Domain Admins,CN=Users,DC=corp,DC=com\"",
     "medium"),
    ("Add-ADGroupMember -Identity 'Domain Admins' -Members eve", "medium"),
    ("Add-ADGroupMember 'Enterprise Admins' eve", "medium"),
    ("net group \"Domain Admins\" eve /add /domain", "medium"),
    ("dsmod group \"CN=Schema Admins,CN=Users,DC=corp,DC=com\" -addmbr \"CN=eve,OU=Staff,DC=corp,DC=com\"", "medium"),
    ("Add-ADPrincipalGroupMembership -Identity eve -MemberOf 'Domain Admins'", "medium"),
    ("samba-tool group addmembers 'Domain Admins' eve", "medium"),
    ("net localgroup administrators \"NT AUTHORITY\\Authenticated Users\" /add", "high"),
    ("SetACL.exe -on \"HKLM\\SYSTEM\\CurrentControlSet\\Services\" -ot reg -actn ace -ace \"n:Everyone;p:full\"",
     "medium"),
    ("SetACL.exe -on C:\\Windows -ot file -actn ace -ace \"n:S-1-1-0;p:full\"", "medium"),
    ("dsacls \"DC=corp,DC=com\" /G \"corp\\eve:GA\"", "medium"),
    ("ntrights -u Everyone +r SeDebugPrivilege", "high"),
    ("Add-AzRoleAssignment -SignInName eve@corp.com -RoleDefinitionName Owner -Scope /subscriptions/1111", "medium"),
    ("Get-ADUser -Filter * | Set-ADAccountPassword -Reset -NewPassword $pw", "high"),
    ("Get-LocalUser | Set-LocalUser -Password $pw", "high"),
    ("net user administrator /active:yes", "medium"),
    ("Enable-LocalUser -Name Guest", "medium"),
])
def test_privileges_handed_out_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Get-LocalGroupMember -Group Administrators",
    "net localgroup administrators",
    "Add-LocalGroupMember -Group 'Hyper-V Administrators' -Member $env:USERNAME",
    "Add-LocalGroupMember -Group docker-users -Member bob",
    "Get-ADGroupMember -Identity 'Domain Admins'",
    "dsget group \"CN=Domain Admins,CN=Users,DC=corp,DC=com\" -members",
    "Add-ADGroupMember -Identity 'Marketing' -Members eve",
    "net group \"Domain Admins\" /domain",
    "SetACL.exe -on C:\\Data -ot file -actn list",
    "Set-ADAccountPassword -Identity alice -OldPassword $old -NewPassword $new",
    "Enable-LocalUser -Name alice",
    "net user alice /active:yes",
    "ntrights -u corp\\svc_backup +r SeServiceLogonRight -m \\\\DB01",
    "ntrights -u Everyone -r SeDebugPrivilege",
])
def test_everyday_account_chores_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
