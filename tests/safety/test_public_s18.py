"""Classes seen in public collections of other people's attack commands (session 18, lane public): one (loud,
quiet) table per mechanism, the loud forms written in our own words for programs beyond the ones whose forms made
the class visible.  The collections' text is not kept here; the forms below are ours."""
from __future__ import annotations

from tests.safety.forms import each_form, table_holds
from tests.safety.test_long_tail import judged, reaches, stays_quiet

# Code that writes OVER a system file (awk's `print … > "P"`, Emacs Lisp's write-region, any awk's name): what the
# file held is gone whatever the text says, as after a shell's `>` (rules/code_writes.py; goawk and frawk read as
# awk too, rules/table.py).
CODE_WRITTEN_OVER = (
    ["gawk 'BEGIN { print \"/usr/lib/x.so\" > \"/etc/ld.so.preload\" }'",
     "mawk 'BEGIN { printf \"x\" > \"/etc/shadow\" }'",
     "nawk 'BEGIN { print \"\" > \"/etc/fstab\" }'",
     "busybox awk 'BEGIN { print \"127.0.0.1 localhost\" > \"/etc/hosts\" }'",
     "frawk 'BEGIN { print \"x\" > \"/etc/passwd\" }'",
     "goawk 'BEGIN { print \"ops ALL=(ALL) ALL\" >> \"/etc/sudoers\" }'",
     "original-awk 'BEGIN { print \"\" > \"/boot/grub/grub.cfg\" }'",
     "emacs --batch --eval '(write-region \"\" nil \"/etc/pam.d/sshd\")'"],
    ["gawk '{ print $1 > \"/tmp/ips.txt\" }' access.log", "awk '{ print > \"out.txt\" }' data.csv",
     "mawk -F: '{ print $1 }' /etc/passwd", "goawk 'BEGIN { print \"hi\" }'",
     "awk '{ print $0 > (\"split-\" NR \".txt\") }' big.txt",
     "emacs --batch --eval '(write-region \"x\" nil \"/tmp/note.txt\")'"])


def test_code_written_over():
    table_holds(CODE_WRITTEN_OVER)


# Any program's option that names the file it writes, read by what the option's name is made of (`-o`, `-oG=`,
# `--outFile`, `--output-file=`, `-Logfile`, `--dump-bin`, `--save-to`; a wrapper's, a saver's `-f`/`-w`), given a
# file whose loss rates high:
# the program's output replaces it (rules/written_options.py).  Quiet: ordinary outputs, logs under /var/log,
# an output directory, a format option, and a file named for the program that makes it.
WRITTEN_BY_OPTION = (
    ["masscan 10.0.0.0/8 -p80 -oG /etc/passwd", "gobuster dir -u http://x -w words.txt -o /etc/shadow",
     "ffuf -u http://x/FUZZ -w w.txt -of csv -o /etc/sudoers", "nuclei -u https://x --output=/etc/pam.d/common-auth",
     "hashcat -m 0 h.txt w.txt --outfile /etc/ld.so.preload", "lynis audit system --logfile /etc/fstab",
     "esbuild app.ts --bundle --outfile=/etc/hosts", "mitmdump -w /tmp/f --save-stream-file /etc/passwd",
     "perf record -o /boot/vmlinuz-linux ls", "trivy image alpine --output /root/.ssh/authorized_keys",
     "semgrep --config auto --json-output=/etc/shadow .", "zmap -p 443 --output-file=/etc/crontab",
     # a wrapper's output option, a saver's or dumper's file option
     "ltrace --output=/usr/bin/sudo ls", "sudo ltrace -o /etc/pam.d/sshd id", "valgrind --log-file=/etc/shadow ls",
     "pg_dumpall -f /etc/passwd", "tcpdump -i any -w /etc/sudoers", "mysqldump --result-file=/etc/shadow db",
     "xfsdump -f /etc/fstab /", "ebtables-save -f /etc/ld.so.preload"],
    ["masscan 10.0.0.0/8 -p80 -oG scan.txt", "gobuster dir -u http://x -w words.txt -o /tmp/found.txt",
     "ffuf -u http://x/FUZZ -w w.txt -of csv -o out.csv", "nuclei -u https://x --output=results.txt",
     "hashcat -m 0 h.txt w.txt --outfile cracked.txt", "lynis audit system --logfile /var/log/lynis.log",
     "esbuild app.ts --bundle --outfile=dist/app.js", "perf record -o perf.data ls",
     "trivy image alpine --format json --output report.json", "semgrep --config /etc/semgrep.yml --json .",
     "sudo grub-mkconfig -o /boot/grub/grub.cfg", "grub2-mkconfig -o /boot/grub2/grub.cfg",
     "yq -o json . /etc/app.yaml", "rollup -c --out-dir /usr/share/app",
     "ssh -o StrictHostKeyChecking=yes host", "nmap -oN /dev/null 10.0.0.1",
     "ltrace -o trace.txt ls", "tcpdump -i any -w cap.pcap", "pg_dumpall -f all.sql", "valgrind --log-file=vg.log ./a",
     "iptables-save -f /etc/iptables/rules.v4", "xfsdump -f /backup/root.dump /"])


def test_written_by_option():
    table_holds(WRITTEN_BY_OPTION)


# A registry value switching a protection off, read by its name's direction (`Disable…`/`No…` = 1, `Enable…`/
# `…Enabled` or the protection's own name = 0, `Start` = 4) under a protection's words, written by reg or
# PowerShell (rules/registry_switch_offs.py).  Quiet: the same values switched back on, and settings that are no
# protection (a theme, file extensions, autoplay).
REGISTRY_SWITCH_OFFS = (
    [r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Lsa" /v RunAsPPL /t REG_DWORD /d 0 /f',
     r'Set-ItemProperty -Path "HKLM:\SOFTWARE\Policies\Microsoft\Windows\PowerShell\Transcription" '
     r'-Name EnableTranscripting -Value 0',
     r'reg add "HKLM\SOFTWARE\Microsoft\Windows Defender\Features" /v TamperProtection /t REG_DWORD /d 0 /f',
     r'reg.exe add "HKLM\SYSTEM\CurrentControlSet\Services\Sysmon64" /v Start /t REG_DWORD /d 4 /f',
     r'New-ItemProperty -Path "HKLM:\SOFTWARE\Policies\Microsoft\Windows Defender\Windows Defender Exploit Guard'
     r'\Controlled Folder Access" -Name EnableControlledFolderAccess -Value 0 -PropertyType DWord',
     r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU" /v NoAutoUpdate /t REG_DWORD /d 1 /f',
     r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\DeviceGuard" /v EnableVirtualizationBasedSecurity /d 0 /f',
     r'sp -Path HKLM:\SYSTEM\CurrentControlSet\Services\EventLog -Name Start -Value 4',
     r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows Defender\Real-Time Protection" '
     r'/v DisableScanOnRealtimeEnable /t REG_DWORD /d 1 /f',
     r'Set-ItemProperty "HKLM:\SOFTWARE\Policies\Microsoft\Windows\PowerShell\ScriptBlockLogging" '
     r'-Name EnableScriptBlockLogging -Value 0x0',
     r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows Defender\MpEngine" /v MpEnablePus /t REG_DWORD /d 0 /f'],
    [r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Lsa" /v RunAsPPL /t REG_DWORD /d 1 /f',
     r'Set-ItemProperty -Path "HKLM:\SOFTWARE\Policies\Microsoft\Windows\PowerShell\Transcription" '
     r'-Name EnableTranscripting -Value 1',
     r'reg add "HKLM\SYSTEM\CurrentControlSet\Services\Sysmon64" /v Start /t REG_DWORD /d 2 /f',
     r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU" /v NoAutoUpdate /t REG_DWORD /d 0 /f',
     r'reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Themes\Personalize" /v EnableTransparency /d 0 /f',
     r'reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Explorer\Advanced" /v HideFileExt /t REG_DWORD /d 0 /f',
     r'reg add "HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\Explorer" /v NoDriveTypeAutoRun /d 255 /f',
     r'reg query "HKLM\SOFTWARE\Policies\Microsoft\Windows Defender" /v DisableAntiSpyware',
     r'Set-ItemProperty -Path "HKCU:\Control Panel\Desktop" -Name WallPaper -Value C:\pics\a.jpg',
     r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows Defender\MpEngine" /v MpEnablePus /t REG_DWORD /d 1 /f'])


def test_registry_switch_offs():
    table_holds(REGISTRY_SWITCH_OFFS)


# A syslog selector ending in `~` or `stop` throws records away (rules/guard_files.py, read by meaning for redirects,
# tee and code).  Quiet: reading the files, forwarding or filing selectors, the same lines elsewhere.
GUARD_FILES = (
    ["echo '*.* ~' | sudo tee -a /etc/rsyslog.d/00-quiet.conf", "echo 'authpriv.* stop' >> /etc/rsyslog.conf",
     "echo '*.*  ~' >> /etc/syslog-ng/conf.d/x.conf", "printf 'auth.*;authpriv.* ~\\n' >> /etc/syslog.conf",
     "echo ':programname, isequal, \"sshd\"' > /etc/rsyslog.d/01.conf; echo '& stop' >> /etc/rsyslog.d/01.conf",
     "python3 -c 'open(\"/etc/rsyslog.d/00-x.conf\",\"a\").write(\"*.* stop\\n\")'"],
    ["cat /etc/rsyslog.conf", "echo 'pass in all' >> /tmp/pf.conf",
     "echo '*.* @@10.0.0.5:514' | sudo tee -a /etc/rsyslog.d/50-remote.conf",
     "echo 'local0.* /var/log/app.log' >> /etc/rsyslog.d/30-app.conf", "echo '*.* ~' >> notes.txt",
     "grep stop /etc/rsyslog.conf"])


def test_guard_files():
    table_holds(GUARD_FILES)


# A cloud CLI switching off what watches the account: a stop/disable verb fused with a guard (`stop-logging`,
# `disable-security-hub`), a bare verb after a guard service, or an update told `--no-enable`/`--disabled`/
# `--enabled false`/`off`, for any provider's CLI (rules/cloud_guards_off.py).  Quiet: starting, describing, help,
# stopping a query or a job, switching a guard on, non-guard services.
CLOUD_GUARDS_OFF = (
    ["gcloud logging sinks update audit-sink --disabled", "gcloud services disable logging.googleapis.com --force",
     "az monitor diagnostic-settings update --name audit --resource /subscriptions/1/x --enabled false",
     "az security auto-provisioning-setting update --name default --auto-provision off",
     "oci cloud-guard configuration update --status DISABLED --reporting-region us-ashburn-1",
     "ibmcloud logging service-instance-update --disable", "aliyun actiontrail StopLogging --Name main",
     "tccli cloudaudit StopLogging --AuditName a1", "yc audit-trails trail deactivate --name main",
     "aws securityhub disable-security-hub", "aws guardduty update-detector --detector-id d1 --no-enable",
     "aws ec2 disable-ebs-encryption-by-default"],
    ["gcloud logging sinks update audit-sink --log-filter=severity>=ERROR",
     "gcloud services disable compute.googleapis.com",
     "az monitor autoscale update --enabled false --name web", "aws logs stop-query --query-id q1",
     "aws backup stop-backup-job --backup-job-id j1", "aws cloudtrail start-logging --name main",
     "aws cloudtrail describe-trails", "aws guardduty update-detector --detector-id d1 --enable",
     "aws cloudtrail stop-logging help", "ibmcloud logging service-instances",
     "aliyun actiontrail StartLogging --Name main"])


def test_cloud_guards_off():
    table_holds(CLOUD_GUARDS_OFF)


# A protection patched in the shell's own memory: a private field of AMSI, ETW or script-block logging set through
# reflection, or a function's bytes overwritten (rules/patched_protections.py, judged on the whole line).  Quiet:
# reading the same fields, reflection on other fields, text that names AMSI.
PATCHED_PROTECTIONS = (
    ["$a=[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils'); $f=$a.GetField('amsiContext',"
     "'NonPublic,Static'); [IntPtr]$p=$f.GetValue($null); [Int32[]]$b=@(0); "
     "[System.Runtime.InteropServices.Marshal]::Copy($b,0,$p,1)",
     "[Reflection.Assembly]::LoadWithPartialName('System.Core').GetType('System.Diagnostics.Eventing.EventProvider')"
     ".GetField('m_enabled','NonPublic,Instance').SetValue([Ref].Assembly.GetType('System.Management.Automation."
     "Tracing.PSEtwLogProvider').GetField('etwProvider','NonPublic,Static').GetValue($null),0)",
     "$s=[Ref].Assembly.GetType('System.Management.Automation.Utils').GetField('cachedGroupPolicySettings',"
     "'NonPublic,Static').GetValue($null); $s['ScriptBlockLogging']['EnableScriptBlockLogging']=0",
     "$p=[Win32]::GetProcAddress([Win32]::LoadLibrary('amsi.dll'),'AmsiScanBuffer'); "
     "[Win32]::VirtualProtect($p,[UIntPtr]5,0x40,[ref]0); "
     "[System.Runtime.InteropServices.Marshal]::Copy([Byte[]](0xB8,0x57,0,7,0x80,0xC3),0,$p,6)",
     "$e=[Win32]::GetProcAddress([Win32]::LoadLibrary('ntdll.dll'),'EtwEventWrite'); "
     "[Win32]::VirtualProtect($e,[UIntPtr]1,0x40,[ref]0); [Runtime.InteropServices.Marshal]::WriteByte($e,0xC3)",
     "$t=[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils'); "
     "$t.GetField('amsiSession','NonPublic,Static').SetValue($null,$null)"],
    ["[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils').GetField('amsiInitFailed','NonPublic,Static')"
     ".GetValue($null)", "Get-Help about_AMSI", "$x.GetType().GetField('count','NonPublic,Instance').SetValue($x, 5)",
     "Set-ItemProperty HKCU:\\Software\\App -Name Theme -Value 1", "$h['Enabled'] = 1",
     "[System.Runtime.InteropServices.Marshal]::Copy($src, 0, $dst, 16)"])


def test_patched_protections():
    table_holds(PATCHED_PROTECTIONS)


# PowerShell's saved history named as PSReadLine's option names it, `(Get-PSReadLineOption).HistorySavePath`,
# deleted, emptied or written over by any cmdlet or alias (rules/shell_histories.py).  Quiet: reading it, -WhatIf.
HISTORY_SAVE_PATH = (
    ["Remove-Item -Path (Get-PSReadLineOption).HistorySavePath -Force", "ri (Get-PSReadlineOption).HistorySavePath",
     "del (Get-PSReadLineOption).HistorySavePath", "Clear-Content (Get-PSReadLineOption).HistorySavePath",
     "Set-Content -Path (Get-PSReadLineOption).HistorySavePath -Value ''",
     "$o = Get-PSReadLineOption; Remove-Item $o.HistorySavePath"],
    ["Get-Content (Get-PSReadLineOption).HistorySavePath", "Remove-Item (Get-PSReadLineOption).HistorySavePath -WhatIf",
     "(Get-PSReadLineOption).HistorySavePath", "Set-Content -Path notes.txt -Value ''",
     "Copy-Item (Get-PSReadLineOption).HistorySavePath backup.txt"])


def test_history_save_path():
    table_holds(HISTORY_SAVE_PATH)


# The system's logger or a security service stopped or disabled through any init system or supervisor (rcctl,
# rc-update, update-rc.d, svcadm, sv, dinitctl, herd, initctl, sysrc), as systemctl's was (rules/service_units.py
# reads meaning's list); a security product's service stopped by cmdlets whose name is the verb (Stop-Service),
# by net stop, or set to Disabled (rules/security_products_off.py).  Quiet: starting, enabling, reading, other
# services.
GUARD_SERVICES_STOPPED = (
    ["rcctl disable syslogd", "rc-update del syslog-ng default", "update-rc.d rsyslog disable",
     "svcadm disable system-log", "sv down /etc/service/socklog", "dinitctl stop syslog-ng", "herd stop syslogd",
     "initctl stop rsyslog", "sysrc syslogd_enable=NO", "rcctl stop auditd",
     "Stop-Service -Name McAfeeDLPAgentService", "spsv -Name CylanceSvc -Force",
     "net stop \"Symantec Endpoint Protection\"", "Set-Service -Name SentinelAgent -StartupType Disabled"],
    ["rcctl start syslogd", "rcctl enable syslogd", "rc-update add syslog-ng default", "sv up socklog-unix",
     "svcadm enable system-log", "dinitctl status syslog-ng", "Stop-Service -Name Spooler",
     "Get-Service -Name McAfeeDLPAgentService", "Start-Service -Name CylanceSvc",
     "net start \"Symantec Endpoint Protection\"",
     "Set-Service -Name SentinelAgent -StartupType Automatic", "rcctl stop nginx"])


def test_guard_services_stopped():
    table_holds(GUARD_SERVICES_STOPPED)


# A credential tool's `module::command` that patches authentication, replaces a password, forges trust or blinds
# the log, read by the words whatever the program is called (rules/auth_patches.py).  Quiet: privilege::debug, other
# `::` words.  Since session 19 this machine's memory read (sekurlsa::) is loud under any name too: a credential store
# dumped (rules/stores_dumped.py, tests/safety/test_stores_harvested.py).
AUTH_PATCHES = (
    [r'C:\Temp\m64.exe "lsadump::setntlm /user:admin /ntlm:31d6cfe0d16ae931b73c59d7e0c089c0" exit',
     'kekeo.exe "misc::memssp" exit', r'.\mk.exe "event::clear" "event::drop" exit',
     r'& "C:\Tools\katz.exe" "privilege::debug" "lsadump::zerologon /target:dc01 /account:dc01$ /exploit" exit',
     'loader.exe -c "sid::add /sam:bob /new:S-1-5-21-1-500"', 'mimi "kerberos::golden /user:x /domain:d /ptt" exit',
     'wine mimikatz.exe "misc::skeleton" exit', 'm64.exe "sekurlsa::logonpasswords" exit'],
    ['mimikatz.exe "privilege::debug" exit',
     "[System.Text.Encoding]::UTF8.GetString($b)", 'kekeo "tgt::ask /user:bob" exit',
     "perl -MFile::Temp -e 1", "echo misc-skeleton"])


def test_auth_patches():
    table_holds(AUTH_PATCHES)


# A Windows program named with its .exe reads every rule its bare name has (rules/table.py): `schtasks.exe` was
# judged without system_parts' reading of Windows' own tasks, `wmic.exe` without taskkill's, `fsutil.exe` without
# cut_short's, `wevtutil.exe` and `reg.exe` without system_parts', `paexec.exe` without fleets'.
@each_form("command,at_least", [
    (r'schtasks.exe /Change /TN "\Microsoft\Windows\SystemRestore\SR" /disable', "high"),
    ('wmic.exe process where name="MsMpEng.exe" delete', "medium"),
    (r"fsutil.exe file seteof C:\data\db.mdf 0", "medium"),
    ("wevtutil.exe sl Security /ms:1048576", "high"),
    (r'reg.exe add "HKLM\SYSTEM\CurrentControlSet\Services\EventLog" /v Start /t REG_DWORD /d 4 /f', "high"),
    (r"paexec.exe \\* -s cmd /c shutdown /s /t 0", "high"),
])
def test_exe_names_read_every_rule(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", ["schtasks.exe /query /fo list", "wmic.exe process list brief",
                       "fsutil.exe fsinfo drives", "wevtutil.exe qe Security /c:5",
                       r"reg.exe query HKLM\SYSTEM\CurrentControlSet\Services\EventLog"])
def test_exe_names_everyday(command: str) -> None:
    assert stays_quiet(command), judged(command)
