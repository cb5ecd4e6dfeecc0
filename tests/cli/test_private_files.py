"""Files that can hold a secret are private: `aish config init` writes 0600, and `aish doctor`
names every such file that others can read, with the fix."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.helpers import aish_here as aish


def test_config_init_is_private_and_doctor_flags_readable_secrets(stub, service):
    service.ok("ask", "hi", conv="d")  # a session log and a ledger exist now
    path = Path(os.environ["AISH_CONFIG"])
    path.unlink()
    assert aish("config", "init").returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    state = Path(os.environ["AISH_STATE_DIR"])
    log = state / "sessions" / "d.jsonl"
    ledger = state / "ledger.sqlite3"
    for p in (path, log, ledger):
        p.chmod(0o644)
    lines = aish("doctor").stdout.splitlines()
    flagged = [line for line in lines if "readable by others" in line]
    assert len(flagged) == 3 and all("chmod 600" in line for line in flagged), lines
