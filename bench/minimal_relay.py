"""The least a daemon speaking aish's protocol can do: the baseline of bench_shells.py.

It reads ``req <id>`` lines from ``daemon.fifo``, reads and removes ``<id>.req``, posts
the question to the model server as one streaming chat request (a pool of keep-alive
connections), and writes each text chunk to the client's reply FIFO as a ``T`` frame,
then a ``D`` frame.  No conversation, no config, no redaction, no accounting: what a
request costs with nothing but the protocol and the HTTP relay, in the same language.

Run: python3 bench/minimal_relay.py RUNDIR ENDPOINT_URL   (stops on SIGTERM)
"""
from __future__ import annotations

import http.client
import json
import os
import queue
import signal
import sys
import threading
from urllib.parse import urlsplit

_UNESCAPES = {"%25": "%", "%0A": "\n", "%09": "\t", "%0D": "\r"}


def unescape(text: str) -> str:
    out, i = [], 0
    while True:
        j = text.find("%", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        code = text[j:j + 3]
        out.append(_UNESCAPES.get(code, code))
        i = j + 3 if code in _UNESCAPES else j + 1


def escape(text: str) -> str:
    return text.replace("%", "%25").replace("\n", "%0A").replace("\t", "%09").replace("\r", "%0D")


class Relay:
    def __init__(self, rundir: str, endpoint: str) -> None:
        self.rundir = rundir
        url = urlsplit(endpoint)
        self.host, self.port = url.hostname or "127.0.0.1", url.port or 80
        self.pool: queue.SimpleQueue = queue.SimpleQueue()

    def serve(self) -> None:
        fifo = os.path.join(self.rundir, "daemon.fifo")
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo, 0o600)
        fd = os.open(fifo, os.O_RDWR)
        with open(os.path.join(self.rundir, "daemon.pid"), "w") as pid:
            pid.write(f"{os.getpid()}\nrelay\n\n")
        pending = b""
        while True:
            pending += os.read(fd, 65536)
            *lines, pending = pending.split(b"\n")
            for line in lines:
                words = line.decode().split()
                if len(words) == 2 and words[0] == "req":
                    threading.Thread(target=self.one, args=(words[1],), daemon=True).start()

    def one(self, req_id: str) -> None:
        path = os.path.join(self.rundir, f"{req_id}.req")
        with open(path, encoding="utf-8") as fh:
            fields = dict(line.partition("=")[::2] for line in fh.read().split("\n") if line)
        os.unlink(path)
        out = os.open(unescape(fields["reply"]), os.O_WRONLY | os.O_NONBLOCK)
        try:
            body = json.dumps({"model": "m", "stream": True,
                               "messages": [{"role": "user", "content": unescape(fields.get("text", ""))}]})
            try:
                conn = self.pool.get_nowait()
            except queue.Empty:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            for raw in resp:
                if not raw.startswith(b"data: ") or raw.startswith(b"data: [DONE]"):
                    continue
                choices = json.loads(raw[6:]).get("choices") or [{}]
                text = (choices[0].get("delta") or {}).get("content")
                if text:
                    os.write(out, f"{req_id}\tT\t{escape(text)}\n".encode())
            resp.read()
            self.pool.put(conn)
            os.write(out, f"{req_id}\tD\t{{}}\n".encode())
        finally:
            os.close(out)


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    Relay(sys.argv[1], sys.argv[2]).serve()


if __name__ == "__main__":
    main()
