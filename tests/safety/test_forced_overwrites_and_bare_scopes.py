"""Classes of destruction that public command documentation spells with no destructive noun:
files written over by force (a generator told to overwrite, an option named for overwriting,
Windows' ``/Y`` and PowerShell's ``-Force`` on a move or copy), a manager's verb given no
target (a bare ``kill`` ends every task it runs, a bare ``undeploy`` takes the whole
application down), members deleted from an archive, a retention that keeps none, and a
deleting option with no operand (it acts on whatever the program finds).  The forms are our
own, with other programs and phrasings than any one documentation page; each class has quiet
counterparts."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


# ----------------------------------------------------------------- files written over by force
@each_form("command", [
    "rails new blog --force",
    "rails generate scaffold Post title:string --force",
    "nest generate service users --force",
    "ng generate component header --force",
    "dotnet new webapi -o Api --force",
    "php artisan make:controller UserController --force",
    "mix phx.gen.json Accounts User users name:string --force",
    "cargo generate --git https://github.com/me/template --name app --force",
    "npm create vite@latest web -- --force",
])
def test_a_generator_told_to_force_writes_over_existing_files(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "yt-dlp --force-overwrites https://example.com/watch?v=1",
    "aria2c --allow-overwrite=true https://example.com/big.iso",
    "cjxl photo.png photo.jxl --overwrite",
    "ogr2ogr -overwrite -f GPKG parcels.gpkg parcels.shp",
    "heif-convert --overwrite-existing IMG_1.heic IMG_1.jpg",
])
def test_an_option_named_for_overwriting_writes_over_existing_files(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "copy /Y report.docx \\\\fileserver\\team\\report.docx",
    "xcopy D:\\site E:\\mirror\\site /E /Y",
    "move /Y draft.txt final.txt",
    "reg export HKCU\\Software\\Vendor vendor.reg /y",
    "cpi -Force notes.txt D:\\archive\\notes.txt",
    "mi -Force old.log current.log",
    "mv -Force budget.xlsx D:\\shared\\budget.xlsx",
    "wine xcopy Z:\\site C:\\mirror /E /Y",
    "wine64 reg export HKCU\\Software\\Vendor vendor.reg /y",
])
def test_windows_moves_and_copies_told_not_to_ask_write_over_files(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "rails new blog",
    "ng generate component header --dry-run --force",
    "dotnet new console -o app",
    "helm create mychart",
    "npm init -y",
    "yt-dlp --no-overwrites https://example.com/watch?v=1",
    "aria2c --allow-overwrite=false https://example.com/big.iso",
    "cjxl photo.png /tmp/photo.jxl --overwrite",
    "pacman -U --overwrite '/usr/lib/python3*/*' pkg.tar.zst",
    "copy report.docx D:\\backup\\",
    "move /-Y draft.txt final.txt",
    "xcopy D:\\site E:\\mirror\\site /E",
    "reg export HKCU\\Software\\Vendor vendor.reg",
    "wine reg export HKCU\\Software\\Vendor vendor.reg",
    "Copy-Item notes.txt D:\\archive\\",
    "Set-ExecutionPolicy Bypass -Scope Process -Force",
])
def test_creating_copying_and_declining_to_overwrite_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a manager's verb with no target
@each_form("command", [
    "overmind kill",
    "pueue kill --group builds",
    "podman-compose kill",
    "airmon-zc check kill",
])
def test_a_bare_kill_ends_everything_a_manager_runs(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "mvn wildfly:undeploy",
    "mvn tomcat7:undeploy -Dtomcat.url=http://ci:8080/manager/text",
    "zappa undeploy",
    "tye undeploy --namespace shop",
])
def test_a_bare_undeploy_takes_the_whole_application_down(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "pueue kill 12",
    "buck2 kill",
    "mc mirror --overwrite ./public minio/site",
    "pueue kill --children 12",
    "adb kill-server",
    "gpgconf --kill gpg-agent",
    "tmux kill-session -t scratch",
    "mvn wildfly:deploy",
    "zappa deploy",
    "tye deploy",
])
def test_a_kill_or_deploy_of_one_named_thing_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- members deleted from an archive
@each_form("command", [
    "7z d photos.7z raw/IMG_0001.CR2",
    "7za d -r thesis.7z '*.tex'",
    "rar d music.rar album/track01.flac",
    "tar --delete -f home-backup.tar home/me/thesis.tex",
    "zip --delete site.zip about.html",
    "zip -d mail-archive.zip 2019/*",
])
def test_deleting_members_from_an_archive(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "7z l photos.7z",
    "7z x photos.7z -o/tmp/photos",
    "rar a music.rar album/",
    "tar -tf home-backup.tar",
    "zip -r site.zip public/",
    "unzip -l site.zip",
])
def test_reading_and_adding_to_an_archive_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a retention that keeps none
@each_form("command", [
    "rusnapshot --clean --keep 0 --kind weekly",
    "zfs-auto-snapshot --label=hourly --keep=0 --destroy-only //",
])
def test_a_retention_that_keeps_none_deletes_every_backup(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "rusnapshot --list --kind weekly",
    "kopia policy set --keep-latest 10 /home/me",
    "logrotate --keep 0 --help",
])
def test_keeping_some_or_reading_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a deleting option with no operand
@each_form("command", [
    "clamdscan --multiscan --remove",
    "savscan -remove",
    "uvscan --delete",
])
def test_a_bare_deleting_option_acts_on_what_the_program_finds(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "clamscan -ri",
    "clamscan -ri --move=/var/quarantine",
    "uvscan --recursive",
])
def test_scanning_without_deleting_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- an app uninstalled from a device
@each_form("command", [
    "adb -s emulator-5554 uninstall com.example.notes",
    "adb shell pm uninstall --user 0 com.example.notes",
    "ideviceinstaller -U com.example.notes",
    "xcrun simctl uninstall booted com.example.notes",
    "hdc uninstall com.example.notes",
])
def test_an_app_uninstalled_from_a_device_loses_its_data(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "adb uninstall -k com.example.notes",
    "adb install app-release.apk",
    "flatpak uninstall org.gimp.GIMP",
    "code --uninstall-extension ms-python.python",
    "xcrun simctl install booted build/Notes.app",
])
def test_keeping_the_data_or_installing_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- what a manifest deployed, taken down
@each_form("command", [
    "podman kube down web-pod.yaml",
    "podman play kube --down web-pod.yaml",
    "kompose down --file prod-stack.yml",
])
def test_down_with_a_manifest_deletes_what_it_deployed(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "docker compose -f docker-compose.yml down",
    "podman-compose -f compose.yaml down",
    "docker-compose --file stack.yml down",
    "podman kube play web-pod.yaml",
    "kompose convert -f docker-compose.yml",
])
def test_compose_down_and_deploying_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- moves, copies and compressors told to force
@each_form("command", [
    "mv -f draft.md final.md",
    "mv --force thesis-v2.tex thesis.tex",
    "cp --remove-destination new.db app.db",
    "cp -fp settings.local.json settings.json",
    "gzip -f measurements.csv",
    "zstd --force -19 dump.sql",
    "7z x photos-backup.7z -aoa",
    "unrar x -o+ scans.rar",
    "unzip -oq release-2.4.zip",
    "tar -xzf site-backup.tgz --overwrite",
])
def test_a_move_copy_or_compressor_told_to_force_writes_over_files(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "mv draft.md final.md",
    "cp -f build/app.js /tmp/app.js",
    "gzip measurements.csv",
    "7z x photos-backup.7z -o/tmp/restore -aoa",
    "7z x photos-backup.7z -aos",
    "unrar x -o- scans.rar",
    "unzip -o assets.zip -d vendor/assets/",
    "tar -xzf site-backup.tgz --overwrite -C /tmp/site",
    "cargo install ripgrep --force",
    "gzip -f /tmp/trace.json",
    "mv -f notes.txt archive/",
    "unrar x -o+ scans.rar scans/",
    "mv -Confirm notes.txt D:\\archive\\notes.txt",
])
def test_moves_copies_and_compressors_that_keep_what_exists_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- records deleted by number from a store
@each_form("command", [
    "tb --delete 3",
    "buku --delete 14-20",
    "clipcat --remove 7",
    "taskbook --delete 11",
])
def test_a_deleting_option_given_record_numbers_deletes_them(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "tb --check 3",
    "watch -d -n 5 date",
    "split -d -l 5000 big.csv part_",
    "lsof -d 5",
    "cut -d , -f 5 data.csv",
    "date -d 5",
    "pr -d -l 60 notes.txt",
    "tb --delete 3 --dry-run",
    "tb -d 2",
])
def test_options_of_other_meanings_given_numbers_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- PowerShell's drives: certificates, the environment
@each_form("command,at_least", [
    ("Remove-Item Cert:\\LocalMachine\\Root\\ABCD1234", "medium"),
    ("ri cert:\\CurrentUser\\My\\9F8E7D -DeleteKey", "medium"),
    ("Get-ChildItem Cert:\\CurrentUser\\My | Remove-Item", "high"),
    ("Remove-Item Env:\\PATH", "medium"),
    ("Remove-Item -Path Env:Path", "medium"),
])
def test_certificates_and_the_path_removed_through_powershell_drives(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Get-ChildItem Cert:\\CurrentUser\\My",
    "Remove-Item Alias:\\ls",
    "Remove-Item Function:\\prompt",
    "Remove-Item Cert:\\CurrentUser\\My\\ABCD -WhatIf",
    "Remove-Item Env:\\MY_TEMP_FLAG",
])
def test_aliases_functions_and_reading_drives_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- a wait for a deletion is a wait
@each_form("command", [
    "kubectl wait --for delete pod/web --timeout=60s",
    "oc wait --for delete pod/db-0",
    "kubectl wait pod/api --for delete -n shop",
])
def test_waiting_for_a_deletion_stays_quiet(command):
    assert stays_quiet(command), judged(command)
