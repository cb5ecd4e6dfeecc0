"""daemon/client_files.py: a client's file is read whole, in as few system calls as it takes.  The
files are on the memory file system where there is one (``memory_dir``): 5 MB a unit run on the
disk otherwise, written, then deleted by the next run."""
from __future__ import annotations

import os

import pytest

from aish.daemon import client_files
from aish.errors import ProtocolError


@pytest.mark.parametrize("size, reads", [(0, 1), (277, 1), (3 << 20, 1)])
def test_a_request_file_is_read_in_one_read(memory_dir, monkeypatch, size, reads):
    """Its size is known from the stat that checks it: one read takes it all (a second read
    only to see the end was a system call, and a GIL hand-off, per ask of 50 shells)."""
    path = memory_dir / "1.req"
    text = ("v=1\nkind=ask\n" * (size // 13 + 1))[:size]
    path.write_text(text)
    calls = []
    real_read = os.read
    monkeypatch.setattr(client_files.os, "read", lambda fd, n: calls.append(n) or real_read(fd, n))
    assert client_files.read_own_file(path, 16 << 20) == text
    assert len(calls) == reads


def test_a_file_that_grew_after_its_stat_is_read_to_its_end(memory_dir, monkeypatch):
    path = memory_dir / "1.req"
    path.write_text("v=1\n")
    real_fstat = os.fstat

    def fstat_then_grow(fd):
        st = real_fstat(fd)
        with open(path, "a") as more:
            more.write("kind=ask\n" * 200_000)
        return st

    monkeypatch.setattr(client_files.os, "fstat", fstat_then_grow)
    assert client_files.read_own_file(path, 16 << 20) == "v=1\n" + "kind=ask\n" * 200_000


def test_a_file_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "1.req"
    path.write_text("x" * 100)
    with pytest.raises(ProtocolError):
        client_files.read_own_file(path, 99)
