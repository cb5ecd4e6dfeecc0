"""``find`` with no start point searches the current directory (GNU and busybox find): piped to
a delete it is judged as ``find .`` is, not as paths from nowhere."""
from aish.safety.assess import assess
from tests.safety.forms import each_form


@each_form("implicit, explicit", [
    ('find -name "*.pdf" | xargs rm', 'find . -name "*.pdf" | xargs rm'),
    ('find -name "*.pdf" | xargs --no-run-if-empty rm', 'find . -name "*.pdf" | xargs --no-run-if-empty rm'),
    ("find -type f -print0 | xargs -0 rm -f", "find . -type f -print0 | xargs -0 rm -f"),
])
def test_find_without_a_start_point_feeds_a_delete_like_find_dot(implicit, explicit):
    said, meant = assess(implicit), assess(explicit)
    assert meant is not None and meant.level == "medium"
    assert said is not None and said.level == meant.level, (implicit, said)


def test_find_of_build_output_without_a_start_point_stays_quiet_when_piped():
    # a project's own build output (as `find . -name '*.pyc' | xargs rm` is)
    assert assess("find -name '*.pyc' | xargs rm") == assess("find . -name '*.pyc' | xargs rm")


@each_form("command, level", [
    ("fkill safari", "medium"), ("fkill -f chrome", "medium"), ("fkill :8080", "medium"),
    ("npx fkill-cli :3000", "medium"), ("fkill 1337", None), ("fkill", None), ("fkill --help", None),
])
def test_fkill_by_name_or_port_kills_broadly_and_one_pid_stays_quiet(command, level):
    # the "killing by name or by port", through a helper of its own (kill-port is one)
    verdict = assess(command)
    assert (verdict.level if verdict is not None and verdict.level in ("medium", "high") else None) == level, \
        (command, verdict)
