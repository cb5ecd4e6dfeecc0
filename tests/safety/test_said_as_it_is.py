"""What a command does is said as it is.

What a sudoers line gives: a rule naming commands with their arguments lets a user run those
alone (`deploy ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart myapp` was "lets a user run anything as root");
everything, a shell, an editor or a program that gives a shell, or a program with any arguments, is anything."""
from __future__ import annotations

from tests.safety.forms import misjudged
from tests.safety.kept import assess

ANYTHING = (
    'echo "deploy ALL=(ALL) NOPASSWD: ALL" | sudo tee -a /etc/sudoers',
    'echo "ci ALL=(ALL:ALL) NOPASSWD:ALL" >> /etc/sudoers', 'echo "%wheel ALL=(ALL) ALL" | sudo tee -a /etc/sudoers',
    'echo "deploy ALL=(ALL) NOPASSWD: /bin/bash" >> /etc/sudoers',
    'echo "jenkins ALL=(root) NOPASSWD: /usr/bin/vim" >> /etc/sudoers',
    'echo "backup ALL=(root) NOPASSWD: /usr/bin/rsync *" >> /etc/sudoers',
    "echo 'Defaults !authenticate' | sudo tee -a /etc/sudoers",
)
NAMED = (
    'echo "deploy ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart myapp" >> /etc/sudoers',
    'echo "web ALL=(root) NOPASSWD: /usr/bin/python3 /opt/app/manage.py migrate" >> /etc/sudoers',
    'echo "ops ALL=(root) NOPASSWD: /usr/sbin/service nginx reload, /usr/sbin/service nginx status" >> /etc/sudoers',
)


def test_what_a_sudoers_rule_gives_is_said() -> None:
    wrong = [f"{c} -> {assess(c)}" for c in ANYTHING if "anything" not in getattr(assess(c), "reason", "")]
    wrong += [f"{c} -> {assess(c)}" for c in NAMED if assess(c) is None or "anything" in assess(c).reason or
              assess(c).level not in ("medium", "high")]
    assert not wrong, "\n".join(wrong)


# A listing with a filter deletes what the filter picks, not every one (`docker rm $(docker ps -aq -f
# status=exited)` was "deletes all containers").
PICKED = (
    ("docker rm $(docker ps -aq -f status=exited)", "status=exited"),
    ("docker rmi $(docker images -q --filter dangling=true)", "dangling=true"),
    ("podman rm $(podman ps -aq --filter status=exited)", "status=exited"),
    ("docker network rm $(docker network ls -q -f driver=bridge)", "driver=bridge"),
    ("nerdctl rm $(nerdctl ps -aq -f status=created)", "status=created"),
)


def test_a_filtered_listing_deletes_what_it_picks() -> None:
    wrong = [f"{c} -> {assess(c)}" for c, picked in PICKED
             if assess(c) is None or picked not in assess(c).reason or "all " in assess(c).reason]
    wrong += [f"{c} -> {assess(c)}" for c in ("docker rm $(docker ps -aq)", "docker rm -f $(docker ps -aq)")
              if assess(c) is None or "all containers" not in assess(c).reason]
    assert not wrong, "\n".join(wrong)


# macOS' desktop parts that launchd starts again at once: `killall Finder` applies a setting (was "kills every
# process named Finder", medium); killed outright, other programs, or a name not such a part stay medium.
RELAUNCHED = ([
    "killall Safari", "killall loginwindow", "killall Finder Safari", "killall -u alice Finder", "pkill -f Dock",
    "killall -KILL Dock", "killall -9 Finder",
], [
    "defaults write com.apple.finder AppleShowAllFiles -bool true && killall Finder", "killall Dock",
    "killall SystemUIServer", "killall -HUP Finder", "killall Finder Dock", "defaults write com.apple.dock "
    "autohide -bool true; killall Dock", "killall ControlCenter", "killall cfprefsd",
])


def test_desktop_parts_restarted_by_the_system() -> None:
    wrong = misjudged(*RELAUNCHED)
    assert not wrong, "\n".join(wrong)


# Software installed by hand is unpacked into /usr/local or /opt (Go's own instructions: `sudo tar -C /usr/local -xzf
# go….tar.gz`, was high "unpacks over /usr/local (a system directory)"); the system's own places keep their reading.
UNPACKED = ([
    "tar -xzf archive.tar.gz -C /etc/", "sudo tar -xzf backup.tgz -C /", "sudo tar -xzf x.tgz -C /usr",
    "tar xzf dots.tgz -C ~", "sudo unzip -o x.zip -d /etc", "sudo 7z x a.7z -o/usr -y",
], [
    "sudo tar -C /usr/local -xzf go1.23.2.linux-amd64.tar.gz", "sudo tar -xzf node-v20.tar.xz -C /opt/",
    "sudo tar xf jdk-21_linux-x64_bin.tar.gz -C /opt", "sudo unzip -o app.zip -d /opt",
    "sudo 7z x idea.7z -o/opt -y", "sudo tar --extract --file=zig.tar.xz --directory=/usr/local",
    "sudo bsdtar -xf julia.tar.gz -C /opt",
])


def test_software_unpacked_where_it_is_installed_by_hand() -> None:
    wrong = misjudged(*UNPACKED)
    assert not wrong, "\n".join(wrong)


# A restore told to drop what it restores over: the backup named is the source, not what is destroyed
# (`mongorestore --drop /backup/` was "destroys /backup/").
RESTORED = (
    "mongorestore --drop /backup/", "mongorestore --drop --uri mongodb://db1:27017 /backups/dump-2024-06-01",
    "ghe-restore -f 10.0.0.5", "rethinkdb-restore --force backup.tar.gz", "qmrestore vzdump.vma.zst 100 --force true",
)


def test_a_restore_names_the_live_data_not_the_backup() -> None:
    wrong = [f"{c} -> {assess(c)}" for c in RESTORED
             if assess(c) is None or "over the live data" not in assess(c).reason or "destroys" in assess(c).reason]
    assert not wrong, "\n".join(wrong)
