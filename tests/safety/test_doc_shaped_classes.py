"""Classes of destructive commands as documentation writes them: disks named by placeholder
(``/dev/sdX``, ``/dev/usb_drive``), programs called by their Windows file name (``shred.exe``),
DDL statements typed at a database prompt (``DROP SEQUENCE ids;``), file transfer clients
told what to run (``lftp -e 'mrm …'``), containers removed with their volumes.  Each class has
forms from programs and phrasings of our own, and quiet counterparts."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


# ------------------------------------------------------ disks named the way manuals name them
@each_form("command", [
    "sudo zpool create tank /dev/sdX",
    "sudo mkusb-nox ubuntu.iso /dev/sdX",
    "sudo bootiso -d /dev/usb_drive debian.iso",
    "sudo ntfsclone --overwrite /dev/sdXN backup.img",
    "sudo partclone.ext4 -r -s disk.img -o /dev/sdXY",
    "sudo pvcreate /dev/sdX",
    "sudo vgcreate data /dev/sdX /dev/sdY",
    "sudo bcachefs format /dev/disk_device",
    "sudo make-bcache -B /dev/target_disk",
])
def test_disks_named_by_placeholder_are_disks(command):
    assert reaches(command, "high"), judged(command)


@each_form("command", [
    "sudo smartctl -a /dev/sdX",
    "sudo mount /dev/sdXN /mnt/usb",
    "sudo dd if=/dev/sdX of=disk-backup.img status=progress",
    "sudo hdparm -I /dev/sdX",
    "lsblk -f /dev/sdX",
    "sudo fdisk -l /dev/disk_device",
    "sudo blkid /dev/sdXY",
    "sudo pmount -t exfat -w /dev/sdc camera",
    "sudo systemd-cryptsetup attach vault /dev/sdb2 none discard",
    "sudo qm disk import 101 images/win.qcow2 local-lvm --format qcow2",
])
def test_reading_a_placeholder_disk_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ programs called by their Windows file name
@each_form("command,at_least", [
    ('rm.exe -rf "$HOME"', "high"),
    ("shred.exe -u ~/notes.txt", "medium"),
    ("git.exe push --force origin main", "high"),
    ("RMDIR.EXE /s /q C:\\Users\\me\\Documents", "medium"),
    ("wsl.exe --unregister Ubuntu", "medium"),
])
def test_a_program_called_with_exe_is_judged_as_itself(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "git.exe status",
    "rm.exe -f build\\out.o",
    "shred.exe --help",
    "kubectl.exe get pods -A",
    "setup.exe /quiet",
])
def test_harmless_exe_forms_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ statements typed at a database prompt
@each_form("command", [
    "DROP SEQUENCE order_ids;",
    "drop materialized view daily_totals;",
    "DROP TRIGGER IF EXISTS audit_changes ON accounts;",
    "DROP MEASUREMENT cpu_load",
    "drop stage raw_uploads;",
    "drop 'events'",
    "TRUNCATE orders;",
    "truncate audit_log",
])
def test_a_statement_typed_at_a_prompt_is_judged_as_sql(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "truncate -s 0 logs/app.log",
    "truncate -s +64M disk.img",
    "ALTER TABLE accounts ADD COLUMN plan text;",
    "update-grub",
    "drop ./screenshot.png",
    "drop --help",
])
def test_prompt_words_that_are_not_destructive_statements_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ file transfer clients told what to run
@each_form("command", [
    "lftp -e 'mrm /pub/incoming/*.log; bye' ftp.example.org",
    "lftp -c 'open sftp://backup.example.org; glob rm -r /srv/old/'",
    "smbclient //nas/share -U me -c 'deltree reports'",
    "smbclient //nas/share -c 'cd photos; del 2019*.jpg'",
    "sftp -b - deploy@web1 <<< 'rm /var/www/uploads/*.pdf'",
    "printf 'mdelete *.csv\\nbye\\n' | ftp -n files.example.org",
    "mrm /pub/tmp/*.iso",
    "mrmdir /pub/2019",
])
def test_a_transfer_clients_own_delete_commands(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "lftp -e 'mirror --reverse site/ /www; bye' ftp.example.org",
    "smbclient //nas/share -c 'cd photos; mget *.jpg'",
    "sftp -b - deploy@web1 <<< 'put dist/app.tar.gz /srv/releases/'",
    "lftp -c 'open ftp.example.org; ls -la /pub'",
    "echo 'get report.pdf' | ftp -n files.example.org",
])
def test_transfer_clients_that_only_copy_or_list_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ containers removed with their volumes
@each_form("command", [
    "docker rm -v pg-old",
    "podman rm --volumes db",
    "docker container rm -fv mysql-test",
    "docker compose rm -fsv",
    "podman container rm --volumes --force cache",
])
def test_a_container_removed_with_its_volumes(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "docker rm web-old",
    "docker rm -f web",
    "docker run -v pgdata:/var/lib/postgresql/data postgres:16",
    "docker compose rm -f",
    "podman rm --help",
    "docker create -v /data --name data busybox",
])
def test_containers_removed_without_their_volumes_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ commands typed at a data store's prompt
@each_form("command,at_least", [
    ("DEL session:42", "medium"),
    ("UNLINK cache:1 cache:2", "medium"),
    ("SREM online user:7", "medium"),
    ("delete /config/app", "medium"),
    ("rmr /brokers/topics/clicks", "medium"),
    ("DELETE /orders-2024", "medium"),
    ("DELETE _all", "high"),
    ("MATCH (u:User {email: 'a@example.com'}) DELETE u", "medium"),
    ("MATCH (n) DELETE n", "medium"),
])
def test_a_data_stores_own_delete_typed_at_its_prompt(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "GET session:42",
    "MATCH (n) RETURN count(n)",
    "GET /_cat/indices?v",
    "del build\\out.o",
    "unlink old-link",
    "DEL /?",
])
def test_reading_at_a_data_stores_prompt_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# A disk partitioner's prompt (Windows' DISKPART): the lines act on the disk or volume selected before.
@each_form("command", [
    "clean all",
    "clean",
    "delete partition override",
    "delete disk noerr",
    "format fs=ntfs quick label=Data",
    "format fs=fat32 quick",
])
def test_a_partitioners_prompt_lines_that_erase(command):
    assert reaches(command, "high"), judged(command)


@each_form("command", [
    "select disk 1",
    "list volume",
    "create partition primary size=1024",
    "assign letter=E",
    "./clean",
    "scripts/clean all",
])
def test_a_partitioners_prompt_lines_that_select_or_create_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# A manager's prompt (a VM shell, a queue console, a cloud REPL): the line starts with the verb, and
# what it acts on decides the level as it would after any program's name.
@each_form("command", [
    "destroy web01",
    "purge queue orders",
    "remove volume pgdata",
    "terminate instance i-0abc123",
    "obliterate //depot/legacy/...",
    "erase all",
])
def test_a_verb_typed_at_a_managers_prompt(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "remove package htop",
    "purge cache",
    "remove alias ll",
    "./destroy",
    "scripts/purge old-logs",
    "remove --help",
])
def test_light_things_or_scripts_at_a_prompt_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ an app uninstalled from a phone or a simulator
# (more spellings for the class in test_forced_overwrites_and_bare_scopes)
@each_form("command", [
    "adb uninstall org.acme.wallet",
    "ideviceinstaller --uninstall com.example.notes",
    "ios-deploy --uninstall_only --bundle_id com.example.notes",
])
def test_an_app_uninstalled_from_a_device_in_other_spellings(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "gnome-extensions uninstall dash-to-dock@micxgx.gmail.com",
    "adb -s emulator-5554 install -r build/app-debug.apk",
])
def test_extensions_and_reinstalls_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ one key deleted in a coordination store
# (as `consul kv delete k` and `nats kv del b k` already are: the store's records are the data)
@each_form("command", [
    "etcdctl del /registry/app/config",
    "etcdctl --endpoints=https://10.0.0.5:2379 del feature-flags",
    "etcdctl user delete ci-bot",
    "etcdctl lease revoke 694d7a1b2c3e4f50",
])
def test_one_key_deleted_in_a_coordination_store(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "etcdctl get --prefix /registry/app/",
    "etcdctl put feature-flags '{\"beta\": true}'",
    "etcdctl member list -w table",
    "etcdctl endpoint health",
    "etcdctl del --help",
])
def test_reading_or_writing_a_coordination_store_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ------------------------------------------------------ CLIs that are git by another name
@each_form("command,at_least", [
    ("dolt reset --hard", "medium"),
    ("dolt push --force origin main", "high"),
    ("hub reset --hard HEAD~2", "medium"),
    ("hub push -f origin master", "high"),
    ("lab push --force origin main", "high"),
])
def test_a_cli_that_mirrors_git_is_judged_as_git(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "dolt status",
    "dolt diff HEAD~1",
    "dolt commit -am 'load March prices'",
    "hub pull-request -m 'Fix typo'",
    "lab mr create origin",
    "dolt sql -q 'select count(*) from prices'",
])
def test_everyday_use_of_git_mirrors_stays_quiet(command):
    assert stays_quiet(command), judged(command)
