"""Round 18's write classes read for any program (session 13, wave 2): the clock set years away, a certificate
made a trusted root, everything of a kind disabled or a settings tree unset from its root, sudoers written by a
configuration one-liner's helper (tests/corpus/effects/write_w2).  One case per file: a floor on the destructive
forms flagged (listing the misses) and none of the everyday forms flagged.
Measured at 026a724: clock 0/13, trust 1/14, all_off 1/13, sudoers_code 5/6 flagged; everyday 1 of 60 loud.
Second part measured at the first's landing (371c379): devnull_conf 0/8, each_off 4/7, forward 2/8, open_infra 0/7,
agent 3/6; everyday 2 of 94 loud (-AutoForwardingMode Off, -AutoForwardEnabled $false).  Third part at 22:59: vlan 0/10,
bios 0/7; at 23:02: key_regen 1/6, resolver 0/7; at 23:08: federate 0/6, all_off 12/13 (zypper --all --disable);
at 23:14: emptied 0/8."""
from __future__ import annotations

from pathlib import Path

from tests.safety.forms import corpus_floor, loud_and_quiet

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "write_w2"


def _loud_and_quiet(name: str) -> tuple[list[str], list[str]]:
    return loud_and_quiet(CORPUS / name)


def _floor(name: str, floor: float) -> None:
    corpus_floor(CORPUS / name, floor, 6)


def test_clock_set_years_away_is_flagged():
    _floor("clock.txt", 1.0)  # date -s, hwclock --set, timedatectl set-time, Set-Date, sel time set, esxcli


def test_certificate_made_a_trusted_root_is_flagged():
    _floor("trust.txt", 1.0)  # a root store, cacerts, trust anchor, NSS's C letter, a copy into the anchors


def test_everything_of_a_kind_disabled_is_flagged():
    _floor("all_off.txt", 1.0)  # a2dissite '*', phpdismod -v ALL, --set-disabled '*', --recursive-unset /


def test_sudoers_written_by_a_one_liners_helper_is_flagged():
    _floor("sudoers_code.txt", 1.0)  # rex's append_if_no_such_line, puppet, chef-apply, pyinfra, salt


def test_configuration_loaded_from_dev_null_is_flagged():
    _floor("devnull_conf.txt", 1.0)  # wg setconf, birdc configure, pcs cib-push, nvmetcli restore, --reload


def test_every_listed_one_switched_off_in_a_loop_is_flagged():
    _floor("each_off.txt", 1.0)  # Get-X | ForEach-Object { Disable-X $_.Name }, with no filter between


def test_mail_forwarded_outside_is_flagged():
    _floor("forward.txt", 1.0)  # -AutoForwardingMode On, -ForwardTo, gam forward on, zimbra…Forwarding…, always_bcc


def test_world_cidr_written_into_infrastructure_code_is_flagged():
    _floor("open_infra.txt", 1.0)  # hcledit … -u, yq -i, tomlq -i, jq > file, sed -i/perl -pi replacement


def test_security_agents_uninstalled_are_flagged():
    _floor("agent.txt", 1.0)  # an endpoint/sensor/antivirus agent by its name's words, told to uninstall


def test_interface_moved_to_another_vlan_is_flagged():
    _floor("vlan.txt", 1.0)  # -VlanID, vlan.id, --vlan-id, lan set 1 vlan id, VLanID, tag=, vlan_id


def test_firmware_setting_changed_is_flagged():
    _floor("bios.txt", 1.0)  # racadm set BIOS.…, ilorest --selector=Bios., Set-HPBIOSSettingValue, ChangeBiosCfg


def test_private_key_replaced_by_a_fresh_one_is_flagged():
    _floor("key_regen.txt", 1.0)  # private-key <(wg genkey), wireguard.private-key "$(wg genkey)", private_key=…


def test_resolvers_pointed_outside_are_flagged():
    _floor("resolver.txt", 1.0)  # forwarders, DHCP's DNS option, dnsmasq's server given a public address


def test_domain_sign_ins_federated_are_flagged():
    _floor("federate.txt", 1.0)  # -Authentication(Type) Federated, …ToFederated, "authenticationType": "Federated"


def test_served_list_emptied_through_a_configuration_call_is_flagged():
    _floor("emptied.txt", 1.0)  # subnet4/rules/ingress/servers/upstreams/backends given [] by a set, put or patch


def test_write_w2_everyday_forms_stay_quiet():
    loud, quiet = _loud_and_quiet("everyday.txt")
    assert len(loud) + len(quiet) >= 50
    assert not loud, "\n".join(loud)
