"""The wheel carries every module: packages are found, never listed by hand."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # builds the wheel with pip: seconds of CPU, a check for release time
def test_the_wheel_holds_every_module_and_the_shell_scripts(tmp_path):
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "-q", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-2000:]
    wheel = next(tmp_path.glob("aish-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    source = ROOT / "backend"
    expected = {str(p.relative_to(source)) for p in source.joinpath("aish").rglob("*.py")}
    assert expected and expected <= names, sorted(expected - names)
    assert {"aish/shell/aish.zsh", "aish/shell/aish.bash", "aish/shell/aish.lazy.zsh",
            "aish/shell/aish.lazy.bash", "aish/shell/aish.common.sh", "aish/shell/aish.request.zsh",
            "aish/shell/aish.request.bash", "aish/shell/aish.steps.zsh", "aish/shell/aish.steps.bash"} <= names
