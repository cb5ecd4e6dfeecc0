"""Round 19's write classes read for any program (``rules/traffic_taken.py`` and the readings after it), and the
same programs used harmlessly (tests/corpus/effects/write_w3): one case per table, each listing its failures."""
from __future__ import annotations

import re
from pathlib import Path

from tests.safety.forms import flagged, table_holds

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "write_w3"


TRAFFIC_TAKEN = (
    ["Set-NetRoute -DestinationPrefix ::/0 -NextHop fe80::66 -InterfaceIndex 4",
     "netsh interface ipv4 add route 0.0.0.0/0 \"Ethernet\" 10.66.0.1",
     "gobgp global rib add 0.0.0.0/0 nexthop 10.66.0.1",
     "vtysh -c 'conf t' -c 'router bgp 65001' -c 'network 0.0.0.0/0'",
     "ip route replace default via 10.66.0.1 dev eth0",
     "ip neigh replace 192.168.1.1 lladdr de:ad:be:ef:00:01 dev eth0 nud permanent",
     "New-NetNeighbor -InterfaceIndex 12 -IPAddress 192.168.1.1 -LinkLayerAddress deadbeef0001",
     "scapy-arpcachepoison 192.168.1.20 192.168.1.1", "pretender -i eth0 --spoof corp.local",
     "dnschef --fakeip 10.66.0.5 --interface 0.0.0.0", "ettercap -T -q -M arp:remote /192.168.1.1// /192.168.1.20//",
     "yersinia dhcp -attack 1 -interface eth0", "tc qdisc add dev eth0 root netem loss 100%",
     "pumba netem --duration 1h loss --percent 100 web", "comcast --device=eth0 --packet-loss=100%"],
    ["Get-NetRoute -DestinationPrefix 0.0.0.0/0", "New-NetRoute -DestinationPrefix 10.20.0.0/16 -NextHop 10.0.0.1",
     "exabgpcli announce route 10.20.0.0/24 next-hop self", "ip route add default via 192.168.1.1",
     "route add default gw 192.168.0.1", "sshuttle -r user@host 0.0.0.0/0", "ip route show default",
     "arp -s 192.168.1.20 de:ad:be:ef:00:02", "arp -a", "ip neigh show", "arpspoof --help",
     "ip link set eth0 vf 0 spoofchk on", "docker update -m 512m web", "mitmproxy -m regular",
     "RsaCtfTool.py --publickey key.pub --private --attack fermat", "comcast --device=eth0 --packet-loss=10%",
     "tc qdisc add dev eth0 root netem loss 1%"],
)


def test_traffic_taken():
    table_holds(TRAFFIC_TAKEN)


CLOCK_STEPPED = (
    ["ntpdig -S 198.51.100.7", "openrdate -s 198.51.100.7", "ntpclient -s -h 198.51.100.7", "htpdate -s 203.0.113.9",
     "phc_ctl eth0 set 0", "adjtimex --tick 9000"],
    ["ntpdig -S pool.ntp.org", "ntpclient -s -h 10.0.0.1", "ntpdate -q 203.0.113.9", "ntpdate -b pool.ntp.org",
     "adjtimex --tick 10000", "phc_ctl /dev/ptp0 get", "rdate -p time.nist.gov",
     "phc2sys -s /dev/ptp0 -c CLOCK_REALTIME"],
)


def test_clock_stepped():
    table_holds(CLOCK_STEPPED)


TRUST_LOOSENED = (
    ["gpg --keyserver hkp://198.51.100.4 --recv-keys ABCD1234", "apt-key adv --fetch-keys http://repo.example.net/k.gpg",
     "Set-PackageSource -Name x -Location http://10.1.1.1/api -Trusted", "grubby --update-kernel=ALL --args=fips=0",
     "fips-mode-setup --disable", "kubelet --anonymous-auth=true", "pure-pw usermod bob -d /",
     "ftpasswd --passwd --name=bob --uid=1001 --home=/ --shell=/bin/false"],
    ["gpg --keyserver hkp://keyserver.ubuntu.com --recv-keys ABCD1234", "rpmkeys --import https://x.example/KEY",
     "Register-PSRepository -Name C -SourceLocation https://nuget.corp/api -InstallationPolicy Trusted",
     "grubby --update-kernel=ALL --args=fips=1", "fips-mode-setup --check", "gpg --import key.asc",
     "pure-pw useradd bob -u ftp -d /srv/ftp/bob", "smbclient //server/share -U anonymous"],
)


def test_trust_loosened():
    table_holds(TRUST_LOOSENED)


INTERFACE_REMOVED = (
    ["vconfig rem eth0.100", "ifenslave -d bond1 eth2", "ip link delete vlan0.100", "dladm remove-aggr -l net1 aggr0",
     "iw dev wlan0 del"],
    ["ngrep -d eth0 port 22", "tcpdump -d eth0", "ifenslave bond0 eth0 eth1", "vconfig add eth0 100",
     "tc qdisc show dev eth0"],
)


def test_interface_removed():
    table_holds(INTERFACE_REMOVED)


CONFIG_REPLACED = (
    ["ucf /dev/null /etc/pam.d/common-auth", "UCF_FORCE_CONFFNEW=1 ucf /tmp/new_sshd /etc/ssh/sshd_config",
     "confput /dev/null /etc/security/access.conf", "cfgswap /var/tmp/x /etc/sudoers", "putconf $(mktemp) /etc/shadow"],
    ["ucf /usr/share/foo/foo.conf /etc/foo.conf", "diff /tmp/x /etc/ssh/sshd_config", "cmp /dev/null /etc/shadow",
     "ucfr pkg /etc/pam.d/sshd", "colordiff /tmp/a /etc/pam.d/sshd"],
)


def test_config_replaced():
    table_holds(CONFIG_REPLACED)


IMAGE_BUILDER_ON_DEVICE = (
    ["genext2fs -d rootfs/ /dev/mmcblk0p2", "genromfs -d rootfs -f /dev/sdc", "makefs -t ffs /dev/da0 rootdir",
     "genfatfs -s 64 /dev/sdd1", "mkjffs2fs -r rootfs /dev/mtdblock2"],
    ["genext2fs -d rootfs/ -b 8192 rootfs.img", "genromfs -d rootfs -f rom.img", "makefs -t ffs disk.img rootdir",
     "genfatfs -s 64 fat.img", "mkinitramfs -o /boot/initrd.img-6.1", "gen_initramfs x"],
)


def test_image_builder_on_device():
    table_holds(IMAGE_BUILDER_ON_DEVICE)


NAMED_DESTINATION_DEVICE = (
    ["chromeos-install --dst /dev/sda --yes", "osinstall --destination /dev/nvme0n1", "rpi-setup --target /dev/mmcblk0",
     "sysprovision --dest /dev/sdb", "imgsetup --dst /dev/sdc1"],
    ["coreos-installer iso customize --dest-device /dev/sda -o custom.iso in.iso", "chromeos-install --help",
     "rsync -a src/ --dest /mnt/x", "foo --target /dev/null", "bar --target /dev/stdout"],
)


def test_named_destination_device():
    table_holds(NAMED_DESTINATION_DEVICE)


def _commands(name: str) -> list:
    lines = [line for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    return [re.sub(r"^\[[\w-]+\]\s*", "", line) for line in lines]


def test_write_w3_forms():
    """At 90a4704: 28.7% of 101 flagged, everyday 5/86 loud (all five loud on main already); traffic_taken 49.5%;
    clock stepped 57.1% of 105, everyday 5/91; trust_loosened 67.6% of 111, everyday 5/98;
    members removed 69.4%, everyday 4/98 (comcast --stop quiet since w3-fa);
    config replaced 71.2%; image builders on a device 74.3% of 113, everyday 4/100;
    a named destination option with a device 75.7% of 115."""
    destructive, everyday = _commands("destructive.txt"), _commands("everyday.txt")
    missed = [c for c in destructive if not flagged(c)]
    loud = [c for c in everyday if flagged(c)]
    assert len(destructive) >= 100 and len(everyday) >= 80
    assert 1 - len(missed) / len(destructive) >= 0.75, "\n".join(missed)
    assert len(loud) <= 5, "\n".join(loud)
