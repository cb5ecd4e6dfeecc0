"""The loopback model stub run as a script (``python tests/stub_server.py``), as a person
debugging a shell case runs it (the stub itself: tests/test_stub_server.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import requests


def test_runs_standalone_and_prints_its_url():
    script = Path(__file__).resolve().parents[1] / "stub_server.py"
    proc = subprocess.Popen([sys.executable, str(script), "--port", "0", "--shape", "openrouter"],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        assert requests.get(url + "/health", timeout=5).json() == {"status": "ok"}
    finally:
        proc.terminate()
        proc.wait(5)
