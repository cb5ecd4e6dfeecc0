"""A run with xdist workers exits with its cases' status: its controller leaves with the session's
exit status once its last plugin has unconfigured (tests/conftest.py's ``_ControllerLeaves``)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import aish

ROOT = Path(__file__).resolve().parents[2]


def _run(told: str, mark: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "AISH_TEST_"))}
    env.update(AISH_TEST_EXIT_CASES=told, AISH_TEST_EXIT_MARK=str(mark), PYTHONPATH=os.pathsep.join(
        [str(Path(aish.__file__).resolve().parents[1]), str(ROOT)]))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                           "-p", "tests.e2e.exit_status_cases", str(ROOT / "tests" / "e2e" / "exit_status_cases.py")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_a_run_with_workers_exits_with_its_cases_status_before_pytests_clean_up(tmp_path):
    passed, failed = _run("pass", tmp_path / "passed"), _run("fail", tmp_path / "failed")
    assert passed.returncode == 0 and "4 passed" in passed.stdout, passed.stdout[-2000:]
    assert failed.returncode == 1 and "1 failed, 3 passed" in failed.stdout, failed.stdout[-2000:]
    assert list(tmp_path.iterdir()) == []  # neither controller reached its configuration's clean-up
