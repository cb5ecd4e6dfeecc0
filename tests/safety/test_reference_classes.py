"""Classes that public command documentation shows and the rules missed, written as mechanisms with other
programs and phrasings than the documentation's: subcommands of git that its own rules do not know (add-ons
and plumbing that deletes), files removed through another version control system, shell history wiped in
other shells' words, a project created over what is there by force, files cut short, registry keys written
over and Windows commands run through a compatibility layer, the service manager told to exit, a published
package taken back, an app uninstalled from a device with its data, database statements given as bare lines;
and the everyday near misses of each, which stay quiet."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


# ----------------------------------------------------------------- 1. git's subcommands no git rule knows
@each_form("command", [
    "git bug rm 4f2a1c",  # an add-on's own delete
    "git nuke feature/login",
    "git undo --hard 2",
    "git notes --ref=review remove HEAD~2",
    "git symbolic-ref --delete refs/remotes/origin/HEAD",
    "git credential-store --file ~/.git-credentials erase",
    "git credential reject < stale-login.txt",
    "git checkout-index --all --force",
])
def test_git_subcommands_beyond_its_rules(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "git notes show HEAD",
    "git notes add -m 'reviewed' HEAD",
    "git symbolic-ref HEAD refs/heads/main",
    "git bug ls",
    "git credential fill < request.txt",
    "git checkout-index -a --prefix=/tmp/export/",
    "git commit -m 'remove the old purge script'",
    "git log --grep=delete --oneline",
    "git shortlog -sn",
    "git undo --soft",
    "git rb main",  # a short alias (rebase), not a bucket removed
    "git co -b feature",
])
def test_git_subcommands_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 2. tracked files removed by another VCS
@each_form("command", [
    "hg rm -r src/legacy",
    "hg remove docs/design.odt",
    "hg remove -I 'glob:**.csv'",
    "bzr rm src/importer.py",
])
def test_tracked_files_removed_by_other_vcs(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "hg forget notes.txt",
    "hg remove -A",
    "hg rm --after old.txt",
    "hg status",
])
def test_other_vcs_untracking_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 3. history wiped in other shells' words
@each_form("command", [
    "Clear-History",
    "Clear-History -Count 20 -Newest",
    "[Microsoft.PowerShell.PSConsoleReadLine]::ClearHistory()",
    "Remove-Item ~/.local/share/powershell/PSReadLine/ConsoleHost_history.txt",
    "Remove-Item $env:APPDATA\\Microsoft\\Windows\\PowerShell\\PSReadLine\\ConsoleHost_history.txt",
    "fish -c 'history clear'",
    "history clear",
    "nu -c 'history --clear'",
    "doskey /reinstall",
])
def test_history_wiped_in_other_shells(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "Clear-History -WhatIf",
    "Get-History",
    "history | grep ssh",
    "fish -c 'history search git'",
    "doskey /history",
    "Clear-Host",
    "history merge",
])
def test_history_reads_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 4. created over what is there, by force
@each_form("command", [
    "rails new shop --force",
    "dotnet new webapi -o api --force",
    "jekyll new site --force",
    "ng new portal --force",
    "yadm clone -f https://git.example.org/me/dotfiles.git",
    "cookiecutter --overwrite-if-exists gh:acme/service-template",
])
def test_created_over_what_is_there(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "rails new shop",
    "dotnet new console -o app",
    "npm init -y",
    "kubectl create -f deploy.yaml",
    "git clone https://git.example.org/me/dotfiles.git",
    "terraform init -upgrade",
    "pip install --force-reinstall requests",
    "cargo new app",
    "docker buildx create --use",
])
def test_creating_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 5. files cut short
@each_form("command", [
    "truncate -s 0 invoices.csv",
    "truncate -s -512M archive.tar",
    "truncate --size='<1G' customers.db",
    "fallocate --punch-hole --offset 0 --length 10G vm.img",
    "fallocate -p -o 0 -l 1M data.bin",
    "fallocate --zero-range -o 0 -l 1G disk.raw",
    "fallocate --collapse-range -o 0 -l 4096 events.dat",
    "qemu-img resize --shrink disk.qcow2 -10G",
])
def test_files_cut_short(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "truncate -s 0 logs/app.log",
    "truncate -s 0 /tmp/scratch.bin",
    "truncate -s +1G disk.img",
    "fallocate -l 1G /swapfile",
    "fallocate --dig-holes vm.img",
    "qemu-img resize disk.qcow2 +10G",
    "qemu-img info disk.qcow2",
])
def test_files_grown_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 6. the registry written over; Windows via wine
@each_form("command", [
    "reg restore HKCU\\Software\\Vendor D:\\backup\\vendor.hiv",
    "reg copy HKLM\\Software\\Old HKLM\\Software\\New /s /f",
    "wine cmd /c del /s /q C:\\users",
    "wine64 cmd /c rd /s /q C:\\",
])
def test_registry_written_over_and_windows_commands_through_wine(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "reg query HKCU\\Software\\Vendor",
    "reg export HKCU\\Software\\Vendor vendor.reg",
    "reg copy HKCU\\Software\\A HKCU\\Software\\B /s",
    "wine notepad.exe",
    "wine reg query HKCU\\Software",
])
def test_registry_reads_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 7. the service manager told to exit
@each_form("command", ["systemctl exit", "sudo systemctl exit 3", "systemctl exit --no-block"])
def test_service_manager_exit_stops_the_host(command):
    assert reaches(command), judged(command)


def test_service_manager_status_stays_quiet():
    assert stays_quiet("systemctl is-system-running")


# ----------------------------------------------------------------- 8. a published package taken back
@each_form("command", [
    "platformio pkg unpublish acme/drivers@1.2.0",
    "pio package unpublish acme/drivers",
    "vpm plugin unpublish mytool@0.3.1",
])
def test_published_package_taken_back(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "pio pkg unpublish --undo acme/drivers@1.2.0",
    "pio pkg publish",
    "pio pkg list",
])
def test_publishing_stays_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 9. an app uninstalled from a device, with its data
@each_form("command", [
    "adb -s emulator-5554 uninstall com.example.notes",
    "adb shell pm uninstall --user 0 com.example.notes",
    "xcrun simctl uninstall booted com.example.app",
    "ideviceinstaller --uninstall com.example.app",
    "hdc uninstall com.example.myapp",
])
def test_app_uninstalled_from_a_device(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "adb uninstall -k com.example.notes",
    "adb install app.apk",
    "flatpak uninstall org.gimp.GIMP",
    "adb shell pm list packages",
    "xcrun simctl install booted App.app",
    "code --uninstall-extension ms-python.python",
])
def test_app_installs_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 10. statements given as bare lines
@each_form("command", [
    "DROP ROLE analyst;",
    "DROP SEQUENCE order_seq;",
    "DROP FUNCTION calc_total;",
    "DROP TRIGGER audit ON orders;",
    "DROP OWNED BY bob;",
    "DROP MATERIALIZED VIEW sales_mv;",
    "TRUNCATE orders, items RESTART IDENTITY;",
    "truncate orders;",
])
def test_statements_as_bare_lines(command):
    assert reaches(command), judged(command)


@each_form("command", ["truncate -s +10M disk.img", "drop"])
def test_bare_words_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 11. tracked directories removed; forced clones
@each_form("command", [
    "git rm -r assets/images",
    "git rm -rf vendor/legacy",
    "git force-clone git@git.example.org:team/site.git site",
    "git pull-force origin main",
    "dvc init -f",
    "ansible-galaxy init -f webserver",
])
def test_tracked_directories_removed_and_repositories_forced(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "git rm -r --cached node_modules",
    "git rm --cached secrets.env",
    "git rm -r build/",
    "git rm notes.txt",
    "dvc init",
    "kind create cluster -f kind.yaml",
    "tool init -f config.yaml",
    "git force-push-guard --help",
])
def test_untracking_and_plain_inits_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 12. local work discarded by other VCSs; more cuts
@each_form("command", [
    "p4 revert //...",
    "p4 clean //depot/project/...",
    "tf undo /recursive $/Project/src",
    "tf scorch /recursive /diff",
    "cleartool rmelem -force src/old.c",
    "git read-tree -u --reset HEAD",
    "history -d 1-200",
    "atuin search --delete --before 2024-01-01",
    "truncate -r /dev/null ledger.csv",
    "fsutil file seteof C:\\data\\ledger.db 0",
    "osascript -e 'tell application \"Finder\" to empty the trash'",
    "osascript -e 'tell application \"Finder\" to delete every item of folder \"Documents\" of home'",
])
def test_local_work_discarded_and_more_cuts(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "p4 revert -k //depot/project/...",
    "p4 revert -n //...",
    "p4 opened",
    "tf status /recursive",
    "cleartool ls",
    "git read-tree --prefix=vendor/lib/ -u libs/main",
    "history -d 42",
    "atuin search --before 2024-01-01 cargo",
    "truncate -r template.bin copy.bin",
    "fsutil file seteof C:\\data\\grow.bin 1073741824",
    "osascript -e 'display notification \"done\"'",
    "osascript -e 'tell application \"Finder\" to open home'",
])
def test_local_work_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- 13. an entry taken out of a store of keys or logins
@each_form("command", [
    "pacman-key --delete 3B94A80E50A477C7",
    "sudo rpmkeys --delete=8f7a2c1e",
    "git secret removeperson alice@example.org",
])
def test_entry_taken_out_of_a_key_store(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "pacman-key --list-keys",
    "pacman-key --refresh-keys",
    "rpmkeys --import RPM-GPG-KEY",
    "git secret tell alice@example.org",
])
def test_key_store_reads_stay_quiet(command):
    assert stays_quiet(command), judged(command)
