"""A cold daemon's second start compiles no dataclass method: the first kept them.

``@dataclass`` compiles each class's methods from source text when the class is made; a cold
daemon made ~50 classes before its first answer, about a third of its CPU to the first byte.
Two real cold asks through the console entry (the daemon forked from it, as ``aish ask`` does);
an audit hook set in the asking process, which the forked daemon inherits, notes every
compile of a dataclass method's text with the pid that did it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.stub_server import Reply, StubServer

ROOT = Path(__file__).resolve().parents[2]

ASK = r'''
import os, sys
marks = sys.argv[1]
def hook(event, args):
    if event == "compile" and isinstance(args[0], bytes) and args[0].startswith(b"def __create_fn__"):
        with open(marks, "a") as f:
            f.write(f"{os.getpid()}\n")
sys.addaudithook(hook)
from aish.entry import main
sys.argv = ["aish", "ask", "hi"]
main()
'''


def _cold_ask(marks: Path) -> tuple[str, int]:
    """(what the answer printed, the daemon's pid) of one ask that starts the daemon."""
    from aish.daemon import runtime

    env = {**os.environ, "PYTHONPATH": str(ROOT / "backend"), "AISH_CONV": "cold"}
    out = subprocess.run([sys.executable, "-c", ASK, str(marks)], capture_output=True, text=True,
                         timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    pid = runtime.is_running()
    assert pid, "no daemon after the ask"
    return out.stdout, pid


def _by(marks: Path, pid: int) -> int:
    return marks.read_text().split().count(str(pid)) if marks.exists() else 0


def test_a_second_cold_start_compiles_no_dataclass_method(config_file, aish_env, tmp_path):
    from aish import paths
    from aish.daemon import runtime

    marks = tmp_path / "compiles"
    with StubServer(default=Reply(text="hello\n")) as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        try:
            text, first = _cold_ask(marks)
            assert "hello" in text
            kept = paths.state_dir() / "dataclass-methods.bin"
            deadline = time.monotonic() + 30  # kept once the work after the first answer is done
            while not kept.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            runtime.stop()
            text, second = _cold_ask(marks)
            assert "hello" in text and second != first
        finally:
            runtime.stop()
    assert _by(marks, first) > 20  # the first start compiled them (the config's classes, the events...)
    assert _by(marks, second) == 0
