"""SELinux booleans, modules and contexts, USBGuard's policy and file capabilities loosened in the policy
tools' own words (rules/confinement_loosened.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("sudo setsebool -P httpd_execmem 1", "medium"),
    ("sudo setsebool -P httpd_can_network_connect on", "medium"),
    ("sudo setsebool -P allow_execstack=1", "medium"),
    ("sudo setsebool -P selinuxuser_execheap on", "medium"),
    ("sudo setsebool -P httpd_unified 1", "medium"),
    ("sudo setsebool -P deny_ptrace off", "medium"),
    ("sudo setsebool -P secure_mode_insmod off", "medium"),
    ("sudo togglesebool deny_execmem", "medium"),
    ("sudo setsebool -P nis_enabled 1", "medium"),
    ("sudo setsebool -P httpd_can_network_relay on", "medium"),
    ("sudo semanage boolean -m --on httpd_execmem", "medium"),
    ("sudo semodule -d sandbox", "medium"),
    ("sudo semodule -r mcs", "medium"),
    ("sudo semodule --disable=unconfineduser", "medium"),
    ("sudo semanage login -m -s unconfined_u __default__", "medium"),
    ('sudo semanage fcontext -a -t httpd_sys_rw_content_t "/(.*)?"', "medium"),
    ('sudo semanage fcontext -a -t var_t "/etc(/.*)?"', "medium"),
    ("sudo chcon -R -t unconfined_t /etc", "high"),
    ("sudo chcon -R system_u:object_r:default_t:s0 /", "high"),
    ("sudo chcon -Rt var_t /var", "medium"),
    ("sudo usbguard set-parameter ImplicitPolicyTarget allow", "medium"),
    ("sudo usbguard set-parameter InsertedDevicePolicy allow", "medium"),
    ("sudo usbguard append-rule 'allow'", "medium"),
    ("sudo filecap /usr/bin/python3 setuid", "high"),
    ("sudo filecap /bin/bash sys_admin", "high"),
    ("sudo filecap /usr/local/bin/tool dac_override", "medium"),
])
def test_confinement_loosened_is_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "getsebool -a",
    "sudo setsebool httpd_can_network_connect 0",
    "sudo setsebool httpd_can_network_connect 1",
    "sudo setsebool -P httpd_can_network_connect off",
    "sudo setsebool -P virt_use_nfs 1",
    "sudo setsebool -P deny_ptrace on",
    "semanage boolean -l",
    "sudo semodule -l",
    "sudo semodule -i mymodule.pp",
    "sudo semodule -e sandbox",
    "sudo semodule -DB",
    'sudo semanage fcontext -a -t httpd_sys_content_t "/srv/www(/.*)?"',
    "sudo semanage login -a -s user_u __default__",
    "semanage login -l",
    "sudo chcon -t httpd_sys_content_t /var/www/html/index.html",
    "sudo chcon -R -t httpd_sys_content_t /srv/www/site",
    "sudo restorecon -Rv /var/www/html",
    "usbguard list-devices",
    "sudo usbguard allow-device 5",
    "sudo usbguard allow-device --permanent 5",
    "usbguard get-parameter ImplicitPolicyTarget",
    "sudo usbguard set-parameter ImplicitPolicyTarget block",
    "sudo usbguard append-rule 'allow id 046d:c52b'",
    "filecap",
    "filecap /usr/bin",
    "sudo filecap /usr/local/bin/caddy net_bind_service",
    "sudo filecap /usr/bin/tool none",
])
def test_everyday_policy_work_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
