"""Subcommand paths the generic reading got wrong, and firmware put back to defaults by any tool.

- A harmless-looking first word that is the NAME of a kind of object (``check``, ``config``, ``log``,
  ``build``, ``test``) right before a deleting verb is the noun group, not a harmless subcommand
  (``sensuctl check delete NAME``); gflags-style one-dash options with an underscore take a value
  (``yb-admin -master_addresses h1,h2 delete_namespace X``).
- A BMC's, BIOS's or RAID controller's settings reset to defaults, in any vendor's fused words or
  letters, and a machine's power cut or its BIOS reset through Redfish by any HTTP client."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'sensuctl check delete check-disk --skip-confirm',
    'consul config delete -kind service-defaults -name web',
    'uptime-cli check delete 42 --yes',
    'zbx test delete nightly --force',
    'checkctl checks remove disk-space --force',
    'pipelinectl plan destroy nightly-etl',
    'yb-admin -master_addresses m1:7100,m2:7100,m3:7100 delete_namespace ysql.orders',
    'kudu-admin -master_addresses m1:7051,m2:7051 delete_table impala::prod.orders',
])
def test_a_noun_group_before_the_verb_is_read_as_nouns(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'sensuctl check list',
    'sensuctl check execute check-disk',
    'consul config read -kind service-defaults -name web',
    'consul config list -kind service-defaults',
    'yb-admin -master_addresses m1:7100,m2:7100 list_namespaces',
    'mc admin config get myminio',
    'gh run list',
    'npm test -- --grep delete',
    'go test ./... -run TestDelete',
    'make test',
])
def test_a_noun_group_without_a_deleting_verb_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'ipmicfg -fd',
    'ipmicfg -fde',
    'hponcfg -r',
    'sum -i 10.0.0.21 -u ADMIN -p "$BMC_PASS" -c LoadDefaultBiosCfg',
    'sum -i 10.0.0.22 -u ADMIN -p pw -c LoadFactoryDefaults',
    'idracadm7 -r 10.0.0.5 -u root -p calvin racresetcfg',
    'ilorest biosdefaults --commit',
    'onecli config loaddefault BMC --bmc USERID:PASSW0RD@10.0.0.9',
    'asu64 loaddefault uEFI',
    'storcli64 /c0 set factory defaults',
    'SMCIPMITool 10.0.0.21 ADMIN pw ipmi factorydefault',
    'Set-HPEiLOFactoryDefault -Connection $conn -Force',
    "curl -k -u root:calvin -X POST https://10.0.0.5/redfish/v1/Systems/System.Embedded.1/Actions/"
    "ComputerSystem.Reset -H 'Content-Type: application/json' -d '{\"ResetType\":\"ForceOff\"}'",
    "curl -k -u admin:pw -X POST https://bmc1/redfish/v1/Systems/1/Bios/Actions/Bios.ResetBios",
    "curl -sk -u admin:pw -d '{\"ResetType\": \"ForceRestart\"}' "
    "https://10.1.1.5/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
    'http --verify=no -a root:pw POST https://10.0.0.5/redfish/v1/Systems/1/Actions/ComputerSystem.Reset '
    'ResetType=PowerCycle',
])
def test_firmware_reset_to_defaults_or_power_cut_by_redfish_is_flagged(command: str) -> None:
    assert reaches(command, "high"), judged(command)


@each_form("command", [
    'ipmicfg -m',
    'ipmicfg -user list',
    'hponcfg -w current.xml',
    'hponcfg -f settings.xml',
    'sum -i 10.0.0.21 -u ADMIN -p "$BMC_PASS" -c GetCurrentBiosCfg --file bios.txt',
    'onecli config show BMC',
    'storcli64 /c0 show all',
    'racadm get BIOS.SysProfileSettings',
    'curl -k -u root:pw https://10.0.0.5/redfish/v1/Systems/System.Embedded.1',
    "curl -k -u root:pw -X POST https://10.0.0.5/redfish/v1/Systems/1/Actions/ComputerSystem.Reset "
    "-d '{\"ResetType\":\"On\"}'",
    'gsettings reset org.gnome.desktop.interface gtk-theme',
    'defaults read com.apple.finder',
    'git config --unset user.name',
    'sum -h',
])
def test_firmware_tools_reading_or_writing_settings_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
