"""The shell scripts as text and as functions, without a terminal: the code both shells
share is the same text, the split of a request has the same names in both, and bash
writes its request file as zsh does (new, 0600)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = {name: (ROOT / "shell" / f"aish.{name}").read_text(encoding="utf-8") for name in ("zsh", "bash")}
BEGIN, END = "# >>> aish shared", "# <<< aish shared"


def shared_block(text: str) -> str:
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    return text[text.index(BEGIN):text.index(END) + len(END)]


def functions(text: str) -> list[str]:
    return re.findall(r"^(_aish_\w+)\(\) \{", text, re.M)


def test_the_shared_block_is_the_same_text_in_both_shells():
    assert shared_block(SCRIPTS["zsh"]) == shared_block(SCRIPTS["bash"])
    for name in ("_aish_esc", "_aish_unesc", "_aish_level_line", "_aish_handle_frame", "_aish_edit"):
        assert f"\n{name}() {{" in shared_block(SCRIPTS["zsh"])


def test_each_function_is_defined_once_and_the_request_split_has_the_same_names():
    for text in SCRIPTS.values():
        names = functions(text)
        assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    request = {"_aish_request", "_aish_send_request", "_aish_read_frame", "_aish_handle_frame", "_aish_approve"}
    assert request <= set(functions(SCRIPTS["zsh"])) and request <= set(functions(SCRIPTS["bash"]))


def test_every_zsh_function_outside_the_shared_block_sets_its_options():
    text = SCRIPTS["zsh"].replace(shared_block(SCRIPTS["zsh"]), "")
    bodies = re.findall(r"^(_aish_\w+)\(\) \{\n(.*?)\n", text, re.M)
    leaves = {"_aish_dir", "_aish_send", "_aish_ensure", "_aish_typed", "_aish_finish"}  # helpers of emulated callers
    missing = [name for name, first in bodies if "emulate -L zsh" not in first and name not in leaves
               and not (name == "_aish_precmd" and "$?" in first)]   # reads $? before anything runs
    assert missing == []


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed")
def test_bash_writes_the_request_file_new_and_0600_and_keeps_umask_and_noclobber(tmp_path):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    os.mkfifo(run / "daemon.fifo", 0o600)
    (run / "daemon.pid").write_text(f"{os.getpid()}\n")
    script = ROOT / "shell" / "aish.bash"
    body = f"""
source '{script}'
_aish_ensure || exit 9
umask 022
_aish_trap_int
_aish_conv=c
RANDOM=7; _aish_seq=0
_aish_send_request ask question hi '' || exit 8
echo "mode=$(stat -c %a "$_aish_d/$_aish_id.req") umask=$(umask) flags=$-"
RANDOM=7; _aish_seq=0
if _aish_send_request ask question again ''; then echo clobbered; else echo refused; fi
grep -c again "$_aish_d/$_aish_id.req"
"""
    done = subprocess.run(["bash", "-c", body], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "AISH_RUNTIME_DIR": str(run)})
    out = done.stdout
    assert "mode=600 umask=0022" in out, out + done.stderr
    assert "C" not in out.split("flags=")[1].split()[0]
    assert "refused" in out and out.strip().endswith("0"), out


def test_bash_sends_its_variables_through_the_private_dir_only(tmp_path):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    os.mkfifo(run / "daemon.fifo", 0o600)
    (run / "daemon.pid").write_text(f"{os.getpid()}\n")
    body = f"""
source '{ROOT / "shell" / "aish.bash"}'
_aish_ensure || exit 9
_aish_conv=c
AISHT_DIR=/srv/x AISHT_API_TOKEN=s3cr3t
_aish_send_request ask question hi '' || exit 8
echo "req=$_aish_d/$_aish_id.req vars=$_aish_d/bash-$$.vars"
"""
    done = subprocess.run(["bash", "-c", body], capture_output=True, text=True, timeout=30, cwd=tmp_path,
                          env={**os.environ, "AISH_RUNTIME_DIR": str(run)})
    m = re.search(r"req=(\S+) vars=(\S+)", done.stdout)
    assert m, done.stdout + done.stderr
    request = Path(m.group(1)).read_text()
    assert "var=AISHT_DIR=/srv/x\n" in request and "var=AISHT_API_TOKEN\n" in request
    assert "s3cr3t" not in request and "var=BASH_" not in request and "vars=all\n" in request
    assert Path(m.group(2)).read_text() == ""  # emptied in the private dir, nowhere else
    assert [p.name for p in tmp_path.iterdir()] == ["run"]
