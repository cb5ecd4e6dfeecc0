"""The verb table is the one definition: the daemon dispatch, `? :help`, the CLI and the docs follow it."""
import pkgutil
import re
from pathlib import Path

import pytest

from aish import entry
from aish.app import service as service_mod
from aish.app import verbs as verbs_pkg
from aish.cli.main import cli
from aish.errors import AishError
from aish.ipc.protocol import Request
from aish.ipc.verbs import VERBS
from tests.doubles import RecordingReply
from tests.helpers import aish_here as aish

ROOT = Path(__file__).resolve().parents[2]
NAMES = {verb.name for verb in VERBS}


def verb_names(text):
    return {line.split()[0] for line in text.splitlines() if re.match(r"  \S", line)}


def verb(svc, *argv, conv="t"):
    reply = RecordingReply()
    svc.verb(Request(kind="verb", argv=list(argv), conv=conv), reply)
    return reply.full_text


def test_shell_help_lists_every_verb_of_the_table(aish_env):
    text = verb(service_mod.Service(), "help")
    listed = verb_names(text)
    assert listed == NAMES


def test_an_unknown_verb_points_to_aish_help_and_that_command_exists(aish_env):
    with pytest.raises(AishError) as caught:
        verb(service_mod.Service(), "nope")
    assert "aish help" in caught.value.hint
    shown = aish("help")
    assert shown.returncode == 0, shown.stderr
    assert verb_names(shown.stdout) == NAMES


def test_the_cli_has_a_command_for_every_verb():
    assert NAMES <= set(cli.commands)
    for name in NAMES:
        assert cli.commands[name].help.lower().startswith(
            next(v.help for v in VERBS if v.name == name)[:20].lower()), name


def test_the_console_entry_starts_the_daemon_early_for_exactly_the_daemon_verbs():
    assert entry.DAEMON_VERBS == {"ask"} | {v.name for v in VERBS if v.daemon}


def test_docs_verbs_table_is_the_registry():
    text = ROOT.joinpath("docs", "verbs.md").read_text()
    rows = re.findall(r"^\| `aish ([a-z]+)([^`]*)` \| `\? :\1[^`]*` \| (.+?) \|$", text, re.M)
    assert [(name, usage.strip(), help_) for name, usage, help_ in rows] == \
        [(v.name, v.usage.replace("|", "\\|"), v.help) for v in VERBS]


def test_readme_names_every_verb_and_links_the_table():
    text = ROOT.joinpath("README.md").read_text()
    assert "docs/verbs.md" in text
    for name in NAMES:
        assert f"`aish {name}" in text, name


def test_reset_and_status_run_through_the_modules(config_file):
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    svc = service_mod.Service()
    assert "conversation reset" in verb(svc, ":reset")
    status = verb(svc, "status")
    assert "default model: fast" in status and "m at http://127.0.0.1:9" in status


def test_cost_reset_is_logged_so_a_restart_keeps_it(config_file):
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    svc = service_mod.Service()
    verb(svc, "cost", "reset", conv="c1")
    log = svc.session("c1").log
    assert any(entry.get("type") == "cost_reset" for entry in log.entries())


def test_reset_with_arguments_is_a_usage_error_not_a_silent_reset(config_file):
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    svc = service_mod.Service()
    with pytest.raises(AishError) as caught:
        verb(svc, "reset", "everything")
    assert "usage: aish reset" in caught.value.hint


def test_each_row_names_its_handler_and_needs_and_no_module_only_forwards():
    """The row is the declaration: handler and needs; a verb module exists only to hold handlers."""
    from aish.app.verbs import context, dispatch

    named = set()
    for row in VERBS:
        handler, needs = dispatch.handler(row.name)
        assert callable(handler) and set(needs) <= context.NEEDS_KNOWN, row.name
        named.add(row.handler.split(":")[0].rsplit(".", 1)[1])
    modules = {m.name for m in pkgutil.iter_modules(verbs_pkg.__path__)} - {"context", "dispatch"}
    assert modules == named  # no module that only passes its words on to another
    assert not {"remember", "tree", "diff", "trust"} & modules


def test_json_is_parsed_once_not_by_each_verb():
    for path in Path(verbs_pkg.__path__[0]).glob("*.py"):
        if path.stem != "dispatch":
            assert '"--json"' not in path.read_text(), path.name


def test_each_verb_is_registered_once_on_the_cli(monkeypatch):
    import importlib

    import click

    import aish.cli.main as main_mod

    seen = []
    original = click.Group.add_command

    def record(self, cmd, name=None):
        if self.name == "cli":  # the top level (`aish daemon status` is another command)
            seen.append(name or cmd.name)
        return original(self, cmd, name)

    monkeypatch.setattr(click.Group, "add_command", record)
    importlib.reload(main_mod)
    verbs_seen = [name for name in seen if name in NAMES]
    assert sorted(verbs_seen) == sorted(NAMES)  # memory once, not twice (the second won)


def test_mcp_usage_is_the_tables_synopsis(config_file):
    from aish.ipc.verbs import BY_NAME

    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    with pytest.raises(AishError) as caught:
        verb(service_mod.Service(), "mcp", "bogus")
    assert caught.value.hint == f"usage: {BY_NAME['mcp'].synopsis}"
