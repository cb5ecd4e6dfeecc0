"""Destroying API calls made by collection runners (named for what they do) and by PowerShell's REST cmdlets
of any module; curl's method inside a bundle of short options (rules/api_runners.py, rules/http.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("bru run ./admin/purge-all-users.bru --env prod", "high"),
    ("bru run collections/cleanup/delete-all-orders.bru --env production", "high"),
    ('newman run api.postman_collection.json --folder "Delete all orders" -e prod.postman_environment.json', "high"),
    ('newman run admin.json --folder "Purge tenants" --environment production.json', "medium"),
    ('newman run https://api.getpostman.com/collections/123?apikey=$KEY --folder "Drop tables"', "medium"),
    ("httpyac send ./admin/purge-tenants.http --all", "medium"),
    ("httpyac send ./ops/delete-users.http --all --env prod", "high"),
    ("hurl --test ./cleanup/wipe-prod.hurl", "medium"),
    ("k6 run ./scripts/delete-all-users.js -e ENV=prod", "high"),
    ("venom run ./tests/purge_all.yml --var env=prod", "medium"),
    ("runn run ./runbooks/truncate-tables.yml", "medium"),
    ("inso run collection wipe-staging-data --env staging", "medium"),
    ('Invoke-AzRestMethod -Method DELETE -Path "/subscriptions/$sub/resourceGroups/prod-rg?api-version=2021-04-01"',
     "medium"),
    ("Invoke-PnPSPRestMethod -Method Delete -Url \"/_api/web/lists/GetByTitle('Documents')\"", "medium"),
    ('Get-MgUser -All | ForEach-Object { Invoke-MgGraphRequest -Method DELETE -Uri "v1.0/users/$($_.Id)" }', "medium"),
    ("Invoke-WebRequest -Uri https://api.example.com/v1/db -Method DELETE", "medium"),
    ("Invoke-PnPGraphMethod -Url 'v1.0/groups/$gid' -Method Delete", "medium"),
    ("cat ids.txt | xargs -I{} curl -sX DELETE https://api.example.com/users/{}", "medium"),
    ('jq -r ".[].id" users.json | xargs -n1 -I% curl -fsSX DELETE "https://api.example.com/v2/users/%"', "medium"),
    ('for id in $(cat ids); do curl -sSX DELETE "$API/items/$id"; done', "medium"),
    ("curl -kX DELETE https://prod-db.example.com/api/tables/orders", "high"),
    ("curl -sXDELETE https://api.example.com/v1/projects/42", "medium"),
])
def test_destroying_calls_run_from_collections_and_cmdlets_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "bru run ./tests --env dev",
    "bru run ./users/get-user.bru --env prod",
    "newman run api.postman_collection.json -e staging.json",
    'newman run api.json --folder "List orders" -e prod.json',
    "httpyac send ./api/get-users.http --all",
    "hurl --test ./api/health.hurl",
    "k6 run load.js",
    "venom run ./tests/*.yml",
    "Invoke-RestMethod -Uri https://api.example.com/v1/status",
    'Invoke-AzRestMethod -Method GET -Path "/subscriptions/$sub/resourceGroups?api-version=2021-04-01"',
    'Invoke-MgGraphRequest -Method GET -Uri "https://graph.microsoft.com/v1.0/me"',
    "Invoke-PnPSPRestMethod -Url \"/_api/web/lists\"",
    "Invoke-Command -ComputerName web01 -ScriptBlock { Get-Service }",
    "curl -sX GET https://api.example.com/users",
    "curl -sX POST https://api.example.com/users -d '{\"name\":\"a\"}'",
    "cat ids.txt | xargs -I{} curl -s https://api.example.com/users/{}",
])
def test_everyday_runs_and_calls_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
