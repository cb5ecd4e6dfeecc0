"""Verbs and shapes the vocabulary did not weigh: a store cleared whole, a configuration replaced with /dev/null, a
database initialised over its data, a file named for deleting everything run (rules/store_resets.py); a cancel of
what is billed, a clean after a deployment noun, a migration tool's reverse, retention zero in a fused word."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "nvmetcli clear",
    "targetcli clearconfig confirm=True",
    "django-admin flush --noinput",
    "vyos-config configure /dev/null --strategy replace",
    "routerctl load /dev/null --override",
    "oninit -iy",
    "ndbd --initial",
    "mydbctl init -y /srv/db",
    "dbserverctl initialize --force",
    "es-tool run actions/delete_all_indices.yml",
    "dbtool -f drop_all_tables.sql",
    "az account subscription cancel --subscription-id 1111-2222",
    "stripe subscriptions cancel sub_1Hh1",
    "linode-cli account cancel --comments bye",
    "billing-cli plan cancel --plan pro --account acme",
    "hal deploy clean",
    "fission deploy clean --all",
    "garden cleanup namespace --env prod",
    "nanomig reverse --all",
    "awx-manage cleanup_jobs --days=0",
])
def test_verbs_and_shapes_that_empty_what_a_program_holds(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "nvmetcli ls",
    "targetcli ls",
    "npm cache clear",
    "php artisan config:clear",
    "clear",
    "ssh -F /dev/null host",
    "vim -u /dev/null file.txt",
    "pylint --rcfile=/dev/null app.py",
    "diff /dev/null new.txt",
    "cfgtool export /dev/null",
    "npm init -y",
    "git init -q",
    "mydbctl init --dry-run /srv/db",
    "es-tool run actions/create_indices.yml",
    "cat drop_all_tables.sql",
    "stripe subscriptions list",
    "gh run cancel 1234",
    "gcloud builds cancel 1234",
    "hal deploy apply",
    "mvn clean deploy",
    "make clean",
    "nanomig up",
    "awx-manage cleanup_jobs --days=90",
    "blkpr -c preempt -K old_key -k new_key -t write-exclusive path/to/device",
])
def test_the_same_programs_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
