"""A protection switched off by a setting in any configuration tool's words: the setting's name says it
protects, its value turns it off (rules/protections_off.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'pcs property set stonith-enabled=false',
    'crm configure property stonith-enabled=false',
    'pcs property set no-quorum-policy=ignore',
    'git config --system receive.denyNonFastForwards false',
    'git config receive.denyDeletes false',
    "xmlstarlet ed -L -u '//security/@enabled' -v false /etc/app/config.xml",
    "yq -i '.security.enabled = false' /etc/app/config.yaml",
    "jq '.auth.enabled = false' config.json | sponge config.json",
    "dasel put -f config.toml -t bool -v false '.security.enabled'",
    'crudini --set /etc/app.ini security enabled false',
])
def test_a_protecting_setting_switched_off_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'pcs property set stonith-enabled=true',
    'pcs property show',
    'git config --system receive.denyNonFastForwards true',
    "xmlstarlet sel -t -v '//security/@enabled' /etc/app/config.xml",
    "yq '.security.enabled' /etc/app/config.yaml",
    'git config core.autocrlf false',
    "yq -i '.debug = false' config.yaml",
    'podman pull --tls-verify=false image:tag',
    'crudini --get /etc/app.ini security enabled',
])
def test_reading_or_harmless_settings_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
