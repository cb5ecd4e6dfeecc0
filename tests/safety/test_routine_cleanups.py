"""Routine clean-ups the answers give every day, read for what they remove.

A package manager's downloaded lists (`rm -rf /var/lib/apt/lists/*` before `apt update`, the documented cure for
"Hash Sum mismatch") are fetched again by the next update: a cache, as /var/cache is, not the system.  Logs older
than an age removed under /var/log (`find /var/log -name '*.gz' -mtime +7 -delete`) is retention, the job
logrotate does: medium, naming the age, not high as every log erased.  Their destructive neighbours stay flagged.
"""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.kept import assess

RANK = {None: -1, "low": 0, "medium": 1, "high": 2}


@each_form("command,level", [
    ("sudo rm -rf /var/lib/apt/lists/* && sudo apt update", "low"),
    ("sudo rm -rf /var/lib/apt/lists/partial/*", "low"),
    ("sudo rm -rf /var/lib/apt/lists", "low"),
    ("sudo rm -f /var/lib/pacman/sync/*.db && sudo pacman -Syy", "low"),
    ("sudo rm -rf /var/lib/snapd/cache/*", "low"),
    ("find /var/log -name '*.gz' -mtime +7 -delete", "medium"),
    ("sudo find /var/log -type f -name '*.log.*' -mtime +30 -delete", "medium"),
    ("sudo find /var/log/nginx -name '*.gz' -ctime +14 -exec rm {} \\;", "medium"),
    ("find /var/log -type f -mmin +600 -delete", "medium"),
])
def test_a_routine_cleanup_is_judged_at_its_level(command: str, level: str) -> None:
    verdict = assess(command)
    assert (verdict.level if verdict else None) in (level, None if level == "low" else level), (command, verdict)


@each_form("command,level", [
    ("sudo rm -rf /var/lib/apt", "high"),  # apt's state (what is installed), not its lists
    ("sudo rm -rf /var/lib/dpkg", "high"),
    ("sudo rm -rf /var/lib/pacman", "high"),
    ("find /var/log -delete", "high"),  # every log, whatever its age
    ("find /var/log -name 'auth.log*' -delete", "high"),
    ("find / -mtime +30 -delete", "high"),  # an age is no retention over the whole system
    ("find /usr -mtime +365 -delete", "high"),
])
def test_their_destructive_neighbours_stay_flagged(command: str, level: str) -> None:
    verdict = assess(command)
    assert verdict is not None and RANK[verdict.level] >= RANK[level], (command, verdict)


@each_form("command", [
    "rm -rf ~/Library/Application\\ Support/Code/Cache",
    "rm -rf ~/.config/google-chrome/Default/Cache",
    "rm -rf ~/.config/Code/Cache ~/.config/Code/CachedData",
    "rm -rf ~/.config/discord/Cache/Cache_Data",
    "rm -rf ~/.config/Slack/Code\\ Cache ~/.config/Slack/GPUCache",
    "rm -rf ~/.m2/repository",
    "rm -rf ~/.thumbnails",
])
def test_an_apps_cache_in_the_home_is_generated(command: str) -> None:
    verdict = assess(command)
    assert verdict is None or verdict.level == "low", (command, verdict)


@each_form("command", [
    "rm -rf ~/projects/app/src/Cache",  # a project's source may be named so
    "rm -rf ~/.ssh/Cache",
    "rm -rf ~/.config/Code",  # the app's settings, not its cache
    "rm -rf ~/Library/Application\\ Support/Code",
])
def test_what_is_no_cache_keeps_its_reading(command: str) -> None:
    verdict = assess(command)
    assert verdict is not None and RANK[verdict.level] >= RANK["medium"], (command, verdict)


@each_form("command", [
    "python3 -m pip uninstall -y requests",  # `pip uninstall -y requests`, as pip's own name says it
    "py -m pip uninstall -y numpy",
    "python3.12 -m pip cache purge",
    "python -m pipx uninstall black",
    "python3 -m poetry cache clear --all pypi -n",
    "diskpart",  # the interactive tool, no script: nothing happens until its prompt is typed at
])
def test_a_tool_run_by_its_module_or_alone_is_judged_as_itself(command: str) -> None:
    verdict = assess(command)
    assert verdict is None or verdict.level == "low", (command, verdict)


@each_form("command,level", [
    ("python3 -m pip freeze | xargs python3 -m pip uninstall -y", "medium"),  # every package, as pip's form is
    ("diskpart /s wipe.txt", "medium"),
    ("python3 -m http.server --bind 0.0.0.0 --directory ~", "medium"),  # python's own readings stay
])
def test_their_loud_neighbours_stay_flagged(command: str, level: str) -> None:
    verdict = assess(command)
    assert verdict is not None and RANK[verdict.level] >= RANK[level], (command, verdict)


@each_form("command", [
    "sudo systemctl stop firewalld",
    "sudo systemctl disable --now ufw",
    "sudo systemctl stop nftables",
    "sudo service iptables stop",
    "sudo systemctl mask firewalld",
])
def test_a_firewall_service_stopped_opens_the_machine_not_cuts_it(command: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "high" and "firewall" in verdict.reason and \
        "cuts remote access" not in verdict.reason, (command, verdict)


@each_form("command", [
    "sudo make uninstall",  # the project's own install target undone
    "make uninstall PREFIX=$HOME/.local",
    "gmake uninstall",
    "just uninstall",
])
def test_a_build_tools_uninstall_target_is_the_projects_own(command: str) -> None:
    verdict = assess(command)
    assert verdict is None or verdict.level == "low", (command, verdict)


@each_form("command,says", [
    ("sudo tmutil deletelocalsnapshots /", "local Time Machine snapshots of /"),
    ("tmutil deletelocalsnapshots 2024-05-01-101010", "local Time Machine snapshot 2024-05-01-101010"),
    ("sudo tmutil delete /Volumes/Backup/Backups.backupdb/mac/2024-01-01-120000", "a Time Machine backup"),
    ("sudo tmutil delete -d /Volumes/TM -t 2024-01-01-120000", "a Time Machine backup"),
])
def test_time_machines_deletions_say_what_goes(command: str, says: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "medium" and says in verdict.reason and \
        "whole filesystem" not in verdict.reason, (command, verdict)


@each_form("command", [
    "sudo tmutil thinlocalsnapshots / 10000000000 4",  # frees space as Time Machine itself does
    "tmutil listlocalsnapshots /",
    "tmutil listbackups",
])
def test_time_machines_everyday_forms_stay_quiet(command: str) -> None:
    verdict = assess(command)
    assert verdict is None or verdict.level == "low", (command, verdict)


@each_form("command", [
    "mv ~/.ssh/id_rsa ~/.ssh/id_rsa.old",  # renamed beside itself: kept, no longer offered by its name
    "mv ~/.ssh/id_ed25519 ~/.ssh/id_ed25519.bak",
    "mv ~/.aws/credentials ~/.aws/credentials.backup",
])
def test_a_key_renamed_beside_itself_is_medium(command: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "medium" and "renames" in verdict.reason, (command, verdict)


@each_form("command", [
    "mv ~/.ssh/id_rsa /tmp/",  # taken out of its place
    "mv ~/.ssh ~/.ssh.old",  # the whole folder of keys
    "mv /etc/shadow /etc/shadow.bak",  # the system needs it by its name to log anyone in
])
def test_a_key_moved_elsewhere_stays_high(command: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "high", (command, verdict)


def test_authorized_keys_renamed_stays_high() -> None:
    verdict = assess("mv ~/.ssh/authorized_keys ~/.ssh/authorized_keys.old")  # nobody logs in by key any more
    assert verdict is not None and verdict.level == "high", verdict


@each_form("command,level", [
    ("sudo ufw delete allow 80", "low"),  # a rule that let something in, gone: the firewall is stricter (as root)
    ("ufw delete allow 8080/tcp", None),
    ("sudo ufw delete deny 22", "low"),  # a rule that kept ssh out, gone: nothing is blocked
    ("sudo ufw delete allow OpenSSH", "high"),  # the rule that lets ssh in, gone
    ("sudo ufw delete allow 22/tcp", "high"),
    ("sudo ufw deny 22", "high"),
    ("sudo ufw delete 3", "medium"),  # which rule is not said: it may be ssh's
])
def test_a_firewall_rule_deleted_is_read_by_what_the_rule_did(command: str, level) -> None:
    verdict = assess(command)
    assert (verdict.level if verdict else None) == level and \
        (verdict is None or "no longer watched" not in verdict.reason), (command, verdict)


@each_form("command,says", [
    ("sudo chmod 777 /var/run/docker.sock", "makes /var/run/docker.sock writable by every user"),
    ("sudo chmod 666 /dev/ttyUSB0", "makes /dev/ttyUSB0 writable by every user"),
    ("chmod -R 777 /srv/www", "makes everything under /srv/www writable by every user"),
])
def test_a_world_writable_mode_says_what_it_reaches(command: str, says: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "medium" and says in verdict.reason, (command, verdict)
