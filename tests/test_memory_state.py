"""tests/memory_state.py: the cases' state directories on a memory file system, private, gone
with their process, and a killed run's found and removed by the next."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests import memory_state


@pytest.fixture
def memory(tmp_path, monkeypatch):
    """memory_state with a directory of its own standing for /dev/shm, nothing made yet."""
    monkeypatch.setattr(memory_state, "MEMORY", tmp_path)
    monkeypatch.setattr(memory_state, "_made", [])
    monkeypatch.setattr(memory_state, "_maker", [])
    monkeypatch.setattr(memory_state, "_unavailable", [])
    return tmp_path


def test_a_case_state_dir_is_in_this_process_private_memory_directory(aish_private_paths):
    made = memory_state.directory()
    state = os.environ["AISH_STATE_DIR"]
    if made is None:  # a host without one: on disk, in the case's own directory
        assert state == f"{aish_private_paths}/state"
        return
    assert state == f"{made}/{aish_private_paths.name}/state"
    assert made.name.startswith(f"{memory_state.PREFIX}{os.getpid()}-")
    assert made.stat().st_mode & 0o777 == 0o700


def test_a_dead_process_directory_goes_and_a_live_one_stays(memory):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    left = memory / f"{memory_state.PREFIX}{dead}-abc"
    (left / "1" / "state").mkdir(parents=True)
    live = memory / f"{memory_state.PREFIX}{os.getppid()}-abc"
    live.mkdir()
    made = memory_state.directory()
    assert made is not None and made.parent == memory
    assert not left.exists()
    assert live.exists()
    memory_state.remove()
    assert not made.exists()


def test_a_forked_child_leaves_its_parent_directory(memory):
    made = memory_state.directory()
    assert made is not None
    pid = os.fork()
    if pid == 0:  # the child: what its inherited exit handler runs
        memory_state.remove()
        os._exit(0)
    os.waitpid(pid, 0)
    assert made.exists()
    memory_state.remove()
    assert not made.exists()


def test_no_memory_file_system_leaves_the_state_on_disk(memory, monkeypatch):
    monkeypatch.setattr(memory_state, "MEMORY", memory / "absent")
    assert memory_state.directory() is None
