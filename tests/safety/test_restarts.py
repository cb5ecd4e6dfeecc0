"""A stop undone on the same line is a restart (safety/restarts.py): a later command that runs once the stop has
run (`&&`, `;`, a new line) starts the very same thing again, so the stop is not judged; the rest of the line is."""
from __future__ import annotations

from tests.safety.forms import misjudged

RESTARTS = (
    ["sudo ip link set eth0 down", "ipconfig /release",
     "sudo systemctl stop firewalld || sudo systemctl start firewalld",
     "sudo systemctl stop firewalld & sudo systemctl start firewalld",
     "sudo systemctl stop firewalld && sudo systemctl disable firewalld",
     "sudo systemctl stop firewalld && sudo systemctl start nftables",
     "Stop-Service -Name * -Force; Start-Service -Name Spooler",
     "sudo systemctl stop postgresql && sudo rm -rf /var/lib/postgresql/14/main && sudo systemctl start postgresql",
     "sudo ip link set eth0 down | sudo ip link set eth0 up"],
    ["net stop wuauserv && rd /s /q C:\\Windows\\SoftwareDistribution && net start wuauserv",
     "net stop wuauserv && net stop bits && net start wuauserv && net start bits",
     "sudo dhclient -r eth0 && sudo dhclient eth0", "sudo dhclient -r && sudo dhclient",
     "ipconfig /release && ipconfig /renew", "ipconfig /release\nipconfig /renew", "sudo ifdown eth0 && sudo ifup eth0",
     "sudo ip link set eth0 down && sudo ip link set eth0 up",
     "nmcli networking off && nmcli networking on", "sudo swapoff -a && sudo swapon -a",
     "sudo systemctl stop sshd.service; sudo systemctl start sshd",
     "Disable-NetAdapter -Name \"Ethernet\" -Confirm:$false; Enable-NetAdapter -Name \"Ethernet\"",
     "sudo ufw disable && sudo ufw enable", "sudo service networking stop && sudo service networking start"])


def test_a_stop_started_again_on_the_same_line_is_a_restart():
    wrong = misjudged(*RESTARTS)
    assert not wrong, "\n".join(wrong)
