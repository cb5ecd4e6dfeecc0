"""Servers stopped by their own control programs, commands fanned out to fleets, the network cut
and devices powered off, protections switched off in settings, and vendor tools' own words for
erasing or resetting.  Each class is tested on several programs and phrasings, with everyday
near misses that must stay quiet."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


# ----------------------------------------------------------------- servers stopped by their own control programs
@each_form("command", [
    "sudo /opt/tomcat/bin/shutdown.sh",
    "/opt/wildfly/bin/jboss-cli.sh --connect command=:shutdown",
    "./bin/stop-hbase.sh",
    "sudo /usr/local/kafka/bin/kafka-server-stop.sh",
    "$ZOOKEEPER_HOME/bin/zkServer.sh stop",
    "sudo apachectl graceful-stop",
    "sudo pg_ctlcluster 15 main stop -m immediate",
    "sudo -u postgres pg_ctl -D /var/lib/postgresql/data stop -m fast",
    "sudo /etc/init.d/mysql stop",
    "sudo asterisk -rx 'core stop gracefully'",
    "sudo unbound-control stop",
    "sudo rndc halt",
    "sudo strongswan stop",
    "sudo nginx -s quit",
    "s6-svc -d /run/service/nginx",
    "svc -dx /service/*",
    "sudo start-stop-daemon --stop --oknodo --exec /usr/sbin/haproxy --retry TERM/10/KILL/5",
    "sudo lxc-stop -n web01 --kill",
    "sudo crm cluster stop",
    "ts -K",
    "sudo varnishadm stop",
    "sudo /opt/splunk/bin/splunk stop",
    "sudo -u elastic ./bin/elasticsearch-stop",
    "sudo /usr/sbin/dovecot stop",
    "atq | awk '{print $1}' | xargs atrm",
    "atrm $(atq | cut -f1)",
])
def test_servers_stopped_by_their_own_control_programs(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "systemctl restart nginx",
    "sudo systemctl reload nginx",
    "sudo systemctl stop nginx",
    "sudo nginx -t",
    "sudo apachectl configtest",
    "sudo apachectl graceful",
    "pg_ctl -D data status",
    "sudo rndc reload",
    "sudo ipsec status",
    "sudo ipsec restart",
    "sudo unbound-control reload",
    "sudo /etc/init.d/nginx status",
    "./bin/start-hbase.sh",
    "sudo asterisk -rx 'core show channels'",
    "ts -l",
    "lxc-stop -n test1",
    "sudo lxc-stop web01",
    "sudo airmon-ng stop wlan0mon",
    "virsh shutdown web01",
    "svc -u /service/web",
    "playerctl stop",
    "mpc stop",
    "timew stop",
    "vagrant halt",
    "minikube stop",
    "atq",
    "atrm 12",
    # daemons a developer's own tools start on demand and start again on their next use: build
    # servers, language and formatter daemons, file watchers, a personal notebook server
    "bazel shutdown",
    "bazelisk shutdown",
    "bin/spring stop",
    "spring stop",
    "watchman shutdown-server",
    "sccache --stop-server",
    "buck2 kill",
    "eslint_d stop",
    "prettierd stop",
    "sbt shutdown",
    "jupyter server stop",
    "jupyter notebook stop 8888",
    "nx daemon --stop",
    "turbo daemon stop",
])
def test_servers_read_reloaded_or_started_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- fleets
@each_form("command,at_least", [
    ("salt -G 'os:Ubuntu' system.poweroff", "high"),
    ("salt '*' cmd.run 'shutdown -r now'", "high"),
    ("salt 'web*' service.stop nginx", "medium"),
    ("bolt command run 'sudo reboot' --targets all", "high"),
    ("bolt command run 'systemctl stop postgresql' -t webservers,dbservers", "medium"),
    ("pdsh -w node[01-64] 'sudo poweroff'", "high"),
    ("clush -g compute systemctl stop slurmd", "medium"),
    ("ansible all -m reboot", "high"),
    ("ansible web -m service -a 'name=nginx state=stopped'", "medium"),
    ("ansible all -i inventory -b -m shell -a 'rm -rf /var/lib/docker'", "high"),
    ("psexec \\\\* -s shutdown /s /t 0", "medium"),
    ("PsExec.exe @computers.txt -u admin cmd /c \"shutdown /r /f /t 0\"", "medium"),
    ("psexec \\\\web1 -s cmd /c \"rd /s /q %USERPROFILE%\"", "medium"),
    ("psexec \\\\web1 -u admin -p secret && rm -rf ~", "high"),  # a psexec with no command judged the rest
    ("Invoke-Command -ComputerName (Get-Content servers.txt) -ScriptBlock { Stop-Computer -Force }", "high"),
    ("Invoke-Command -ComputerName $servers { Restart-Computer -Force }", "high"),
    ("Invoke-Command -ComputerName web1,web2 -ScriptBlock { Stop-Service W3SVC }", "medium"),
    ("Restart-Computer -ComputerName (Get-Content .\\hosts.txt) -Force", "high"),
    ("knife ssh 'role:web' 'sudo reboot'", "high"),
    ("fab -H web1,web2,web3 -- sudo reboot", "high"),
    ("aliyun ecs StopInstances --InstanceId.1 i-abc --ForceStop true", "medium"),
    ("aws ec2 stop-instances --instance-ids i-0123 i-0456 --force", "medium"),
    ("gcloud compute instances stop web-1 --zone us-east1-b --discard-local-ssd", "medium"),
])
def test_stops_fanned_out_to_fleets(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "salt '*' test.ping",
    "salt '*' pkg.version nginx",
    "salt -G 'os:Ubuntu' grains.items",
    "bolt command run 'uptime' --targets all",
    "parallel-ssh -h hosts.txt -i 'uptime'",
    "pdsh -a uptime",
    "clush -a df -h",
    "ansible all -m ping",
    "ansible all -m shell -a 'df -h'",
    "ansible web -m service -a 'name=nginx state=restarted'",
    "Invoke-Command -ComputerName web01 { Get-Service }",
    "Invoke-Command -ComputerName (Get-Content servers.txt) { Get-HotFix }",
    "knife ssh 'role:web' 'uptime'",
    "aws ec2 describe-instances",
    "aws ec2 stop-instances --instance-ids i-0123",
    "gcloud compute instances stop web-1 --zone us-east1-b",
])
def test_fleet_reads_and_plain_stops_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- the network cut, devices and hosts powered off
@each_form("command", [
    "sudo tc qdisc add dev eth0 root netem loss 100%",
    "sudo tc qdisc replace dev ens3 root netem drop 100%",
    "sudo tc qdisc add dev wlan0 root tbf rate 1bit burst 1 latency 1ms",
    "sudo tcpkill -i eth0 port 22",
    "sudo cutter 10.0.0.1 22",
    "sudo ss -K dst 10.0.0.0/8",
    "sudo udisksctl power-off -b /dev/sda",
    "udisksctl power-off --block-device /dev/nvme0n1",
    "sudo uhubctl -l 1-1 -a off",
    "uhubctl -a 0 -p 2",
    "esxcli system shutdown poweroff --reason maintenance",
    "esxcli system shutdown reboot -r patch",
    "vim-cmd vmsvc/power.off 12",
    "vim-cmd vmsvc/destroy 12",
    "vim-cmd vmsvc/snapshot.removeall 4",
    "vim-cmd vmsvc/unregister 9",
])
def test_network_cut_and_devices_powered_off(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "tc qdisc show dev eth0",
    "sudo tc filter add dev eth0 parent ffff: protocol ip u32 match ip src 203.0.113.9/32 action drop",
    "sudo tc qdisc add dev eth0 root netem delay 100ms",
    "sudo tc qdisc add dev eth0 root netem loss 1%",
    "udisksctl mount -b /dev/sdb1",
    "udisksctl power-off -b /dev/sdb",
    "udisksctl status",
    "uhubctl",
    "uhubctl -a on -p 2",
    "ss -tlnp",
    "esxcli system version get",
    "vim-cmd vmsvc/getallvms",
    "vim-cmd vmsvc/power.on 12",
    "vim-cmd vmsvc/snapshot.create 4 pre-update",
])
def test_network_and_host_reads_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- protections switched off in settings
@each_form("command", [
    "gsettings set org.gnome.desktop.screensaver lock-enabled false",
    "gsettings set org.gnome.desktop.lockdown disable-lock-screen true",
    "dconf write /org/gnome/desktop/screensaver/lock-enabled false",
    "defaults write com.apple.screensaver askForPassword -int 0",
    "kwriteconfig5 --file kscreenlockerrc --group Daemon --key Autolock false",
    "xfconf-query -c xfce4-session -p /shutdown/LockScreen -s false",
    "sudo authselect disable-feature with-faillock",
    "sudo pam-auth-update --disable faillock",
    "sudo ufw default allow incoming",
    "sudo firewall-offline-cmd --set-default-zone=trusted",
    "sudo firewall-cmd --permanent --zone=public --set-target=ACCEPT",
    "pihole disable 30m",
    "sudo fail2ban-client set sshd addignoreip 0.0.0.0/0",
    "sudo fail2ban-client stop",
    "sudo kernelstub -a mitigations=off",
    "sudo grubby --update-kernel=ALL --args='mitigations=off'",
    "sudo kernelstub --add-options 'spectre_v2=off nopti'",
    "sudo postconf -e 'mynetworks = 0.0.0.0/0'",
    "sudo postconf -e 'smtpd_relay_restrictions = permit'",
    "mosquitto_pub -h hass.local -t alarm/set -m DISARM",
    "hass-cli service call alarm_control_panel.alarm_disarm --arguments entity_id=alarm_control_panel.home",
    "amtool silence add 'alertname=~\".+\"' -d 720h -c maintenance",
    "amtool silence add severity=~'.*' --duration=4w",
    "export GOSUMDB=off",
    "go env -w GOSUMDB=off",
    "GONOSUMDB=* go get ./...",
    "git config --global safe.directory '*'",
    "git config --system --add safe.directory '*'",
    "git config --global credential.helper store",
    "git config credential.helper 'store --file ~/.git-creds'",
    "git config remote.origin.mirror true && git push",
    "sudo sysctl -w kernel.randomize_va_space=0",
    "sudo sysctl kernel.yama.ptrace_scope=0",
])
def test_protections_switched_off_in_settings(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "gsettings get org.gnome.desktop.screensaver lock-enabled",
    "gsettings set org.gnome.desktop.interface color-scheme prefer-dark",
    "gsettings set org.gnome.desktop.screensaver lock-enabled true",
    "dconf read /org/gnome/desktop/screensaver/lock-delay",
    "defaults read com.apple.screensaver",
    "defaults write com.apple.dock autohide -bool true",
    "sudo authselect enable-feature with-faillock",
    "sudo ufw allow 443",
    "sudo ufw default allow outgoing",
    "sudo firewall-cmd --get-default-zone",
    "sudo firewall-cmd --set-default-zone=public",
    "pihole status",
    "pihole enable",
    "sudo fail2ban-client status sshd",
    "sudo fail2ban-client set sshd addignoreip 192.168.1.10",
    "sudo postconf -e 'mynetworks = 127.0.0.0/8 192.168.1.0/24'",
    "postconf mynetworks",
    "amtool silence add alertname=DiskFull -d 2h -c 'disk swap'",
    "amtool silence query",
    "go env GOSUMDB",
    "export GOPRIVATE=git.corp.example",
    "git config --global --add safe.directory /srv/repo",
    "git config --global credential.helper cache",
    "git config remote.origin.url git@example.com:me/x.git && git push",
    "sudo kernelstub -a quiet",
    "sudo grubby --update-kernel=ALL --args='quiet splash'",
    "sudo sysctl -w vm.swappiness=10",
    "grep mitigations=off /proc/cmdline",
])
def test_settings_read_or_protections_kept_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- vendor and hardware tools
@each_form("command", [
    "racadm racresetcfg",
    "racadm -r idrac1 -u root -p x systemerase bios,idrac,lcdata",
    "ipmitool sel clear",
    "ipmitool -H 10.0.0.2 -U admin -P p sel clear",
    "STM32_Programmer_CLI -c port=SWD -e all",
    "nrfutil device recover --serial-number 1050",
    "nrfjprog --eraseall",
    "esptool.py --port /dev/ttyUSB0 erase_flash",
    "pyocd erase --chip",
    "sqldef --enable-drop-table mydb < schema.sql",
    "psqldef -U postgres --enable-drop-table app < schema.sql",
    "elasticsearch-node unsafe-bootstrap",
    "bin/elasticsearch-node detach-cluster",
    "kafka-configs --bootstrap-server b:9092 --alter --entity-type topics --entity-name orders "
    "--add-config retention.ms=1000",
    "kafka-topics.sh --bootstrap-server k:9092 --alter --topic events --config retention.ms=100",
    "kafka-streams-application-reset --application-id billing --input-topics payments",
    "cosign clean --type all ghcr.io/org/app:1.0",
    "aptly publish drop stable",
    "reprepro -b /srv/repo removematched bookworm '*'",
    "conda env remove -n ml -y",
    "mamba env remove --name analysis -y",
    "conda remove --name base --all --yes",
    "micromamba env remove -n data -y",
    "pyenv uninstall -f 3.11.4",
    "sudo rpm-ostree reset",
    "rcon-cli kill @e",
    "mcrcon -H localhost -p pw 'kill @e[type=!player]'",
    "mysql -e \"DELETE FROM orders WHERE 1=1\" shop",
    "psql -c 'DELETE FROM sessions WHERE true'",
    "psql app -c \"UPDATE accounts SET balance = 0 WHERE 1 = 1\"",
    "sqlite3 app.db \"DELETE FROM notes WHERE id > 0 OR 1=1\"",
    "comm -23 all.txt keep.txt | xargs rm",
])
def test_vendor_tools_erasing_or_resetting(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "racadm getsysinfo",
    "ipmitool sel list",
    "ipmitool sel elist",
    "STM32_Programmer_CLI -c port=SWD -w fw.bin 0x08000000",
    "nrfutil device list",
    "esptool.py --port /dev/ttyUSB0 read_mac",
    "sqldef mydb < schema.sql",
    "mysqldef -uroot app --dry-run < schema.sql",
    "elasticsearch-node repurpose --help",
    "kafka-configs --bootstrap-server b:9092 --describe --entity-type topics --entity-name orders",
    "kafka-configs --bootstrap-server b:9092 --alter --entity-type topics --entity-name orders "
    "--add-config retention.ms=604800000",
    "cosign verify ghcr.io/org/app:1.0",
    "aptly publish list",
    "reprepro -b /srv/repo list bookworm",
    "conda env list",
    "conda env remove -n old-env",
    "conda remove -n ml numpy -y",
    "conda create -n ml python=3.11",
    "pyenv install 3.12.1",
    "rpm-ostree status",
    "rcon-cli list",
    "mcrcon -H localhost -p pw 'say hello'",
    "mysql -e 'SELECT * FROM orders WHERE 1=1 LIMIT 5' shop",
    "mysql -e \"DELETE FROM orders WHERE id = 5\" shop",
    "psql -c 'DELETE FROM sessions WHERE expires < now()'",
    "comm -23 a.txt b.txt",
])
def test_vendor_tools_reading_or_writing_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a second set, written after the first landing
@each_form("command", [
    "sudo /usr/local/nagios/bin/nagios-stop",
    "/opt/activemq/bin/activemq stop",
    "sudo -u solr /opt/solr/bin/solr stop -all",
    "sudo knotc stop",
    "sudo pdns_control quit",
    "sudo cassandra-stop",
    "sudo nodetool stopdaemon",
    "sudo couchbase-cli server-stop",
    "sudo supervisord ctl shutdown",
    "sudo wildfly-cli.sh --connect ':shutdown(timeout=0)'",
    "salt -N webservers system.reboot",
    "salt -C 'G@role:db' service.stop postgresql",
    "PsExec64.exe \\\\web1,web2,web3 -s cmd /c \"net stop w3svc\"",
    "oci compute instance action --action STOP --instance-id ocid1.instance.x --force",
    "doctl compute droplet-action power-off 12345",
    "mco rpc service stop service=nginx -W role=web",
    "sudo tc qdisc add dev eth0 root netem corrupt 100%",
    "sudo tc filter add dev eth0 parent ffff: protocol ip u32 match u32 0 0 action drop",
    "xe host-shutdown host=xen01",
    "ilorest factorydefaults",
    "xfconf-query -c xfce4-screensaver -p /lock/enabled -s false",
    "sudo fail2ban-client set sshd unbanip --all",
    "hass-cli service call lock.unlock --arguments entity_id=lock.front_door",
    "clickhouse-client -q 'ALTER TABLE events DELETE WHERE 1'",
    "git-filter-repo --path secrets.txt --invert-paths --force",
    "mamba env remove -n prod",
    "sudo glassfish/bin/asadmin stop-domain domain1",
])
def test_second_set_of_forms(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "sudo pdns_control ping",
    "sudo knotc status",
    "xe vm-list",
    "ilorest list",
    "mco ping",
    "doctl compute droplet-action power-on 12345",
    "oci compute instance action --action START --instance-id ocid1.instance.x",
    "hass-cli service call light.turn_on --arguments entity_id=light.kitchen",
    "bw unlock",
    "kodi-send --host 192.168.0.1 -a Quit",
    "git-filter-repo --analyze",
    "git-lfs ls-files",
    "mamba env remove -n scratch",
    "asadmin list-domains",
    "gcloud run services list",
    "iw dev wlan0 disconnect",
    "clickhouse-client -q 'ALTER TABLE events DELETE WHERE day < today() - 90'",
])
def test_second_set_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)
