"""Two processes writing one cost ledger at the same time (a daemon and `aish cost` of another
install, say): every row lands (the ledger itself: tests/cost/test_ledger.py)."""
from __future__ import annotations

import subprocess
import sys

from aish.cost.ledger import Ledger
from tests.cost.test_ledger import rec


def test_another_process_writing_at_the_same_time(tmp_path):
    path = tmp_path / "l.db"
    code = ("import sys; from aish.cost.ledger import Ledger; from aish.llm.events import Usage\n"
            "l = Ledger(__import__('pathlib').Path(sys.argv[1]))\n"
            "[l.record(conv='p', model='m', category='main', usage=Usage(1, 1), local=False) for _ in range(100)]\n"
            "assert l.problem is None, l.problem\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path)]) for _ in range(2)]
    mine = Ledger(path)
    for _ in range(100):
        rec(mine)
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    assert mine.totals(None)["calls"] == 300
