"""Model servers as they really behave, on the wire: a server that sends only keep-alive
comments.  The user once waited 300 s and was told the *daemon* did not answer; the rest of
the servers' behaviours are tested in process (tests/app/test_service_models.py)."""
from __future__ import annotations

import time

from tests.helpers import aish, model_toml
from tests.stub_server import Reply, StubServer


def test_keep_alive_comments_alone_end_the_ask_naming_the_server(config_file):
    with StubServer() as stub:
        config_file(model_toml("fast", stub.url, "tiny", "read_timeout = 2.0\n"))
        stub.queue(Reply(hang=True, ping_every=0.2))
        try:
            start = time.monotonic()
            result = aish("ask", "hello", timeout=60)
            assert time.monotonic() - start < 30
            assert result.returncode == 7 and "sent only keep-alive comments" in result.stderr, result
            assert stub.url in result.stderr and "daemon" not in result.stderr
            assert stub.wait_disconnects(1, timeout=5) == 1  # the server stops generating for nobody
        finally:
            aish("daemon", "stop")
