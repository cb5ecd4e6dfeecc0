"""Security controls switched off through setter CLIs (rules/control_keys.py) and disks, arrays, cleaners and
firmware acted on in the words storage tools share (rules/disk_words.py), issue 23: one (loud, quiet) table per
mechanism, each loud form missed by the judge before these rules, and the corpus of both classes
(tests/corpus/effects/settings_s16: a8f58f4 flagged 58.0% of its settings forms, 68.8% of its storage forms and
59.1%, 52.0%, 82.4% and 42.1% of four batches written before they were judged; after 95.1%, 88.8%, 90.9%, 96.0%,
100% and 89.5%)."""
from __future__ import annotations

from pathlib import Path

from tests.safety.forms import corpus_floor, loud_and_quiet, table_holds

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "settings_s16"

# A key whose words name a control, given the off value, its absence switched on, or an access list anyone.
CONTROL_KEYS = (
    ["mmctl config set ServiceSettings.EnableMultifactorAuthentication false",
     "kcadm.sh update realms/master -s sslRequired=NONE",
     "occ config:system:set auth.bruteforce.protection.enabled --value=false --type=boolean",
     "sacli --key vpn.server.tls_auth --value false ConfigPut",
     "bmc-config --commit --key-pair=\"Lan_Conf_Auth:Admin_Enable_Auth_Type_None=Yes\"",
     "ipmitool lan set 1 auth ADMIN NONE", "racadm set iDRAC.Users.2.Enable Disabled",
     "asu set IMM.LockoutPeriod 0",
     "sonic-db-cli CONFIG_DB HSET \"AAA|authentication\" login none",
     "sonic-db-cli CONFIG_DB DEL \"AAA|authentication\"",
     "ceph config set global auth_cluster_required none", "gluster volume set gv0 auth.allow '*'",
     "samba-tool domain passwordsettings set --account-lockout-threshold=0",
     "ipa pwpolicy-mod --minlength=0 --maxfail=0",
     "dsconf slapd-ldap1 pwpolicy set --pwdlockout off", "pvesh set /cluster/firewall/options --enable 0",
     "zitactl settings set lockout max-password-attempts 0", "openvpn-as-cli config set auth.ldap.0.use_ssl never",
     "fwctl set firewall.enabled=false", "mdmtool policy set passcode.required=false",
     "opnsense-cli set system.webgui.noantilockout 1", "uci set firewall.@zone[1].input=ACCEPT && uci commit",
     "edgectl config --commit \"firewall.state-policy.invalid.action=accept\"",
     "rclone config update remote no_check_certificate true", "az storage account update -n a -g rg --https-only false",
     "reg add HKLM\\SOFTWARE\\Policies\\Acme\\Agent /v TamperProtectionEnabled /t REG_DWORD /d 0 /f",
     "pmgsh set /config/admin --clamav 0", "ldapsetup --set-option tls_reqcert=never",
     "realmctl settings set login-policy allow-any-login"],
    ["mmctl config get ServiceSettings.EnableMultifactorAuthentication",
     "mmctl config set ServiceSettings.EnableMultifactorAuthentication true",
     "kcadm.sh update realms/master -s displayName=Acme", "sacli --key vpn.server.tls_auth --value true ConfigPut",
     "bmc-config --checkout", "racadm set iDRAC.Users.2.Enable Enabled", "asu show IMM.LockoutPeriod",
     "sonic-db-cli CONFIG_DB HGETALL \"AAA|authentication\"", "ceph config set osd osd_max_backfills 2",
     "gluster volume set gv0 auth.allow 10.0.0.*", "ipa pwpolicy-mod --minlength=12 --maxfail=5",
     "pvesh get /cluster/firewall/options", "fwctl set firewall.enabled=true", "appctl config set cache.enabled false",
     "appctl config set telemetry.enabled false", "uci set system.@system[0].hostname=router1 && uci commit",
     "npm config set registry https://registry.example.com/", "redis-cli CONFIG SET protected-mode yes",
     "sysctl -w vm.unprivileged_userfaultfd=0", "appcmd set config /section:anonymousAuthentication /enabled:false",
     "reg add HKLM\\SOFTWARE\\Policies\\Acme\\Agent /v TamperProtectionEnabled /t REG_DWORD /d 1 /f",
     "reg add HKCU\\Software\\Acme /v HideFileExt /t REG_DWORD /d 0 /f",
     "az storage account update -n a --https-only true", "ovirt-engine-config -s PasswordExpirationNotificationDays=0",
     "realmctl settings set login-policy allow-listed", "ldapsetup --set-option tls_reqcert=demand"])
# A verb or option fused with the storage object, a converter given a disk, capacity cut, nothing kept, an image
# flashed.
STORAGE_WORDS = (
    ["dkctl wd0 delwedge dk1", "MegaCli -LDInit -Start -full -L0 -a0", "racadm raid resetconfig:RAID.Integrated.1-1",
     "vdiskmgr --init-vdisk vd3", "btrfs-convert /dev/sdb1", "btrfs-convert -r /dev/sdb1", "fstransform /dev/sdb1 xfs",
     "mediainit /dev/rdsk/c0t1d0", "openSeaChest_Configure -d /dev/sg1 --setMaxLBA 1000000",
     "drivetool --set-max-lba 100000 /dev/sdc", "nilfs-clean --protection-period=0 /dev/sdb1",
     "Yafuflash -cd fw.ima",
     "onie-nos-install http://10.0.0.5/sonic-broadcom.bin", "sonic-installer install -y sonic.bin",
     "switchfw-update -u switch.cfg", "fwtool-update --apply bmc_v2.bin", "mkvg -f -y datavg hdisk2",
     "bplabel -m A00001 -d hcart -o", "amlabel -f DailySet1 DailySet1-01", "scstadmin -rem_lun 0 -driver iscsi",
     "zfs-auto-snapshot --keep=0 //", "rotatebak --retention-days 0 /backups"],
    ["dkctl wd0 listwedges", "MegaCli -LDInfo -Lall -aALL", "racadm storage get vdisks", "btrfs-convert --help",
     "openSeaChest_Info -d /dev/sg2 -i", "nilfs-clean -l /dev/sdb1", "nilfs-clean --protection-period=3600 /dev/sdb1",
     "socflash --help", "sonic-installer list", "onie-sysinfo", "switchfw-update --version",
     "flashrom -p internal -r backup.rom",
     "fwtool-update --query", "convert in.png out.jpg", "unix2dos file.txt", "mkvg -y datavg hdisk2",
     "e2label /dev/sdb1 data", "ntfslabel --force /dev/sdb1 DATA", "amlabel DailySet1 DailySet1-01",
     "kubectl label -f pod.yaml tier=web", "zfs-auto-snapshot --keep=24 //",
     "rotatebak --retention-days 30 /backups"])


def test_control_keys():
    table_holds(CONTROL_KEYS)


def test_storage_words():
    table_holds(STORAGE_WORDS)


def test_settings_storage_corpus_destructive_forms_are_flagged():
    corpus_floor(CORPUS / "destructive.txt", 0.9, 240)  # 540b16c: 61.5%, after 92.6%


def test_settings_storage_corpus_everyday_forms_stay_quiet():
    loud, quiet = loud_and_quiet(CORPUS / "everyday.txt")
    # older rules': gpart add, fdisk wd0, sysupgrade --test, rclone … no_check_certificate false
    assert len(quiet) >= 190 and len(loud) <= 4, "\n".join(loud)
