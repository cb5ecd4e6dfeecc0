"""A suggested command's local verdict is judged once per exact input (issue 26, many shells:
the judgement was ~15% of an ask's own work, and the same suggestion recurs across turns and
shells).  A changed command, cwd or variable the rules read is judged afresh; the safety
package is held to reading nothing else (no file, clock or process), so a kept verdict is
always the one a new judgement would give."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from aish.app import verdicts
from aish.app.ask import run_ask
from aish.ipc.protocol import Request
from aish.safety import assess as safety
from tests.app.test_ask import Script, make, text
from tests import sources
from tests.doubles import RecordingReply

SAFETY = Path(safety.__file__).parent


@pytest.fixture
def judged(monkeypatch) -> list:
    """Every call of the safety judge itself: (command, cwd)."""
    verdicts.forget()
    calls: list = []
    real = safety.assess

    def counting(command: str, cwd: str = ""):
        calls.append((command, cwd))
        return real(command, cwd=cwd)

    monkeypatch.setattr(safety, "assess", counting)
    yield calls
    verdicts.forget()


def _ask(answer: str, cwd: str = "/tmp") -> RecordingReply:
    env, session = make(Script(text(answer)))
    reply = RecordingReply()
    run_ask(env, session, Request(id="r", kind="ask", text="q", shell="zsh", cwd=cwd, env_complete=True), reply)
    return reply


def test_the_same_suggestion_in_another_ask_is_not_judged_again(judged):
    first = _ask("Stop it.\nCMD: lsof -ti tcp:8080 | xargs kill\n")
    second = _ask("Again:\nCMD: lsof -ti tcp:8080 | xargs kill\n")
    assert judged == [("lsof -ti tcp:8080 | xargs kill", "/tmp")]  # once for both asks
    assert second.commands == first.commands and first.commands[0][1] is not None  # flagged both times


def test_another_cwd_is_judged_afresh(judged):
    at_root = _ask("CMD: rm -rf usr\n", cwd="/")
    in_tmp = _ask("CMD: rm -rf usr\n", cwd="/tmp")
    assert [cwd for _, cwd in judged] == ["/", "/tmp"]
    assert at_root.commands[0][1] == "high" and in_tmp.commands[0][1] != "high"  # /usr, then /tmp/usr


def test_another_home_or_user_is_judged_afresh(judged, monkeypatch):
    monkeypatch.setenv("HOME", "/home/alice")
    monkeypatch.setenv("USER", "alice")
    mine = verdicts.assess("rm -rf /home/alice", cwd="/tmp")
    monkeypatch.setenv("HOME", "/home/bob")
    theirs = verdicts.assess("rm -rf /home/alice", cwd="/tmp")
    monkeypatch.setenv("USER", "bob")
    verdicts.assess("rm -rf /home/alice", cwd="/tmp")
    monkeypatch.setenv("USERNAME", "bob")
    verdicts.assess("rm -rf /home/alice", cwd="/tmp")
    assert len(judged) == 4
    assert mine != theirs  # your own home against another user's: not the same verdict
    verdicts.assess("rm -rf /home/alice", cwd="/tmp")
    assert len(judged) == 4  # the last key, kept: no new judgement


def test_another_command_is_judged_afresh_and_the_kept_ones_are_bounded(judged, monkeypatch):
    monkeypatch.setattr(verdicts, "MAX_KEPT", 3)
    for n in range(5):
        verdicts.assess(f"rm -rf build{n}", cwd="/tmp")
    verdicts.assess("rm -rf build4", cwd="/tmp")  # kept
    verdicts.assess("rm -rf build0", cwd="/tmp")  # the oldest went out
    assert [command for command, _ in judged] == [f"rm -rf build{n}" for n in range(5)] + ["rm -rf build0"]
    assert len(verdicts._verdicts) == 3


def test_a_long_command_is_judged_every_time(judged):
    long = "echo " + "x" * verdicts.MAX_KEPT_CHARS + " && rm -rf /"
    assert verdicts.assess(long) == verdicts.assess(long) == safety.assess(long)
    assert len(judged) == 3 and not len(verdicts._verdicts)


def test_an_unflagged_suggestion_is_looked_at_for_a_second_opinion_once(monkeypatch):
    """With a local default model, every unflagged command is checked for a program no rule
    knows with write-looking words (``opinions.unknown_writer``): a parse of its own."""
    from aish.app.judge import judge
    from aish.app.model_call import Caller
    from aish.app.sessions import Session
    from aish.app.env import AskEnv
    from aish.config.load import from_dict
    from aish.safety import opinions
    from tests.doubles import CharTokens

    verdicts.forget()
    looked: list = []
    real = opinions.unknown_writer
    monkeypatch.setattr(opinions, "unknown_writer", lambda command: looked.append(command) or real(command))
    cfg = from_dict({"models": {"local": {"endpoint": "http://127.0.0.1:9/v1", "model": "m"}},
                     "default_model": "local"})
    caller = Caller(AskEnv(config=cfg, tokens=CharTokens()), Session("t"))
    for _ in range(3):
        assert judge(caller, ["ls -la", "git status"], None, RecordingReply()) == [(None, None, None)] * 2
    assert looked == ["ls -la", "git status"]
    verdicts.forget()


# ------------------------------------------------------------------ what the judge may read

# pure helpers of os.path (no file system)
_PURE_PATH = {"join", "basename", "dirname", "normpath", "splitext", "split", "sep", "isabs"}
# modules whose import means a look outside the text (files, processes, the network, the clock)
_OUTSIDE = {"glob", "pathlib", "subprocess", "socket", "shutil", "configparser", "sqlite3", "urllib.request",
            "datetime", "getpass", "pwd", "platform", "tempfile"}


def _assess_modules() -> dict:
    """Every module of aish.safety that ``assess`` imports, directly or not (imports in
    functions too): name -> its file (parsed once per process with the other static checks',
    tests/sources.py)."""
    found: dict = {}
    todo = ["aish.safety.assess"]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = SAFETY.parent.parent / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = path.with_suffix("") / "__init__.py"
        found[name] = path
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in sources.nodes_of(path, ast.Import, ast.ImportFrom):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("aish.safety"):
                todo.append(node.module)
                todo.extend(f"{node.module}.{a.name}" for a in node.names
                            if (SAFETY.parent.parent / node.module.replace(".", "/") / f"{a.name}.py").exists())
            elif isinstance(node, ast.ImportFrom) and node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                todo.append(f"{base}.{node.module}" if node.module else base)
            elif isinstance(node, ast.Import):
                todo.extend(a.name for a in node.names if a.name.startswith("aish.safety"))
    return found


def _looks_outside(path: Path) -> tuple:
    """(variables read, other looks outside the text) in one module's source."""
    names: set = set()
    looks: list = []
    for node in sources.nodes_of(path, ast.Attribute, ast.Call, ast.Import, ast.ImportFrom, ast.Subscript):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os":
            if node.attr not in ("environ", "path", "sep", "getenv"):
                looks.append(f"os.{node.attr}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "os" \
                and node.value.attr == "path" and node.attr not in _PURE_PATH:
            looks.append(f"os.path.{node.attr}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            looks.append("open()")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            for alias in node.names:
                imported = module or alias.name
                if imported in _OUTSIDE or imported.split(".")[0] in _OUTSIDE:
                    looks.append(f"import {imported}")
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            reads_env = (isinstance(func, ast.Attribute) and func.attr in ("get", "getenv")
                         and (isinstance(func.value, ast.Attribute) and func.value.attr == "environ"
                              or isinstance(func.value, ast.Name) and func.value.id == "os"))
            if reads_env:
                names.add(node.args[0].value)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "environ" and isinstance(node.slice, ast.Constant):
            names.add(node.slice.value)
        if isinstance(node, ast.Attribute) and node.attr == "environ" and not isinstance(node.ctx, ast.Load):
            looks.append("writes os.environ")
    return names, looks


def test_the_judge_reads_only_its_key():
    """A rule that reads another variable, a file, a clock or a process would make a kept
    verdict stale: add what it reads to ``verdicts``' key (or keep it out of ``assess``)."""
    modules = _assess_modules()
    assert {"aish.safety.rules.table", "aish.safety.rules.common", "aish.safety.programs",
            "aish.safety.shell_words", "aish.safety.unwrap"} <= set(modules)  # (unknown_writer's too)
    read: set = set()
    outside: dict = {}
    for name, path in modules.items():
        names, looks = _looks_outside(path)
        read |= names
        looks = [look for look in looks if not (name == "aish.safety.assess" and look == "import time")]
        if looks:
            outside[name] = looks
    assert read <= set(verdicts.ENV_READ), read - set(verdicts.ENV_READ)
    assert {"HOME", "USER"} <= read  # (the scan sees them)
    assert outside == {}
