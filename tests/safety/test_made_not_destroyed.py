"""A name is no verb after a verb that makes, shows or names it, nor after a program named for making: the
thing made may be called `drop`, `purge` or `wipe` (`createdb drop`, `rclone config create drop dropbox`,
`rclone mkdir remote:wipe`), and the same words as verbs keep their reading."""
from __future__ import annotations

from tests.safety.forms import misjudged

MADE_NOT_DESTROYED = ([
    "rclone purge remote:drop", "rclone config delete drop", "dropdb drop", "mc rb --force local/drop",
    "gsutil rm -r gs://drop", "rclone delete remote:backup --include '*.tmp'", "newfs /dev/ada1",
    "newfs_msdos /dev/da0s1", "s3cmd del s3://wipe/x",
], [
    "createdb drop", "createuser purge", "addgroup wipe", "newgrp drop", "initdb -D /srv/pg/drop",
    "rclone config create drop dropbox", "rclone mkdir remote:drop", "s3cmd mb s3://wipe",
    "mc mb local/purge", "gsutil mb gs://purge-archive", "rclone lsd remote:drop", "rclone touch remote:wipe/x",
    "createlang plpgsql purge", "genkey --name destroy", "addpart /dev/sda 3 2048 4096",
])


def test_a_made_thing_named_like_a_verb_is_a_name() -> None:
    wrong = misjudged(*MADE_NOT_DESTROYED)
    assert not wrong, "\n".join(wrong)
