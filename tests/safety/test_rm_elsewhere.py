"""rm and its neighbours under other names (Homebrew's g-prefixed coreutils, iRODS's i-prefixed
commands) and a storage client's own rm given whole as one quoted argument (rules/rm_elsewhere.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'grm -rf ~/projects',
    'grm -r /home/alice/Documents',
    'gshred -u -n 3 ~/Documents/thesis.odt',
    'gtruncate -s 0 ~/Documents/ledger.csv',
    'irm -rf /tempZone/home/alice/experiment-2024',
    'irm -r /tempZone/home/alice/data',
    'hsi "rm -R /home/alice/run42"',
    "hsi 'rm -r /home/alice/archive'",
    'pftp_client "rm -r /archive/alice"',
])
def test_rm_by_another_name_or_given_to_a_client_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'grm old.txt',
    'gls -la',
    'irm /tempZone/home/alice/old.txt',
    'ils /tempZone/home/alice',
    'hsi "ls -l /home/alice"',
    'hsi "get run42.tar"',
    'notify-send "rm -rf ~/build done"',
    'logger "rm -r /home/alice/tmp finished"',
    'todo add "rm old backups"',
    'tool -m "rm -rf /tmp/x"',
])
def test_harmless_forms_and_messages_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'tmpreaper --all 0 /srv/shared',
    'tmpwatch --all 1 /home/alice/Documents',
    'tmpreaper 0 /home/alice',
    'tmpwatch -a 0 /var/www',
    "tmpreaper --protect '*.keep' --all 0m /home/alice/projects",
    'tmpwatch 1h ~/projects',
    'tmpcleaner 0 /srv/data',
])
def test_an_age_reaper_given_no_age_on_real_files_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'tmpreaper 240 /tmp',
    'tmpwatch 24 /tmp',
    'tmpwatch --all 0 /var/tmp',
    'tmpreaper 0 /tmp/build-cache',
    'tmpwatch --test --all 0 /home/alice',
    'tmpreaper --test 0 /srv/shared',
    'tmpwatch 720 /home/alice/Downloads',
])
def test_an_age_reaper_on_temporary_places_or_testing_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
