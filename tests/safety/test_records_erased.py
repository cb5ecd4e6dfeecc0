"""The system's records erased by any program (rules/records_erased.py): WHERE records live (log roots, login
and audit records, journals, event logs, shell histories) and THAT a command erases them, whatever the program.
The traces of who got in are high."""
from __future__ import annotations

from tests.safety.forms import table_holds
from tests.safety.kept import assess

# Places and programs the delete and overwrite rules did not reach, or reached below their level.
ERASED = ([
    'echo "" > /var/run/utmp',  # a redirect over the current logins
    "rm /private/var/log/system.log",  # macOS's log root
    "rm /var/adm/sulog",  # who became root, on Solaris and AIX
    "cat /dev/null > /var/adm/wtmpx",
    ": > /var/adm/messages",
    "rm -f /var/account/acct",  # process accounting
    "gio trash /var/log/secure",  # moved to a trash can: gone from where it lives
    "trash-put /var/log/wtmp",
    "kioclient5 move /var/log/btmp trash:/",
    "grep -v 10.0.0.5 /var/log/auth.log > /tmp/a && mv /tmp/a /var/log/auth.log",  # a forged record
    "mount -t tmpfs tmpfs /var/log",  # mounted over: every record hidden
    "mount --bind /dev/null /var/log/wtmp",
    "bindfs /tmp/empty /var/log/audit",
    "tar --remove-files -czf /tmp/l.tgz /var/log/audit",
    "rsync -a --remove-source-files /var/log/ backup:/logs/",
    "fallocate --punch-hole -o 0 -l 1M /var/log/auth.log",
    "rclone deletefile /var/log/lastlog",
    "sudo srm -r /private/var/audit",
    "xcopy C:\\empty.evtx C:\\Windows\\System32\\winevt\\Logs\\Security.evtx /y",
], [
    "tail -f /var/log/syslog", "less /var/log/auth.log", "grep remove /var/log/dpkg.log",
    "zgrep -i delete /var/log/auth.log.2.gz", "journalctl --rotate", "sudo logrotate -f /etc/logrotate.conf",
    "rm -f ./logs/*.log", "rm -rf ~/.cache/app/logs", "cp /var/log/auth.log /backup/",
    "tar czf logs.tgz /var/log", "rsync -a /var/log/ /backup/logs/", "wevtutil epl Security C:\\backup\\sec.evtx",
    "last -f /var/log/wtmp", "utmpdump /var/log/wtmp", "truncate -s 0 app.log", ": > debug.log",
    "echo done >> /var/log/deploy.log", "mount /dev/sdb1 /mnt/logs", "sed -n '/sshd/p' /var/log/auth.log",
    "find /var/log -name '*.log' -mtime -1", "lastb -f /var/log/btmp",
    "install -d -m 755 -o app /var/log/app", "mount /dev/sdb1 /var/log",
    "rsync -a /srv/restore/ /var/log/",
    "wevtutil qe Security /c:5", "Get-EventLog -LogName Security -Newest 10", "wevtutil gl Security",
    'wevtutil el | ForEach-Object { wevtutil gli "$_" }', "Get-EventLog -List | ForEach-Object { $_.Log }",
    "ls /var/log/*.log | xargs wc -l", "ls /var/log | xargs -n1 echo",
    # given no input, a mailer or a reader only sends or reads the record named among its words
    'mail -s "logs" -A /var/log/app.log ops@example.com < /dev/null',
    'mutt -s "auth log" -a /var/log/auth.log -- admin@example.com < /dev/null',
    "swaks --to a@example.com --attach /var/log/secure < /dev/null", "grep -c sshd /var/log/auth.log < /dev/null",
    "ssh backup 'cat >> /srv/logs/web1.log' < /var/log/syslog",
])

# The traces of who got in, by any program: high, not medium.
WHO_GOT_IN = (
    "rm -f /var/log/auth.log", "unlink /var/log/lastlog", ": > /var/log/wtmp", "printf '' > /var/log/btmp",
    "cat /dev/null > /var/log/audit/audit.log", "dd if=/dev/null of=/var/log/secure", "cp /dev/null /var/log/lastlog",
    "ln -sf /dev/null /var/log/wtmp", "install -m 600 /dev/null /var/log/auth.log",
    "sponge /var/log/faillog < /dev/null", "tee /var/log/wtmp < /dev/null", "pv /dev/null > /var/log/btmp",
    "sed -i '/192.168.1.5/d' /var/log/auth.log", "perl -i -ne 'print unless /10.0.0.5/' /var/log/secure",
    "awk -i inplace '!/evil/' /var/log/auth.log", "utmpdump /var/log/wtmp | grep -v evil | utmpdump -r > /var/log/wtmp",
    "del C:\\Windows\\System32\\winevt\\Logs\\Security.evtx", "sudo rm -f /var/audit/*", "rm -rf /var/adm/*",
    'Remove-Item -Path "$env:SystemRoot\\System32\\winevt\\Logs\\Security.evtx"', "rip /var/log/tallylog",
    "wevtutil cl Security", "wevtutil.exe clear-log security", "Clear-EventLog -LogName Security",
    "Clear-EventLog Security,System", "Remove-EventLog -LogName Security",
    "wevtutil cl Microsoft-Windows-TerminalServices-LocalSessionManager/Operational",
    "ls /var/log/*.log | xargs truncate -s0", "truncate -s 0 /var/log/*.log", "echo /var/log/a* | xargs gio trash",
    "Copy-Item $null C:\\Windows\\System32\\winevt\\Logs\\Security.evtx",
    "ruby -e 'File.truncate(\"/var/log/auth.log\", 0)'", "node -e \"require('fs').writeFileSync('/var/log/wtmp','')\"",
    "python3 -c \"import os; os.remove('/var/log/secure')\"", "toybox truncate -s 0 /var/log/secure",
    '[System.Diagnostics.Eventing.Reader.EventLogSession]::GlobalSession.ClearLog("Security")',
    "Get-WinEvent -ListLog * | % { [System.Diagnostics.Eventing.Reader.EventLogSession]::GlobalSession.ClearLog("
    "$_.LogName) }",
    'wevtutil el | ForEach-Object { wevtutil cl "$_" }',
    "Get-EventLog -List | ForEach-Object { Clear-EventLog $_.Log }",
    "Get-EventLog -List | % { $_.Clear() }",
    "> /var/log/auth.log", "> /var/run/utmp", "> C:\\Windows\\System32\\winevt\\Logs\\Security.evtx",
)


def test_records_erased_by_any_program() -> None:
    table_holds(ERASED)


def test_traces_of_who_got_in_are_high() -> None:
    low = [f"{c} -> {assess(c)}" for c in WHO_GOT_IN if (assess(c) or type("V", (), {"level": None})).level != "high"]
    assert not low, "\n".join(low)
