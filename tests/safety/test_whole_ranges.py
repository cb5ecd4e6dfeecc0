"""A firewall opened to every address as a range's two ends (0.0.0.0 to 255.255.255.255), in any tool's option
spelling; Azure's 0.0.0.0-0.0.0.0 and narrower ranges stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("az sql server firewall-rule create -g rg -s sql01 -n all --start-ip-address 0.0.0.0 "
     "--end-ip-address 255.255.255.255", "medium"),
    ("New-AzSqlServerFirewallRule -ResourceGroupName rg -ServerName s -FirewallRuleName all -StartIpAddress 0.0.0.0 "
     "-EndIpAddress 255.255.255.255", "medium"),
    ("Set-AzSqlServerFirewallRule -ResourceGroupName rg -ServerName s -FirewallRuleName all -StartIpAddress 0.0.0.0 "
     "-EndIpAddress 255.255.255.255", "medium"),
    ("az postgres flexible-server firewall-rule create -g rg -n pg01 -r all --start-ip-address=0.0.0.0 "
     "--end-ip-address=255.255.255.255", "medium"),
    ("az mysql server firewall-rule create -g rg -s my01 -n all --start-ip-address 0.0.0.0 "
     "--end-ip-address 255.255.255.255", "medium"),
    ("New-AzMySqlFirewallRule -Name all -ResourceGroupName rg -ServerName my01 -StartIPAddress 0.0.0.0 "
     "-EndIPAddress 255.255.255.255", "medium"),
    ("az synapse workspace firewall-rule create --name all --workspace-name ws -g rg --start-ip-address 0.0.0.0 "
     "--end-ip-address 255.255.255.255", "medium"),
])
def test_firewalls_opened_to_every_address_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "New-AzSqlServerFirewallRule -ResourceGroupName rg -ServerName s -AllowAllAzureIPs",
    "az sql server firewall-rule create -g rg -s sql01 -n azure --start-ip-address 0.0.0.0 --end-ip-address 0.0.0.0",
    "az sql server firewall-rule create -g rg -s sql01 -n office --start-ip-address 203.0.113.0 "
    "--end-ip-address 203.0.113.255",
    "ifconfig eth0 netmask 255.255.255.255",
])
def test_narrower_ranges_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
