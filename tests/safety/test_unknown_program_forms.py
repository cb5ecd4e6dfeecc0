"""Programs no rule names, read by their own words (session 12): an uninstaller script named after what it
removes (``k3s-uninstall.sh``, also handed to a shell), an option spelled noun first (``--room-delete``), a
weak verb in an option on stored data (``--clear-db``), a prune fused to an object no table lists
(``pruneblockchain``), the object of a bare-quiet verb named by an option (``expire --set=ID``), verbs that
destroy only some objects (a disk formatted, a server rebuilt, an account closed, an address released), a
deployed app's secrets unset (``fly secrets unset KEY``, ``heroku config:unset KEY``), an action told not to ask
by a bare word (``clear noprompt``, ``start init full force``), data overwritten by an option
(``--overwrite-data-of-peer``), consumer offsets reset, a setting turned on as a bare operand
(``ts3server clear_database=1``), a controller's destroying task started (``storcli /c0/v1 start erase``), weak verbs
told all and object verbs fused in options (``--uninstall-all``, ``--format-disk 2``); and the same programs'
everyday forms, which stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "k3s-uninstall.sh",
    "rke2-uninstall.sh",
    "sudo /usr/local/bin/k3s-agent-uninstall.sh",
    "./vpn-client-uninstall.sh",
    "sudo sh /opt/zabbix/agent-uninstall.sh",
    "bash ./monitoring_uninstall.sh --yes",
    "./gitlab-runner-killall.sh",
])
def test_scripts_named_for_uninstalling_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "vim k3s-uninstall.sh",
    "cat ./agent-uninstall.sh",
    "./k3s-install.sh",
    "./uninstaller-notes.txt",
])
def test_uninstall_scripts_edited_or_read_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "matrix-commander --room-delete '!abc:example.org'",
    "chatadm --channel-destroy general --server chat01",
    "hostctl --bucket-remove media-archive",
    "cloudadm --database-drop billing",
    "meshctl --volume-delete vol-0a1b2c",
    "appliancectl --account-purge acme",
])
def test_options_spelled_noun_then_verb_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "rsync -a --auto-delete-ok src/ dst/",
    "docker run --rm alpine true",
    "fooctl --on-delete cascade create fk1",
    "syncer --soft-delete inbox",
    "indexer --allow-delete --list",
    "uploader --cache-delete",
    "mailer --post-delete-hook ./notify.sh",
    "sqlmap -u http://127.0.0.1/vuln.php --param-del=\";\"",
])
def test_noun_verb_options_that_only_look_so_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "beacon-chain --clear-db",
    "beacon-chain --datadir /data/prysm --force-clear-db",
    "nodectl start --reset-database",
    "indexer --flush-db --network mainnet",
    "validator --clear-data --home /srv/val",
    "appserver --reset-storage",
])
def test_weak_verbs_in_options_on_stored_data_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "browserctl --clear-cache",
    "nodectl start --reset-password-prompt",
    "proxy --flush-logs",
    "git log --clear-decorations",
])
def test_weak_verbs_in_options_on_light_things_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "bitcoin-cli pruneblockchain 800000",
    "walletctl prunetransactions --before 2023-01-01",
    "chaind prunehistory --height 120000",
    "meshd prunepeers --offline-days 0",
    "ledgerd prunestate 120000",
    "indexerctl pruneevents --older-than 1d",
])
def test_prune_fused_to_unlisted_objects_is_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "pruner --dry-run",
    "treectl pruned --list",
    "hedgectl prunes",
    "s3cmd dellifecycle --help",
])
def test_words_that_only_start_with_prune_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "pgbackrest --stanza=main expire --set=20240101-010101F",
    "snapctl prune --snapshot=nightly-0412",
    "artifactd expire --backup-id 20240101T000000",
    "deployer undeploy --name payments-api",
    "queuectl discard --id 42",
])
def test_bare_quiet_verbs_with_an_object_named_by_option_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "pgbackrest --stanza=main expire",
    "snapctl prune",
    "deployer undeploy --dry-run --name payments-api",
    "queuectl discard",
])
def test_bare_quiet_verbs_with_nothing_named_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "nasctl volume format vol2",
    "arrayctl disk format 3 --force",
    "camctl sdcard format",
    "dronectl storage format --yes",
    "tapectl format --tape LTO0042",
    "hcloud server rebuild web1 --image ubuntu-22.04",
    "doctl compute droplet-action rebuild 1234 --image ubuntu-22-04-x64",
    "linode-cli linodes rebuild 1234 --image linode/debian12",
    "vultr-cli instance reinstall 4f0f1a2b",
    "az vmss reimage -g rg -n web-ss",
    "fleetctl node reprovision n3",
    "bankcli account close",
    "billingctl subscription close sub_123",
    "tenantadm close-account acme",
    "netctl ip release 203.0.113.5",
    "cloudctl eip release eipalloc-1234",
])
def test_verbs_that_destroy_only_their_objects_are_read_with_them(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "nasctl volume list --format json",
    "arrayctl disk show 2 --format=table",
    "clang-format -i main.c",
    "dart format lib/",
    "ffmpeg -i in.mp4 -c copy -f media_format - ",
    "meili server rebuild-index",
    "npm rebuild",
    "fooctl image rebuild web",
    "gh release create v1.2 --notes notes.md",
    "gh issue close 12",
    "docker compose up --force-recreate",
    "netctl release create --address 203.0.113.5",
    "bankcli account show",
])
def test_the_same_verbs_on_other_objects_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "fly secrets unset API_KEY",
    "dokku config:unset myapp SECRET_KEY",
    "netlify env:unset API_KEY",
    "heroku config:unset DATABASE_URL -a billing",
    "cf unset-env myapp API_KEY",
    "koyeb secrets unset DB_PASSWORD",
    "appctl tokens unset deploy-bot",
])
def test_a_deployed_apps_secrets_unset_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "npm config unset registry",
    "gcloud config unset project",
    "yarn config unset npmRegistryServer",
    "git config --unset user.name",
    "fooctl env unset FOO",
    "fooctl secrets unset",
])
def test_local_settings_unset_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "arcconf task start 1 device 0 3 clear noprompt",
    "storcli /c0/v0 start init full force",
    "raidctl unit 2 initialize noprompt",
    "hbacli port 3 reset force",
    "arrayadm ld 2 clear forced",
    "nasctl pool tank erase confirm=true",
])
def test_an_action_told_not_to_ask_by_a_bare_word_is_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "arcconf cache clear noprompt",
    "arcconf getconfig 1 ld noprompt",
    "fooctl sync force",
    "fooctl install nginx force",
    "storcli /c0 show all force",
])
def test_bare_bypass_words_without_an_action_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "drbdadm -- --overwrite-data-of-peer primary r0",
    "replicactl promote --overwrite-data node2",
    "dbsync pull --overwrite-database staging",
    "volctl attach --overwrite-volume vol-7 node3",
    "fooctl offsets reset --group billing --to-earliest",
    "streamctl consumer offsets reset payments",
])
def test_overwrites_and_offset_resets_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "ts3server clear_database=1",
    "nodectl run reset_db=yes",
    "chaind start flush_data=true",
    "kvserver boot clear_store=on",
    "mediasrv run reset_storage=1",
    "replicad join overwrite_data=yes",
])
def test_settings_turned_on_as_bare_operands_are_read_as_their_options(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "ts3server clear_database=0",
    "gameserverd start wipe_world=false",
    "nodectl config reset_db=yes",
    "appctl deploy log_level=debug verbose=1",
    "imagectl deploy persistence.deleteOnUninstall=true",
])
def test_settings_turned_off_stored_or_without_a_verb_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "storcli /c0/v1 start erase simple",
    "perccli /c0/v0 start init full",
    "arcconf task start 1 device 0 3 initialize",
    "raidadm /c1/v2 start wipe",
    "hbactl 2 ld 1 start sanitize",
    "sasctl slot=3 start format",
])
def test_a_controller_told_to_start_a_destroying_task_is_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "supervisorctl start purge-worker",
    "pm2 start delete.js",
    "docker start erase",
    "storcli /c0/v1 start patrolread",
    "fooctl start --name erase-job",
])
def test_starts_of_names_and_harmless_tasks_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "agentctl --uninstall-all",
    "svcreg --deregister-all",
    "sessionctl --revoke-all",
    "jobctl --cancel-all",
    "nodeadm --drain-all",
    "arrayctl --format-disk 2",
    "nasctl --format-volume vol2",
    "hostctl --reimage-server web1",
    "bankcli --close-account 1234",
    "netctl --release-address 203.0.113.5",
])
def test_weak_verbs_told_all_and_object_verbs_fused_in_options_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "dunstctl close-all",
    "notifyctl --clear-all",
    "fooctl --list-all",
    "fooctl --install-all",
    "reportctl --output-format json",
    "logctl --format-date iso",
    "logctl --date-format iso",
])
def test_options_that_only_look_so_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
