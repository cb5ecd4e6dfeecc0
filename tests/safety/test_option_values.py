"""Destruction carried in an option's VALUE, for any program: a delete option given everything or true
(`--delete="*"`, `--delete-destination=true`), a `key=true` whose key says purge or remove, a deployment
mode that deletes what its template leaves out (`-Mode Complete`, `--action-on-unmanage deleteAll`), a
full refresh aimed at production, a storage formatted, data loss accepted (`--election-type unclean`,
`--accept-data-loss`), the transaction log's chain broken (`-RecoveryModel Simple`, `RESET MASTER`);
and the same programs' everyday values that stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    # a delete option given everything
    ("ftp-deploy --server ftp.example.com --local-dir ./dist --delete=\"*\"", "medium"),
    ("site-upload ./public --delete=all", "medium"),
    ("azcopy sync ./site 'https://acct.blob.core.windows.net/$web' --delete-destination=true", "medium"),
    ("az storage blob sync -c '$web' -s ./build --delete-destination true", "medium"),
    ("hugo deploy --target production --maxDeletes -1", "medium"),
    ("gcloud deployment-manager deployments update web --config web.yaml --delete-policy=DELETE", "medium"),
    # key=true where the key says remove, purge, drop
    ("synowebapi --exec api=SYNO.Core.Share method=delete name=photos remove_data=bool:True", "medium"),
    ("ansible web -m user -a 'name=bob state=absent remove=yes force=yes'", "medium"),
    ("ansible-playbook site.yml -e purge_data=true", "medium"),
    ("ansible-playbook teardown.yml --extra-vars 'drop_database=yes'", "medium"),
    ("helm upgrade db bitnami/postgresql --set persistence.deleteClaim=true", "medium"),
    ("terraform apply -var force_destroy=true -auto-approve", "medium"),
    ("salt '*' state.apply cleanup pillar='{\"wipe_disks\": True}'", "medium"),
    ("juju config ceph-osd osd-devices-wipe=true", "medium"),
    # a deployment that deletes what its template does not name
    ("New-AzResourceGroupDeployment -ResourceGroupName prod-rg -TemplateFile main.json -Mode Complete", "medium"),
    ("az deployment group create -g prod-rg --template-file main.bicep --mode Complete", "medium"),
    ("az stack group create --name s1 -g rg --template-file main.bicep --action-on-unmanage deleteAll", "medium"),
    ("New-AzResourceGroupDeploymentStack -Name s1 -ResourceGroupName rg -TemplateFile t.json "
     "-ActionOnUnmanage DeleteAll", "medium"),
    ("argocd app sync payments --prune --force", "medium"),
    # a full refresh aimed at production
    ("dbt run --full-refresh --target prod", "medium"),
    ("dbt build --full-refresh -t production", "medium"),
    ("dbt seed --full-refresh --target prod", "medium"),
    ("meltano --environment=prod run tap-postgres target-snowflake --full-refresh", "medium"),
    ("sling run --src-conn PG --tgt-conn SNOWFLAKE_PROD --mode full-refresh", "medium"),
    # a storage formatted
    ("kafka-storage.sh format -t $KAFKA_CLUSTER_ID -c config/kraft/server.properties --ignore-formatted", "medium"),
    ("kafka-storage format --cluster-id abc --config server.properties", "medium"),
    ("hdfs namenode -format -force", "medium"),
    ("hadoop namenode -format -nonInteractive", "medium"),
    ("bookkeeper shell metaformat -nonInteractive -force", "medium"),
    ("elasticsearch-node repurpose", "medium"),
    # data loss accepted
    ("kafka-leader-election.sh --bootstrap-server b:9092 --election-type unclean --all-topic-partitions", "medium"),
    ("kafka-leader-election --bootstrap-server b:9092 --election-type UNCLEAN --topic orders --partition 0",
     "medium"),
    ("kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type topics --entity-name orders "
     "--add-config unclean.leader.election.enable=true", "medium"),
    ("etcd --force-new-cluster --data-dir /var/lib/etcd", "medium"),
    ("prisma db push --accept-data-loss", "medium"),
    ("elasticsearch-node unsafe-bootstrap", "medium"),
    ("pg_resetwal -f /var/lib/postgresql/16/main", "medium"),
    ("nodetool assassinate 10.0.0.5", "medium"),
    ("cockroach debug unsafe-remove-dead-replicas --dead-store-ids=4 --store=/mnt/data1", "medium"),
    # the transaction log's chain broken
    ("Set-DbaDbRecoveryModel -SqlInstance sql01 -Database Sales -RecoveryModel Simple -Confirm:$false", "medium"),
    ("Invoke-Sqlcmd -ServerInstance sql01 -Query \"ALTER DATABASE Sales SET RECOVERY SIMPLE\"", "medium"),
    ("sqlcmd -S prod -Q \"ALTER DATABASE [Sales] SET RECOVERY SIMPLE\"", "medium"),
    ("mysql -e 'RESET MASTER'", "medium"),
    ("mysql -u root -e \"PURGE BINARY LOGS BEFORE NOW()\"", "medium"),
    ("psql -c \"ALTER SYSTEM SET archive_mode = off\"", "medium"),
    ("psql -c \"ALTER SYSTEM SET wal_level = minimal\"", "medium"),
    # neighbours: a resource replaced, backups' retention set to nothing, a topic's retention cut to purge it
    ("terraform apply -replace=aws_db_instance.main -auto-approve", "medium"),
    ("tofu apply -replace='google_sql_database_instance.prod'", "medium"),
    ("pulumi up --replace 'urn:pulumi:prod::app::aws:rds/instance:Instance::db' --yes", "medium"),
    ("aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 0 --apply-immediately",
     "medium"),
    ("gcloud sql instances patch prod --retained-backups-count=0", "medium"),
    ("kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type topics --entity-name orders "
     "--add-config retention.ms=1000", "medium"),
    ("kafka-topics --bootstrap-server b:9092 --alter --topic events --config retention.ms=1", "medium"),
    # the tool's own "I really mean it" switch, and quorum forced
    ("ceph osd pool set rbd size 1 --yes-i-really-mean-it", "medium"),
    ("ceph osd pool set rbd min_size 1 --yes-i-really-mean-it", "medium"),
    ("ceph fs rm cephfs --yes-i-really-mean-it", "medium"),
    ("mdadm --create /dev/md0 --assume-clean --level=1 --raid-devices=2 /dev/sdb /dev/sdc --force", "medium"),
    ("lvconvert --repair vg/lv --yes --i-know-what-i-am-doing", "medium"),
    ("btrfs check --repair --force /dev/sdb1", "medium"),
    ("pvecm expected 1", "medium"),
    ("pcs quorum unblock --force", "medium"),
    ("corosync-quorumtool -e 1", "medium"),
    ("terraform init -migrate-state -force-copy", "medium"),
])
def test_destruction_in_option_values_is_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "ftp-deploy --server ftp.example.com --local-dir ./dist",
    "azcopy sync ./site 'https://acct.blob.core.windows.net/$web' --delete-destination=false",
    "az storage blob sync -c '$web' -s ./build",
    "hugo deploy --target production --dryRun",
    "hugo deploy --target production",
    "ansible web -m user -a 'name=bob state=present'",
    "ansible-playbook site.yml -e purge_data=false",
    "ansible-playbook site.yml -e env=prod",
    "helm upgrade db bitnami/postgresql --set persistence.size=20Gi",
    "terraform apply -var deletion_protection=true",
    "terraform plan -var force_destroy=true",
    "docker compose up -d --remove-orphans",
    "aws ec2 run-instances --block-device-mappings DeviceName=/dev/sda1,Ebs={DeleteOnTermination=true}",
    "New-AzResourceGroupDeployment -ResourceGroupName rg -TemplateFile main.json -Mode Incremental",
    "az deployment group create -g rg --template-file main.bicep",
    "az deployment group what-if -g rg --template-file main.bicep --mode Complete",
    "az stack group create --name s1 -g rg --template-file main.bicep --action-on-unmanage detachAll",
    "argocd app sync payments",
    "dbt run --full-refresh --target dev",
    "dbt run --target prod",
    "dbt run --full-refresh",
    "kafka-storage.sh random-uuid",
    "kafka-storage.sh info -c config/kraft/server.properties",
    "hdfs dfsadmin -report",
    "hdfs dfs -ls /",
    "docker ps --format '{{.Names}}'",
    "ruff format .",
    "dotnet format",
    "clang-format -i main.c",
    "mix format",
    "dart format lib",
    "kafka-leader-election.sh --bootstrap-server b:9092 --election-type preferred --all-topic-partitions",
    "kafka-configs.sh --bootstrap-server b:9092 --describe --entity-type topics --entity-name orders",
    "prisma db push",
    "npm install --unsafe-perm",
    "pg_resetwal -n /var/lib/postgresql/16/main",
    "nodetool status",
    "cargo rustc --lib -- -D unsafe-code",
    "pg_resetwal -D /var/lib/postgresql/16/main -n",
    "Set-DbaDbRecoveryModel -SqlInstance sql01 -Database Sales -RecoveryModel Full",
    "Get-DbaDbRecoveryModel -SqlInstance sql01",
    "sqlcmd -S prod -Q \"ALTER DATABASE [Sales] SET RECOVERY FULL\"",
    "mysql -e 'SHOW MASTER STATUS'",
    "psql -c \"ALTER SYSTEM SET work_mem = '64MB'\"",
    "terraform plan -replace=aws_instance.web",
    "terraform apply -replace resource_type.resource_name[instance_index]",
    "aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 7",
    "kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type topics --entity-name orders "
    "--add-config retention.ms=604800000",
    "ceph osd pool set rbd size 3",
    "pvecm status",
    "pvecm expected 3",
    "pcs quorum status",
    "corosync-quorumtool -s",
    "terraform init -migrate-state",
])
def test_everyday_option_values_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
