"""``aish mcp-server``'s own logic: where it looks for the shells' runtime dir.

As a process (what it loads, how it says what is wrong, hello and goodbye to the daemon):
tests/e2e/test_mcp_server_process.py; the whole bridge, with a real agent client and real
shells, is tests/shell/cases_agents.py.
"""
from __future__ import annotations

import os

from aish.cli import mcp_server


def test_a_small_environment_still_finds_the_shells_runtime_dir(monkeypatch, tmp_path):
    """Agents may start it without XDG_RUNTIME_DIR (the SDK's stdio client, Codex): it looks
    where the shells would have the dir, and the daemon it starts uses the same one."""
    found = tmp_path / f"aish-{os.getuid()}"
    found.mkdir(mode=0o700)
    (found / "agents").write_text("1 claude\n")
    for name in ("AISH_RUNTIME_DIR", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(mcp_server, "_CANDIDATES", lambda uid: [tmp_path / "nothing", found])
    assert mcp_server._runtime_dir() == found
    assert os.environ["AISH_RUNTIME_DIR"] == str(found)
