"""Code handed to a program no interpreter rule names, after an option that takes code in most languages
(`-c`, `-e`, `--eval`, `eval`): judged as code when it reads as code (a call with a quoted argument).

Languages and runners keep appearing (shells written in Python, notebooks' command lines, scripting
front ends of compilers, environment managers that run an interpreter); what their code deletes is
spelled the same way wherever it runs.
"""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


@each_form("command", [
    # a Python-speaking shell and environment runners nobody names
    "xonsh -c \"import shutil; shutil.rmtree('/home/alice/thesis')\"",
    "conda run -n base python -c \"import shutil; shutil.rmtree('/home/alice/thesis')\"",
    "mamba run -n ml python -c \"import shutil; shutil.rmtree('/home/bob/models')\"",
    # other languages' recursive deletes, given to their runners
    "nim e --eval:'import os; removeDir(\"/home/alice/data\")'",
    "dotnet script eval 'System.IO.Directory.Delete(\"/home/alice/data\", true)'",
    "rdmd --eval='import std.file; rmdirRecurse(\"/home/alice/photos\");'",
])
def test_code_given_to_an_unnamed_runner_is_judged_as_code(command: str) -> None:
    assert reaches(command), judged(command)


def test_a_key_deleted_by_code_in_an_unnamed_runner_is_high() -> None:
    command = "dotnet script eval 'System.IO.File.Delete(\"/home/alice/.ssh/id_ed25519\")'"
    assert reaches(command, "high"), judged(command)


@each_form("command", [
    "xonsh -c \"print('hello')\"",
    "nim e --eval:'echo \"hi\"'",
    "sage -c \"print(factor(2**64+1))\"",
    "docker run -e 'GREETING=hello(1)' alpine",
    "git -c core.pager='less -R' log",
    "mycli -e \"select count(*) from t where name='x'\"",
    "xonsh -c \"import shutil; shutil.rmtree('/tmp/scratch-1')\"",  # a scratch directory
    "dotnet script eval 'System.IO.Directory.Delete(\"./bin/Debug\", true)'",  # build output
])
def test_harmless_code_or_values_that_are_not_code_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
