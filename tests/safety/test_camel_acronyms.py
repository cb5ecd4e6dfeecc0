"""Words split at their case changes: a trailing acronym stays with the name before it (WinRM is
not win + rm), unless what comes before is itself a verb (dropDB is drop + db)."""
from __future__ import annotations

from aish.safety.verb_words import split_word


def test_a_trailing_acronym_is_part_of_the_name_unless_a_verb_comes_before_it():
    assert split_word("WinRM") == ["winrm"]
    assert split_word("dropDB") == ["drop", "db"]
    assert split_word("deleteDB") == ["delete", "db"]
    assert split_word("purgeAllVMs") == ["purge", "all", "vms"]
    assert split_word("dropDatabase") == ["drop", "database"]
