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
from tests.helpers import aish

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


def test_every_verb_has_one_module_with_run_and_every_module_is_a_verb():
    modules = {m.name for m in pkgutil.iter_modules(verbs_pkg.__path__)} - {"context", "dispatch"}
    assert modules == NAMES
    for name in NAMES:
        module = __import__(f"aish.app.verbs.{name}", fromlist=["run"])
        assert callable(module.run), name


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
    log = svc.conversation("c1").log
    assert any(entry.get("type") == "cost_reset" for entry in log.entries())


def test_reset_with_arguments_is_a_usage_error_not_a_silent_reset(config_file):
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    svc = service_mod.Service()
    with pytest.raises(AishError) as caught:
        verb(svc, "reset", "everything")
    assert "usage: aish reset" in caught.value.hint
