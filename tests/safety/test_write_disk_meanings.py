"""Session 13's write and disk classes, read for any program: a system file changed by a setter verb, in-place
letters or a copy-named tool; a disk's layout or header rewritten, or a storage object ended; every incoming
connection refused by a switch or default; the next boot sent to the network or another firmware mode; an
essential program pointed at a scratch folder's file; a second factor's secret file overwritten."""
from tests.safety.test_long_tail import judged, reaches, stays_quiet


def _misjudged(flagged: list, quiet: list) -> list:
    return [judged(line) for line in flagged if not reaches(line)] + \
        [judged(line) for line in quiet if not stays_quiet(line)]


def test_system_files_changed_by_setters_in_place_letters_and_copies():
    flagged = ["sudo hcledit -f /etc/default/grub attribute set GRUB_TIMEOUT 0",
               "sudo confedit put /etc/nsswitch.conf hosts files", "sudo kvtool --set /etc/security/limits.conf x 1",
               "sudo inifix --del /etc/krb5.conf libdefaults", "sudo cfgset write /etc/fstab '/dev/sdz1 / ext4'",
               "sudo toml-cli set /etc/sssd/sssd.conf domain access_provider", "sudo jruby -pi -e 'x' /etc/hosts",
               "sudo ruby -pi -e 'gsub(/a/, \"b\")' /etc/sudoers", "sudo raku -pi -e 's/a/b/' /etc/pam.d/sshd",
               "sudo xcp sudoers.bak /etc/sudoers", "sudo fcp fstab.new /etc/fstab", "sudo pycp shadow /etc/shadow",
               "sudo gmv hosts.new /etc/hosts", "sudo ditto resolv.conf /etc/resolv.conf",
               "sudo advcp -g crypttab /etc/crypttab", "sudo patch /etc/sudoers < nopasswd.diff",
               "sudo rclone copyto ./resolv.conf /etc/resolv.conf"]
    quiet = ["sudo hcledit -f /etc/default/grub attribute get GRUB_TIMEOUT", "sudo xcp /etc/fstab fstab.bak",
             "ruby -pi -e 'x' notes.txt", "toml-cli set Cargo.toml package.version 1.0", "ls -li /etc/passwd",
             "grub-editenv /boot/grub/grubenv set default=Ubuntu", "sudo confedit show /etc/nsswitch.conf",
             "fcp -r photos /mnt/backup", "kvtool --set app.ini x 1", "grep -w root /etc/passwd",
             "sudo patch --dry-run /etc/sudoers < nopasswd.diff", "patch -p1 < fix.diff",
             "rclone copyto /etc/resolv.conf remote:backup/resolv.conf"]
    assert _misjudged(flagged, quiet) == []


def test_disk_layouts_rewritten_and_storage_objects_ended():
    flagged = ["sudo bsdlabel -w da1", "sudo disklabel -w -r sd1 auto", "sudo pdisk /dev/disk2 -initialize",
               "sudo xfs_db -x -c 'sb 0' -c 'write -d magicnum 0' /dev/sdb1", "sudo vxdisk -f init sdb",
               "sudo cryptsetup-reencrypt --decrypt /dev/sda2", "sudo hfsfmt --newlabel /dev/sdc",
               "esxcli storage core device partition delete -d naa.600 -p 1", "sudo lunctl lun destroy 3",
               "sudo raidcli vdisk delete 0", "xcli vol_delete vol=v1", "sudo arrayctl delete-volume 2 -y",
               "sudo sedcli --revert /dev/nvme1n1", "sudo raidcfg --delete-vd 0"]
    quiet = ["sudo pdisk /dev/disk2 -l", "sudo bsdlabel da1", "gh label delete bug", "sudo disklabel sd1",
             "sudo xfs_db -r -c 'sb 0' -c print /dev/sdb1", "esxcli storage core device partition list",
             "sudo raidcli vdisk show", "sudo lunctl lun create 3", "mount -w /dev/sdb1 /mnt"]
    assert _misjudged(flagged, quiet) == []


def test_every_incoming_connection_refused_by_a_switch_or_default():
    flagged = ["sudo socketfilterfw --setblockall on", "Set-NetFirewallProfile -All -AllowInboundRules False",
               "sudo xdp-filter load eth0 --policy deny", "sudo edgefw --block-all=true", "sudo shieldctl -BlockAll 1",
               "sudo pf-tool --default-policy drop", "sudo little-fw deny all", "sudo hostguard --lockdown on",
               "sudo opnsense-shell firewall deny all",
               "scw instance security-group update 1111 inbound-default-policy=drop",
               "linode-cli firewalls rules-update 123 --inbound '[]' --inbound_policy DROP",
               "oci network security-list update --security-list-id ocid1.x --ingress-security-rules '[]' --force",
               "aws ec2 create-network-acl-entry --network-acl-id a1 --ingress --rule-number 1 --protocol -1 "
               "--cidr-block 0.0.0.0/0 --rule-action deny",
               "gcloud compute firewall-rules update default-allow-ssh --disabled",
               "az network nsg rule update -g rg --nsg-name nsg --name ssh --access Deny"]
    quiet = ["sudo socketfilterfw --getblockall", "sudo xdp-filter load eth0 --policy allow",
             "Set-NetFirewallProfile -All -DefaultInboundAction Block", "sudo little-fw block 10.0.0.1",
             "sudo pf-tool --default-policy accept", "sudo edgefw --block-all=false",
             "sudo shieldctl status", "scw instance security-group update 1111 inbound-default-policy=accept",
             "aws ec2 create-network-acl-entry --network-acl-id a1 --egress --rule-number 1 --protocol -1 "
             "--cidr-block 0.0.0.0/0 --rule-action deny",
             "az network nsg rule update -g rg --nsg-name nsg --name web --access Deny --destination-port-ranges 8080",
             "gcloud compute firewall-rules update default-allow-http --disabled"]
    assert _misjudged(flagged, quiet) == []


def test_next_boot_from_the_network_or_another_firmware_mode():
    flagged = ["sudo ipmitool chassis bootdev pxe options=persistent", "racadm set BIOS.BiosBootSettings.BootMode Uefi",
               "sudo cctk --bootorder --sequence=nic.1,hdd.1", "ilorest set BootSourceOverrideTarget=Pxe",
               "onecli config set BootOrder.BootOrder 'PXE Network'", "bmcctl --boot-device network",
               "ilorest set BootMode=LegacyBios --selector=Bios.", "sudo eeprom boot-device=net",
               "sudo bootsel --default pxe"]
    quiet = ["sudo ipmitool chassis bootdev disk", "racadm get BIOS.BiosBootSettings.BootMode",
             "ilorest get BootMode --selector=Bios.", "efibootmgr -v", "onecli config show BootOrder.BootOrder",
             "sudo bootsel --default ubuntu", "eeprom boot-device"]
    assert _misjudged(flagged, quiet) == []


def test_essential_programs_pointed_at_scratch_files_and_second_factor_secrets_overwritten():
    flagged = ["sudo update-alternatives --install /usr/bin/sudo sudo /tmp/fake 100",
               "sudo alternatives --set sh /home/eve/sh", "echo AAAA > ~/.google_authenticator",
               "cp keys ~/.yubico/authorized_yubikeys"]
    quiet = ["sudo update-alternatives --install /usr/bin/editor editor /usr/bin/vim.basic 50",
             "sudo update-alternatives --set sh /bin/dash", "cat ~/.google_authenticator.txt.md | wc -l"]
    assert _misjudged(flagged, quiet) == []
