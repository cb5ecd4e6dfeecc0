"""The CLI's fast path (``cli/quick.py``) loads none of what it does not use: a fresh
interpreter's modules after it parsed an ask (the rest of the fast path: tests/cli/test_quick.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import aish


def test_the_fast_path_imports_only_what_it_uses():
    code = ("import sys\n"
            "from aish.cli import quick\n"
            "quick.parse(['ask', 'hi'])\n"
            "import aish.cli.printer, aish.cli.outcome, aish.cli.conversations, aish.daemon.client\n"
            "heavy = {'click', 'requests', 'urllib3', 'platformdirs', 'subprocess', 'dataclasses',"
            " 'hashlib', 'typing', 'aish.ipc.protocol'}\n"
            "print(sorted(heavy & set(sys.modules)))\n")
    # -S: no site-packages .pth files, which may import typing themselves on some machines
    # (a certificate hook, say); the package is found on PYTHONPATH instead, as the fast path
    # needs nothing from site-packages
    env = {**os.environ, "PYTHONPATH": str(Path(aish.__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert out.strip() == "[]"
