"""Destruction a blind round found where the vocabulary does not look: backups restored over live
data with the option that makes the tool go ahead; the verb inside a quoted admin command, a CL
command, at the end of a resource path, fused with "all" or in an option's value; vendors' short
words (fused names, ``down -y``, forced clears, ``-R`` of a member, an unsafe schema diff piped into
a database client)."""
from __future__ import annotations

from aish.safety.assess import assess
from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'gitlab-backup restore BACKUP=1700000000_2024_01_01_16.5.0 force=yes',
    'gitlab-rake gitlab:backup:restore BACKUP=1700000000 force=yes',
    'xtrabackup --copy-back --target-dir=/backups/full --force-non-empty-directories',
    'mariabackup --copy-back --target-dir=/backup --force-non-empty-directories',
    'innobackupex --copy-back --force-non-empty-directories /backups/2024-01-01',
    'pgbackrest --stanza=main --delta restore',
    'duplicity restore --force file:///mnt/backup /home/alice',
    'rdiff-backup --force -r now /backup/home /home/alice',
    'duplicacy restore -r 12 -overwrite -delete',
    'vault operator raft snapshot restore -force backup.snap',
    'neo4j-admin database load --from-path=/backups neo4j --overwrite-destination=true',
    'neo4j-admin load --from=/backups/graph.dump --database=neo4j --force',
    'arangorestore --input-directory dump --overwrite true --server.database prod',
    'myloader --directory /backups/db --overwrite-tables',
    'qmrestore /var/lib/vz/dump/vzdump-qemu-100.vma.zst 100 --force',
    'pct restore 101 /var/lib/vz/dump/vzdump-lxc-101.tar.zst --force',
    "dsmc restore -replace=all '/home/*' -subdir=yes",
    'Restore-SqlDatabase -ServerInstance . -Database Prod -BackupFile C:\\bak\\prod.bak -ReplaceDatabase',
    'ghe-restore -f 10.0.0.5',
    'kopia snapshot restore k1a2b3c4 /home/alice --overwrite-files --overwrite-directories',
    'bkpctl restore --rm nightly /srv/data',
    'influx restore /backups/influx --full',
])
def test_a_restore_told_to_replace_live_data_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'dsmadmc -id=admin -password=secret "delete filespace NODE1 * type=any"',
    "dsmadmc -id=admin -pa=x -dataonly=yes 'delete volume VOL001 discarddata=yes'",
    'zkCli.sh -server zk1:2181 deleteall /kafka',
    "asinfo -v 'truncate-namespace:namespace=test'",
    'xcli config folders Finance delete',
    'sfcli package installed delete --name core-tools',
    'vdcctl org vdc network prod-net delete --force',
    'tccli cvm TerminateInstances --InstanceIds \'["ins-1"]\'',
    'aliyun ecs DeleteInstance --InstanceId i-123 --Force true',
    'aliyun rds DeleteDBInstance --DBInstanceId rm-1',
    'acli vm.delete web01',
    'govc vm.destroy /dc1/vm/web01',
    'xe vm-destroy uuid=4f1c-77',
    'vim-cmd vmsvc/destroy 12',
    'hbasectl table deleteallrows events',
    'appcache --cleanAll',
    'rethinkctl --dropAll --yes',
    'storectl --purgeAll',
    "thanos tools bucket mark --id=01H --marker=deletion-mark.json --details='cleanup' --objstore.config-file=b.yml",
    "dbtool sync --with 'include drop' prod",
    'queuectl messages --action=delete --queue orders',
    'cachectl run --mode=purge',
    'clusterctl node --op=remove node3',
    "ibmi-cl system 'DLTLIB LIB(PRODLIB)'",
])
def test_a_destructive_word_in_a_quoted_command_a_path_end_a_fusion_or_a_value_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "system 'DLTLIB LIB(PRODLIB)'",
    'system "CLRLIB LIB(PRODLIB)"',
    'dbidrop prod_db',
    'crm_node -R node3 --force',
    'pulumi down -y',
    'sky down -a -y',
    'azd down --force --purge',
    'nitric down -y',
    'lando destroy -y',
    'git submodule deinit -f --all',
    'tpm_clear --force',
    'tpm2_clear',
    'ykman piv reset -f',
    'supabase db reset --linked',
    'ceph osd pool delete data data --yes-i-really-really-mean-it',
    'vendorctl wipe-config --do-it',
    'gcutil purge --i-am-sure',
    'python manage.py migrate shop zero',
    'alembic downgrade base',
    'flask db downgrade base',
    'knex migrate:rollback --all',
    'npx sequelize-cli db:migrate:undo:all',
    'migrate -path db/migrations -database $DATABASE_URL down -all',
    'soda migrate down --step 999',
    'bin/rails db:migrate VERSION=0',
    'tern migrate --destination 0',
    'migra --unsafe postgresql:///prod postgresql:///next | psql prod',
    'skeema push --allow-unsafe production',
    'mysqldef --enable-drop-table -uroot prod < schema.sql',
    'liquibase dropAll --url=jdbc:postgresql://db/prod',
    'certbot revoke --cert-name example.com --delete-after-revoke',
    'vault lease revoke -prefix aws/',
])
def test_vendors_short_words_for_destroying_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'gitlab-backup create',
    'xtrabackup --backup --target-dir=/backups/full',
    'xtrabackup --prepare --target-dir=/backups/full',
    'pgbackrest --stanza=main info',
    'pgbackrest --stanza=main backup',
    'duplicity restore file:///mnt/backup /tmp/restore',
    'duplicity --force cleanup file:///mnt/backup',
    'neo4j-admin database dump neo4j --to-path=/backups',
    'qmrestore /var/lib/vz/dump/vzdump-qemu-100.vma.zst 105',
    "dsmc query backup '/home/*'",
    "dsmadmc -id=admin -password=secret 'query filespace NODE1'",
    'zkCli.sh -server zk1:2181 ls /kafka',
    'xcli config folders Finance list',
    'acli vm.list',
    'govc vm.info /dc1/vm/web01',
    'vim-cmd vmsvc/getallvms',
    'aliyun ecs DescribeInstances',
    'tccli cvm DescribeInstances',
    'thanos tools bucket ls --objstore.config-file=b.yml',
    'queuectl messages --action=peek --queue orders',
    "system 'DSPLIB LIB(PRODLIB)'",
    'ssh-keygen -R github.com',
    'pulumi up -y',
    'sky status',
    'azd up',
    'git submodule update --init',
    'tpm2_getcap properties-fixed',
    'ykman info',
    'supabase db push',
    'ceph osd pool ls',
    'python manage.py migrate',
    'python manage.py migrate shop 0007',
    'alembic upgrade head',
    'flask db upgrade',
    'knex migrate:latest',
    'bin/rails db:migrate',
    'migra postgresql:///prod postgresql:///next',
    'skeema diff production',
    'liquibase update',
    'certbot renew',
    "sed -i 's/old/new/' --in-place notes.txt",
    "grep -r --include='*.sql' 'drop' .",
    'kubectl get pods --field-selector=status.phase=Failed',
    'appcache --stats',
    'make cleanall',
    "todo add 'delete old backups'",
    "task add 'remove the old logs'",
    'poetry install --with dev',
    'uv run --with requests python x.py',
    'webpack --mode production',
    'npm run build -- --mode=development',
    'docker compose down',
    'tilt down',
    'crm_node -l',
    'migra postgresql:///prod postgresql:///next | psql prod',
    'restic restore latest --target /tmp/restore',
    'nuget restore MySolution.sln',
    'git restore --staged file.txt',
    'xtrabackup --copy-back --target-dir=/backups/full',
    'mongorestore --dir dump',
    'pgbackrest --stanza=main restore',
    'qmrestore /var/lib/vz/dump/vzdump-qemu-100.vma.zst 100',
    "oneliner -i 'delete temporary files in /tmp'",
    "sgpt --shell 'delete all docker images'",
    'kubectl get events --field-selector reason=Killing',
    'ansible-doc -t module file',
    'terraform state list',
    'helm list --all',
])
def test_restores_elsewhere_prose_listings_and_routine_downs_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'pg_probackup restore -B /backup --instance main -D /var/lib/postgresql/16/main --force',
    'consul snapshot restore backup.snap',
    'nomad operator snapshot restore backup.snap',
    'mongorestore --drop --uri mongodb://db1/prod /backups/dump',
    'btrbk restore --force /mnt/btr_pool/snapshots/home.20240101',
    'timeshift --restore --snapshot 2024-01-01_00-00-01 --yes',
    'borgmatic extract --archive latest --destination / --overwrite',
    'urbackupclientctl restore-start -b 12 --force',
    'autorestore --yes --force',
    'bareos-restore --replace=always --where=/',
    'Restore-DbaDatabase -SqlInstance sql01 -Path \\\\nas\\bak -WithReplace',
    'Restore-VMSnapshot -Name base -VMName web01 -Confirm:$false',
    'zrepl restore --force pool/data@daily',
    'rustic restore latest / --delete',
    "dbaccess prod - <<< 'drop database prod;'",
    "bconsole <<< 'delete volume=Full-0001 yes'",
    "nsradmin -i - <<< 'delete type: NSR client; name: web01'",
    'emctl config agent delete',
    'sfcli cluster drives remove --drives 5,6',
    "mqsc-run 'DELETE QLOCAL(ORDERS.IN) PURGE'",
    "runmqsc QM1 <<< 'DELETE QLOCAL(ORDERS.IN) PURGE'",
    "cmsh -c 'device; remove node001; commit'",
    "redis-cli --scan --pattern 'sess:*' | xargs redis-cli unlink",
    "ldapmodify -x -D cn=admin <<< $'dn: uid=bob,ou=people,dc=ex\\nchangetype: delete'",
    'opkg remove --force-removal-of-dependent-packages busybox',
    'mc admin bucket remote rm myminio/data --arn arn:minio:replication::x',
    'appctl --task=purge --target=all',
    'toolbox data --operation=truncate --table events',
    'vcli storage pools main destroy --yes',
    'frobctl --dropAllTables',
    'gsctl cluster kill-all',
    'mix ecto.rollback --all',
    'php artisan migrate:reset --force',
    'yii migrate/down all --interactive=0',
    'dbmate drop',
    'goose -dir migrations postgres $DB reset',
    'sqlx database reset -y',
    'diesel database reset',
    'npx typeorm migration:revert',
    'ykman oath reset --force',
    'ykman fido reset --force',
    'nitrokey-app --factory-reset',
    'solo key reset',
    'cryptsetup luksKillSlot /dev/sdb1 0',
    'garden delete env --yes',
    'devspace purge --all',
    'okteto down -v',
    'kind delete clusters --all',
    'k3d cluster delete --all',
    'colima delete --force',
    'limactl delete --force default',
    'juju destroy-model prod --destroy-storage -y',
    'tsuru app-remove -a web -y',
    'ddev delete -O -y',
    'fin project rm -f',
    'copilot app delete --yes',
    'sst remove --stage production',
    'serverless remove --stage prod',
    'cdk destroy --all --force',
    'amplify delete --force',
    'kamal remove -y',
    'eksctl delete cluster --name prod --wait',
])
def test_a_second_wave_of_restores_places_and_short_words_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'consul snapshot save backup.snap',
    'velero backup create nightly',
    'timeshift --create --comments before-upgrade',
    'mix ecto.migrate',
    'php artisan migrate --force',
    'dbmate up',
    'ykman oath accounts list',
    'kind create cluster',
    'k3d cluster list',
    'colima start',
    'sst deploy --stage production',
    'serverless deploy --stage prod',
    'cdk deploy --all',
    'eksctl get cluster',
    'opkg install busybox',
    "runmqsc QM1 <<< 'DISPLAY QLOCAL(ORDERS.IN)'",
    "bconsole <<< 'list volumes'",
    "redis-cli --scan --pattern 'sess:*'",
    'gsctl cluster list',
    'appctl --task=build --target=all',
])
def test_a_second_wave_of_their_everyday_forms_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'dotnet ef database update 0',
    'Update-Database -Migration 0',
    'dotnet ef database drop -f',
    'sea-orm-cli migrate reset',
    'sea-orm-cli migrate fresh',
    'atlas migrate down --to-version 0 --url $DB',
    'sqlx migrate revert --target-version 0',
    'wp db reset --yes',
    'wp site empty --yes',
    'drush sql:drop -y',
    'drush site:install standard -y',
    'bench reinstall --yes',
    'php artisan migrate:fresh --force',
    'php artisan db:wipe --force',
    'bin/console doctrine:schema:drop --force --full-database',
    'mix ecto.reset',
    'npx prisma migrate reset --force',
    'kubeadm reset -f',
    'gcloud auth revoke --all',
    'easyrsa revoke client1',
    'step ca revoke --serial 1234',
    'openssl ca -revoke certs/web.pem',
    'cf d web -f',
    'cf delete-space prod -f',
    'cf ds orders-db -f',
    'doctl compute droplet delete web-1 -f',
    'eb terminate prod --force',
    'qm destroy 100 --purge',
    'knife ec2 server delete i-123 -y --purge',
    'heroku apps:destroy --app web --confirm web',
    'fly apps destroy web -y',
    'render services delete srv-1 --yes',
    'railway down -y',
    'vercel remove web --yes',
    'netlify sites:delete 123 --force',
    'firebase firestore:delete --all-collections -f',
    'firebase database:remove / -f',
    'az group delete -n prod -y',
])
def test_schemas_taken_to_zero_resets_revokes_and_short_deletes_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'dotnet ef database update',
    'dotnet ef migrations add Init',
    'wp db export backup.sql',
    'drush cr',
    'php artisan migrate --force',
    'mix ecto.migrate',
    'npx prisma migrate deploy',
    'cf push web',
    'cf apps',
    'doctl compute droplet list',
    'qm list',
    'fly deploy',
    'vercel --prod',
    'firebase deploy',
    'az group list',
    'railway up',
    'head -n 0 file.txt',
    'cf ds orders-db',
    'python manage.py showmigrations shop',
    'git log --max-count 0',
    'doctl d list',
])
def test_migrations_forward_deploys_and_listings_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'mmdelfs gpfs0 -p',
    'mmdelnode -N node3',
    'mmdelfileset gpfs0 projects -f',
    'rmlv -f datalv',
    'rmfs -r /data',
    'rmvg datavg',
    'rmdev -dl hdisk2',
    'zoneadm -z web uninstall -F',
    'zonecfg -z web delete -F',
    'metaclear -a -f',
    'beadm destroy -F be1',
    'svccfg delete -f network/http',
    'ldm remove-domain -a',
    'tsocmd "DELETE \'PROD.PAYROLL.DATA\' PURGE"',
    'knotc zone-purge example.com',
    "pdsh -w node[1-4] 'rm -rf /scratch/*'",
    "isql -U sa -P x -S prod <<< 'drop database sales'",
    'db2 "DROP TABLESPACE USERSPACE1"',
    "clpcmd -c 'delete member node3 force'",
])
def test_unix_vendors_fused_deletes_and_console_strings_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'mmlsfs gpfs0',
    'lslv datalv',
    'lsvg',
    'zoneadm list -cv',
    'beadm list',
    'svcs -a',
    'tsocmd "LISTCAT LEVEL(\'PROD\')"',
    'knotc zone-status example.com',
    'pdsh -w node[1-4] uptime',
    'rmdir build',
    'rmmod --help',
    'clear',
    'tput clear',
])
def test_unix_vendors_listings_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "barman recover --remote-ssh-command 'ssh postgres@db1' main latest /var/lib/postgresql/16/main",
    'wal-g backup-fetch /var/lib/postgresql/16/main LATEST',
    'pgbackrest --stanza=main restore --pg1-path=/var/lib/postgresql/16/main',
    'mysqlbackup --backup-dir=/backups/full copy-back --datadir=/var/lib/mysql',
])
def test_a_restore_into_a_databases_live_data_directory_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'dotnet restore --force',
    'nuget restore x.sln -Force',
    'msbuild -t:restore -p:RestoreForce=true',
    'barman recover main latest /tmp/recover',
    'barman list-backup main',
    'wal-g backup-push /var/lib/postgresql/16/main',
    'pgbackrest --stanza=main restore --target-dir=/tmp/x',
    'ls /var/lib/postgresql/16/main',
])
def test_package_restores_and_restores_elsewhere_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'mmcli -m 0 --messaging-delete-sms=3',
    'cachetool --cache-purge-all',
    'vmtool --snapshot-remove-all vm1',
    'clusterctl --node-remove=node3',
])
def test_a_verb_inside_a_long_options_name_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'baz --allow-delete',
    'qux --on-delete-cascade x',
    'mytool --skip-remove-step',
    'x --auto-remove-orphans',
    'aws acm-pca create-certificate-authority --permanent-deletion-time-in-days 7',
    'mmcli -m 0 --messaging-list-sms',
])
def test_options_that_set_when_or_whether_things_go_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'zorkfw set default-policy drop',
    'edgefw config input-policy drop',
    'hostwall set policy deny',
    'pktfilter set default-action reject',
    'natguard rules inbound-policy block',
    'shieldctl zone public default-policy drop',
])
def test_a_policy_set_to_drop_is_read_as_the_way_in_closed_not_a_verb_at_the_end(command: str) -> None:
    """`drop` after a policy's name is the policy's value: the reason says what is refused, not what is deleted."""
    verdict = assess(command)
    reason = verdict.reason if verdict and reaches(command) else ""
    assert "refused" in reason and "deletes" not in reason, judged(command)
