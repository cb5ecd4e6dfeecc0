"""Packet filters emptied or switched off in other firewalls' words, a daemon's flags set through rcctl,
CUPS administered from anywhere (rules/firewall_flush.py); a flush that reloads a rule file stays quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "sudo ipf -Fa",
    "sudo ipf -F a",
    "sudo ipf -Fi",
    "sudo ipf -Fa -f /dev/null",
    "sudo ipf -D",
    "sudo npfctl flush",
    "sudo ipnat -CF",
    "sudo ipfw add 100 allow ip from any to any",
    "sudo ipfw -q add 00100 pass all from any to any",
    "sudo firehol panic",
    "sudo sysctl net.inet.ip.fw.enable=0",
    "sudo sysctl -w net.inet6.ip6.fw.enable=0",
    "sudo fw unloadlocal",
    "sudo cpstop",
    "sudo easyrule pass wan tcp any any 22",
    "sudo rcctl disable pf",
    "sudo rcctl set pf status off",
    "sudo rcctl set sshd flags -o PermitRootLogin=yes",
    "sudo rcctl set sshd flags -o PasswordAuthentication=yes -o PermitEmptyPasswords=yes",
    "sudo cupsctl --remote-admin --remote-any",
    "sudo cupsctl _remote_admin=1 _remote_any=1",
])
def test_firewalls_flushed_and_services_opened_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "sudo ipfstat -io",
    "sudo ipf -Fa -f /etc/ipf.rules",
    "sudo ipf -f /etc/ipf.rules",
    "sudo pfctl -F all -f /etc/pf.conf",
    "sudo pfctl -f /etc/pf.conf",
    "sudo pfctl -e",
    "sudo npfctl show",
    "sudo npfctl reload",
    "sudo ipnat -CF -f /etc/ipnat.rules",
    "sudo ipnat -l",
    "sudo ipfw add 100 allow ip from any to any via lo0",
    "sudo ipfw add 200 allow tcp from any to me 22 setup",
    "sudo firehol try",
    "sysctl net.inet.ip.fw.enable",
    "sudo sysctl net.inet.ip.fw.enable=1",
    "fw stat",
    "easyrule block wan 203.0.113.7",
    "cupsctl",
    "sudo cupsctl --no-remote-admin",
    "sudo cupsctl --remote-admin",
    "rcctl get sshd flags",
    "sudo rcctl set sshd flags -o LogLevel=VERBOSE",
    "sudo rcctl enable pf",
])
def test_everyday_firewall_and_service_settings_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
