"""What ``table.check`` and ``broad_reading.broad`` read from a program's name alone (its table rules, whether
its rules cover every form, a cmdlet's verb, a checker's or an upgrader's name...) is read once per name and
kept (a bounded cache), not asked again on every command of that program."""
from __future__ import annotations

from aish.safety.assess import assess
from aish.safety.rules import broad_reading, ps_targets, release_upgrades, table


def test_a_programs_name_is_read_once_and_the_names_kept_are_bounded(monkeypatch):
    asked: list = []
    session_only, may_upgrade = ps_targets.session_only, release_upgrades.MAY_UPGRADE
    monkeypatch.setattr(ps_targets, "session_only", lambda prog: asked.append(("check", prog)) or session_only(prog))

    class Upgrade:
        def search(self, name):
            asked.append(("broad", name))
            return may_upgrade.search(name)

    monkeypatch.setattr(release_upgrades, "MAY_UPGRADE", Upgrade())
    table._program.cache_clear()
    broad_reading._named.cache_clear()
    try:
        for line in ("frobctl --serve x", "frobctl --list", "frobctl restart y", "frobctl -v"):
            assess(line)
    finally:  # what was read through the stand-ins is not kept for later cases
        table._program.cache_clear()
        broad_reading._named.cache_clear()
    assert asked.count(("check", "frobctl")) == 1 and asked.count(("broad", "frobctl")) == 1, asked
    for kept in (table._program, broad_reading._named):
        assert kept.cache_info().maxsize is not None, "a daemon judges for weeks: the names kept must be bounded"
    assert table._program("aa5") == table._read_program("aa5")
