"""Fifty shells asking at once in one repository run ``git status`` once, not once each
(issue 26, many shells): the asks that find the cached line stale while a refresh of the same
repository runs wait for its result."""
from __future__ import annotations

import threading

from aish.context import git
from tests.context.test_project import repo  # noqa: F401 - the fixture


def test_concurrent_asks_in_one_repository_run_git_once(repo, monkeypatch):  # noqa: F811
    real = git._git
    runs: list[int] = []

    def slow_git(root, *args):
        runs.append(1)
        started.wait(2)  # every asker is in before the first status returns
        return real(root, *args)

    real_stamp, stamped = git._stamp, []

    def counting_stamp(root):  # an asker's last step before it looks at the cache
        stamp = real_stamp(root)
        stamped.append(1)
        if len(stamped) >= 20:
            started.set()
        return stamp

    started = threading.Event()
    monkeypatch.setattr(git, "_git", slow_git)
    monkeypatch.setattr(git, "_stamp", counting_stamp)
    ctx = git.GitContext()
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(ctx.info(str(repo)))) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(results) == 20 and all(r is not None and r.root == str(repo) for r in results)
    assert len(runs) == 1 and ctx.refreshes == 1, len(runs)
