"""aish reinstalled under a running daemon (same version number): the daemon notices, restarts
with the new install without the user seeing an error, and `aish doctor` names it meanwhile.

The real case is the README's two commands in order: `pip install .`, a question (the daemon
starts), `pip install -e '.[test]'`: the daemon's package directory was gone and every
question after it was `internal error` (ImportError).  The slow case does exactly that with
pip in a temporary venv; the fast one swaps an install's files and RECORD by hand.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from aish.daemon import runtime
from aish.daemon.client import Client
from aish.ipc.protocol import Request
from tests.stub_server import Reply

REPO = Path(__file__).resolve().parents[2]


def ask(text: str = "", verb: tuple = ()) -> tuple[str, list]:
    """One question (or a verb) on the wire, as a shell sends it (no Python `aish` that
    could replace the daemon first): the text shown and the error frames."""
    shown, errors = [], []

    def on_frame(frame) -> None:
        if frame.tag in ("T", "S"):
            shown.append(frame.fields[0])
        elif frame.tag == "E":
            errors.append(frame.fields[0])

    with Client(autostart=False) as client:
        request = Request(kind="verb", argv=list(verb)) if verb else Request(kind="ask", text=text)
        request.cwd, request.shell, request.conv = "/", "zsh", "zsh-1-1"
        client.request(request, on_frame=on_frame, timeout=60)
    return "".join(shown), errors


def source_copy(dest: Path) -> Path:
    """What `pip install .` builds from (a copy: the build must not write into this checkout)."""
    dest.mkdir()
    for name in ("backend", "shell"):
        shutil.copytree(REPO / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, dest / name)
    return dest


def venv_with_our_dependencies(dest: Path) -> Path:
    """A venv without aish whose import path also reaches this interpreter's packages
    (click, requests ...: no network), listed after its own site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(dest)], check=True)
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(subprocess.run([str(dest / "bin" / "python"), "-c", purelib],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "zz_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return dest


def pip_install(venv: Path, *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                           "-q", "--no-deps", "--no-build-isolation", "--no-index", *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_the_readmes_two_installs_in_order_leave_a_daemon_that_answers(tmp_path, stub):
    src = source_copy(tmp_path / "src")
    venv = venv_with_our_dependencies(tmp_path / "venv")
    aish = str(venv / "bin" / "aish")
    pip_install(venv, str(src))                              # python3 -m pip install .
    started = subprocess.run([aish, "daemon", "start"], capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    stub.queue(Reply(text="first answer\nCMD: ls\n"))
    assert ask("first") == ("first answer\nCMD: ls\n", [])
    pid = runtime.is_running()
    pip_install(venv, "-e", str(src))                        # python3 -m pip install -e '.[test]'
    doctor = subprocess.run([aish, "doctor"], capture_output=True, text=True, timeout=60)
    assert "reinstalled" in doctor.stdout and "FAIL daemon" in doctor.stdout, doctor.stdout
    for n in range(2):
        stub.queue(Reply(text=f"answer {n}\nCMD: ls\n"))
        assert ask(f"again {n}") == (f"answer {n}\nCMD: ls\n", [])
        shown, errors = ask(verb=("cost",))                  # a module no question had loaded yet
        assert errors == [] and "usage" in shown, (shown, errors)
    assert runtime.is_running() == pid                       # restarted in place: shells keep watching it
    doctor = subprocess.run([aish, "doctor"], capture_output=True, text=True, timeout=60)
    assert "ok   daemon: running" in doctor.stdout, doctor.stdout


def install_copy(site: Path) -> None:
    """An install by hand: the package and a dist-info RECORD, as pip leaves them."""
    site.mkdir(exist_ok=True)
    shutil.copytree(REPO / "backend" / "aish", site / "aish", ignore=shutil.ignore_patterns("__pycache__"))
    info = site / "aish-0.1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("".join(f"{p.relative_to(site)},,\n" for p in sorted((site / "aish").rglob("*.py"))))


def test_a_package_moved_by_a_reinstall_under_the_daemon_is_followed(tmp_path, stub, aish_env):
    """What `pip install -e` does after `pip install .`: the daemon's package directory goes
    away and the same version turns up elsewhere on the path; the next question (from a
    shell: no Python client that could replace the daemon) is answered by the new files."""
    old, new = tmp_path / "site-old", tmp_path / "site-new"
    install_copy(old)
    new.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(old), str(new)])}
    subprocess.Popen([sys.executable, "-m", "aish.daemon"], env=env, start_new_session=True, cwd="/",
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rundir = Path(os.environ["AISH_RUNTIME_DIR"])
    deadline = time.monotonic() + 30
    while not runtime.is_running(rundir) and time.monotonic() < deadline:
        time.sleep(0.02)
    pid = runtime.is_running(rundir)
    identity = runtime.read_install(rundir)
    assert pid and identity
    stub.queue(Reply(text="first\nCMD: ls\n"))
    assert ask("first") == ("first\nCMD: ls\n", [])
    shutil.rmtree(old)                                   # the reinstall
    install_copy(new)
    shown, errors = ask(verb=("cost",))                  # a module no question had loaded yet
    assert errors == [] and "usage" in shown, (shown, errors)
    assert runtime.is_running(rundir) == pid and runtime.read_install(rundir) not in (identity, None)
    log = (Path(os.environ["AISH_STATE_DIR"]) / "daemon.log").read_text()
    assert "reinstalled" in log and "Traceback" not in log, log
