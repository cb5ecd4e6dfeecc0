"""Shared fixtures: every test runs with private state, runtime and config paths."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import aish
from tests.stub_server import StubServer

@pytest.fixture(autouse=True)
def aish_env(tmp_path_factory, monkeypatch):
    """Point aish at fresh dirs; no test may touch the real home or probe real ports."""
    base = tmp_path_factory.mktemp("aish")
    runtime = base / "run"
    runtime.mkdir(mode=0o700)
    env = {
        "AISH_STATE_DIR": str(base / "state"),
        "AISH_RUNTIME_DIR": str(runtime),
        "AISH_CONFIG": str(base / "config.toml"),
        "AISH_DETECT_PORTS": "",
        "XDG_DATA_HOME": str(base / "data"),  # `aish init` writes its loader there
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    for key in ("OPENROUTER_API_KEY", "OPENAI_API_KEY", "AISH_CONV", "AISH_MODEL"):
        monkeypatch.delenv(key, raising=False)
    return base


def write_config(path: os.PathLike, text: str) -> Path:
    path = Path(path)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def config_file(aish_env):
    """Write the TOML config the aish under test reads; returns a writer."""
    def write(text: str) -> Path:
        return write_config(os.environ["AISH_CONFIG"], text)
    return write


@pytest.fixture
def stub(config_file):
    """A llama.cpp-shaped model stub serving `fast` (model m); the daemon stops afterwards."""
    with StubServer(shape="llamacpp") as server:
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n')
        yield server
        aish("daemon", "stop", timeout=30)
