"""A cluster's members or leader changed by force (rules/cluster_membership.py), every add-on of a kind
switched off or a broker's held messages emptied (add_ons_off.py), a data file's checker told to fix
it (checker_repairs.py) and every right granted to everyone in a product's ACL tool (product_grants.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    # members removed, forgotten, told to leave
    "riak-admin cluster leave riak@node2",
    "emqx ctl cluster leave",
    "emqx_ctl cluster force-leave emqx@node2",
    "rabbitmqctl forget_cluster_node rabbit@node2",
    "nodetool assassinate 10.0.0.12",
    "consul force-leave node2",
    "nomad server force-leave server2.global",
    "serf force-leave node2",
    "redis-cli --cluster del-node 10.0.0.1:7000 abc123",
    "vault operator raft remove-peer node2",
    "consul operator raft remove-peer -address=10.0.0.2:8300",
    "gluster peer detach node2 force",
    "ceph osd out 3",
    "elasticsearch-node detach-cluster",
    "elasticsearch-node unsafe-bootstrap",
    "mysqlsh --uri root@db1 -- cluster remove-instance root@db2 --force",
    "pvecm delnode node3",
    "opensearch-node detach-cluster",
    "crate-node detach-cluster",
    "mmdelnode -N node3",
    "arangodb cluster remove-server PRMR-1234",
    "yb-admin -master_addresses m1:7100 remove_tablet_server ts3",
    # failover and switchover forced, a standby promoted, a rewind
    "patronictl -c /etc/patroni.yml failover --force",
    "patronictl switchover --master pg1 --candidate pg2 --force",
    "redis-cli -p 7000 cluster failover takeover",
    "redis-cli -p 7000 cluster failover force",
    "gcloud redis instances failover prod-cache --data-protection-mode=force-data-loss",
    "aws rds failover-db-cluster --db-cluster-identifier prod",
    "aws elasticache test-failover --replication-group-id prod --node-group-id 0001",
    "az sql failover-group set-primary --allow-data-loss -g rg -s srv2 -n fg",
    "stolonctl failover keeper1 --force",
    "repmgr standby promote",
    "repmgr node rejoin --force-rewind -d 'host=pg1'",
    "pcs node standby --all",
    "pcs resource disable postgres-clone",
    "crm resource stop ms_drbd",
    "crm_resource --ban --resource db",
    # every add-on at once, held messages emptied
    "rabbitmq-plugins disable --all",
    "wp plugin deactivate --all",
    "wp plugin delete --all",
    "elasticsearch-plugin remove --all",
    "grafana-cli plugins remove --all",
    "emqx ctl retainer clean",
    "emqx_ctl retainer clean sensors/#",
    "vernemq-admin retain clear",
    # a data file's checker told to fix
    "redis-check-aof --fix appendonly.aof",
    "valkey-check-aof --fix appendonly.aof",
    "keydb-check-aof --fix appendonly.aof",
    "mysqlcheck --repair --all-databases",
    "mariadb-check --auto-repair -A",
    # every right to everyone in a product's ACL words
    "setmqaut -m QM1 -t qmgr -p nobody +allmqi",
    "setmqaut -m QM1 -n '**' -t queue -g everyone +all",
    "rabbitmqctl set_permissions -p / guest '.*' '.*' '.*'",
    "kafka-acls --bootstrap-server b:9092 --add --allow-principal 'User:*' --operation All --topic '*'",
    "zkCli.sh setAcl / world:anyone:cdrwa",
    "zookeeper-shell zk:2181 setAcl /kafka world:anyone:crdwa",
    "hdfs dfs -chmod -R 777 /",
    "hadoop fs -chmod -R 777 /data",
    "pulsar-admin namespaces grant-permission tenant/ns --role '*' --actions produce,consume",
    "artemis user add --user guest --password guest --role '*'",
])
def test_cluster_membership_add_ons_checkers_and_product_grants_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "riak-admin cluster status",
    "riak-admin cluster join riak@node1",
    "emqx ctl cluster status",
    "emqx ctl cluster join emqx@node1",
    "rabbitmqctl cluster_status",
    "rabbitmqctl join_cluster rabbit@node1",
    "nodetool status",
    "consul members",
    "consul join 10.0.0.2",
    "vault operator raft list-peers",
    "vault operator raft join https://vault1:8200",
    "gluster peer status",
    "gluster peer probe node2",
    "ceph osd tree",
    "ceph osd in 3",
    "patronictl -c /etc/patroni.yml list",
    "patronictl history",
    "redis-cli cluster info",
    "redis-cli cluster nodes",
    "repmgr cluster show",
    "repmgr standby clone",
    "pcs status",
    "pcs node unstandby --all",
    "pcs resource enable postgres-clone",
    "crm node standby node1",
    "aws rds describe-db-clusters",
    "rabbitmq-plugins list",
    "rabbitmq-plugins enable rabbitmq_management",
    "rabbitmq-plugins disable rabbitmq_mqtt",
    "wp plugin list",
    "wp plugin deactivate akismet",
    "wp plugin update --all",
    "elasticsearch-plugin list",
    "emqx ctl retainer info",
    "emqx ctl retainer topics",
    "redis-check-aof appendonly.aof",
    "redis-check-rdb dump.rdb",
    "mysqlcheck --check --all-databases",
    "mysqlcheck --repair shop orders",
    "ruff check --fix .",
    "eslint --fix src",
    "dspmqaut -m QM1 -t qmgr -p app",
    "setmqaut -m QM1 -t queue -n APP.IN -p app +put +get",
    "rabbitmqctl set_permissions -p / app '^app-.*' '^app-.*' '^app-.*'",
    "rabbitmqctl list_permissions",
    "kafka-acls --bootstrap-server b:9092 --list",
    "kafka-acls --bootstrap-server b:9092 --add --allow-principal User:alice --operation Read --topic orders",
    "zkCli.sh getAcl /",
    "zkCli.sh setAcl /app sasl:app:cdrwa",
    "hdfs dfs -ls /",
    "hdfs dfs -chmod -R 755 /user/alice",
    "pulsar-admin namespaces permissions tenant/ns",
    "pulsar-admin namespaces grant-permission tenant/ns --role app --actions produce",
])
def test_everyday_cluster_plugin_checker_and_acl_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- neighbours from the cluster tools' documentation
@each_form("command", [
    "pcs quorum expected-votes 1",
    "corosync-quorumtool -e 1",
    "pvecm expected 1",
    "redis-cli replicaof no one",
    "redis-cli -h replica1 slaveof no one",
    "orchestrator-client -c force-master-failover -i db1",
    "orchestrator-client -c graceful-master-takeover -alias prod",
    "pg_ctl promote -D /var/lib/postgresql/data",
    "pg_ctlcluster 15 main promote",
    "gcloud sql instances promote-replica prod-replica",
    "aws rds promote-read-replica --db-instance-identifier prod-replica",
    "gluster volume remove-brick gv0 node2:/bricks/b1 force",
    "rabbitmq-queues delete_member orders rabbit@node2",
    "redis-cli ACL SETUSER default on nopass '~*' '+@all'",
    "rabbitmqctl set_user_tags guest administrator",
])
def test_neighbour_membership_and_grants_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "pcs quorum status",
    "corosync-quorumtool -s",
    "pvecm expected 3",
    "redis-cli replicaof db1 6379",
    "pg_ctl status -D /var/lib/postgresql/data",
    "vercel promote https://app-abc.vercel.app",
    "redis-cli ACL SETUSER app on '>s3cret' '~app:*' '+get'",
    "rabbitmqctl set_user_tags alice monitoring",
])
def test_neighbour_membership_and_grants_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
