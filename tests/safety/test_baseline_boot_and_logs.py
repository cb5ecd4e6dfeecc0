"""Boot, confinement and logging controls of the benchmarks undone (rules/baseline_switches.py): systemd's
debug shell, single-user mode without a password, containers run unconfined over the host's root, pod security
set privileged, Windows booted without signature checks or with its debugger, SIP and Apple boot security
lowered, every system call left unaudited, the journal vacuumed to nothing, remote logins for everyone."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'sudo systemctl enable --now debug-shell.service',
    'sudo systemctl unmask debug-shell',
    "sudo grubby --update-kernel ALL --args 'systemd.debug-shell=1'",
    "echo 'SINGLE=/sbin/sushell' | sudo tee -a /etc/sysconfig/init",
    "sudo sed -i 's/^SINGLE=.*/SINGLE=\\/sbin\\/sushell/' /etc/sysconfig/init",
    "echo 'Ciphers +3des-cbc,arcfour' | sudo tee -a /etc/ssh/sshd_config",
    "echo 'KexAlgorithms +diffie-hellman-group1-sha1' | sudo tee -a /etc/ssh/sshd_config.d/legacy.conf",
    "sudo sed -i 's/^#\\?MACs.*/MACs hmac-md5,hmac-sha1/' /etc/ssh/sshd_config",
    'docker run --rm -it --privileged -v /:/host ubuntu chroot /host',
    'docker run --cap-add=ALL --pid=host -it alpine',
    'podman run --security-opt label=disable -v /:/mnt fedora',
    'kubectl label ns default pod-security.kubernetes.io/enforce=privileged --overwrite',
    'kubectl label --overwrite namespace prod pod-security.kubernetes.io/enforce=privileged',
    'sudo dnf install --nogpgcheck ./package.rpm',
    'sudo rpm -ivh --nosignature --nodigest pkg.rpm',
    'Set-ProcessMitigation -Name lsass.exe -Disable DEP,CFG',
    'bcdedit /set loadoptions DISABLE_INTEGRITY_CHECKS',
    'bcdedit /debug on',
    'manage-bde -off C:',
    "Disable-BitLocker -MountPoint 'C:'",
    'manage-bde -protectors -disable C: -RebootCount 0',
    'Suspend-BitLocker -MountPoint C: -RebootCount 0',
    'net localgroup "Remote Desktop Users" Everyone /add',
    'sudo csrutil enable --without kext',
    'csrutil enable --without fs --without debug',
    'sudo bputil -n -k -c',
    'sudo bputil --disable-boot-args-restriction',
    'sudo auditctl -a never,task',
    'sudo auditctl -a task,never',
    'sudo journalctl --vacuum-time=1s',
    'sudo ufw logging off',
    'sudo sysctl -w vm.unprivileged_userfaultfd=1',
    "sudo sysctl -w kernel.core_pattern='|/tmp/x.sh'",
    "sudo sed -i '/password_pbkdf2/d' /etc/grub.d/40_custom && sudo update-grub",
    'sudo rm /boot/grub2/user.cfg',
    "sudo sed -i 's/^\\s*auth\\s\\+required\\s\\+pam_faillock.so.*//' /etc/pam.d/system-auth",
    "sudo sed -i 's/enforce_for_root//' /etc/security/pwquality.conf",
    "sudo sed -i 's/^password.*pam_pwhistory.so.*//' /etc/pam.d/common-password",
    "echo 'Defaults !use_pty' | sudo tee /etc/sudoers.d/pty",
    "echo 'Defaults timestamp_timeout=-1' | sudo tee /etc/sudoers.d/forever",
    "echo 'Defaults:alice !authenticate' | sudo tee -a /etc/sudoers.d/alice",
])
def test_boot_confinement_and_logs_opened_are_flagged(command: str) -> None:
    assert reaches(command, "medium"), judged(command)


@each_form("command", [
    'sudo systemctl mask debug-shell.service',
    'systemctl status debug-shell',
    "sudo grubby --update-kernel ALL --remove-args 'systemd.debug-shell=1'",
    'grep SINGLE /etc/sysconfig/init',
    'docker run --rm -it ubuntu bash',
    'docker run --rm --cap-drop=ALL --security-opt no-new-privileges alpine id',
    'kubectl label ns default pod-security.kubernetes.io/enforce=restricted --overwrite',
    'kubectl get ns --show-labels',
    'sudo dnf install ./package.rpm',
    'rpm -K pkg.rpm',
    'Set-ProcessMitigation -Name app.exe -Enable DEP,CFG',
    'bcdedit /enum all',
    'manage-bde -status',
    'manage-bde -on C: -RecoveryPassword',
    'Enable-BitLocker -MountPoint C: -TpmProtector',
    'Suspend-BitLocker -MountPoint C: -RebootCount 1',
    'Get-BitLockerVolume',
    'net localgroup "Remote Desktop Users" alice /add',
    'csrutil status',
    'bputil -d',
    'sudo auditctl -l',
    'sudo journalctl --vacuum-time=30d',
    'sudo ufw logging on',
    'sudo ufw logging medium',
    'sysctl vm.unprivileged_userfaultfd',
    'sudo sysctl -w vm.unprivileged_userfaultfd=0',
    'sudo grub2-setpassword',
    'sudo visudo -c -f /etc/sudoers.d/pty',
])
def test_their_hardening_and_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
