"""Classes of the long tail that need no table of programs: machines powered off out of band,
network devices told to change or stop, admin shells fed a destructive statement, and stopping
whatever a listing names.  Each class is tested on programs and spellings of several vendors,
with everyday near misses that must stay quiet."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


# ----------------------------------------------------------------- power, out of band and by the clock
@each_form("command", [
    "ipmitool -I lanplus -H 10.0.0.5 -U admin -P secret chassis power off",
    "ipmitool chassis power cycle",
    "ipmitool -H bmc1 -U root -E power reset",
    "ipmitool mc reset cold",
    "racadm -r 10.0.0.9 -u root -p calvin serveraction hardreset",
    "racadm serveraction powercycle",
    "ilorest reboot ForceOff",
    "redfishtool -r 10.0.0.5 Systems reset ForceOff",
    "ipmipower -h node[01-16] --off",
    "ipmipower -h n01 --cycle",
    "rpower compute01-compute32 off",
    "smcipmitool 10.0.0.1 ADMIN ADMIN ipmi power down",
    "govc vm.power -off -force web01",
    "rtcwake -m off -s 3600",
    "rtcwake -m disk -s 60",
    "pm-hibernate",
    "systemctl hibernate",
    "pvesh create /nodes/pve1/status --command shutdown",
])
def test_power_cut_by_any_controller(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "ipmitool chassis power status",
    "ipmitool chassis power on",
    "ipmitool -I lanplus -H 10.0.0.5 -U admin -E sel list",
    "racadm getsysinfo",
    "ipmipower -h node01 --stat",
    "rtcwake -m show",
    "rtcwake -m no -s 60",
    "govc vm.power -on web01",
    "pvesh get /nodes/pve1/status",
    "powertop --auto-tune",
    "upower -i /org/freedesktop/UPower/devices/battery_BAT0",
])
def test_power_reads_and_power_on_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- routers and switches
@each_form("command", [
    "vtysh -c 'configure terminal' -c 'no router bgp 65001'",
    'vtysh -c "conf t" -c "interface eth0" -c "shutdown"',
    "vtysh -c 'clear ip bgp *'",
    "birdc disable all",
    "birdc down",
    "ssh admin@192.168.88.1 '/system reset-configuration no-defaults=yes skip-backup=yes'",
    "ssh admin@router '/ip firewall filter remove [find]'",
    "ssh admin@router '/interface disable ether1'",
    "net del interface swp1",
    "net add interface swp1 link down",
    "nv unset interface swp1",
    'cli -c "request system reboot"',
    "cli -c 'request system zeroize'",
    'cli -c "configure; delete interfaces ge-0/0/0; commit"',
    "vbash -c 'source /opt/vyatta/etc/functions/script-template; configure; delete interfaces ethernet eth1; commit'",
    "ssh admin@sw1 'erase startup-config'",
    "ssh admin@core1 reload",
    "FastCli -p 15 -c 'reload now'",
    "firstboot -y",
    "ovs-vsctl emer-reset",
])
def test_network_device_told_to_change_or_stop(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "vtysh -c 'show ip route'",
    "vtysh -c 'show running-config'",
    "birdc show protocols all",
    "net show interface",
    "nv show interface",
    "cli -c 'show interfaces terse'",
    "ssh admin@router '/ip address print'",
    "ssh sw1 'show running-config'",
    "FastCli -p 15 -c 'show version'",
    "uci show network",
    "ovs-vsctl show",
    "ssh host 'tail -f /var/log/syslog'",
])
def test_network_device_reads_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- admin shells fed a statement
@each_form("command", [
    'rman target / <<< "DELETE NOPROMPT ARCHIVELOG ALL;"',
    "hbase shell -n <<< \"truncate 'events'\"",
    "hbase shell <<< \"deleteall 't1', 'row1'\"",
    "zkCli.sh rmr /hbase",
    'zookeeper-shell localhost:2181 <<< "deleteall /brokers"',
    'echo "rmr /app" | zkCli.sh -server zk:2181',
    'cqlsh <<< "DROP KEYSPACE prod;"',
    'redis-cli <<< "FLUSHDB"',
    "mongo --quiet app <<< 'db.sessions.drop()'",
    'sqlplus / as sysdba <<< "DROP USER scott CASCADE;"',
    "psql -U postgres <<< 'DROP SCHEMA public CASCADE;'",
    "ldapmodify -x -D cn=admin <<< $'dn: uid=bob,ou=people,dc=x\\nchangetype: delete'",
    "rman target / <<EOF\nDELETE NOPROMPT OBSOLETE;\nEOF",
    "hbase shell -n <<EOF\ndisable 'users'\ndrop 'users'\nEOF",
    'ETCDCTL_API=3 etcdctl del "" --from-key=true',
])
def test_admin_shell_fed_a_destructive_statement(command):
    assert reaches(command), judged(command)


@each_form("command", [
    'hbase shell <<< "list"',
    "hbase shell -n <<EOF\nscan 'users', {LIMIT => 10}\nEOF",
    "zkCli.sh -server zk1:2181 ls /",
    'rman target / <<< "LIST BACKUP SUMMARY;"',
    "redis-cli <<< 'INFO memory'",
    "psql -U postgres <<< 'SELECT count(*) FROM users;'",
    "mail -s 'cleanup' ops@example.com <<< 'please delete the old files'",
    "cat <<EOF > drop.sql\nDROP TABLE users;\nEOF",
])
def test_admin_shell_fed_a_read_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- stopping what a listing names
@each_form("command", [
    "docker stop $(docker ps -q)",
    "docker container stop $(docker container ls -q)",
    "docker ps -q | xargs docker stop",
    "podman stop -a",
    "for vm in $(virsh list --name); do virsh shutdown $vm; done",
    "for c in $(docker ps -q); do docker stop $c; done",
    "for p in $(pgrep sleep); do kill $p; done",
    "systemctl list-units --type=service --state=running --no-legend | awk '{print $1}' | xargs systemctl stop",
    "tmux ls -F '#S' | xargs -n1 tmux kill-session -t",
    "vagrant global-status --prune | awk '/running/{print $1}' | xargs -n1 vagrant halt",
    "virsh list --all --name | while read vm; do virsh undefine \"$vm\"; done",
    "for vm in $(VBoxManage list runningvms | cut -d'\"' -f2); do VBoxManage controlvm \"$vm\" poweroff; done",
])
def test_stopping_what_a_listing_names(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "docker stop web",
    "docker stop $(docker ps -lq)",
    "docker logs $(docker ps -lq)",
    "docker inspect $(docker ps -q)",
    "kill $(cat /run/app.pid)",
    "kill -HUP $(pidof nginx)",
    "for vm in $(virsh list --name); do virsh dominfo $vm; done",
    "for c in $(docker ps -q); do docker logs --tail 5 $c; done",
    "for f in $(ls *.log); do gzip $f; done",
    "docker ps -q | xargs docker inspect",
    "docker restart $(docker ps -q)",
])
def test_listing_without_a_stop_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- machine images reset, scripts that kill all
@each_form("command", [
    "brctl delbr br0",
    "k3s-killall.sh",
    "sudo cloud-init clean --logs --reboot",
    "virt-sysprep -d web01",
])
def test_vocabulary_of_reset_and_kill_scripts(command):
    assert reaches(command), judged(command)


# ----------------------------------------------------------------- the same classes, other vendors' spellings
@each_form("command", [
    "ipmiutil power -d",
    "ipmiutil reset -c",
    "pm -0 node[1-8]",
    "sudo ipmitool raw 0x00 0x02 0x03",
    "VBoxManage controlvm web poweroff",
    "busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager Suspend b true",
    "pmset sleepnow",
    "xe vm-shutdown vm=web force=true",
    "incus stop web --force",
    "gluster volume stop vol1 force",
    "sshpass -p x ssh admin@sw 'conf t ; no vlan 10'",
    "Cli -p 15 -c $'configure\\ninterface Ethernet1\\nshutdown'",
    "sudo config interface shutdown Ethernet0",
    "gobgp neighbor del 10.0.0.1",
    "hbase shell -n <<< \"disable_all 'ns:.*'\"",
    "mongo admin --eval 'db.shutdownServer()'",
    "mongosh --eval 'db.adminCommand({shutdown: 1})'",
    "nsupdate <<END\nupdate delete www.example.com A\nsend\nEND",
    "vault operator seal",
    "etcdctl member remove 8e9e05c52164694d",
    "podman pod stop --all",
    "service --status-all | grep + | awk '{print $4}' | xargs -n1 -I{} service {} stop",
    "launchctl bootout gui/501",
])
def test_other_vendors_spellings_of_the_classes(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "pmset displaysleepnow",
    "pmset -g batt",
    "busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager ListSessions",
    "bluetoothctl power off",
    "udisksctl power-off -b /dev/sdc",
    "VBoxManage controlvm web savestate",
    "incus stop web",
    "docker stop -t 30 web",
    "sudo config save -y",
    "vtysh -c 'conf t' -c 'interface eth0' -c 'no shutdown'",
    "mongosh --eval 'db.serverStatus()'",
    "virt-sysprep --list-operations",
    "sudo virt-sysprep -d vm_name -n",
    "launchctl bootout gui/501/com.example.agent",
])
def test_other_vendors_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- shared services taken away; unique prefixes
@each_form("command", [
    "sudo exportfs -ua",
    "sudo losetup -D",
    "drbdadm invalidate r0",
    "corosync-cfgtool -H --force",
    "smbcontrol all shutdown",
    "sedutil-cli --revertTPer pw /dev/nvme0",
    "gh-ost --alter 'DROP COLUMN legacy' --table users --execute",
    "pvecm d pve3",
    "pvesm f local:iso/archlinux.iso",
    "pveam r local:vztmpl/debian-12.tar.zst",
])
def test_shared_services_and_unique_prefixes(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "exportfs -v",
    "losetup -a",
    "drbdadm status",
    "corosync-cfgtool -s",
    "smbcontrol smbd reload-config",
    "qm l",
    "qm de 100",
    "pulumi logout --all",
    "cbatticon -r 5 -c poweroff",
    "java -jar jenkins-cli.jar -s http://ci:8080 restart",
])
def test_services_and_prefixes_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a task runner's task named for destruction
@each_form("command", [
    "npm run db:reset",
    "fastlane run delete_keychain name:ci",
    "npx nx run api:destroy",
    "earthly +wipe",
    "octo delete-releases --project web --version 1.0",
])
def test_a_task_named_for_destruction_and_a_version_value(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "npm run build",
    "npm run clean",
    "earthly +build",
    "npm --version",
    "helm install web ./chart --version 1.2.3",
    "go run . delete",
])
def test_tasks_and_versions_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- destruction said in an option's value
@each_form("command", [
    "platformio run -t erase",
    "mytool --action delete --id 5",
    "okteto down -v",
    "gitlab-rake gitlab:cleanup:orphan_job_artifact_files DRY_RUN=false",
])
def test_destruction_said_in_an_option_value(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "docker build -t delete .",
    "platformio run -t upload",
    "okteto down",
    "gitlab-rake gitlab:cleanup:orphan_job_artifact_files",
    "gitlab-rake gitlab:env:info DRY_RUN=false",
])
def test_option_values_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- processes stopped by terminal, group or session
@each_form("command", [
    "pkill -9 -t pts/2",
    "pkill -s 4242",
    "kill -9 -- -12345",
    "tmux kill-session -a",
])
def test_processes_stopped_by_terminal_group_or_session(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "kill -9 12345",
    "kill -- 12345",
    "pkill -HUP -t pts/2",
    "tmux kill-session -t build",
])
def test_one_process_or_session_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- more network operating systems' words
@each_form("command", [
    "ssh admin@fortigate 'execute reboot'",
    "ssh admin@pa-fw 'request restart system'",
    "ssh admin@sros 'admin reboot now'",
    "ssh root@opnsense 'configctl system halt'",
    "tmsh load sys config default",
    "tmsh reboot",
    "clish -c 'set interface eth1 state off'",
    "ssh admin@huawei 'undo interface Vlanif10'",
    "reload",
    "write erase",
    "erase startup-config",
])
def test_more_network_operating_systems(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "ssh admin@fortigate 'execute ping 8.8.8.8'",
    "tmsh list ltm pool",
    "clish -c 'show interfaces'",
    "ssh admin@huawei 'display current-configuration'",
    "configctl firmware status",
    "reload cancel",
    "write bob",
    "write memory",
])
def test_more_network_operating_systems_reading_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- admin shells: one-shot lines and server resets
@each_form("command", [
    'dgmgrl / "remove database standby"',
    'mysql -e "RESET MASTER"',
    'mysql -e "PURGE BINARY LOGS BEFORE NOW()"',
    'psql -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"',
    "redis-cli -h cache SCRIPT FLUSH",
    "mongosh --eval 'rs.remove(\"db3:27017\")'",
    "mongosh --eval 'db.getSiblingDB(\"admin\").dropUser(\"app\")'",
])
def test_admin_shell_one_shot_lines_and_server_resets(command):
    assert reaches(command), judged(command)


@each_form("command", [
    'dgmgrl / "show configuration"',
    'todo add "delete old backups"',
    'notify "remove done"',
    'mysql -e "SHOW MASTER STATUS"',
    "redis-cli SCRIPT EXISTS abc",
    "mongosh --eval 'db.getSiblingDB(\"admin\").getUsers()'",
    "gawk 'match($0, /inet (.*)/, a) {print a[1]}'",
])
def test_admin_shell_reads_and_messages_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- rm -rf by another name
@each_form("command,at_least", [
    ("rimraf ~", "high"),
    ("npm exec -- rimraf ~/projects", "medium"),
    ('rimraf "$DIR"/*', "high"),
])
def test_recursive_forced_delete_by_another_name(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", ["npx rimraf ./dist", "npx rimraf node_modules", "rimraf --help"])
def test_recursive_delete_of_build_output_stays_quiet(command):
    assert stays_quiet(command), judged(command)
