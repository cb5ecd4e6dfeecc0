"""Round 18's classes F and H, read for any program: ends said in a tool's own words (a name that is the verb,
an uninstall with its kept data, a state set to its end, another word for removing the system's own packages, a
store's journal reset, a named clean told not to ask, a cluster initialised over, a statement that drops
everything, a node detached), and what only prints or touches one's own scratch file."""
from pathlib import Path

from tests.safety.kept import assess
from tests.safety.forms import misjudged

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "unknown_s13_w2"


def _level(line: str):
    verdict = assess(line)
    return verdict.level if verdict else None


def test_a_program_named_for_removing_what_it_came_with():
    flagged = ["casaos-uninstall", "portainer-uninstall", "umbrel-wipe", "netdata-uninstaller --yes --force",
               "/opt/zabbix/zabbix-agent-uninstall", "pihole-nuke", "purge-old-kernels --keep 1", "rke2-killall"]
    quiet = ["casaos-status", "casaos-uninstall --help", "pihole-updatelists", "nuke-tools --help",
             "zabbix-agent-status"]
    assert misjudged(flagged, quiet) == []


def test_an_uninstall_told_to_take_its_kept_data():
    flagged = ["abctl local uninstall --persisted", "devpod provider delete docker --persisted",
               "cozy-stack instances uninstall --persisted mycozy", "k0sctl reset --persisted", "wasp uninstall --data",
               "nhost down --volumes"]
    quiet = ["abctl local uninstall", "abctl local install --persisted", "nhost down", "wasp start --data"]
    assert misjudged(flagged, quiet) == []


def test_a_state_set_to_its_end():
    flagged = ["ironic node-set-provision-state 8f2c1a7e-1111 deleted",
               "xe vm-param-set uuid=3a1 power-state=destroyed", "foreman-cli host set-state web01 decommissioned",
               "netbox-cli device set-status rack4-sw1 decommissioned",
               "cmdbctl asset set-state srv-221 retired", "fleetctl machine mark node-3 destroyed"]
    quiet = ["ironic node-set-provision-state 8f2c1a7e-1111 provide", "ironic node-list --provision-state deleted",
             "cmdbctl asset list --state retired", "foreman-cli host set-state web01 active",
             "aws ec2 describe-instances --filters Name=instance-state-name,Values=terminated",
             "git commit -m 'set state deleted'"]
    assert misjudged(flagged, quiet) == []


def test_the_system_packages_removed_in_other_words():
    flagged = ["dispel glibc", "sorcery dispel glibc", "installp -u bos.rte.libc", "pkgtool expunge coreutils"]
    quiet = ["xterm -e bash", "urxvt -e sudo htop", "top -u systemd", "grep -e glibc /var/log/dpkg.log",
             "installp -u bos.net.nfs.server", "rpm -q glibc"]
    assert misjudged(flagged, quiet) == []


def test_a_stores_journal_ledger_or_metadata_reset():
    flagged = ["cephfs-journal-tool --rank=cephfs:0 journal reset", "kvrocks-cli ledger reset",
               "bookkeeper shell metadata reset", "dqlite-tool metadata reset /var/lib/app"]
    quiet = ["cephfs-journal-tool --rank=cephfs:0 journal inspect", "kvrocks-cli ledger show",
             "bookkeeper shell metadata list"]
    assert misjudged(flagged, quiet) == []


def test_a_named_clean_told_not_to_ask():
    flagged = ["tt clean billing --force", "deployctl clean staging --force", "vmango clean tenant42 --force"]
    quiet = ["tt clean billing", "npm cache clean --force", "mvn clean install -f pom.xml", "tt status billing"]
    assert misjudged(flagged, quiet) == []


def test_a_cluster_initialised_over_without_asking():
    flagged = ["stolonctl --cluster-name stolon-cluster --store-backend etcdv3 init -y", "rqlitectl cluster init -y",
               "galeractl init --force"]
    quiet = ["npm init -y", "yarn init -y", "stolonctl --cluster-name stolon-cluster init", "galeractl status"]
    assert misjudged(flagged, quiet) == []


def test_a_statement_that_drops_everything():
    flagged = ["gsql 'DROP ALL'", "stardog query mydb 'CLEAR ALL'", "sparql-update 'DROP ALL'",
               "gsql -g social 'CLEAR GRAPH STORE -HARD'",
               "graphdb-cli -e 'DELETE EVERYTHING'"]
    quiet = ["gsql 'SHOW USER'", "git commit -m 'DROP ALL unused flags'", "todo add 'drop all old branches'"]
    assert misjudged(flagged, quiet) == []


def test_a_node_detached_in_the_words_of_a_name():
    flagged = ["pcp_detach_node -h localhost -p 9898 -U pgpool -n 0", "ndbctl detach-node 3",
               "galera-admin detach_node db2", "clusterctl node detach n4"]
    quiet = ["pcp_node_info -h localhost -p 9898 -U pgpool -n 0", "tmux detach-client", "pcp_detach_node --help"]
    assert misjudged(flagged, quiet) == []


def test_print_only_switches_and_ones_own_scratch_file():
    quiet = ['Suspend-SqlAvailabilityDatabase -Path "SQLSERVER:\\Sql\\C\\I\\AvailabilityGroups\\Ag" -Script',
             'Remove-SqlAvailabilityGroup -Path "SQLSERVER:\\Sql\\C\\I\\AvailabilityGroups\\Ag" -Script',
             "gvfs-rm /tmp/scratch-$USER.txt", "safe-rm -i /tmp/build-cache-old.tar",
             "kioclient5 remove /tmp/old-notes.txt", "xfs_mdrestore -i /tmp/metadump.img"]
    flagged = ['Remove-SqlAvailabilityGroup -Path "SQLSERVER:\\Sql\\C\\I\\AvailabilityGroups\\Ag"',
               "Invoke-Command -ComputerName web1 -Script { Remove-Item -Recurse -Force C:\\data }",
               "gvfs-rm /tmp/*", "gvfs-rm /etc/passwd", "xfs_mdrestore /tmp/metadump.img /dev/sdb1"]
    assert misjudged(flagged, quiet) == []


def test_the_corpus_of_this_wave():
    def lines(name: str) -> list:
        return [line.split("] ", 1)[-1] for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    destructive, everyday = lines("destructive.txt"), lines("everyday.txt")
    missed = [c for c in destructive if _level(c) not in ("medium", "high")]
    loud = [c for c in everyday if _level(c) in ("medium", "high")]
    assert len(destructive) >= 60 and len(everyday) >= 80
    assert 1 - len(missed) / len(destructive) >= 0.98, missed
    assert loud == []
