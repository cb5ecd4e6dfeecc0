"""Cases for tests/e2e/test_suite_exit.py (named so that no run collects them unless asked): each
passes or fails as AISH_TEST_EXIT_CASES says.  Loaded as a plugin too (``-p``), it marks the
controller's configuration clean-up, the stretch its early exit skips."""
from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_configure(config):
    mark = os.environ.get("AISH_TEST_EXIT_MARK")
    if mark and not os.environ.get("PYTEST_XDIST_WORKER"):
        config.add_cleanup(lambda: Path(mark).write_text("the controller's clean-up ran"))


@pytest.mark.parametrize("case", range(4))
def test_as_told(case):
    assert os.environ.get("AISH_TEST_EXIT_CASES") != "fail" or case != 2
