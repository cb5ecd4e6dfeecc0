"""A swap or filesystem made in a file the same line just made loses nothing: the everyday swap recipe
(`fallocate -l 2G /swapfile && … && mkswap /swapfile`) was high, "erases /swapfile", as a disk would be.  A sized
maker (`fallocate -l`, `truncate -s`, `mkfile`, `dd if=/dev/zero of=`) makes the file; a file the line did not
make is medium (what it holds is lost), `mkswap` of a file is a swap file made again (low), a disk stays high."""
from __future__ import annotations

from tests.safety.forms import misjudged
from tests.safety.kept import assess

MADE_THEN_FORMATTED = ([
    "sudo mkfs.ext4 /var/lib/app/store", "sudo mkfs.ext4 /dev/sdb1", "sudo mkswap /dev/sda2",
    "mkfs.ext4 $DISK", "sudo fallocate -l 2G /swapfile && sudo mkswap /dev/sdb",
    "fallocate -l 1G /tmp/x && mkfs.xfs /srv/other",
], [
    "sudo fallocate -l 2G /swapfile && sudo chmod 600 /swapfile && sudo mkswap /swapfile && sudo swapon /swapfile",
    "sudo dd if=/dev/zero of=/swapfile bs=1M count=2048 && sudo mkswap /swapfile",
    "mkfile 1g /private/var/vm/swap2 && mkswap /private/var/vm/swap2",
    "fallocate --length 4G /var/swap.1; mkswap /var/swap.1", "sudo fallocate -l 2G /data.bin && mkfs.ext4 /data.bin",
    "dd if=/dev/urandom of=/srv/vault bs=1M count=64 && mkfs.btrfs /srv/vault",
    "sudo mkswap /swapfile",  # a swap file made again (an everyday corpus line): what it held was swap space
])


def test_a_file_made_on_the_line_is_formatted_without_loss() -> None:
    wrong = misjudged(*MADE_THEN_FORMATTED)
    assert not wrong, "\n".join(wrong)


def test_disks_stay_high() -> None:
    low = [c for c in MADE_THEN_FORMATTED[0][1:5] if (assess(c) or type("V", (), {"level": None})).level != "high"]
    assert not low, low
