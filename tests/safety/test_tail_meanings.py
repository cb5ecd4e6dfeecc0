"""What an unknown program's arguments say (session 12, s12-tail): a setting named and valued in separate
words (``key=K value=V``, ``-Name K -Value V``, ``K = V``, ``set K V``), a system file named as a write's
destination in a tool's own spelling (``dest=``, a template's ``SRC:DEST``, an in-place rewriter), a disk by its
bare name given a removing letter or verb and a drive's own erase, a stop made total in middleware and
partition-console words, an administrator's login shell or password taken away, and a public name pinned in the
hosts file.  Each class on programs beyond those of the training set; their everyday forms stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "bolt task run sysctl key=kernel.yama.ptrace_scope value=0 --targets web01",
    "confset --key fs.suid_dumpable --value 2",
    "appliancectl set net.ipv4.conf.all.accept_redirects 1",
    "grub-editenv /boot/grub/grubenv set kernelopts='root=/dev/sda9 init=/bin/bash'",
    "ubootenv setenv bootargs 'console=ttyS0 init=/bin/sh'",
    "Set-SqlSpConfig -SqlInstance db01 -Name xp_cmdshell -Value 1",
    "mwcli set sshd_config PermitRootLogin yes",
    "smfadm -s network/ssh setprop general/enabled = false",
    "usermgr modify alice account_locked=true",
    "Set-RemoteDesktopHost -Name rds02 -NewConnectionAllowed No",
    "regtool regsetval dword HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\System EnableLUA 0",
])
def test_settings_in_separate_words_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "confset --key vm.swappiness --value 10",
    "appliancectl set net.ipv4.tcp_syncookies 1",
    "ubootenv setenv bootargs 'console=ttyS0,115200 quiet'",
    "Set-SqlSpConfig -SqlInstance db01 -Name 'max server memory (MB)' -Value 8192",
    "mwcli get sshd_config PermitRootLogin",
    "smfadm -s network/ssh setprop general/enabled = true",
    "usermgr modify alice gecos='Alice B'",
    "bolt task run sysctl key=vm.swappiness value=10 --targets web01",
])
def test_settings_given_safe_values_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "mgmt file dest=/etc/hosts content=@hosts.txt",
    "salt-call --local file.managed name=/etc/resolv.conf source=salt://resolv.conf",
    "gomplate-render --template tpl/hosts.tmpl:/etc/hosts",
    "envtpl --template nsswitch.conf.j2:/etc/nsswitch.conf",
    "fastmod --accept-all -d /etc/ssh 'PermitRootLogin no' 'PermitRootLogin yes'",
    "ast-grep -p 'pam_unix.so' -r 'pam_permit.so' --update-all /etc/pam.d --write",
    "rexify file path=/etc/sudoers.d/deploy source=files/deploy",
])
def test_system_files_named_as_destinations_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "pyinfra host files.put src=app.conf dest=/home/deploy/app.conf",
    "envtpl --template app.j2:./app.conf",
    "fastmod --accept-all -d src 'foo' 'bar'",
    "consul-template -template in.ctmpl:/tmp/out.conf -once",
    "mgmt file dest=notes.txt content=hi",
    "pyinfra web1 files.get src=/etc/hosts dest=./hosts.web1",
    # a key=value given to a filter, a selector or a form: what is matched or sent, not a file written
    "auditctl -a always,exit -F path=/etc/shadow -p wa -k shadow",
    "sudo auditctl -a exit,always -F arch=b64 -F path=/etc/sudoers -F perm=wa",
    "curl -F path=/etc/hosts -F note=hi https://api.example.com/report",
    "http --form POST api.example.com/audit path=/etc/passwd",
    "fleetctl query --where path=/etc/crontab --hosts web1",
    "vulnscan report --filter target=/etc/ssh/sshd_config",
])
def test_own_files_as_destinations_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "gjournal clear ada1",
    "gshsec clear ada1 ada2",
    "graid remove raid0 ada3",
    "vxdiskadm-cli -d hdisk5",
    "zpoolctl detach tank ada2",
    "openSeaChest_Erase -d /dev/sg2 --performQuickestErase",
    "sedutil-cli --secureerase /dev/nvme0",
    "ssdtool -O secure-erase 0",
])
def test_disks_by_bare_names_and_drive_erases_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "gjournal list",
    "graid status raid0",
    "gshsec list ada1",
    "grub-probe -t drive /dev/sdX -d",
    "fls -r -m C: /dev/loop1p1",
    "lshw -c network -sanitize",
    "zpoolctl status tank",
])
def test_disks_listed_or_added_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "vmctl stop -a",
    "clusvcadm --stopall",
    "haclus -stopall",
    "lparctl -o off -r lpar -n web01",
    "hmcctl --operation shutdown -m p9",
    "vboxctl --state stopped web01",
])
def test_stops_made_total_in_their_own_words_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "vmctl status",
    "lparctl -o on -r lpar -n web01",
    "clusvcadm --startall",
    "vzdump --all --mode suspend --mailto root",
    "ldm list-domain -a",
])
def test_starts_and_backups_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "ipa user-mod admin --shell=/sbin/nologin",
    "useradmin -s /bin/false admin",
    "cloud-init-set --root-password ''",
    "VISUAL='perl -pi -e s/^root:x:/root::/' vipw",
    "echo 'toor::0:0:root:/root:/bin/sh' | luseradd-batch",
    "pw usermod root -s /usr/sbin/nologin",
])
def test_administrators_logins_taken_away_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "chpass -s /usr/local/bin/fish",
    "ipa user-mod alice --shell=/bin/zsh",
    "influx -username alice -password ''",
    "nxc smb 10.0.0.5 -u '' -p ''",
    "printf 'alice:pw\\n' | newusers",
])
def test_own_shells_and_client_logins_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "txeh add 127.0.0.1 registry.npmjs.org",
    "goodhosts add 10.1.1.1 github.com",
    "hostsmgr add 10.9.9.9 api.stripe.com",
    "Add-HostsEntry -IPAddress 127.0.0.1 -HostName update.microsoft.com",
    "hosts-manager set 0.0.0.0 pypi.org",
    "Reset-HostsFile",
])
def test_public_names_pinned_in_the_hosts_file_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "txeh add 127.0.0.1 myapp.test",
    "goodhosts list",
    "hostsmgr add 127.0.0.1 api.local",
    "hostess add local.example.com 127.0.0.1",
    "hostname -I",
])
def test_local_names_and_listings_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "kmutil unload -b com.crowdstrike.falcon.kext",
    "kextunload -b com.sentinelone.sentinel-kext",
    "fltmc detach WdFilter D:",
    "pnputil /delete-driver SysmonDrv.inf /uninstall",
    "drvctl unload csagent",
    "Uninstall-WindowsUpdate -KBArticleID KB5034441",
    "Hide-WUUpdate -KBArticleID KB5034763 -Confirm:$false",
    "Deny-WsusUpdate -UpdateId KB5034441",
    "choco uninstall KB2919355 -y",
    "dism /online /remove-package /packagename:Package_for_KB5034441~31bf3856ad364e35~amd64~~10.0.1.0",
])
def test_security_products_and_updates_taken_away_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "kmutil showloaded --list-only",
    "kextunload -b com.example.driver.usbserial",
    "fltmc filters",
    "Install-WindowsUpdate -KBArticleID KB5034441 -AcceptAll",
    "Get-WUHistory -Last 20",
    "choco install KB2919355 -y",
])
def test_products_listed_and_updates_installed_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "ifctl eth0 down",
    "nwmgr --disable -c lan0",
    "dhcp-client -r eth0",
    "ipadm disable-if -t net1",
    "netcfg-cli enp3s0 state=down",
    "ethtool-admin offline em0",
])
def test_interfaces_taken_down_by_their_names_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "ifctl eth0 up",
    "dhcp-client -i eth0",
    "ipadm show-if net1",
    "netcfg-cli enp3s0 mtu=9000",
    "pump -s -i eth0",
])
def test_interfaces_shown_or_brought_up_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "scrontab -r",
    "bcrontab -r",
    "fcrontab -r alice",
    "incrontab --remove",
    "crontab-ng -u root -r",
])
def test_cron_tables_removed_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "scrontab -l",
    "fcrontab -e",
    "incrontab ~/incron.table",
    "bcrontab jobs.txt",
])
def test_cron_tables_listed_or_installed_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "Suspend-ClusterGroup -Name FileServer",
    "Suspend-MailboxDatabaseCopy -Identity DB01\\EX02",
    "Suspend-SyncService -Name AADConnect",
    "Suspend-RDSessionHostServer -Name rds03",
    "Stop-AppService -ComputerName web01,web02,web03",
    "Stop-XenDesktopVM -Server ddc01,ddc02",
])
def test_pauses_and_stops_on_several_machines_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "Suspend-Job -Name nightly",
    "Suspend-PrintJob -PrinterName HP -ID 4",
    "Resume-ClusterGroup -Name FileServer",
    "Stop-AppService -ComputerName web01",
])
def test_shell_jobs_and_single_stops_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "fwctl deny ssh",
    "portctl close 22",
    "policyctl disable allow-rdp",
    "filterctl add --action drop --dport 22",
    "pfw rule add action=reject port=22",
    "delete-fw-rules all",
])
def test_the_way_in_closed_by_filter_tools_is_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "fwctl allow ssh",
    "portctl open 22",
    "filterctl add --action accept --dport 22",
    "filterctl list",
    "policyctl enable allow-rdp",
])
def test_the_way_in_opened_or_listed_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "ubootctl setenv bootcmd ''",
    "aixtune -a maxuproc=4",
    "Set-NicConfig -InterfaceAlias Ethernet0 -Dhcp Disabled",
    "netman set eth0.dhcp4 false",
    "boardenv set bootcmd ''",
])
def test_boot_commands_process_limits_and_dhcp_switched_off_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "grub2-reboot 'Rescue kernel'",
    "loaderctl --default rescue",
    "sdboot set-default fedora-rescue.conf",
    "bootcfg --kernel-args 'selinux=0'",
    "ubootctl --bootargs 'console=ttyS0 rd.break'",
    "bootmgr-cli --add-args 'systemd.unit=emergency.target'",
    "efiboot-util --next-boot 'Windows Recovery Environment'",
])
def test_unsafe_next_boots_chosen_by_boot_tools_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "bootcfg --kernel-args 'quiet splash'",
    "grub2-set-default 'Fedora Linux (6.8.9)'",
    "loaderctl --default arch",
    "bootmgr-cli --remove-args 'selinux=0'",
    "sdboot list",
])
def test_ordinary_boots_and_removed_words_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "cfgtool set system.ssh.enabled false",
    "sysconfig-edit set SSHD_ENABLED=no",
    "Set-AuditPolicy -Subcategory Logon -Success Disable -Failure Disable",
    "Set-SecurityPolicy -MinimumPasswordLength 0",
    "Set-UacLevel -Level Never",
    "authtool --enable-nullok",
    "hardenctl --disable-selinux",
    "sssctl config-set domain/corp access_provider permit",
    "policytool set lockout_threshold 0",
    "edgectl set default-inbound-policy drop",
])
def test_more_settings_that_weaken_or_close_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "cfgtool set system.ssh.enabled true",
    "Set-SecurityPolicy -MinimumPasswordLength 14",
    "authtool --disable-nullok",
    "./configure --disable-selinux --enable-static",
    "Set-AuditPolicy -Subcategory Logon -Success Enable -Failure Enable",
    "policytool set lockout_threshold 5",
    "edgectl set default-inbound-policy accept",
])
def test_the_same_settings_made_stronger_or_built_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "svcs -H -o fmri | xargs svcadm disable",
    "rc-status --servicelist | xargs -n1 rc-service stop",
    "rcctl ls on | xargs -n1 rcctl stop",
    "dinitctl list | awk '{print $NF}' | xargs -n1 dinitctl stop",
    "initctl list | cut -d' ' -f1 | xargs -n1 initctl stop",
    "runsvctrl x /etc/service/*",
    "runit-ctl d /etc/sv/*",
    "sv force-stop /var/service/*",
])
def test_every_listed_or_supervised_service_stopped_is_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "svcs -H -o fmri | grep nginx | xargs svcadm disable",
    "svcs -H -o fmri | xargs svcadm enable",
    "runsvctrl u /etc/service/*",
    "ls /etc/service/*",
    "rcctl ls on | xargs -n1 rcctl check",
])
def test_narrowed_lists_and_starts_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "tera --template fstab.tera data.json --out /etc/fstab",
    "ytt -f sysctl.yml --output-files /etc/sysctl.d",
    "dotbot -c install.conf.yaml --base-directory /etc",
    "renderctl --destination /etc/ssh/sshd_config sshd.tmpl",
    "kustomize-lite build --output /etc/systemd/system/agent.service",
    "cookiecutter-x --output-dir /etc/pam.d template/",
])
def test_system_files_named_by_output_options_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "tera --template app.tera data.json --out ./app.conf",
    "cfg-backup --output /etc/backup.tar",
    "renderctl --destination ~/.config/app.conf app.tmpl",
    "pandoc -o ~/motd.html README.md",
])
def test_own_outputs_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "Set-GPRegistryValue -Name 'Default Domain Policy' -Key 'HKLM\\Software\\Policies\\Microsoft\\Windows\\"
    "WindowsUpdate\\AU' -ValueName NoAutoUpdate -Type DWord -Value 1",
    "PolicyPlus.exe /set 'Turn off Microsoft Defender Antivirus' Enabled",
    "gpedit-cli -set 'Turn off Windows Defender SmartScreen' Enabled",
    "lgpo-tool set 'Turn off real-time protection' 1",
    "polctl set 'Disable Windows Update access' enabled",
])
def test_policies_titled_for_protections_off_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "PolicyPlus.exe /set 'Turn off Microsoft Defender Antivirus' Disabled",
    "gpedit-cli -set 'Turn off the display after' Enabled",
    "Set-GPRegistryValue -Name 'Default Domain Policy' -Key 'HKLM\\Software\\Policies\\Microsoft\\Windows\\"
    "WindowsUpdate\\AU' -ValueName NoAutoUpdate -Type DWord -Value 0",
])
def test_policies_left_on_or_harmless_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
