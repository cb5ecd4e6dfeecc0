"""Things stopped broadly by mechanism, for any program that shows it: a product's own stop program
(named for the verb) told to stop at once or everywhere, the network a remote user stands on cut, a
port's owner killed, every window closed through desktop automation, the OS release upgraded
without asking."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    # S1: a program named for the stop verb of a product, with force/immediate/all
    "db2stop force",
    "ingstop -force",
    "ingstop -kill",
    "gpstop -a -M immediate",
    "gpstop -M fast -a",
    "mqsistop BROKER1 -i",
    "proshut sports2000 -by",
    "mmshutdown -a",
    "cmhaltcl -f -v",
    "cmhaltnode -f node2",
    "hastop -all -force",
    "hastop -local -force",
    "endmqm -i QM1",
    "endmqm -p QMGR.PROD",
    "tmshutdown -y",
    "scshutdown -y -g0",
    "stopsrc -a",
    "stopsrc -g tcpip",
    "stopsap all",
    "lsfshutdown",
    "qterm -t immediate",
    "qterm -t quick",
    "qconf -ke all",
    "qconf -km",
    "srvctl stop database -d ORCL -o abort",
    "crsctl stop crs -f",
    "crsctl stop cluster -all",
    "emctl stop dbconsole",
    "lsnrctl stop LISTENER",
    "opmnctl stopall",
    "ndb_mgm -e shutdown",
    "sendevent -E STOP_DEMON",
    "ccontrol stop CACHE quietly",
    "iris stop IRIS quietly",
    "asmcmd shutdown --abort",
    "monit stop all",
    "vmctl stop -a -f",
    "xl shutdown -a -F",
    "sapcontrol -nr 00 -function StopSystem ALL",
    "ttDaemonAdmin -stop",
    "dbshut $ORACLE_HOME",
    "shut-ctm",
    "haltsys",
    "onmode -ky",
    "gabconfig -U",
    "pgpool -m fast stop",
    "vzctl stop 101 --fast",
    "ha-manager set vm:100 --state stopped",
    "pbskill -all",
    "killsrv -f",
    "mqkill -i QM1",
    "ndbkill --all",
    "db2_kill",
    "opcterm -immediate",
    "dbterm -all",
    "endsvr -immed",
])
def test_products_stopped_by_their_own_stop_programs_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "db2start",
    "gpstart -a",
    "gpstate -s",
    "hastatus -sum",
    "mqsilist",
    "dspmq",
    "lssrc -a",
    "startsrc -s sshd",
    "qstat -f",
    "qconf -sql",
    "crsctl check crs",
    "srvctl status database -d ORCL",
    "lsnrctl status",
    "emctl status dbconsole",
    "monit status",
    "monit summary",
    "xl list",
    "xterm -t",
    "xterm -e htop",
    "endlessh -v",
    "killsnoop -p 1234",
    "htop -t",
    "ndb_mgm -e show",
    "sapcontrol -nr 00 -function GetProcessList",
    "stopwatch 5m",
    "termdown 25m",
    "backstop test",
    "nonstop --help",
    "steam -shutdown",
    "shutter",
    "pgpool -m fast reload",
    "ha-manager set vm:100 --state started",
    "vzctl start 101",
    "pbskill",
    "killsnoop -x",
    "terminator -x htop",
])
def test_product_status_and_starts_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # S2: the network a remote user stands on
    "wg-quick down wg0",
    "sudo wg-quick down /etc/wireguard/wg0.conf",
    "tailscale down",
    "netbird down",
    "zerotier-cli leave 8056c2e21c000001",
    "connmanctl disable ethernet",
    "connmanctl disable wifi",
    "connmanctl offline on",
    "wicked ifdown all",
    "wicked ifdown eth0",
    "nmcli connection down 'Wired connection 1'",
    "nmcli con down id eth0",
    "nmcli device disconnect eth0",
    "nmcli dev down eth0",
    "nmcli networking off",
    "nmcli con mod eth0 ipv4.method disabled",
    "networkctl down eth0",
    "ifdown -a",
    "ifdown --force eth0",
    "netctl stop-all",
    "ipsec down office-tunnel",
    "swanctl --terminate --ike office",
    "openvpn3 session-manage --disconnect --config office.ovpn",
    "netplan set ethernets.eth0.dhcp4=false && netplan apply",
    "ubus call network.interface.wan down",
    "Disable-NetAdapter -Name * -Confirm:$false",
    "Disable-NetAdapter -Name Ethernet -Confirm:$false",
    "netsh interface set interface Ethernet disable",
    "networksetup -setnetworkserviceenabled Ethernet off",
    "iwctl device wlan0 set-property Powered off",
    "vpnc-disconnect",
    "wpa_cli -i wlan0 disable_network 0",
])
def test_the_network_a_remote_user_stands_on_cut_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "wg-quick up wg0",
    "wg show",
    "tailscale up",
    "tailscale status",
    "netbird up",
    "zerotier-cli join 8056c2e21c000001",
    "zerotier-cli listnetworks",
    "connmanctl enable wifi",
    "connmanctl services",
    "connmanctl offline off",
    "wicked ifup eth0",
    "wicked ifstatus all",
    "nmcli connection up 'Wired connection 1'",
    "nmcli device status",
    "nmcli networking on",
    "nmcli con mod eth0 ipv4.method auto",
    "networkctl status eth0",
    "ipsec up office-tunnel",
    "ipsec statusall",
    "swanctl --list-sas",
    "netplan get",
    "netplan try",
    "netplan apply",
    "Get-NetAdapter",
    "Enable-NetAdapter -Name Ethernet",
    "netsh interface show interface",
    "nordvpn disconnect",
    "mullvad disconnect",
    "mozillavpn logout",
    "netplan set ethernets.eth0.dhcp4=true",
    "vpnc-connect office.conf",
    "wpa_cli -i wlan0 enable_network 0",
    "iw dev wlan0 link",
])
def test_network_bring_up_and_status_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # S3: by port
    "killport 22",
    "killport 5432",
    "killport 8080 3000",
    "fkill :5432",
    "fkill --force :443",
    "fuser -k 22/tcp",
    "fuser -k -n tcp 3306",
    "npx kill-port 5432",
    "port-kill 6379",
    "kill -9 $(lsof -t -i:5432)",
    "lsof -ti tcp:3306 | xargs kill -9",
    "kill $(lsof -t -i :22)",
    "lsof -t -i:443 | xargs -r kill",
    "sudo kill -9 $(sudo lsof -t -i tcp:80)",
    "kill -9 $(fuser 8080/tcp 2>/dev/null)",
    "ss -K sport = :22",
])
def test_killing_by_port_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "lsof -i :5432",
    "lsof -t -i:3000",
    "fuser 22/tcp",
    "fuser -v -n tcp 80",
    "ss -ltnp sport = :22",
    "killport --help",
])
def test_looking_up_a_port_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # S4: every window or app closed through desktop automation
    "wmctrl -l | awk '{print $1}' | xargs -n1 wmctrl -ic",
    "for w in $(wmctrl -l | cut -d' ' -f1); do wmctrl -ic $w; done",
    "wmctrl -l | cut -d' ' -f1 | xargs -I{} wmctrl -i -c {}",
    "xdotool search --name '.*' windowkill",
    "xdotool search --onlyvisible --name '' windowclose",
    "xdotool search --class '.' windowkill %@",
    "xdotool search --name . windowclose %@",
    "for id in $(xdotool search --onlyvisible --name .); do xdotool windowkill $id; done",
    "swaymsg '[class=\".*\"] kill'",
    "i3-msg '[class=\".*\"] kill'",
    "swaymsg '[app_id=\".*\"] kill'",
    "xkill -all",
    "osascript -e 'tell application \"System Events\" to set apps to name of every application process whose "
    "background only is false' -e 'repeat with a in apps' -e 'tell application a to quit' -e 'end repeat'",
    "osascript -e 'tell application \"System Events\" to quit every application process'",
    "hyprctl dispatch exit",
    "bspc query -N -n .window | xargs -I{} bspc node {} -c",
    "herbstclient foreach C clients. close C",
])
def test_every_window_closed_by_desktop_automation_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "wmctrl -l",
    "wmctrl -c Firefox",
    "wmctrl -a Terminal",
    "wmctrl -ic 0x03a00004",
    "xdotool search --name Firefox windowactivate",
    "xdotool search --name 'Mozilla Firefox' windowclose",
    "xdotool getactivewindow windowminimize",
    "xdotool key ctrl+w",
    "swaymsg '[class=\"Firefox\"] kill'",
    "i3-msg kill",
    "swaymsg '[class=\".*\"] move to workspace 2'",
    "osascript -e 'tell application \"Safari\" to quit'",
    "osascript -e 'tell application \"System Events\" to get name of every application process'",
    "hyprctl dispatch killactive",
    "hyprctl clients",
    "bspc node -c",
    "xkill",
    "xkill -id 0x3a00004",
])
def test_one_window_closed_or_listed_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # S5: OS release upgrades run without asking
    "do-release-upgrade -f DistUpgradeViewNonInteractive",
    "sudo do-release-upgrade -d -f DistUpgradeViewNonInteractive",
    "yes | sudo do-release-upgrade",
    "dnf system-upgrade download --releasever=41 -y && dnf system-upgrade reboot",
    "dnf system-upgrade reboot",
    "leapp upgrade --reboot",
    "freebsd-update -r 14.1-RELEASE upgrade && freebsd-update install",
    "freebsd-update --not-running-from-cron -r 14.0-RELEASE upgrade",
    "zypper --non-interactive dup",
    "zypper -n dist-upgrade --allow-vendor-change",
    "transactional-update dup reboot",
    "rpm-ostree rebase fedora:fedora/41/x86_64/silverblue --reboot",
    "bootc switch --apply quay.io/fedora/fedora-bootc:41",
    "bootc upgrade --apply",
    "sysupgrade -s",
    "sed -i 's/bookworm/trixie/g' /etc/apt/sources.list && apt-get update && apt-get -y dist-upgrade",
    "softwareupdate --install --os-only --restart --agree-to-license",
    "Install-WindowsUpdate -AcceptAll -AutoReboot",
    "UsoClient StartInstall",
    "'/Applications/Install macOS Sequoia.app/Contents/Resources/startosinstall' --agreetolicense --nointeraction",
    "setup.exe /auto upgrade /quiet /eula accept",
    "setup.exe /auto clean /quiet",
    "pop-upgrade release upgrade",
    "ubuntu-release-upgrade --yes",
    "echo y | do-release-upgrade",
    "pkcon upgrade-system 42 -y",
    "Windows10Upgrade9252.exe /quietinstall /skipeula /auto upgrade",
    "transactional-update --non-interactive dup",
])
def test_release_upgrades_run_without_asking_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "do-release-upgrade -c",
    "do-release-upgrade --check-dist-upgrade-only",
    "dnf system-upgrade download --releasever=41",
    "dnf system-upgrade log",
    "leapp preupgrade",
    "freebsd-update fetch",
    "zypper lu",
    "zypper dup --dry-run",
    "apt-get -s dist-upgrade",
    "apt list --upgradable",
    "bootc status",
    "bootc upgrade --check",
    "rpm-ostree status",
    "softwareupdate -l",
    "Get-WindowsUpdate",
    "startosinstall --usage",
    "setup.exe /?",
    "pop-upgrade release check",
    "zypper dup",
    "do-release-upgrade",
    "echo n | do-release-upgrade",
    "apt-get -y dist-upgrade",
    "pkcon get-updates",
])
def test_upgrade_checks_and_downloads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
