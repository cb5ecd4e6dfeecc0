"""Token counts survive a daemon restart (issue 26): the first ask after a restart on a long
conversation weighed every kept turn again, one tokenize call each (149 ms against 9.5 ms for
a fresh conversation at 40 kept turns)."""
from __future__ import annotations

import os
import stat

from aish.app import service as service_mod
from tests.stub_server import StubServer

TEXT = "why does the deploy fail after the health check times out? " * 3


def test_counts_learned_before_a_restart_need_no_tokenize_call_after_it(config_file):
    with StubServer() as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        first = service_mod.Service()
        model = first.config().model("fast")
        counted = first.tokens().count(model, TEXT)
        assert first.tokens().calls >= 1
        first.close()  # the daemon stops
        second = service_mod.Service()
        assert second.tokens().count(model, TEXT) == counted
        assert second.tokens().calls == 0


def test_the_counts_file_is_private(config_file, aish_env):
    from aish import paths

    with StubServer() as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        svc = service_mod.Service()
        svc.tokens().count(svc.config().model("fast"), TEXT)
        svc.close()
    files = [p for p in paths.state_dir().iterdir() if p.name.startswith("token")]
    assert files and all(stat.S_IMODE(os.stat(p).st_mode) == 0o600 for p in files)
