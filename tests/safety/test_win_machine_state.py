"""Access taken away from a tree (icacls /deny|/remove|/inheritance:r /t, cacls /R|/D|/P …:N /T), how executable
files open changed (assoc, ftype), volumes dismounted by force, the boot configuration imported over."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("cacls C:\\Users\\alice\\Documents /T /E /R alice", "medium"),
    ("cacls D:\\Data /T /E /P alice:N", "medium"),
    ("cacls D:\\Shares /T /E /D Everyone", "medium"),
    ("icacls C:\\Users\\alice\\Documents /deny alice:F /t", "medium"),
    ("icacls C:\\Users\\alice /inheritance:r /t", "medium"),
    ("icacls \"D:\\Shares\\Finance\" /remove:g \"CORP\\Finance\" /t", "medium"),
    ("icacls.exe E:\\Projects /remove \"Domain Users\" /T /C", "medium"),
    ("assoc .exe=txtfile", "medium"),
    ("assoc .lnk=", "medium"),
    ("ftype exefile=\"C:\\Users\\Public\\x.exe\" \"%1\" %*", "medium"),
    ("ftype batfile=notepad.exe \"%1\"", "medium"),
    ("fsutil volume dismount D:", "medium"),
    ("manage-bde -lock D: -forcedismount", "medium"),
    ("Lock-BitLocker -MountPoint D: -ForceDismount", "medium"),
    ("bcdedit /import C:\\Temp\\evil.bcd", "medium"),
    ("Set-Acl -Path C:\\Windows\\System32 -AclObject (Get-Acl C:\\Users\\Public)", "medium"),
    ("Set-Acl C:\\Windows -AclObject $acl", "medium"),
    ("Get-ChildItem C:\\Windows\\System32 -Recurse | Set-Acl -AclObject $acl", "high"),
])
def test_users_cut_off_from_files_programs_and_volumes_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "icacls .\\secrets.txt /inheritance:r",
    "icacls .\\project /grant alice:M /t",
    "icacls C:\\Users\\alice\\Documents",
    "cacls D:\\Data",
    "assoc .txt=txtfile",
    "assoc .exe",
    "ftype",
    "Lock-BitLocker -MountPoint D:",
    "fsutil fsinfo volumeinfo D:",
    "bcdedit /export C:\\Backup\\bcd.bak",
    "Set-Acl -Path .\\project\\secrets.txt -AclObject $acl",
    "Set-Acl -Path C:\\Users\\alice\\Documents\\report.docx -AclObject $acl",
    "Get-Acl C:\\Windows",
])
def test_their_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
