"""What a program puts in place of the live state, for programs no rule names: a backup put back by a
resource-style subcommand, an import told to replace, a schema applied without asking; and an
uninstall told to delete goes with its data."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


@each_form("command", [
    "linode-cli backups restore 1234 5678 --overwrite",
    "scw instance snapshot restore 11-22 zone=fr-par-1",
    "hcloud-like backups restore db-main 2024-06-01",
    "upcloud-cli checkpoint rollback api-server",
    "kvstore-admin import --file export.json --replace",
    "wikictl import pages.xml --overwrite",
    "hasura-like schema apply --yes ./schema.sql",
    "dbmate-ng schema push --accept-data-loss",
    "appctl uninstall billing --delete",
])
def test_what_replaces_or_takes_the_live_state_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "dotnet restore",
    "nuget restore MySolution.sln",
    "trash-restore",
    "linode-cli backups list 1234",
    "hcloud-like backups restore db-main 2024-06-01 --to db-copy",  # somewhere new
    "kvstore-admin import --file export.json",  # merges, replaces nothing by itself
    "hasura-like schema apply --dry-run ./schema.sql",
    "hasura-like schema diff ./schema.sql",
    "appctl uninstall billing",
])
def test_restores_elsewhere_plain_imports_and_previews_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
