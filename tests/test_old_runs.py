"""tests/old_runs.py: old runs' temporary directories go while a run works, as pytest's own
pass at the end would have deleted them (the same ones kept, a live run's kept)."""
from __future__ import annotations

import os

from _pytest.pathlib import get_lock_path
from _pytest.tmpdir import TempPathFactory

from tests import old_runs


class FakeConfig:
    def __init__(self, policy: str = "all", count: int = 3, **options) -> None:
        self._tmp_path_factory = TempPathFactory(None, count, policy, trace=lambda *_: None,
                                                 _ispytest=True)
        self._ini = {"tmp_path_retention_policy": policy, "tmp_path_retention_count": str(count)}
        self._options = {"basetemp": None, "collectonly": False, **options}

    def getini(self, name):
        return self._ini[name]

    def getoption(self, name):
        return self._options[name]


def old_runs_under(tmp_path, monkeypatch, numbers=range(1, 7)):
    monkeypatch.setenv("PYTEST_DEBUG_TEMPROOT", str(tmp_path))
    monkeypatch.setattr("_pytest.tmpdir.get_user", lambda: "someone")
    root = tmp_path / "pytest-of-someone"
    root.mkdir(mode=0o700)
    for number in numbers:
        (root / f"pytest-{number}" / "case0").mkdir(parents=True)
        (root / f"pytest-{number}" / "case0" / "file").write_text("x")
    return root


def numbered(root):
    return sorted(int(path.name.split("-")[1]) for path in root.glob("pytest-[0-9]*"))


def test_old_runs_are_deleted_at_the_start_keeping_what_pytest_keeps(tmp_path, monkeypatch):
    root = old_runs_under(tmp_path, monkeypatch)
    live = root / "pytest-2"
    get_lock_path(live).touch()  # another run still working in it
    config = FakeConfig()
    try:
        old_runs.start(config)
        old_runs.finish()
        # this run is pytest-7; with 3 kept: 5, 6 and 7 stay, and the live run's directory
        assert numbered(root) == [2, 5, 6, 7]
        assert config._tmp_path_factory.getbasetemp() == root / "pytest-7"
        assert not list(root.glob("garbage-*"))
    finally:
        # pytest's own pass (an exit stack since pytest 9.1; at exit before): nothing more to delete
        stack = getattr(config._tmp_path_factory, "_exit_stack", None)
        if stack is not None:
            stack.close()
    assert numbered(root) == [2, 5, 6, 7]


def test_nothing_is_deleted_early_where_pytest_would_not_number_the_run(tmp_path, monkeypatch):
    root = old_runs_under(tmp_path, monkeypatch)
    for config in (FakeConfig(basetemp=str(tmp_path / "given")), FakeConfig(collectonly=True),
                   FakeConfig(policy="none")):
        old_runs.start(config)
        old_runs.finish()
        assert numbered(root) == [1, 2, 3, 4, 5, 6]
        assert config._tmp_path_factory._basetemp is None
    assert os.listdir(tmp_path) == ["pytest-of-someone"]
