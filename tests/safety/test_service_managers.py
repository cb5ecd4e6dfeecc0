"""A service stopped or disabled through any service manager or supervisor, judged by what is stopped
as systemctl's stop is: the way in (ssh, the network) high, data stores, runtimes and the system's core
medium, one's own app quiet (rules/service_managers.py, service_units.units_verdict)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("svcadm disable ssh", "high"),
    ("svcadm disable -s svc:/network/ssh:default", "high"),
    ("svcadm -v disable -t network/physical:default", "high"),
    ("svcadm disable milestone/network", "high"),
    ("svcadm disable svc:/application/database/postgresql_15:default", "medium"),
    ("initctl stop ssh", "high"),
    ("initctl stop network-manager", "high"),
    ("initctl stop mysql", "medium"),
    ("initctl disable sshd", "high"),
    ("nssm stop MSSQLSERVER", "medium"),
    ("nssm remove sshd confirm", "high"),
    ("nssm set sshd Start SERVICE_DISABLED", "high"),
    ("sv force-stop postgresql", "medium"),
    ("rc-update del sshd default", "high"),
    ("supervisorctl stop postgres", "medium"),
    ("supervisorctl stop redis", "medium"),
    ("monit stop mysqld", "medium"),
    ("lxc-autostop -a -k", "medium"),
    ("lxc-autostop --all", "medium"),
    ("dinitctl stop sshd", "high"),
    ("dinitctl disable networking", "high"),
    ("rcctl stop sshd", "high"),
    ("rcctl disable postgresql", "medium"),
    ("rcctl set sshd status off", "high"),
    ("sysrc sshd_enable=NO", "high"),
    ("sysrc -x sshd_enable", "high"),
    ("sysrc postgresql_enable=\"NO\"", "medium"),
    ("service sshd onestop", "high"),
    ("service mysql-server forcestop", "medium"),
    ("herd stop ssh-daemon", "high"),
    ("herd disable networking", "high"),
    ("66-disable sshd", "high"),
    ("66 stop sshd", "high"),
    ("runsvctl down sshd", "high"),
    ("immortalctl stop postgres", "medium"),
    ("systemctl stop postgresql", "medium"),
    ("systemctl disable --now mongod", "medium"),
    ("busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager "
     "StopUnit ss sshd.service replace", "high"),
    ("gdbus call --system --dest org.freedesktop.systemd1 --object-path /org/freedesktop/systemd1 "
     "--method org.freedesktop.systemd1.Manager.StopUnit NetworkManager.service replace", "high"),
    ("dbus-send --system --print-reply --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 "
     "org.freedesktop.systemd1.Manager.StopUnit string:postgresql.service string:replace", "medium"),
])
def test_stops_through_any_service_manager_are_judged_by_their_target(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "svcadm enable ssh",
    "svcadm restart ssh",
    "svcadm disable apache24",
    "svcs -a",
    "initctl list",
    "initctl status ssh",
    "initctl start ssh",
    "initctl stop myapp",
    "nssm status MSSQLSERVER",
    "nssm stop MyApp",
    "nssm set MyApp Start SERVICE_AUTO_START",
    "sv status sshd",
    "sv up postgresql",
    "rc-update add sshd default",
    "rc-update del myapp default",
    "supervisorctl status",
    "supervisorctl stop web",
    "monit status",
    "monit stop myapp",
    "lxc-autostop -n web",
    "lxc-ls --fancy",
    "dinitctl list",
    "dinitctl stop myapp",
    "rcctl ls on",
    "rcctl start sshd",
    "rcctl stop httpd",
    "sysrc sshd_enable=YES",
    "sysrc nginx_enable=NO",
    "sysrc -a",
    "service sshd onestatus",
    "service nginx onestop",
    "herd status",
    "herd stop nginx",
    "immortalctl status",
    "immortalctl stop nginx",
    "systemctl stop nginx",
    "systemctl restart postgresql",
    "busctl list",
    "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager "
    "GetUnit s sshd.service",
    "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager "
    "StartUnit ss sshd.service replace",
])
def test_everyday_service_manager_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- neighbours from the managers' documentation
@each_form("command,at_least", [
    ("stop ssh", "high"),
    ("sudo stop ssh", "high"),
    ("brew services stop postgresql@16", "medium"),
    ("snap stop --disable lxd", "medium"),
    ("snap disable openssh-server", "high"),
    ("invoke-rc.d ssh stop", "high"),
    ("insserv -r ssh", "high"),
    ("chkconfig --del sshd", "high"),
    ("sysv-rc-conf ssh off", "high"),
    ("svcadm mark maintenance network/ssh", "high"),
    ("Set-Service -Name MSSQLSERVER -Status Stopped", "medium"),
    ("Get-Service *sql* | Stop-Service -Force", "medium"),
])
def test_neighbour_managers_stops_are_judged_by_their_target(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "stop myapp",
    "brew services stop nginx",
    "brew services list",
    "snap stop spotify",
    "invoke-rc.d nginx reload",
    "insserv ssh",
    "chkconfig --add sshd",
    "sysv-rc-conf --list",
    "Set-Service -Name Spooler -Status Stopped",
    "Get-Service *sql*",
    "Get-Service Spooler | Stop-Service",
])
def test_neighbour_managers_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
