"""A hardening benchmark's service, account, boot and platform switches undone, and the settings read by
their key (rules/baseline_switches.py, rules/baseline_values.py): protecting kernel arguments removed, clear-text
login servers installed or started, service accounts given a shell, old TLS versions and the sticky-keys
debugger in the registry, weak lines in pwquality, faillock, hosts.allow, openssl.cnf and sshd_config; and the
benchmarks' own remediations (chmod og-rwx grub.cfg, 0440 sudoers.d, u-s, nologin for www-data) kept quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'sudo chmod u-s /usr/bin/sudo',  # a remediation's mode on a program that only works setuid
    'sudo chmod u-s /usr/bin/passwd',
    "sudo grubby --update-kernel ALL --remove-args='lockdown=integrity'",
    "sudo grubby --update-kernel=ALL --remove-args 'module.sig_enforce=1'",
    "sudo kernelstub -d 'lockdown=confidentiality'",
    'sudo mokutil --disable-validation',
    "sudo sed -i 's/^minlen.*/minlen = 1/' /etc/security/pwquality.conf",
    "echo 'minlen = 4' | sudo tee -a /etc/security/pwquality.conf",
    "echo 'deny = 0' | sudo tee -a /etc/security/faillock.conf",
    "sudo sed -i 's/^deny = .*/deny = 0/' /etc/security/faillock.conf",
    "echo 'ALL: ALL' | sudo tee -a /etc/hosts.allow",
    "echo 'sshd: ALL' >> /etc/hosts.allow",
    "sudo sed -i 's/^CipherString.*/CipherString = DEFAULT@SECLEVEL=0/' /etc/ssl/openssl.cnf",
    "sudo sed -i 's/^MinProtocol = TLSv1.2/MinProtocol = TLSv1/' /etc/ssl/openssl.cnf",
    "echo 'PermitUserEnvironment yes' | sudo tee -a /etc/ssh/sshd_config",
    "sudo sed -i 's/^#\\?HostbasedAuthentication.*/HostbasedAuthentication yes/' /etc/ssh/sshd_config",
    "sudo sed -i 's/^IgnoreRhosts yes/IgnoreRhosts no/' /etc/ssh/sshd_config",
    "sudo sed -i 's/^UMASK.*/UMASK 000/' /etc/login.defs",
    "echo 'umask 000' | sudo tee -a /etc/profile",
    'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\SCHANNEL\\Protocols\\SSL'
    ' 3.0\\Server" /v Enabled /t REG_DWORD /d 1 /f',
    'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\SCHANNEL\\Protocols\\TLS'
    ' 1.0\\Server" /v Enabled /t REG_DWORD /d 1 /f',
    "New-ItemProperty -Path"
    " 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\SCHANNEL\\Protocols\\SSL"
    " 2.0\\Server' -Name Enabled -Value 1 -PropertyType DWord",
    'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution'
    ' Options\\sethc.exe" /v Debugger /t REG_SZ /d C:\\Windows\\System32\\cmd.exe /f',
    "Set-ItemProperty 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution"
    " Options\\utilman.exe' -Name Debugger -Value cmd.exe",
    'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultPassword /t'
    ' REG_SZ /d Passw0rd /f',
    "Set-ItemProperty -Path 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon' -Name"
    " DefaultPassword -Value 'hunter2'",
    'sudo apt install -y telnetd',
    'sudo dnf install -y telnet-server rsh-server',
    'sudo yum install tftp-server',
    'sudo apt-get install rsh-redone-server',
    'sudo systemctl enable --now telnet.socket',
    'sudo systemctl start rsh.socket rlogin.socket',
    'sudo systemctl enable --now tftp.socket',
    'Install-WindowsFeature Telnet-Server',
    'sudo usermod -u 0 -o alice',
    'sudo useradd -o -u 0 -g 0 -M svc',
    'sudo usermod -g 0 -G root,sudo deploy',
    'sudo usermod -s /bin/bash www-data',
    'sudo chsh -s /bin/bash nobody',
    'sudo usermod -s /bin/sh daemon',
    'sudo sysadminctl -autologin set -userName admin -password hunter2',
    'sudo defaults write /Library/Preferences/com.apple.loginwindow autoLoginUser admin',
    'sudo defaults write /Library/Preferences/com.apple.loginwindow GuestEnabled -bool true',
    'sudo /System/Library/CoreServices/RemoteManagement/ARDAgent.app/Contents/Resources/kickstart'
    ' -activate -configure -access -on -allowAccessFor -allUsers -privs -all',
    'dockerd -H tcp://0.0.0.0:2375',
    'echo \'{"hosts": ["tcp://0.0.0.0:2375", "unix:///var/run/docker.sock"]}\' | sudo tee /etc/docker/daemon.json',
    'kubectl create clusterrolebinding anon --clusterrole=cluster-admin --user=system:anonymous',
    'kubectl create clusterrolebinding open --clusterrole=cluster-admin --group=system:unauthenticated',
    'mysql -u root -e "CREATE USER \'admin\'@\'%\' IDENTIFIED BY \'\'; GRANT ALL ON *.* TO \'admin\'@\'%\'"',
    "redis-cli CONFIG SET requirepass ''",
    "sudo sed -i 's/^\\(Defaults.*\\)use_pty/\\1/' /etc/sudoers",
    "echo 'Defaults !requiretty' | sudo tee /etc/sudoers.d/tty",
    'Set-NetFirewallProfile -Name Public -DefaultInboundAction Allow',
    'netsh advfirewall set publicprofile firewallpolicy allowinbound,allowoutbound',
    'Enable-PSRemoting -Force -SkipNetworkProfileCheck; Set-Item WSMan:\\localhost\\Service\\AllowUnencrypted $true',
    'sudo echo 1 > /proc/sys/fs/suid_dumpable',
    'echo 2 | sudo tee /proc/sys/fs/suid_dumpable',
    'sudo sysctl -w net.ipv6.conf.all.accept_ra=2',
    "echo 'fs.suid_dumpable = 2' | sudo tee /etc/sysctl.d/50-coredump.conf",
    "echo '* hard core unlimited' | sudo tee -a /etc/security/limits.conf",
    "sudo sed -i 's/^ProcessSizeMax=0/ProcessSizeMax=2G/; s/^Storage=none/Storage=external/'"
    " /etc/systemd/coredump.conf",
])
def test_baseline_switched_off_is_flagged(command: str) -> None:
    assert reaches(command, "medium"), judged(command)


@each_form("command", [
    "sudo grubby --update-kernel ALL --remove-args 'selinux=0'",
    "sudo grubby --update-kernel ALL --remove-args='quiet rhgb'",
    "sudo grubby --update-kernel ALL --args='lockdown=integrity'",
    'mokutil --sb-state',
    'sudo mokutil --enable-validation',
    'sudo mokutil --import MOK.der',
    'cat /etc/security/pwquality.conf',
    "echo 'sshd: 10.0.0.0/8' | sudo tee -a /etc/hosts.allow",
    "openssl ciphers -v 'DEFAULT@SECLEVEL=2'",
    'umask 022',
    'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\SCHANNEL\\Protocols\\TLS'
    ' 1.2\\Server" /v Enabled /t REG_DWORD /d 1 /f',
    'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\SCHANNEL\\Protocols\\SSL'
    ' 3.0\\Server" /v Enabled /t REG_DWORD /d 0 /f',
    'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultUserName',
    'sudo apt install -y telnet',
    'sudo apt install -y openssh-server',
    'sudo apt remove telnetd',
    'sudo systemctl disable --now telnet.socket',
    'sudo usermod -aG sudo alice',
    'sudo usermod -s /bin/zsh alice',
    'chsh -s /usr/bin/fish',
    'sudo usermod -s /usr/sbin/nologin www-data',
    'sudo useradd -m -s /bin/bash bob',
    'sudo sysadminctl -autologin off',
    'defaults read /Library/Preferences/com.apple.loginwindow',
    'docker -H tcp://10.0.0.5:2376 --tlsverify ps',
    'kubectl create clusterrolebinding alice-admin --clusterrole=cluster-admin --user=alice@example.com',
    'redis-cli CONFIG GET requirepass',
    'sudo mount -o remount,noexec,nosuid,nodev /tmp',
    'sysctl fs.suid_dumpable',
    'echo 0 | sudo tee /proc/sys/fs/suid_dumpable',
    'ulimit -c unlimited',
    'sudo chmod 644 /etc/passwd',
    'sudo chmod 0440 /etc/sudoers.d/deploy',
    'sudo chmod u-s /usr/bin/find',
    'sudo chmod 600 /etc/cron.d/backup',
    'sudo chmod 640 /etc/shadow',
    'sudo chmod 700 /etc/cron.d',
    'sudo chmod go-rwx /etc/crontab',
    'sudo chmod og-rwx /boot/grub/grub.cfg',
    'sudo chmod 400 /boot/grub/grub.cfg',
    'sudo chmod 644 /etc/group',
    'sudo chmod g-w,o-w /etc/ssh/sshd_config',
])
def test_benchmark_remediations_and_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
