"""Daemons told to stop by their own binary or console (rules/own_binary_stops.py), and many machines
taken offline at once: a batch cluster's nodes and queues, a hypervisor's guests and hosts, cloud
instances over a computed list (rules/bulk_offline.py, listing.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    # a server's own binary: a signal word, a lone -k, a stop option with the pid file
    "squid -k kill",
    "squid -k interrupt",
    "httpd -k terminate",
    "couchbase-server -k",
    "arangodb-server -k",
    "uwsgi --stop /tmp/uwsgi.pid",
    "uwsgi --halt /run/uwsgi/app.pid",
    "lighttpd-angel --stopwait",
    "gunicorn-server --stop",
    # a database shut down by its admin tool
    "gfix -shut full -force 0 /data/employee.fdb",
    "gfix -shut -force 0 employee.fdb",
    "gfix -shut single -attach 0 employee.fdb",
    "gfix -user SYSDBA -shut -tran 0 /db/prod.fdb",
    # the verb inside the program's name, told not to wait
    "pcp_stop_pgpool -m fast",
    "pcp_stop_pgpool -h localhost -U pgpool -m immediate -s cluster",
    "hbase_stop_master --force",
    # a cluster's per-daemon launchers, worker pools, omnibus control programs
    "hdfs --daemon stop namenode",
    "yarn --daemon stop resourcemanager",
    "mapred --daemon stop historyserver",
    "hadoop-daemon.sh stop namenode",
    "hbase-daemons.sh stop regionserver",
    "yarn-daemon.sh stop nodemanager",
    "celery multi stopwait w1 -A proj",
    "celery multi kill w1",
    "gitlab-ctl kill",
    "chef-server-ctl kill",
    # HPC nodes and queues offline in bulk
    "pbsnodes -o node{001..128}",
    "pbsnodes -o $(pbsnodes -l free | awk '{print $1}')",
    "pbsnodes -o node001 node002 node003 node004",
    "qmod -d '*'",
    "qmod -d '*@node*'",
    "badmin hclose all",
    "badmin qclose all",
    "badmin qinact all",
    "bctrld stop sbd all",
    "qmgr -c 'set server scheduling=false'",
    "qmgr -c 'set queue batch enabled = false'",
    "flux resource drain 0-127",
    "oarnodesetting -s Absent -h node[1-64]",
    "qdisable batch@pbs1 debug@pbs1 long@pbs1 short@pbs1",
    # hypervisors' cmdlets over every guest or host, or without asking
    "Stop-VMHost esx01 -Force -Confirm:$false",
    "Restart-VMHost esx01 -Confirm:$false -Force",
    "Shutdown-VMGuest -VM (Get-VM) -Confirm:$false",
    "Stop-VM -VM (Get-VM -Location Prod) -Confirm:$false",
    "Suspend-VM -VM (Get-VM) -Confirm:$false",
    "Stop-VM -Name * -Force",
    "Stop-AzVM -Name web -ResourceGroupName prod -Force -Confirm:$false",
    "Stop-Cluster -Name prodclu -Force -Confirm:$false",
    # cloud stops over a computed list
    "az vm deallocate --ids $(az vm list --query '[].id' -o tsv)",
    "ibmcloud is instance-stop $(ibmcloud is instances --output json | jq -r '.[].id')",
])
def test_daemons_stopped_by_their_own_binary_and_bulk_offlines_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "squid -k rotate",
    "squid -k reconfigure",
    "squid -k parse",
    "httpd -k start",
    "memcached -k",
    "xvfb-run -k",
    "curl -k https://example.com",
    "uwsgi --ini app.ini",
    "uwsgi --reload /tmp/uwsgi.pid",
    "gfix -sweep employee.fdb",
    "gfix -online employee.fdb",
    "gfix -v -full employee.fdb",
    "pcp_stop_pgpool --help",
    "pcp_node_info -h localhost -U pgpool 0",
    "hdfs --daemon start namenode",
    "hadoop-daemon.sh start datanode",
    "celery multi start w1 -A proj",
    "celery -A proj inspect active",
    "gitlab-ctl tail",
    "gitlab-ctl status",
    "gitlab-ctl kill nginx",
    "pbsnodes -a",
    "pbsnodes -o node001",
    "pbsnodes -c node{001..128}",
    "qmod -e '*'",
    "qmod -d all.q@node001",
    "badmin hclose hostA",
    "badmin hopen all",
    "bctrld start sbd all",
    "flux resource drain 3",
    "flux resource undrain 0-127",
    "qmgr -c 'print server'",
    "qmgr -c 'set server scheduling = true'",
    "Stop-VM -Name web",
    "Stop-VM -Name web -Confirm:$false",
    "Restart-VMGuest -VM web",
    "Get-VM | Select-Object Name, PowerState",
    "Start-VM -VM (Get-VM) -Confirm:$false",
    "az vm list -o table",
    "az vm deallocate -g dev -n scratch-vm",
])
def test_everyday_forms_of_the_same_programs_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- neighbours from the servers' documentation
@each_form("command", [
    "nats-server -sl quit",
    "nats-server --signal stop",
    "psql -p 6432 pgbouncer -c SHUTDOWN",
    "sqlcmd -S prod -Q 'SHUTDOWN WITH NOWAIT'",
    "db2 force applications all",
    "nodetool disablebinary",
    "nodetool disablegossip",
    "cockroach node drain --shutdown --insecure",
])
def test_neighbour_own_binary_stops_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "kodi-send -a Quit",
    "nats-server -c nats.conf",
    "psql -c 'SHOW POOLS' -p 6432 pgbouncer",
    "db2 list applications",
    "nodetool enablebinary",
    "nodetool statusbinary",
    "cockroach node drain --insecure",
])
def test_neighbour_own_binary_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
