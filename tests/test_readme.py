"""The README's first commands are what newcomers and CI run: keep them true."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands():
    lines = ROOT.joinpath("README.md").read_text().splitlines()
    start = lines.index("```sh") + 1
    return [line.split("  #")[0].strip() for line in lines[start:start + 2]]


def test_readme_starts_with_install_and_test_commands():
    install, test = readme_commands()
    assert "pip install" in install and "aish shell" in install
    assert "pytest" in test


def test_ci_runs_the_readme_test_command_verbatim():
    _, test = readme_commands()
    assert test in ROOT.joinpath(".ci", "run").read_text().splitlines()
