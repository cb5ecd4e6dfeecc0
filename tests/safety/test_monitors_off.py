"""A security or monitoring product switched off by any verb and any tool (rules/monitors_off.py): the
field's products by name or part (service, process, package, driver, bundle id, install directory) crossed
with every tool's switching-off; their everyday forms stay quiet."""
from __future__ import annotations

from tests.safety.forms import table_holds

LOUD = [
    # service managers
    "sudo systemctl stop cbdaemon", "sudo chkconfig cbdaemon off", "sudo systemctl stop SplunkForwarder",
    "sudo systemctl stop velociraptor_client", "sudo systemctl stop bdsec", "sudo systemctl stop traps_pmd",
    "sudo sv down falcon-sensor", "sudo s6-svc -d /run/service/falco", "net stop SepMasterService",
    "sc stop SysmonDrv", "sudo launchctl unload -w /Library/LaunchDaemons/com.sentinelone.sentineld.plist",
    "sudo launchctl bootout system/com.objective-see.lulu",
    "sudo launchctl unload /Library/LaunchDaemons/at.obdev.littlesnitchd.plist",
    "sudo supervisorctl stop osquery", "sudo docker stop wazuh-agent",
    # killers
    "sudo pkill -9 falcond", "taskkill /F /IM MsMpEng.exe", "Stop-Process -Name cylancesvc -Force",
    "sudo killall -9 ekrn",
    # package tools
    "sudo dnf erase cbagentd", "sudo rpm -e falcon-sensor", "sudo dpkg -r cb-psc-sensor", "sudo pacman -Rns clamav",
    "sudo brew uninstall --cask lulu", "sudo zypper rm falcon-sensor", "sudo apk del fail2ban",
    "wmic product where name=\"Cylance PROTECT\" call uninstall", "helm uninstall tetragon -n kube-system",
    "kubectl -n falco delete daemonset falco",
    # files moved or deleted
    "sudo mv /opt/CrowdStrike/falcond /tmp/x", "sudo rm -rf /opt/sentinelone", "sudo rm -rf /opt/carbonblack",
    "sudo mv /etc/audit/audit.rules /tmp/", "Remove-Item -Recurse -Force 'C:\\Program Files\\Sophos'",
    # kernel parts and own switches
    "sudo rmmod falcon_lsm_serviceable", "sudo modprobe -r sysmon", "sysmon -u", "sysmon64.exe -u force",
    "sudo /opt/splunkforwarder/bin/splunk disable boot-start",
    "sudo /opt/isec/ens/threatprevention/bin/isecav --disableoas",
    # made unrunnable: run bits taken, a unit linked to /dev/null by hand, a service's start type 4 in the registry
    "sudo chmod 000 /opt/CrowdStrike/falcond", "sudo chmod a-x /opt/sentinelone/bin/sentinelctl",
    "sudo ln -s /dev/null /etc/systemd/system/falcon-sensor.service",
    'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Services\\CSAgent" /v Start /t REG_DWORD /d 4 /f',
    'New-ItemProperty -Path "HKLM:\\SYSTEM\\CurrentControlSet\\Services\\SepMasterService" -Name Start -Value 4',
]
QUIET = [
    "sudo systemctl status cbdaemon", "sudo systemctl restart SplunkForwarder", "sudo systemctl start bdsec",
    "sudo launchctl kickstart -k system/com.crowdstrike.falcond", "sudo launchctl list com.objective-see.lulu",
    "sudo launchctl load /Library/LaunchDaemons/at.obdev.littlesnitchd.plist", "sudo pkill -HUP auditd",
    "sudo apt install falcon-sensor", "sudo dnf install cbagentd", "sudo brew install --cask lulu",
    "sudo aide -u", "sysmon -c", "sudo sysmon -accepteula -i config.xml", "kubectl logs -n falco ds/falco",
    "rm santa.png", "mv lulu.jpg photos/",
    "sudo cp /etc/audit/audit.rules /tmp/backup", "tasklist | findstr MsMpEng", "sudo fail2ban-client status sshd",
    "sudo /opt/splunkforwarder/bin/splunk status", "helm install falco falcosecurity/falco",
    "sudo chmod 755 /opt/CrowdStrike/falcond", "sudo chmod +x /opt/sentinelone/bin/sentinelctl",
    "sudo ln -s /opt/falco/bin/falco /usr/local/bin/falco",
    'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Services\\CSAgent" /v Start /t REG_DWORD /d 2 /f',
    'reg query "HKLM\\SYSTEM\\CurrentControlSet\\Services\\CSAgent" /v Start',
]


def test_monitor_switched_off_by_any_tool() -> None:
    table_holds((LOUD, QUIET))
