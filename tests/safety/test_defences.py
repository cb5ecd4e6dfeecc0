"""The field of defences as one table (rules/defences.py), read by every reading of the class: a product known
there is switched off by any tool's words; an agent taken off the machine is high, one stopped medium; an
exclusion is high for the whole machine, medium for a path, a process or an extension, quiet for a build cache;
the products' own files switched off or told to exclude.  Everyday forms (status, install, start, a project's
folder of the same name, an exclusion taken back) stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.kept import assess

_RANK = {None: 0, "low": 1, "medium": 2, "high": 3}


def _level(command: str) -> str:
    verdict = assess(command)
    level = verdict.level if verdict else None
    return level if _RANK[level] >= 2 else "quiet"


@each_form("command,expected", [
    # products the table knows, by any tool's switching-off (medium), or taken off the machine (high)
    ("sudo systemctl stop drweb-configd", "medium"),
    ("sudo launchctl bootout system/com.zscaler.tunnel", "medium"),
    ("sudo killall -9 nsdiag netskope-client", "medium"),
    ("net stop AvkService", "medium"),
    ("sudo systemctl disable --now nessusagent", "medium"),
    ("sudo service lacework-datacollector stop", "medium"),
    ("sudo dpkg -P jamf-protect", "high"),
    ("sudo yum erase twistlock-defender", "high"),
    ("sudo apt-get purge -y uptycs-osquery", "high"),
    ("sudo rm -rf /opt/avira", "high"),
    ("choco uninstall withsecure-elements -y", "high"),
    ("sudo zypper rm -y aqua-enforcer", "high"),
    ("sudo brew uninstall --cask hitmanpro", "high"),
    ("sudo rpm -e falcon-sensor", "high"),
    ("sudo /opt/sophos-av/bin/savdctl uninstall", "high"),
    ("sudo rm -rf /usr/local/maldetect", "medium"),
    ("sudo systemctl stop cbdaemon", "medium"),
    ("sysmon64 -u force", "high"),
    ("sudo apt remove ufw", "medium"),
    ("kextunload -b com.crowdstrike.sensor", "medium"),
    ("fltmc detach SysmonDrv C:", "medium"),
    ("Uninstall-WindowsFeature -Name Windows-Defender", "high"),
    ("Remove-WindowsUpdate -KBArticleID KB5034441", "medium"),
    ("sudo profiles -R -p com.crowdstrike.falcon", "medium"),
    ("sudo profiles -D -f", "medium"),
    ("az security pricing create -n VirtualMachines --tier free", "medium"),
    # everyday: status, install, start, a folder of the project named like a product, the bindings
    ("sudo systemctl status nessusagent", "quiet"),
    ("sudo dpkg -i jamf-protect.deb", "quiet"),
    ("sudo systemctl restart drweb-configd", "quiet"),
    ("choco install withsecure-elements -y", "quiet"),
    ("grep -r sentinelone /var/log/syslog", "quiet"),
    ("cp -r ~/src/falco/docs /tmp/falco-docs", "quiet"),
    ("pip uninstall osquery", "quiet"),
    ("sudo profiles -R -p com.example.wifi", "quiet"),
    ("sudo profiles list -all", "quiet"),
    ("az security pricing create -n VirtualMachines --tier standard", "quiet"),
    ("sudo launchctl kickstart -k system/com.zscaler.tunnel", "quiet"),
])
def test_any_tool_switches_off_a_product_of_the_table(command: str, expected: str) -> None:
    assert _level(command) == expected, f"{command!r} -> {assess(command)!r}, expected {expected}"


@each_form("command,expected", [
    ("sudo mdatp exclusion folder add --path /tmp/", "medium"),
    ("sudo mdatp exclusion process add --name bash", "medium"),
    ("sudo mdatp exclusion extension add --name .sh", "medium"),
    ("sudo savconfig add ExcludeFilePaths /home/", "medium"),
    ("Add-MpPreference -ExclusionProcess powershell.exe", "medium"),
    ("Add-MpPreference -ExclusionPath C:\\", "high"),
    ("sudo mdatp exclusion folder add --path /", "high"),
    ('echo "ExcludePath ^/home/" | sudo tee -a /etc/clamav/clamd.conf', "medium"),
    ('echo "OnAccessExcludeUname clamav" >> /etc/clamd.d/scan.conf', "medium"),
    ("echo '!/var/www' | sudo tee -a /etc/aide/aide.conf", "medium"),
    # a build cache the vendors' performance guides name, an exclusion taken back, a listing: quiet
    ("sudo mdatp exclusion folder add --path /home/me/src/app/node_modules", "quiet"),
    ('Add-MpPreference -ExclusionPath "C:\\src\\web\\node_modules"', "quiet"),
    ("sudo savconfig add ExcludeFilePaths /srv/app/target/", "quiet"),
    ("sudo mdatp exclusion folder remove --path /tmp/", "quiet"),
    ("Remove-MpPreference -ExclusionPath C:\\Temp", "quiet"),
    ("sudo mdatp exclusion list", "quiet"),
    ("clamscan -r --exclude-dir=node_modules .", "quiet"),
    ("echo '/var/www R' | sudo tee -a /etc/aide/aide.conf", "quiet"),
])
def test_exclusions_by_what_they_blind(command: str, expected: str) -> None:
    assert _level(command) == expected, f"{command!r} -> {assess(command)!r}, expected {expected}"


@each_form("command,expected", [
    ('echo "ScanOnAccess no" | sudo tee -a /etc/clamav/clamd.conf', "medium"),
    ("echo 'permissive = 1' | sudo tee -a /etc/fapolicyd/fapolicyd.conf", "medium"),
    ("sudo sed -i 's/DEFAULT_INPUT_POLICY=\"DROP\"/DEFAULT_INPUT_POLICY=\"ACCEPT\"/' /etc/default/ufw", "medium"),
    ("echo 'SELINUX=disabled' | sudo tee /etc/selinux/config", "high"),
    ("echo '{\"antivirusEngine\": {\"enforcementLevel\": \"passive\"}}' | sudo tee "
     "/etc/opt/microsoft/mdatp/managed/mdatp_managed.json", "medium"),
    ('echo "LogFile /var/log/clamav/clamd.log" | sudo tee -a /etc/clamav/clamd.conf', "quiet"),
    ("echo 'permissive = 0' | sudo tee -a /etc/fapolicyd/fapolicyd.conf", "quiet"),
])
def test_products_switched_off_in_their_own_files(command: str, expected: str) -> None:
    assert _level(command) == expected, f"{command!r} -> {assess(command)!r}, expected {expected}"


@each_form("command,expected", [
    # a protection told to watch without stopping (audit-only, detect-only, passive), by any product's words
    ("sudo mdatp config passive-mode --value enabled", "medium"),
    ("sudo mdatp config enforcement-level --value passive", "medium"),
    ("sudo /opt/CrowdStrike/falconctl -s --prevention-mode=detect", "medium"),
    ("sudo sentinelctl config policy.mitigationMode detect", "medium"),
    ("sudo kesl-control --set-settings 1 ScanMode=detect", "medium"),
    ("sudo clamonacc --mode=monitor", "medium"),
    ("Set-MpPreference -EnableNetworkProtection AuditMode", "medium"),
    ("Set-MpPreference -EnableControlledFolderAccess 2", "medium"),
    ("Set-RuleOption -FilePath .\\policy.xml -Option 3", "medium"),
    ("Add-MpPreference -AttackSurfaceReductionOnlyExclusions C:\\Users\\Public\\", "medium"),
    ("Remove-EtwTraceProvider -AutologgerName EventLog-Application -Guid '{A0C1853B-5C40-4B15-8766-3CF1C58F985A}'",
     "medium"),
    # enforcing again, and the everyday values: quiet
    ("sudo mdatp config passive-mode --value disabled", "quiet"),
    ("sudo mdatp config enforcement-level --value real_time", "quiet"),
    ("sudo sentinelctl config policy.mitigationMode protect", "quiet"),
    ("Set-MpPreference -EnableNetworkProtection Enabled", "quiet"),
    ("Set-RuleOption -FilePath .\\policy.xml -Option 3 -Delete", "quiet"),
    ('Add-MpPreference -AttackSurfaceReductionOnlyExclusions "C:\\repos\\app\\node_modules"', "quiet"),
])
def test_protections_set_to_watch_only(command: str, expected: str) -> None:
    assert _level(command) == expected, f"{command!r} -> {assess(command)!r}, expected {expected}"


@each_form("command,expected", [
    # the machine as a whole no longer protected: high; the same tools turning it on or reading it: quiet
    ("csrutil disable", "high"),
    ("sudo defaults write /Library/Preferences/com.apple.alf globalstate -int 0", "high"),
    ("sudo ufw --force disable", "high"),
    ("sudo pfctl -d", "high"),
    ("netsh advfirewall set allprofiles state off", "high"),
    ("Set-NetFirewallProfile -Profile Domain,Public,Private -Enabled False", "high"),
    ("sudo ufw reset", "medium"),
    ("sudo csrutil status", "quiet"),
    ("sudo defaults write /Library/Preferences/com.apple.alf globalstate -int 1", "quiet"),
    ("sudo pfctl -e", "quiet"),
    ("netsh advfirewall set allprofiles state on", "quiet"),
    ("Set-NetFirewallProfile -Profile Domain,Public,Private -Enabled True", "quiet"),
])
def test_the_whole_machine_unprotected_is_high(command: str, expected: str) -> None:
    assert _level(command) == expected, f"{command!r} -> {assess(command)!r}, expected {expected}"
