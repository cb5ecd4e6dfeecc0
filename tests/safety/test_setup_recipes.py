"""Setup recipes every server guide gives, judged by what they change (session 21, issue 23's everyday side).

Swap added to /etc/fstab (a swap line cannot hold the boot up: a failed swap is skipped), a mount told `nofail`,
the swap lines commented out for Kubernetes, a site's link removed from `sites-enabled`: each was medium or
high. What can stop the boot or lock the user out keeps its level: a plain mount line, an fstab edit that is not
addressed to the swap lines, text not known, and every other in-place edit of a system file, whatever flags sed
is given before its `-i` (`-ri`, `-Ei` were read as no in-place edit at all)."""
from __future__ import annotations

from tests.safety.forms import each_form, table_holds
from tests.safety.kept import assess

FSTAB = (
    ["echo 'UUID=abcd /mnt/data ext4 defaults 0 2' | sudo tee -a /etc/fstab",
     "echo '/dev/sdb1 /srv xfs defaults 0 0' >> /etc/fstab", "cat newline >> /etc/fstab",
     "cat newline | sudo tee -a /etc/fstab", "echo 'data UUID=x none luks' | sudo tee -a /etc/crypttab",
     "printf '/swapfile none swap sw 0 0\\n/dev/sdb1 /data ext4 defaults 0 2\\n' | sudo tee -a /etc/fstab",
     "sudo sed -i 's|/dev/sda1|/dev/sdb1|' /etc/fstab", "sudo sed -i '/swap/d; s|/dev/sda1|/dev/sdb1|' /etc/fstab",
     "sudo sed -i '/swap/!d' /etc/fstab", "sudo sed -i -e '/swap/d' -e '/data/d' /etc/fstab"],
    ["echo '/swapfile none swap sw 0 0' | sudo tee -a /etc/fstab",
     "sudo bash -c \"echo '/swapfile none swap sw 0 0' >> /etc/fstab\"",
     "echo '/swap.img swap swap defaults 0 0' >> /etc/fstab",
     "echo 'UUID=abcd /mnt/data ext4 defaults,nofail 0 2' | sudo tee -a /etc/fstab",
     "echo '//nas/share /mnt/share cifs credentials=/root/.smb,_netdev,nofail 0 0' | sudo tee -a /etc/fstab",
     "echo 'data UUID=x none luks,nofail' | sudo tee -a /etc/crypttab",
     "sudo swapoff -a && sudo sed -i '/ swap / s/^\\(.*\\)$/#\\1/g' /etc/fstab",
     "sudo sed -e '/swap/ s/^#*/#/' -i /etc/fstab", "sudo sed -ri '/\\sswap\\s/s/^#?/#/' /etc/fstab",
     "sudo sed -i '/swapfile/d' /etc/fstab", "sudo sed -i '\\|swap|s|^|#|' /etc/fstab"])

ENABLED_LINKS = (
    ["sudo rm /etc/nginx/sites-enabled/*", "sudo rm -rf /etc/nginx/sites-enabled",
     "sudo rm -r /etc/apache2/mods-enabled/", "sudo rm /etc/nginx/sites-available/default",
     "sudo rm /etc/nginx/nginx.conf"],
    ["sudo rm /etc/nginx/sites-enabled/default", "sudo rm /etc/apache2/sites-enabled/000-default.conf",
     "sudo unlink /etc/nginx/sites-enabled/default", "sudo rm /etc/icinga2/features-enabled/notification.conf",
     "sudo rm -f /etc/apache2/conf-enabled/security.conf", "sudo rm /etc/lighttpd/conf-enabled/10-ssl.conf"])


def test_fstab_lines_that_cannot_stop_the_boot_stay_quiet():
    table_holds(FSTAB)


def test_a_site_switched_off_by_its_enabled_link_stays_quiet():
    table_holds(ENABLED_LINKS)


@each_form("command", ["sudo sed -ri 's/x/y/' /etc/passwd", "sudo sed -Ei 's/x/y/' /etc/shadow",
                       "sudo sed -ni 's/x/y/p' /etc/sudoers", "sudo sed --in-place=.bak 's/x/y/' /etc/passwd",
                       "sudo sed -zi 's/x/y/' /etc/fstab"])
def test_sed_flags_before_its_in_place_option_still_edit_in_place(command):
    verdict = assess(command)
    assert verdict is not None and verdict.level == "high", verdict


def test_the_swap_off_edit_says_what_it_does():
    verdict = assess("sudo sed -i '/ swap / s/^/#/' /etc/fstab")
    assert verdict is not None and "swap is off from the next boot" in verdict.reason, verdict

# The JavaScript, Rust, PHP fix "delete the lock file and install again": the install writes it again (was medium,
# "recursive forced delete of package-lock.json", as any project file given to rm -rf).
LOCK_FILES = (
    ["rm -rf src package-lock.json", "rm -rf /etc/yarn.lock", "rm -rf ~/.ssh/package-lock.json", "rm -rf lib/",
     "rm -rf ~/Library/Developer/Xcode/Archives/*"],
    ["rm -rf node_modules package-lock.json && npm install", "rm -rf node_modules yarn.lock",
     "rm -rf Cargo.lock target", "rm -rf node_modules pnpm-lock.yaml && pnpm install",
     "rm -rf ~/proj/web/package-lock.json ~/proj/web/node_modules",
     "rm -rf Pipfile.lock .venv && pipenv install", "rm -rf .dart_tool pubspec.lock", "rm -rf elm-stuff Podfile.lock",
     "rm -rf poetry.lock .venv", "rm -rf bun.lockb node_modules",
     "rm -rf ~/Library/Developer/Xcode/iOS\\ DeviceSupport/*",
     "rm -rf \"$HOME/Library/Developer/Xcode/watchOS DeviceSupport\""])


def test_a_lock_file_deleted_before_an_install_stays_quiet():
    table_holds(LOCK_FILES)

# Clean-ups of what has already ended or is kept only as a cache: pods that finished (were high, "deletes all pods in
# every namespace", a field selector unread), Homebrew's cache pruned (was medium, "deletes at the target what the
# source does not have", read as a sync's option). Running pods, volumes and `--all` keep their levels.
CLEANUPS = (
    ["kubectl delete pods --field-selector=status.phase=Running -A",
     "kubectl delete pods,pvc --field-selector=status.phase=Failed",
     "kubectl delete pods --all --field-selector=status.phase=Failed",
     "kubectl delete pods --field-selector=status.phase!=Running -A",
     "kubectl get pods --field-selector=status.phase=Running -o name | xargs kubectl delete",
     "rsync -a --delete=true a/ b/", "rclone sync a b --delete-excluded=true"],
    ["kubectl delete pods --field-selector=status.phase=Succeeded",
     "kubectl delete pods --field-selector status.phase=Failed -n ci",
     "kubectl delete pod --field-selector=status.phase==Failed --all-namespaces",
     "oc delete pods --field-selector=status.phase=Failed -A",
     "brew cleanup --prune=all", "brew cleanup -s --prune=7"])


def test_a_clean_up_of_what_has_ended_stays_quiet():
    table_holds(CLEANUPS)

# Windows' own disk clean-up: the user's and Windows' Temp folders, update downloads, caches below AppData (were
# medium or high as the user's or the system's files). AppData itself, profiles, credentials, System32 keep theirs.
WINDOWS_MADE_AGAIN = (
    ["Remove-Item -Recurse -Force \"$env:APPDATA\\Mozilla\\Firefox\\Profiles\"", "rd /s /q C:\\Windows\\System32",
     "Remove-Item -Recurse -Force $env:APPDATA",
     "rd /s /q \"C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Credentials\"",
     "del /q /f /s %windir%\\Prefetch\\*",
     "Remove-Item -Recurse -Force \"$env:LOCALAPPDATA\\Google\\Chrome\\User Data\""],
    ["Remove-Item \"$env:LOCALAPPDATA\\Temp\\*\" -Recurse -Force", "del /s /q %LOCALAPPDATA%\\Temp\\*",
     "Remove-Item -Recurse -Force \"C:\\Users\\bob\\AppData\\Local\\Temp\\*\"", "del /s /q C:\\Windows\\Temp\\*",
     "Remove-Item -Recurse -Force C:\\Windows\\Temp\\*", "rd /s /q C:\\Windows\\SoftwareDistribution\\Download",
     "Remove-Item -Recurse -Force \"$env:LOCALAPPDATA\\npm-cache\"", "rd /s /q \"%LOCALAPPDATA%\\pip\\Cache\"",
     "Remove-Item -Recurse -Force \"$env:LOCALAPPDATA\\Microsoft\\Windows\\INetCache\\*\"",
     "Remove-Item -Recurse -Force \"$env:LOCALAPPDATA\\Google\\Chrome\\User Data\\Default\\Cache\""])


def test_what_windows_makes_again_is_quiet_to_delete():
    table_holds(WINDOWS_MADE_AGAIN)

# A configuration file given back the owner it has to have (`chown root:root /etc/sudoers`, sudo's own advice when it
# refuses a file) was high, "breaks the system"; another owner, a glob of /etc, -R, a binary (chown clears setuid)
# keep high. Rotated logs deleted (`rm -rf /var/log/*.gz`, the disk-full answer) were high as /var/log's files;
# they are medium now, and the logs being written, the journal and /var/log itself stay high.
OWNERS_AND_ROTATED = (
    ["sudo chown bob /etc/sudoers", "sudo chown root:bob /etc/sudoers", "sudo chown root:root /etc/*",
     "sudo chown -R root:root /etc/nginx", "sudo chown root:root /usr/bin/sudo"],
    ["sudo chown root:root /etc/sudoers && sudo chmod 440 /etc/sudoers", "sudo chown root /etc/sudoers.d/90-cloud",
     "sudo chown root:root /etc/ssh/sshd_config", "sudo chown root:shadow /etc/shadow", "sudo chown 0:0 /etc/passwd"])


def test_a_config_file_given_back_to_root_stays_quiet():
    table_holds(OWNERS_AND_ROTATED)


@each_form("command,level", [
    ("sudo rm -rf /var/log/*.gz", "medium"), ("sudo rm -rf /var/log/nginx/*.gz", "medium"),
    ("sudo rm -rf /var/log/*.[0-9]", "medium"), ("sudo rm /var/log/syslog.2.gz", "medium"),
    ("sudo rm -rf /var/log/*", "high"), ("sudo rm -rf /var/log/auth.log", "high"), ("sudo rm -rf /var/log", "high"),
    ("sudo rm -rf /var/log/journal/*", "high")])
def test_rotated_logs_deleted_are_medium(command, level):
    verdict = assess(command)
    assert verdict is not None and verdict.level == level, verdict


# `ffmpeg -i input.mp4` prints what the file holds (no output named: ffmpeg writes nothing) and was medium, "writes its
# output over its own input"; Environment Modules' `module purge` only unloads the shell's modules (was medium,
# "deletes its data"). An output named as the input, and what follows on the line, keep their levels.
READS = (
    ["ffmpeg -i a.mp4 -c copy a.mp4", "ffmpeg -y -i a.mp4 -vf scale=640:-1 a.mp4", "module purge && rm -rf ~/project"],
    ["ffmpeg -i input.mp4", "ffmpeg -hide_banner -i clip.mkv", "avconv -i talk.webm", "module purge", "ml purge",
     "module unload gcc && module load gcc/12"])


def test_commands_that_only_read_or_reset_the_shell_stay_quiet():
    table_holds(READS)


# A package tool's own virtualenvs removed (`poetry env remove --all`, which `poetry install` makes again) were high,
# "removes every installed package"; every package of a system or a project removed keeps high.
TOOL_ENVIRONMENTS = (
    ["poetry remove --all", "choco uninstall all -y", "flatpak uninstall --all"],
    ["poetry env remove --all", "pdm venv remove --all", "hatch env remove --all"])


def test_a_package_tools_own_environments_removed_stay_quiet():
    table_holds(TOOL_ENVIRONMENTS)


# What a listing filtered to the ended or unused picks, deleted: what `docker container prune`/`image prune` take
# (were medium, "acts on every one … lists"); images a compose project pulls or builds again (`down --rmi all`, was
# medium with volumes' reason). Named filters, every container, volumes and `-v` keep their levels.
UNUSED_LISTED = (
    ["docker rm $(docker ps -aq -f name=web)", "docker rm -f $(docker ps -aq)",
     "docker volume rm $(docker volume ls -q)",
     "docker volume rm $(docker volume ls -qf dangling=true)", "docker compose down --rmi local -v",
     "docker kill $(docker ps -q)"],
    ["docker rm $(docker ps -a -q -f status=exited)", "docker rm $(docker ps -aq --filter status=exited)",
     "podman rm $(podman ps -aq -f status=exited)", "docker rmi $(docker images -f \"dangling=true\" -q)",
     "docker rmi $(docker images -qf dangling=true)", "docker compose down --rmi all",
     "docker compose down --rmi local"])


def test_what_prune_would_take_listed_and_deleted_stays_quiet():
    table_holds(UNUSED_LISTED)
