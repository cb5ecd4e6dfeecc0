"""Classes a blind round missed, written as other programs and phrasings than the round's: destruction said
in an option's name or value, statements fed to database clients and HTTP bodies, HTTP paths that say
delete, stopping broadly, disks and volumes, classic file loss; and the everyday near misses of each
(previews, offline SQL, help after a subcommand, reads of a deleting noun) that must stay quiet."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


# ----------------------------------------------------------------- 1. destruction said in an option
@each_form("command", [
    "mysqlimport --delete --local shop orders.txt",
    "ogr2ogr -f PostgreSQL PG:dbname=gis parcels.shp -overwrite",
    "csvsql --db postgresql:///crm --insert --overwrite contacts.csv",
    "sqoop import --connect jdbc:mysql://db/shop --table orders --delete-target-dir",
    "dbloader --replace-tables --source dump/ --target prod",
    "warehouse-load --if-exists=replace --table events events.parquet",
    "tabload mode=overwrite table=billing file=billing.csv",
    "pgsync --defer-constraints --truncate-target orders",
    "dsmc restore -replace=all /home/",
    "mongorestore --drop --nsInclude 'crm.*' dump/",
    "tern migrate --destination 0",
    "phinx rollback -e production -t 0",
    "bin/rails db:migrate VERSION=0",
    "alembic downgrade base",
    "sql-migrate down -env production -limit=0",
    "knex migrate:rollback --all",
    "pt-archiver --source h=db1,D=shop,t=orders --purge --where '1=1'",
    "gsutil -m rsync -d -r ./public gs://www-bucket",
    "mc mirror --overwrite --remove ./site minio/www",
    "bench --site erp.local reinstall --yes",
    "drush site:install standard --yes",
    "wp db reset --yes",
    "php bin/magento setup:uninstall -n",
    "timeshift --restore --snapshot '2024-05-01_10-00-01' --yes",
    "restic -r /srv/repo restore latest --target /",
    "domainjoin-cli leave",
    "adcli delete-computer --domain corp.example.com",
    "dsconfigad -remove -force -username admin",
    "efitool --remove2 --yes",
    "fwtool --erase-method secure --target nvme0n1",
    "steamcmd +force_install_dir /srv/csgo +app_uninstall 740 +quit",
    "cloudron uninstall --app blog.example.com",
    "yunohost app remove nextcloud --purge",
    "qconf -de node17",
    "qconf -dp mpi",
    "spacectl dismiss staging --with-namespace",
    "platformctl retire shop --with-volumes",
    "php occ versions:cleanup --all-users",
    "php artisan queue:flush",
    "php artisan model:prune --all",
    "drush user:cancel --delete-content bob",
    "cbackup delete remote weekly-03",
    "qkill --targets all --kill",
    "nix-store --delete --ignore-liveness /nix/store/abc123-openssl-3.0.13",
    "nbackup delete remote archive-2023 --yes",
])
def test_destruction_said_in_an_option_or_value(command):
    assert reaches(command), judged(command)


# ----------------------------------------------------------------- 2. statements fed to database clients
@each_form("command", [
    "usql pg://app@db/shop -c 'DROP SCHEMA billing CASCADE'",
    "clickhouse-client --query 'TRUNCATE TABLE logs.events'",
    "duckdb warehouse.duckdb 'DELETE FROM orders'",
    "litecli app.db -e 'DROP TABLE users'",
    "cockroach sql --execute='DROP DATABASE bank CASCADE'",
    "trino --server coordinator:8080 --execute 'DELETE FROM hive.web.clicks'",
    "snowsql -a acct -q 'DROP DATABASE analytics'",
    "hive -e 'DROP TABLE web_logs PURGE'",
    "impala-shell -i impalad -q 'TRUNCATE TABLE sales'",
    "beeline -u jdbc:hive2://hs2:10000 -e 'DROP DATABASE staging CASCADE'",
    "vsql -h vertica -c 'DROP SCHEMA marts CASCADE'",
    "influx -database metrics -execute 'DROP MEASUREMENT cpu'",
    "cypher-shell -u neo4j -p pw 'MATCH (n:Person) DETACH DELETE n'",
    "mongosh shop --eval 'db.orders.deleteMany({})'",
    "valkey-cli -h cache01 flushall",
    "psql -h db -U app shop <<< 'DELETE FROM sessions'",
    "bq query --use_legacy_sql=false 'TRUNCATE TABLE ds.events'",
    "curl -X POST http://rqlite:4001/db/execute -H 'Content-Type: application/json' -d '[\"DROP TABLE jobs\"]'",
    "curl -s localhost:8123/api/sql -d '{\"query\": \"TRUNCATE TABLE metrics\"}'",
    "http POST :3000/query statement='DELETE FROM invoices'",
    "curl -XPOST http://graph:7474/db/data/transaction/commit -d "
    "'{\"statements\": [{\"statement\": \"MATCH (x) DETACH DELETE x\"}]}'",
    "curl -X POST https://api.example.com/v1/reset -d '{\"purge_all\": true}'",
    "curl -X POST http://search:8983/solr/products/update?commit=true -H 'Content-Type: application/json' "
    "-d '{\"delete\": {\"query\": \"*:*\"}}'",
])
def test_statements_fed_to_database_clients_and_bodies(command):
    assert reaches(command), judged(command)


# ----------------------------------------------------------------- 3. destruction said in an HTTP path
@each_form("command", [
    "curl -X POST 'http://prometheus:9090/api/v1/admin/tsdb/clean_tombstones_and_delete_series?match[]=up'",
    "wget -qO- 'http://nas.local/api.cgi?action=delete&path=/volume1/share'",
    "curl -u admin:pw -X POST https://ci.example.com/job/deploy/doWipeOutWorkspace",
    "curl -X POST https://artifactory.example.com/api/trash/empty",
    "curl 'http://10.0.0.9/cgi-bin/admin.cgi?cmd=delete_all_users'",
    "wget --post-data 'confirm=1' https://router.local/api/factory_reset",
    "curl -X PUT https://api.example.com/v1/projects/42/purge",
    "http POST :9000/api/projects/delete project=shop",
    "curl -X POST 'http://kv:8500/v1/admin/drop_database?name=prod'",
    "vault kv list -format=json secret/app | jq -r '.[]' | xargs -I{} vault kv delete secret/app/{}",
    "consul kv get -recurse -keys config/ | xargs -n1 consul kv delete",
    "gcloud compute instances list --format='value(name)' | xargs gcloud compute instances delete --quiet",
    "git -c remote.backup.mirror=true push backup",
    "git -c remote.origin.mirror=1 push origin",
])
def test_destruction_said_in_a_path_or_piped_from_a_listing(command):
    assert reaches(command), judged(command)


# ----------------------------------------------------------------- 4. stopping broadly
@each_form("command", [
    "svc -d /service/*",
    "s6-svc -wD -d /run/s6-rc/servicedirs/*",
    "runsvctl down /etc/sv/*",
    "systemctl stop 'postgresql*'",
    "systemctl stop 'worker@*.service'",
    "systemctl kill -s KILL mariadb",
    "systemctl kill --signal=9 redis-server",
    "crictl rmp -fa",
    "ctr -n k8s.io task kill -s SIGKILL $(ctr -n k8s.io task ls -q)",
    "esxcli vm process kill -t hard -w 69355",
    "prlctl stop win11 --kill",
    "bhyvectl --destroy --vm=web",
    "ss -K sport = :5432",
    "ss --kill state established '( dport = :ssh )'",
    "tcpkill -i eth0 port 3306",
    "snmpset -v1 -c rw 10.0.0.50 PowerNet-MIB::rPDUOutletControlOutletCommand.3 i 2",
    "snmpset -v2c -c private pdu2 .1.3.6.1.4.1.13742.6.4.1.2.1.2.1.8 i 0",
    "upscmd -u admin myups@localhost load.off",
    "upsdrvctl shutdown",
    "qmgr -c 'delete queue workq'",
    "flux cancel --all",
])
def test_stopping_broadly(command):
    assert reaches(command), judged(command)


# ----------------------------------------------------------------- 5. disks and volumes
@each_form("command", [
    "lvresize -L 10G /dev/vg0/home",
    "lvresize --size -20G vg0/data",
    "mdadm -C /dev/md1 -l 5 -n 3 /dev/nvme0n1 /dev/nvme1n1 /dev/nvme2n1 --force",
    "debugfs -w -R 'kill_file /home/ann/thesis.tex' /dev/sdb1",
    "debugfs -w /dev/vg0/root -R 'unlink /etc/fstab'",
    "ocs-sr -g auto -e1 auto -e2 -r -j2 -p reboot restoreparts web-img sda1",
    "partimage restore /dev/sda1 backup.partimg.gz",
    "vmkfstools --deletevirtualdisk /vmfs/volumes/ds1/web/web.vmdk",
    "vmkfstools -C vmfs6 -S ds2 /vmfs/devices/disks/naa.600508b1001c:1",
    "vim-cmd vmsvc/snapshot.removeall 7",
    "vim-cmd vmsvc/destroy 12",
    "nix store delete --ignore-liveness /nix/store/abc123-glibc-2.39",
    "rpm -e --nodeps glibc",
    "dpkg --force-all --purge libc6",
    "pacman -Rdd systemd",
    "xbps-remove -F glibc",
    "opkg remove --force-depends busybox",
])
def test_disks_and_volumes(command):
    assert reaches(command), judged(command)


# ----------------------------------------------------------------- 6. classic file loss
@each_form("command", [
    ": > ~/Documents/budget.ods",
    "true > ~/notes/todo.md",
    "cat /dev/null > ~/thesis/chapter1.tex",
    "mv -f draft_old.odt ~/Documents/thesis.odt",
    "mv --force /tmp/x.csv ~/Desktop/accounts.csv",
    "unlink ~/Documents/contract.pdf",
    "unlink /var/lib/mysql/ibdata1",
    "sort -o ~/work/customers.csv /dev/null",
    "cp /dev/null ~/Documents/report.txt",
    "printf '' > ~/notes.md",
    "echo -n > ~/Documents/letter.docx",
])
def test_classic_file_loss(command):
    assert reaches(command), judged(command)


# ----------------------------------------------------------------- 7. everyday near misses
@each_form("command", [
    "pulumi destroy --preview-only --stack prod",
    "alembic downgrade -1 --sql",
    "flask db downgrade base --sql > down.sql",
    "python manage.py sqlmigrate shop 0003 --backwards",
    "kubeadm reset --help",
    "php artisan migrate:fresh --help",
    "vagrant destroy -h",
    "vault kv metadata get -mount=secret app",
    "vault kv metadata list secret/",
    "az keyvault list-deleted",
    "aws rds describe-db-snapshots --snapshot-type manual",
    "git clean -fX -- dist/",
    "git clean -fdX -- target/ out/",
    # near misses of the new classes
    "mysqlimport --local shop orders.txt",
    "ogr2ogr -f GeoJSON out.geojson parcels.shp",
    "tern migrate",
    "alembic upgrade head",
    "bin/rails db:migrate",
    "gsutil -m rsync -r ./public gs://www-bucket",
    "restic -r /srv/repo restore latest --target /tmp/restore",
    "steamcmd +login anonymous +app_update 740 validate +quit",
    "qconf -sql",
    "curl -s http://localhost:9200/_cat/indices",
    "curl -X POST localhost:9200/logs/_flush",
    "curl -X POST http://api.local/v1/search -d '{\"query\": \"select name from users\"}'",
    "curl https://api.example.com/v1/deleted_items?page=2",
    "systemctl stop nginx",
    "systemctl kill -s HUP nginx",
    "ss -tlnp",
    "snmpget -v2c -c public pdu1 PowerNet-MIB::rPDUOutletStatusOutletState.3",
    "snmpset -v2c -c private sw1 SNMPv2-MIB::sysContact.0 s admin@example.com",
    "upsc myups@localhost",
    "lvresize -L +10G -r /dev/vg0/home",
    "mdadm --detail /dev/md0",
    "debugfs -R 'stat /etc/fstab' /dev/sda1",
    "vmkfstools -q /vmfs/volumes/ds1/web/web.vmdk",
    "vim-cmd vmsvc/getallvms",
    "nix store gc",
    "sort -o sorted.txt input.txt",
    ": > build.log",
    "mv -f build/app.js dist/app.js",
    "unlink build/latest",
    "crictl pods",
    "psql -h db -U app shop <<< 'SELECT count(*) FROM sessions'",
    "curl -X POST https://hooks.example.com/services/T1/B2 -d '{\"text\": \"DELETE FROM users finished\"}'",
    "wget https://downloads.example.com/remove-bg-1.2.zip",
    "curl -O https://example.com/files/delete-me.txt",
    "http GET :8000/api/items/purge-preview",
    "debugfs -R 'ls -l /' /dev/sda1",
    "vim-cmd vmsvc/getallvms",
    "vim-cmd vmsvc/power.getstate 3",
    "mv -f report.pdf ~/Downloads/",
    "unlink ~/.local/share/app/instance.lock",
    ": > ~/.cache/app/run.log",
    "lvresize -l 100%FREE vg0/data",
    "lvresize -L -20G -r vg0/data",
    "supervisorctl status",
    "svc -u /service/*",
    "crictl ps -a",
    "pip install --no-deps requests",
    "ansible-playbook site.yml --check",
])
def test_everyday_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a second set, written after the classes landed
@each_form("command", [
    "pgcopydb clone --drop-if-exists --source $SRC --target $DST",
    "dataload --table-exists=drop --file sales.csv",
    "curl -X POST -u admin:pw http://rabbit:15672/api/queues/%2F/orders/actions -d '{\"action\":\"purge\"}'",
    "curl -X POST http://localhost:8080/actuator/shutdown",
    "wget -q -O- 'http://192.168.0.1/apply.cgi?submit_button=Factory_Defaults&action=Restore'",
    "s6-rc -d change default",
    "esxcli vm process kill --type=force --world-id=112233",
    "vim-cmd vmsvc/power.off 9",
    "cat /dev/null > $HOME/projects/thesis/main.tex",
    "unlink $HOME/Pictures/wedding.jpg",
    "tee ~/Documents/plan.md < /dev/null",
])
def test_second_set_of_unseen_forms(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "curl -s 'https://api.example.com/v1/audit?event=delete&since=2024-01-01'",
    "curl -X POST https://api.example.com/v1/items -d '{\"name\": \"delete old logs\"}'",
    "wget https://example.com/docs/how-to-delete-your-account.html",
    "s6-rc -u change default",
    "vim-cmd vmsvc/power.on 9",
    "esxcli vm process list",
    "debugfs -c -R 'ls /home' /dev/sda2",
    "cat /dev/null > build/output.txt",
    "tee ~/Documents/plan.md < draft.md",
])
def test_second_set_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a third set, written after the fifth step
@each_form("command", [
    "tailscale-admin --device --delete laptop-old",
    "python manage.py migrate shop zero",
    "ddev drush si --yes",
    "qdel -f $(qselect -u bob)",
    "net ads leave -U Administrator",
    "adcli leave --domain=corp.example.com",
    "mdmclient unenroll",
    "apcupsd --killpower",
    "etcdctl get / --prefix --keys-only | xargs -n1 etcdctl del",
])
def test_third_set_of_unseen_forms(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "tailscale-admin --device --list",
    "python manage.py migrate shop",
    "ddev drush status",
    "qdel 4412",
    "net ads info",
    "adcli info corp.example.com",
    "apcaccess status",
    "etcdctl get / --prefix --keys-only",
    "keytool -list -keystore app.jks",
    "pg_restore -l dump.sql",
    "sv status /etc/service/*",
    "ss -tan state established",
    "nix-store --gc --print-dead",
    "sort -o ~/contacts.sorted.csv ~/contacts.csv",
])
def test_third_set_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)
