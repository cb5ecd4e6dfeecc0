"""Every case's own aish paths (tests/conftest.py's ``_enter_private_paths``): set before the
case's first fixture is made, a module's fixture made for it included, and put back after its last
one is gone; the fixtures that hand them out (``aish_private_paths``, ``aish_env``) name that case's."""
from __future__ import annotations

import os

import pytest

_PRIVATE = ("AISH_STATE_DIR", "AISH_RUNTIME_DIR", "AISH_CONFIG", "XDG_DATA_HOME", "AISH_DETECT_PORTS")
_AT_MODULE_FIXTURE: dict = {}


@pytest.fixture(scope="module")
def module_fixture():
    """Made before any function fixture of the module's first case: what it reads is the case's."""
    _AT_MODULE_FIXTURE.update({key: os.environ.get(key) for key in _PRIVATE})
    yield


def test_a_module_fixture_and_the_case_see_the_cases_own_paths(module_fixture, aish_env):
    now = {key: os.environ.get(key) for key in _PRIVATE}
    assert _AT_MODULE_FIXTURE == now
    assert now["AISH_DETECT_PORTS"] == "" and now["AISH_CONFIG"] == f"{aish_env}/config.toml"
    assert now["AISH_RUNTIME_DIR"] == f"{aish_env}/run" and os.path.isdir(now["AISH_RUNTIME_DIR"])
    assert now["AISH_STATE_DIR"].endswith(f"/{aish_env.name}/state")


def test_what_a_case_leaves_is_the_environment_it_found(request, monkeypatch):
    """Entered and left around a case that writes os.environ itself: every name set or left out is
    put back as it was, set or absent (those the case wrote too)."""
    from types import SimpleNamespace

    from tests import conftest

    monkeypatch.setenv("AISH_MODEL", "outer")  # one name left out, set outside the case
    monkeypatch.delenv("AISH_CONV", raising=False)  # one absent
    before = {key: os.environ.get(key) for key in conftest._WATCHED}
    case = SimpleNamespace(config=request.config, stash=pytest.Stash())
    conftest._enter_private_paths(case)
    inside = {key: os.environ.get(key) for key in conftest._WATCHED}
    os.environ["AISH_CONV"] = "written by the case"
    del os.environ["AISH_STATE_DIR"]
    conftest._leave_private_paths(case)
    assert {key: os.environ.get(key) for key in conftest._WATCHED} == before
    assert inside["AISH_MODEL"] is None and inside["AISH_STATE_DIR"] not in (None, before["AISH_STATE_DIR"])
