"""Writes by tools no rule knew, one test per mechanism (each on forms of several programs, with look-alikes
that must stay quiet): crontab-like tools fed a job on a pipe, and programs the system needs replaced by
nothing through alternatives, diversions and bind mounts."""
from __future__ import annotations

from tests.safety.kept import assess


def _misses(flagged: list, quiet: list) -> list:
    misses = [f"quiet: {c}" for c in flagged if (assess(c).level if assess(c) else None) not in ("medium", "high")]
    misses += [f"flagged: {c}" for c in quiet if (assess(c).level if assess(c) else None) in ("medium", "high")]
    return misses


def test_crontab_likes_fed_a_job_that_stops_the_machine() -> None:
    flagged = [
        "echo '@ 5 /sbin/poweroff' | fcrontab -u root -",
        "echo '* * * * * shutdown -h now' | bcrontab -",
        "echo '@reboot /sbin/halt' | cronie-crontab -",
        "echo '0 * * * * systemctl poweroff' | dcron-crontab -u root -",
        "echo '*/10 * * * * /sbin/shutdown -r now' | scrontab -",
        "printf '0 0 * * * rm -rf /\\n' | fcrontab -",
        "echo '*/5 * * * * /sbin/reboot' | incrontab -",
        "fcrontab - <<'EOF'\n@ 5 /sbin/poweroff\nEOF",
        "cat <<EOF | fcrontab -u root -\n*/5 * * * * /sbin/reboot\nEOF",
        "sudo fcrontab -u root - <<< '*/5 * * * * reboot'",
    ]
    quiet = ["crontab -l", "fcrontab -l", "echo '0 3 * * * /usr/local/bin/backup.sh' | fcrontab -",
             "echo '@ 5 /usr/bin/make -C ~/site' | fcrontab -", "scrontab -l",
             "fcrontab - <<< '0 3 * * * /usr/local/bin/backup.sh'"]
    assert _misses(flagged, quiet) == []


def test_programs_the_system_needs_pointed_at_nothing() -> None:
    flagged = [
        "update-alternatives --install /bin/sh sh /bin/false 1000",
        "update-alternatives --install /usr/bin/sudo sudo /bin/true 100",
        "update-alternatives --set sh /bin/false",
        "alternatives --install /usr/bin/login login /usr/sbin/nologin 999",
        "alternatives --set sudo /usr/bin/true",
        "dpkg-divert --rename --divert /usr/bin/sudo.disabled --add /usr/bin/sudo",
        "dpkg-divert --rename --add /usr/sbin/sshd",
        "dpkg-divert --local --rename --divert /bin/su.off --add /bin/su",
        "dpkg-divert --rename --add /usr/bin/passwd",
        "mount --bind /bin/false /usr/bin/sudo",
        "mount -o bind /dev/null /usr/sbin/sshd",
    ]
    quiet = ["update-alternatives --set editor /usr/bin/vim.basic",
             "update-alternatives --install /usr/bin/python python /usr/bin/python3 1",
             "update-alternatives --install /bin/sh sh /bin/dash 100", "update-alternatives --display sh",
             "dpkg-divert --list", "dpkg-divert --add /usr/share/doc/foo/README",
             "mount --bind /srv/data /mnt/data"]
    assert _misses(flagged, quiet) == []


def test_configuration_resources_judged_as_the_writes_they_make() -> None:
    flagged = [
        "chef-apply -e \"file '/etc/resolv.conf' do content 'nameserver 10.0.0.1' end\"",
        "mitamae local /dev/stdin <<< \"file '/etc/nsswitch.conf' do content '' end\"",
        "itamae local /dev/stdin <<< \"file '/etc/pam.d/sshd' do content 'auth sufficient pam_permit.so' end\"",
        "chef-apply -e \"file '/etc/shadow' do action :delete end\"",
        "puppet apply -e \"file { '/etc/fstab': content => '' }\"",
        "puppet apply -e \"file { '/etc/hosts.deny': content => 'ALL: ALL' }\"",
        "ansible all -m copy -a \"dest=/etc/fstab content=''\"",
        "ansible localhost -m copy -a \"dest=/etc/resolv.conf content='nameserver 6.6.6.6'\"",
        "salt-call --local file.write /etc/nsswitch.conf ''",
        "salt-call --local file.managed /etc/passwd contents='root::0:0::/root:/bin/bash'",
        "pyinfra @local files.line path=/etc/ld.so.preload line=/tmp/evil.so",
    ]
    quiet = ["chef-apply -e \"file '/tmp/x' do content 'hi' end\"",
             "puppet apply -e \"file { '/tmp/hello': content => 'hi' }\"",
             "ansible localhost -m copy -a \"dest=./build/out.txt content='x'\"",
             "ansible localhost -m copy -a \"dest=/tmp/out.txt content='x'\"",
             "chef-apply -e \"file '/etc/motd' do content 'Welcome' end\"", "mitamae local recipe.rb",
             "puppet apply site.pp"]
    assert _misses(flagged, quiet) == []


def test_editors_scripted_onto_login_boot_and_auth_files() -> None:
    flagged = [
        "kak -f 'ggd' /etc/ssh/sshd_config",
        "kak -f '%d' /etc/pam.d/common-auth",
        "emacs --batch /etc/pam.d/common-auth --eval '(progn (erase-buffer) (save-buffer))'",
        "emacs -batch /etc/sudoers --eval '(progn (goto-char (point-max)) (insert \"x\") (save-buffer))'",
        "nvi -c '%d|wq' /etc/passwd",
        "elvis -c ':1,$d|:wq' /etc/shadow",
        "vile -c '%d' -c 'wq' /etc/fstab",
        "jed -batch /etc/shadow -f save_buffer",
        "zile --batch /etc/group --eval '(save-buffer)'",
    ]
    quiet = ["vim -c 'set nu' notes.txt", "vim -es -c '%s/foo/bar/g' -c wq src/main.c",
             "nvim --headless +PlugInstall +qa", "emacs --batch -l init.el -f org-export", "kak -f 'ggd' notes.txt",
             "kak /etc/ssh/sshd_config", "emacs --batch --eval '(save-buffer)' README.org", "vim /etc/fstab"]
    assert _misses(flagged, quiet) == []


def test_account_tools_overriding_a_login_shell_with_nothing() -> None:
    flagged = ["sss_override user-add alice -s /bin/false", "sss_override user-add root -s /sbin/nologin",
               "smbldap-usermod -s /bin/false bob", "lusermod -s /sbin/nologin alice",
               "homectl update alice --shell=/sbin/nologin", "cpu usermod -s /bin/false root",
               "ldapusermod --shell /usr/sbin/nologin carol"]
    quiet = ["useradd -s /sbin/nologin svc", "sss_override user-add alice -s /bin/bash",
             "homectl update alice --shell=/bin/zsh", "sss_override user-add www-data -s /usr/sbin/nologin",
             "git config core.editor false"]
    assert _misses(flagged, quiet) == []


def test_every_address_banned_or_every_packet_dropped() -> None:
    flagged = ["cscli decisions add --range 0.0.0.0/0", "fail2ban-client set sshd banip 0.0.0.0/0",
               "pfctl -t bruteforce -T add 0.0.0.0/0", "ipset add blacklist 0.0.0.0/1",
               "ovs-ofctl add-flow br-ex 'priority=65535,actions=drop'", "ovs-ofctl add-flow br0 actions=drop",
               "dpctl add-flow unix:/tmp/s1 'priority=65535,actions=drop'", "ip rule add pref 0 blackhole",
               "ip rule add priority 0 prohibit"]
    quiet = ["cscli decisions add --ip 1.2.3.4", "csf -d 203.0.113.5", "fail2ban-client set sshd unbanip 1.2.3.4",
             "ovs-ofctl add-flow br0 'priority=100,in_port=1,actions=output:2'",
             "ovs-ofctl add-flow br0 'priority=200,tcp,tp_dst=23,actions=drop'", "ovs-ofctl dump-flows br0",
             "ip rule add from 10.0.0.5 blackhole", "ip rule add from 10.0.0.0/8 lookup 100",
             "iptables -A OUTPUT -d 0.0.0.0/0 -p tcp --dport 25 -j DROP",
             "gcloud compute firewall-rules create deny-telnet --action=deny --rules=tcp:23 --source-ranges=0.0.0.0/0"]
    assert _misses(flagged, quiet) == []


def test_appliance_tools_switching_remote_login_off() -> None:
    flagged = ["raspi-config nonint do_ssh 1", "uci set dropbear.@dropbear[0].enable=0", "vim-cmd hostsvc/disable_ssh",
               "armbian-config main=System selection=SSH disable", "midclt call ssh.update '{\"enable\": false}'",
               "dietpi-config ssh off"]
    quiet = ["raspi-config nonint do_ssh 0", "raspi-config nonint do_vnc 1", "uci set dropbear.@dropbear[0].enable=1",
             "ssh -o StrictHostKeyChecking=no host off", "vim-cmd hostsvc/enable_ssh",
             "midclt call ssh.update '{\"enable\": true}'", "ssh-keygen -t ed25519",
             "docker run --name sshd-disabled alpine"]
    assert _misses(flagged, quiet) == []


def test_boot_command_replaced_by_one_that_boots_nothing() -> None:
    flagged = ["fw_setenv bootcmd 'echo halted'", "fw_setenv bootcmd 'sleep 9999'", "fw_setenv altbootcmd 'reset'",
               "uboot-env set bootcmd 'echo no'", "nvram set bootcmd='echo x'", "setenv bootcmd 'echo halted'",
               "uboot-tool setenv bootcmd 'sleep 1'", "libubootenv set bootcmd reset"]
    quiet = ["fw_setenv bootcmd 'run distro_bootcmd'", "fw_setenv bootcmd 'run bootcmd_mmc0'",
             "fw_setenv bootcmd 'mmc dev 0; ext4load mmc 0:1 ${kernel_addr_r} /boot/Image; booti ${kernel_addr_r}'",
             "nvram set bootcmd='run bootcmd_mmc'", "fw_setenv bootdelay 3", "fw_printenv bootcmd"]
    assert _misses(flagged, quiet) == []


def test_second_factor_secret_replaced_without_asking() -> None:
    flagged = ["google-authenticator --force --time-based --disallow-reuse --no-confirm",
               "google-authenticator -t -f -s /etc/secrets/root.ga -q",
               "ykman otp chalresp --force --generate 2", "ykman otp static --force 1 --generate",
               "ykpersonalize -1 -ochal-resp -ochal-hmac -y",
               "ykman oath accounts add --force github JBSWY3DPEHPK3PXP", "pass otp insert --force totp/github",
               "mfa-cli add --force aws-prod JBSWY3DP"]
    quiet = ["google-authenticator -t -d -r 3 -R 30 -w 3", "ykman oath accounts list", "ykman otp info",
             "ykman oath accounts add github JBSWY3DPEHPK3PXP", "ykman otp calculate 2 -f",
             "pass otp insert totp/github", "pass insert -f email/x", "curl -f https://otp.example.com"]
    assert _misses(flagged, quiet) == []
