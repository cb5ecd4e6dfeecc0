"""Records of what happened switched off, forged or erased, by any program (issue 23, session 19): a history's
recording switched off (rules/histories_off.py), the times of a record or a system file forged
(rules/times_forged.py), an audit trail switched off at high (rules/trails_off.py), and the histories and
clock forms the older rules did not reach (records_erased's history files, ``history -d N``, ``date MMDDhhmmCCYY``).
A record-keeping log switched off by a setting (rules/logging_off.py, guard_files), event logs cleared through WMI
(clear_cmdlets), and what a desktop keeps of what was run or connected to erased (records_erased).
Each table holds forms of many programs and the everyday near-misses that must stay quiet."""
from __future__ import annotations

from tests.safety.forms import table_holds
from tests.safety.kept import assess


def _levels(commands: tuple, level: str) -> list:
    return [f"{c} -> {v.level if v else None}" for c in commands if ((v := assess(c)) and v.level) != level]


# WHERE: any program's history setting (a name that says history), the shell's own words, any program's history
# option; THAT: nothing (empty, 0, /dev/null, NUL, $null, -), an ignore list taking every line, a refusing handler.
HISTORIES_OFF = ([
    "unset HISTFILE", "export HISTSIZE=0", "HISTFILE=/dev/null", "SAVEHIST=0", "set +o history",
    "shopt -u -o history", "typeset HISTFILE=",  # ksh
    "set history=0", "set savehist=", "unset savehist", "setenv HISTFILE /dev/null",  # tcsh
    "set -gx fish_history ''",  # fish: an empty session name saves nothing
    "Set-PSReadLineOption -HistorySaveStyle SaveNothing", "Set-PSReadLineOption -HistorySavePath NUL",
    "Set-PSReadLineOption -MaximumHistoryCount 0", "Set-PSReadLineOption -AddToHistoryHandler { return $false }",
    "$MaximumHistoryCount = 0", "$env:HISTFILE = 'NUL'", "Set-Variable -Name MaximumHistoryCount -Value 0",
    "export PYTHON_HISTORY=/dev/null", "export NODE_REPL_HISTORY=''", "export NODE_REPL_HISTORY_SIZE=0",
    "export MYSQL_HISTFILE=/dev/null", "export SQLITE_HISTORY=/dev/null", "export REDISCLI_HISTFILE=/dev/null",
    "export GDBHISTFILE=/dev/null", "export R_HISTSIZE=0",
    "launchctl setenv HISTFILE /dev/null", "export HISTIGNORE='*'", "HISTORY_IGNORE='*'",  # zsh
    "PSQL_HISTORY=/dev/null psql -h db", "HISTFILE=/dev/null bash", "env -u HISTFILE bash",
    "env HISTFILE=/dev/null mysql -u root", "ipython --HistoryManager.enabled=False",
    "sqlcipher --histfile=/dev/null x.db", "xonsh --no-history",
], [
    "export HISTSIZE=100000", "export HISTCONTROL=ignoreboth", "export HISTIGNORE='ls:cd:pwd'",
    "export HISTFILE=~/.local/state/bash/history", "export HISTTIMEFORMAT=''", "export HIST_STAMPS=''",
    "export HISTOGRAM_BINS=0", "set -o history", "shopt -s histappend", "set -e fish_history",
    "Set-PSReadLineOption -HistorySaveStyle SaveIncrementally", "Set-PSReadLineOption -MaximumHistoryCount 10000",
    "Set-PSReadLineOption -AddToHistoryHandler { param($l) $l -notmatch 'password' }",
    "helm upgrade app ./chart --history-max 0", "history | grep ssh", "fish --private", "vim -i NONE notes.txt",
    "echo $HISTFILE", "export LESSHISTFILE=~/.local/state/less/history",
    "export LESSHISTFILE=-", "LESSHISTFILE=/dev/null less notes.txt",  # a pager's searches: dotfiles' clean-up
])

# Histories erased: any program's dot history file, and chosen entries of bash's.
HISTORIES_ERASED = ([
    "rm ~/.gdb_history", ": > ~/.octave_hist", "shred -u ~/.viminfo", "ln -sf /dev/null ~/.viminfo",
    "rm ~/.scapy_history", "truncate -s0 ~/.php_history", "history -d -1", "history -d $((HISTCMD-1))",
    "history -d -2 && history -d -1", "history -d $(history 1 | awk '{print $1}')",
    "rm ~/.ipython/profile_default/history.sqlite", "rm ~/.julia/logs/repl_history.jl", "rm ~/.dbshell",
    "rm ~/.local/share/nvim/shada/main.shada", "doskey /listsize=0",
], [
    "cat ~/.gdb_history", "cp ~/.python_history /tmp/", "rm .Rhistory", "history 20", "grep ssh ~/.bash_history",
    "history -d offset", "history -d 1042", "rm -f ~/.lesshst", "doskey /listsize=100", "ls ~/.ipython/profile_default",
])

# WHERE: a record or a system file (or a system file as the reference); THAT: any program setting times.
TIMES_FORGED = ([
    "touch -r /bin/ls /tmp/backdoor", "touch -acmr /bin/sh /tmp/x", "touch -d '2020-01-01' /etc/passwd",
    "touch -m -t 197001010000.00 /usr/bin/sudo", "gtouch -d 2019-05-05 /usr/sbin/sshd",
    "touch --reference=/etc/hostname /etc/cron.d/job", "busybox touch -t 200001010000 /etc/rc.local",
    "SetFile -m '01/01/2010' /etc/hosts", "SetFile -d '01/01/2010 00:00:00' /System/Library/x.kext",
    "timestomp evil.exe -z '01/01/2015 00:00:00'", "Invoke-TimeStomp -Path x.exe",
    '(Get-Item C:\\Windows\\System32\\evil.dll).LastWriteTime = "01/01/2015"',
    '$f = Get-Item C:\\Windows\\x.exe; $f.CreationTime = (Get-Date "2010-01-01")',
    'Set-ItemProperty -Path C:\\Windows\\System32\\x.dll -Name LastWriteTime -Value "01/01/2010"',
    '[IO.File]::SetCreationTime("C:\\Windows\\System32\\drivers\\x.sys", [datetime]"2010-01-01")',
    "python3 -c \"import os; os.utime('/etc/passwd', (0, 0))\"",
    "ruby -e 'File.utime(Time.at(0), Time.at(0), \"/usr/bin/sudo\")'",
    "php -r \"touch('/etc/shadow', 0);\"", "go run x.go && os.Chtimes(\"/usr/bin/ssh\", t, t)",
    "date 010100001971", "date -u 0101000070", "sudo date 123123592001.00",
    'nircmd setfiletime "C:\\Windows\\System32\\x.dll" "01-01-2010 00:00:00" "01-01-2010 00:00:00"',
    'exiftool "-FileModifyDate=2010:01:01 00:00:00" /usr/bin/sudo',
], [
    "touch /var/log/app.log", "touch app.log", "touch -c /etc/passwd", "touch -r Makefile main.o",
    "touch -d yesterday file", "touch -t 197001010000.00 /tmp/x", "touch -d @0 build/x",
    "touch -t 202301010000 /usr/local/bin/x", "touch -d now /etc/motd", "stat /etc/passwd",
    "python3 -c \"import os; print(os.path.getmtime('/etc/passwd'))\"",
    "Get-Item C:\\Windows\\notepad.exe | Select-Object LastWriteTime",
    "(Get-Item .\\report.docx).LastWriteTime = Get-Date", "date +%Y%m%d", "date -d 20200101", "date 06131627",
    "date 010100002024", "ls -l --time-style=full-iso /etc", "exiftool -FileModifyDate /etc/hosts",
    'exiftool "-FileModifyDate<DateTimeOriginal" ~/Pictures/*.jpg',
])
FORGED_WHO_GOT_IN = (
    "touch -t 200101010000 /var/log/auth.log", "perl -e 'utime 0, 0, \"/var/log/auth.log\"'",
    "node -e \"require('fs').utimesSync('/var/log/wtmp', 0, 0)\"", "touch -r /var/log/syslog /var/log/btmp",
)

# An audit trail switched off or deleted by any tool: high.
TRAILS_OFF = (
    "auditctl -D", "auditctl -e 0", "auditctl -W /etc/passwd -p wa", "systemctl stop auditd",
    "systemctl disable --now auditd.service", "systemctl mask auditd", "service auditd stop", "/etc/init.d/auditd stop",
    "chkconfig auditd off", "rc-service auditd stop", "pkill auditd", "audit -t",
    "launchctl unload -w /System/Library/LaunchDaemons/com.apple.auditd.plist", "auditpol /clear /y",
    "auditpol /remove /allusers", "auditpol /set /subcategory:\"Logon\" /success:disable",
    "wevtutil sl Security /e:false", "net stop eventlog", "sc config eventlog start= disabled",
    "Stop-Service -Name EventLog -Force", "aws cloudtrail stop-logging --name trail1",
    "aws cloudtrail delete-trail --name trail1", "aliyun actiontrail StopLogging --Name t",
    "gcloud logging sinks delete my-sink", "gcloud logging sinks update my-sink --disabled",
    "az monitor diagnostic-settings delete --name x --resource r", "az monitor log-profiles delete --name default",
    "ibmcloud atracker target rm t1", "auditctl -a never,exit -F arch=b64 -S all", "service auditd onestop",
    "sysrc auditd_enable=NO", "svcadm disable svc:/system/auditd:default", "echo '-e 0' >> /etc/audit/rules.d/zz.rules",
    "esxcli system auditrecords local disable", "tccli cloudaudit StopLogging --AuditName a1",
    "tccli cloudaudit DeleteAudit --AuditName a1",
)
TRAILS_QUIET = (
    "auditctl -l", "auditctl -s", "auditctl -e 1", "systemctl status auditd", "systemctl restart auditd",
    "aws cloudtrail describe-trails", "aws cloudtrail start-logging --name trail1", "gcloud logging sinks list",
    "npm audit fix --force", "pip-audit -r requirements.txt", "cargo audit", "Get-Service EventLog",
    "sysrc auditd_enable=YES", "auditctl -w /etc/sudoers -p wa -k scope", "esxcli system auditrecords get",
    "gem uninstall paper_trail", "bundle remove paper_trail",
)


# A record-keeping log switched off by a setting, in any tool's spelling; database audits and the servers' records of
# who got in are high.
LOGGING_OFF = ([
    'appcmd.exe set config "Default Web Site" /section:httplogging /dontLog:true',
    "Set-WebConfigurationProperty -PSPath 'IIS:\\' -Filter system.webServer/httpLogging -Name dontLog -Value True",
    "appcmd set site /site.name:web /logFile.enabled:false", 'log config --mode "level:off"',
    "log config --mode persist:off --subsystem com.apple.sshd", "logman stop EventLog-System -ets",
    "mysql -u root -e \"SET GLOBAL general_log = 'OFF'\"", "mariadb -e 'SET sql_log_off = ON'",
    "psql -c \"ALTER SYSTEM SET log_statement = 'none'\"",
    "aws elbv2 modify-load-balancer-attributes --load-balancer-arn a "
    "--attributes Key=access_logs.s3.enabled,Value=false",
    "aws s3api put-bucket-logging --bucket b --bucket-logging-status '{}'",
    "gcloud logging settings update --organization=1 --disable-default-sink",
    "esxcli system syslog config set --logdir=/dev/null",
    "vim-cmd hostsvc/advopt/update Syslog.global.logDir string /dev/null",
    "gcloud compute networks subnets update s1 --no-enable-flow-logs",
    "az webapp log config -n app --web-server-logging off",
    "echo 'access_log off;' >> /etc/nginx/conf.d/x.conf",
    "echo 'CustomLog /dev/null combined' >> /etc/httpd/conf/httpd.conf",
], [
    "log show --last 1h", "log config --status", "logman query", "mysql -e \"SET GLOBAL general_log = 'ON'\"",
    "RUST_LOG=off cargo run", "app --log-level off", "appcmd set config /section:httplogging /dontLog:false",
    "gcloud compute backend-services update web --enable-logging", "kubectl logs web", "npm config set loglevel silent",
    "aws s3api get-bucket-logging --bucket b", "Set-Mailbox -Identity bob -AuditEnabled $true",
    "some-tool --log-file=/dev/null", "esxcli system syslog config set --loghost=udp://10.0.0.5:514",
    "echo 'access_log /var/log/nginx/x.log;' >> /etc/nginx/conf.d/x.conf",
])
LOGGING_OFF_HIGH = (
    "psql -c \"ALTER SYSTEM SET pgaudit.log = 'none'\"", "sqlplus / as sysdba <<< 'NOAUDIT ALL;'",
    "sqlcmd -Q 'ALTER SERVER AUDIT Audit1 WITH (STATE = OFF)'", "echo 'LogLevel QUIET' >> /etc/ssh/sshd_config",
    "sed -i 's/^#LogLevel INFO/LogLevel QUIET/' /etc/ssh/sshd_config", "echo 'Defaults !syslog' >> /etc/sudoers",
    "sed -i 's/^write_logs = yes/write_logs = no/' /etc/audit/auditd.conf",
    "wmic nteventlog call cleareventlog", "Invoke-CimMethod -ClassName Win32_NTEventlogFile -MethodName ClearEventlog",
    "Get-WmiObject Win32_NTEventlogFile | ForEach-Object { $_.ClearEventlog() }",
    "wmic nteventlog where \"logfilename='Security'\" call cleareventlog",
    "Remove-Item \"$env:ProgramFiles\\TeamViewer\\Connections_incoming.txt\"", "rm ~/.vnc/host:1.log",
    "Remove-Item \"$env:ProgramData\\AnyDesk\\ad_svc.trace\"",
    "Set-AdminAuditLogConfig -UnifiedAuditLogIngestionEnabled $false", "Set-OrganizationConfig -AuditDisabled $true",
    "Set-Mailbox -Identity bob -AuditEnabled $false",
)

# What a desktop keeps of what was run, opened and connected to, erased by any program.
ACTIVITY_ERASED = ([
    "wmic nteventlog where filename='system' call cleareventlog", "del %APPDATA%\\Microsoft\\Windows\\Recent\\*",
    "del /f /a:h %USERPROFILE%\\Documents\\Default.rdp", "rm ~/.local/share/recently-used.xbel",
    "ln -sf /dev/null ~/.local/share/recently-used.xbel",
    "Remove-Item $env:APPDATA\\Microsoft\\Windows\\Recent\\* -Force",
    "Remove-Item \"$env:LOCALAPPDATA\\Microsoft\\Terminal Server Client\\Cache\\*\"",
], [
    "dir %APPDATA%\\Microsoft\\Windows\\Recent", "ls ~/.local/share/", "cat ~/.local/share/recently-used.xbel",
    "Get-ChildItem C:\\Windows\\Prefetch", "wmic nteventlog get logfilename",
])


def test_histories_switched_off_by_any_program() -> None:
    table_holds(HISTORIES_OFF)


def test_histories_erased_by_any_program() -> None:
    table_holds(HISTORIES_ERASED)


def test_times_forged_on_records_and_system_files() -> None:
    table_holds(TIMES_FORGED)
    wrong = _levels(FORGED_WHO_GOT_IN, "high")
    assert not wrong, "\n".join(wrong)


def test_audit_trails_switched_off_are_high() -> None:
    wrong = _levels(TRAILS_OFF, "high")
    loud = [f"{c} -> {v.level}" for c in TRAILS_QUIET if (v := assess(c)) and v.level in ("medium", "high")]
    assert not wrong + loud, "\n".join(wrong + loud)


def test_logging_switched_off_by_a_setting() -> None:
    table_holds(LOGGING_OFF)
    wrong = _levels(LOGGING_OFF_HIGH, "high")
    assert not wrong, "\n".join(wrong)


def test_activity_records_erased() -> None:
    table_holds(ACTIVITY_ERASED)
