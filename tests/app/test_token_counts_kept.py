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


def test_a_chat_template_measured_before_a_restart_is_not_measured_again(config_file, aish_env):
    """A daemon measures a local model's chat template with two one-token chats before its first
    answer; the next daemon took the counts over but measured nothing (its tokenizer not yet
    found: the template guessed until some ask found it, then two chats on that ask's way).  The
    measurement is kept over the restart (0600, digests and numbers: no endpoint or model name)."""
    from aish import paths

    with StubServer() as stub:
        config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n')
        first = service_mod.Service()
        model = first.config().model("fast")
        messages = [{"role": "user", "content": TEXT}]
        weighed = first.limits().count(model, messages)
        assert len(stub.plain_requests) == 2 and first.limits().of(model).measured
        first.close()  # the daemon stops
        second = service_mod.Service()
        assert second.limits().count(model, messages) == weighed
        assert second.limits().of(model).measured and len(stub.plain_requests) == 2
        second.close()
        kept = paths.state_dir() / "chat-templates.bin"
        assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
        assert stub.url.split("//")[1].encode() not in kept.read_bytes()
