"""Long options spelled with one dash (the X11, Java and Go style: ``-wipe``, ``-deleteall``) say what they
destroy as their ``--`` spelling does, for any program; and an option that deletes "all" of something
says so wherever "all" stands in its name (``--delete-all-output``), as a reset "to factory" does."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


@each_form("command", [
    "vaultctl -wipe",
    "arcstore -deleteall -bucket media",
    "gridadmin -delete-all -cluster east",
    "keystore-tool -purge",
    "bmcconfig -reset-to-factory",
    "pipeline-runner --delete-all-output",
    "edgectl --reset-to-factory",
])
def test_destroying_options_in_any_spelling_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "gridadmin -list -cluster east",
    "java -jar tool.jar -verbose -dryrun",
    "xterm -geometry 80x24 -fa Monospace",
    "ffmpeg -i in.mp4 -vcodec copy out.mkv",
    "gridadmin -delete-after 30 -cluster east",  # a modifier of another action
    "find . -name '*.o' -delete",  # find's own rule judges it: build output
])
def test_one_dash_words_that_destroy_nothing_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
