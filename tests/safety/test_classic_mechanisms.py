"""Classic losses by tools other rules do not name: archives and backups unpacked over live files with every
overwrite answered yes, sync tools deleting at the destination, duplicate finders feeding rm, ed scripts
that empty a file, the trash emptied, patch stacks popped by force, checkouts reset, bulk cloners pruning,
multi-repo runners."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("7z x site.7z -aoa -o/var/www/html", "medium"),
    ("7z x backup.7z -aoa -o/", "high"),
    ("dar -x /mnt/backup/full -R / -w -O", "high"),
    ("ouch decompress home.tar.zst --yes --dir ~", "medium"),
    ("unrar x -o+ backup.rar /", "medium"),
    ("unar -f -o / backup.zip", "medium"),
    ("cd / && cpio -idmu < root.cpio", "high"),
    ("arj x -y backup.arj /", "high"),
    ("lha xf -w=/ sys.lzh", "high"),
    ("xar -xf pkg.xar -C /", "high"),
    ("rdiff-backup -r now --force /mnt/backup/home /home/me", "medium"),
    ("atool -x -f -X ~ dots.tar.gz", "medium"),
    ("unzip -o -q site.zip -d /var/www/html", "medium"),
    ("mackup -f restore", "medium"),
    ("zpaq x backup.zpaq -to / -force", "high"),
    ("unsquashfs -f -d / rootfs.sqfs", "high"),
    ("kopia snapshot restore k1234 ~ --overwrite-files", "medium"),
    ("cd / && pax -r -f system.pax", "high"),
    ("cd / && borg extract /mnt/repo::latest", "high"),
    ("ouch d backup.zip --yes -d /etc", "high"),
    ("cabextract -d C:\\Windows\\System32 update.cab", "high"),
    ("expand -F:* update.cab C:\\Windows\\System32", "high"),
    ("wimapply install.wim 1 C:\\", "high"),
    ("dism /Apply-Image /ImageFile:install.wim /Index:1 /ApplyDir:C:\\", "high"),
])
def test_unpacked_over_live_files_is_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command,at_least", [
    ("fpsync -E -n 4 /tmp/empty/ /home/me/", "high"),
    ("lsyncd -rsync /tmp/empty /var/www", "high"),
    ("cpdup -i0 /tmp/empty /home/me", "high"),
    ("mirrordir /tmp/empty /home/me", "high"),
    ("msrsync -p 4 --rsync '-a --delete' /tmp/empty/ /srv/data/", "high"),
    ("osync.sh --initiator=/tmp/empty --target=/home/me", "high"),
    ("dirsync /tmp/empty ~/Documents --sync --purge", "high"),
    ("parsyncfp --delete /tmp/empty/ /data/", "high"),
    ("mc mirror --remove --overwrite ./site myminio/prod-bucket", "medium"),
    ("duff -r -e ~/Pictures | xargs -0 rm", "medium"),
    ("fdupes -r -f ~ | xargs rm", "medium"),
    ("find-dups ~/Music | xargs rm", "medium"),
    ("findup -d ~", "medium"),
    ("ed -s /etc/hosts <<< $',d\\nw'", "high"),
    ("printf '%s\\n' ',d' 'w' 'q' | ed -s /etc/fstab", "high"),
    ("ed -s ~/.ssh/authorized_keys <<< $'1,$d\\nw\\nq'", "high"),
    ("echo 'g/^/d\nw' | ed ~/notes.txt", "medium"),
    ("printf 'g/./d\\nw\\n' | ed -s ~/.zshrc", "medium"),
])
def test_sync_deletes_finders_fed_to_rm_and_ed_scripts_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "ktrash5 --empty",
    "ktrash6 --empty",
    "trash -e",
    "rip --decompose",
    "trashy empty --all",
    "quilt pop -af",
    "guilt pop -a -f",
    "stg pop -a --force",
    "gclient sync --force --reset -D",
    "ghorg clone my-org --prune --prune-no-confirm",
    "mr run git clean -fdx",
    "vcs custom --git --args reset --hard",
    "meta exec 'git reset --hard origin/main'",
    "meta git clean -fdx",
    "repo sync --force-sync --force-remove-dirty",
    "jiri update -gc",
    "mani exec --all 'git clean -xdf'",
])
def test_trash_emptied_and_work_discarded_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "7z x archive.7z -oout",
    "7z x a.7z -aos -o./dir",
    "7z x -aoa release.7z -o./vendor",
    "unrar x data.rar",
    "unrar x -o+ assets.rar ./assets/",
    "dar -x backup -R ./restore",
    "dar -l backup",
    "ouch decompress a.tar.gz --dir out",
    "unar -o out x.zip",
    "mackup backup",
    "mackup restore",
    "rdiff-backup -r now /mnt/backup/home /tmp/restore",
    "dumpe2fs -x /dev/sdXN",
    "sudo pvchange -x n /dev/sdXN",
    "docker exec -it app /bin/bash",
    "grep -r -f patterns.txt ~",
    "fpsync -v -n 8 -E /path/to/source/ /path/to/destination/",
    "cpdup /home/me /backup/me",
    "unison ~/docs ssh://host/docs",
    "mc mirror local/ myminio/bucket",
    "fdupes -r ~/Pictures",
    "fd -e log | xargs wc -l",
    "printf '%s\\n' '/foo/s//bar/' 'w' | ed -s notes.txt",
    "ed -s notes.txt <<< $',p'",
    "trash file.txt",
    "trash-list",
    "ktrash5 --restore file",
    "quilt pop",
    "quilt push -a",
    "stg pop",
    "gclient sync",
    "ghorg clone my-org",
    "ghorg clone my-org --prune",
    "mr run git status",
    "meta exec 'git pull'",
    "meta git status",
    "zpaq l backup.zpaq",
    "unsquashfs -l rootfs.sqfs",
    "unsquashfs -d out rootfs.sqfs",
    "pax -r -f system.pax",
    "cd /tmp && borg extract /mnt/repo::latest",
    "cd / && pax -r -k -f system.pax",
    "cabextract -d out x.cab",
    "cabextract -l x.cab",
    "wimapply install.wim 1 D:\\mount",
    "echo ',d' | ed -s /etc/resolv.conf",
    "repo sync",
    "jiri update",
    "mani exec --all 'git status'",
])
def test_their_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
