"""net/sse.py: the data of each event, as sseclient read it, however the bytes are cut."""
from __future__ import annotations

import random

from sseclient import SSEClient

from aish.net.sse import data_events
from tests.safety.forms import each_form

STREAMS = [
    'data: {"a": 1}\n\ndata: {"b": 2}\n\ndata: [DONE]\n\n',
    ": ping\n\n: OPENROUTER PROCESSING\n\ndata: {\"x\": \"caf\u00e9 \u2192 ok\"}\n\n",
    "event: message\nid: 7\nretry: 100\ndata: one\ndata: two\n\n",
    "data:no space\n\ndata:  two spaces\n\ndata\n\ndata: \n\n",
    "data: first\r\n\r\n: c\r\n\r\ndata: second\r\n\r\n",
    "data: a\r\rdata: b\r\r",
    "data: half an event at the end",
    "\n\n\ndata: after blank lines\n\n\n\n",
]


def reference(chunks: list) -> list:
    return [event.data for event in SSEClient(iter(chunks)).events()]


def cuts(text: str, rng: random.Random) -> list:
    raw = text.encode("utf-8")
    points = sorted(rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(0, 6))))
    return [raw[a:b] for a, b in zip([0, *points], [*points, len(raw)])]


@each_form("text", STREAMS)
def test_events_match_sseclient_at_every_cut(text):
    raw = text.encode("utf-8")
    whole = reference([raw])
    assert list(data_events([raw])) == whole
    for i in range(1, len(raw)):
        assert list(data_events([raw[:i], raw[i:]])) == whole, i
    rng = random.Random(text)
    for _ in range(200):
        chunks = cuts(text, rng)
        assert list(data_events(chunks)) == whole, chunks
