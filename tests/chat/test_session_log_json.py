"""The JSON an ask writes (its log entries, its request's body, its D frame) is json.dumps' own,
byte for byte, from encoders made once: json.dumps with options built an encoder per call
(a dozen per ask)."""
from __future__ import annotations

import json
import logging
import os

from aish.chat.session_log import SessionLog
from aish.daemon.frames import FrameReply
from aish.llm import broker

ENTRY = {"type": "turn", "role": "user", "content": "naïve “quotes” <secret:1> \u2028 é", "n": [1, 2.5, None]}


def test_an_asks_json_is_json_dumps_own_without_an_encoder_per_call(aish_env, monkeypatch, tmp_path):
    made: list = []
    real = json.JSONEncoder.__init__

    def init(self, *args, **kwargs):
        made.append(kwargs)
        real(self, *args, **kwargs)

    log = SessionLog("conv")
    fifo = tmp_path / "reply.fifo"
    os.mkfifo(fifo, 0o600)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    reply = FrameReply("r1", logging.getLogger("aish.test"))
    reply.attach(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK), str(fifo), interactive=False)
    monkeypatch.setattr(json.JSONEncoder, "__init__", init)
    log.append(dict(ENTRY))
    body = b"".join(broker.encode_parts({"model": "m", "messages": [ENTRY, ENTRY], "stream": True}))
    reply.done({"text": ENTRY["content"], "odd": frozenset()})  # (default=str)
    reply.close()
    log.close()
    assert made == []
    monkeypatch.undo()
    assert log.path.read_text(encoding="utf-8").split('"type"', 1)[1] == \
        json.dumps(ENTRY, ensure_ascii=False).split('"type"', 1)[1] + "\n"
    assert body == json.dumps({"model": "m", "messages": [ENTRY, ENTRY], "stream": True}, ensure_ascii=False,
                              separators=(",", ":")).encode("utf-8")
    done = os.read(reader, 4096).decode("utf-8")
    assert done == "r1\tD\t" + json.dumps({"text": ENTRY["content"], "odd": frozenset()}, ensure_ascii=False,
                                          default=str) + "\n"
    os.close(reader)
