"""The least a Python client of aish's daemon can do: the baseline of bench_cli.py.

One question, the protocol and nothing else (docs/protocol.md): make a reply FIFO in the
runtime dir, write ``<id>.req``, send ``req <id>`` on ``daemon.fifo``, print the text of
the ``T`` frames until the ``D`` frame, remove the FIFO.  No option parsing, no daemon
start, no version check, no error lines, no conversation bookkeeping.

Run: python3 bench/minimal_client.py QUESTION...   (a daemon must be running)
"""
import os
import select
import sys

_UNESCAPES = {"%25": "%", "%0A": "\n", "%09": "\t", "%0D": "\r"}


def escape(text):
    return text.replace("%", "%25").replace("\n", "%0A").replace("\t", "%09").replace("\r", "%0D")


def unescape(text):
    for code, char in (("%0A", "\n"), ("%09", "\t"), ("%0D", "\r"), ("%25", "%")):
        text = text.replace(code, char)
    return text


def main():
    rundir = os.environ.get("AISH_RUNTIME_DIR") or f"/tmp/aish-{os.getuid()}"
    req_id = f"min-{os.getpid()}"
    fifo = os.path.join(rundir, f"{req_id}.fifo")
    os.mkfifo(fifo, 0o600)
    fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        fields = {"kind": "ask", "reply": fifo, "conv": os.environ.get("AISH_CONV", "cli"), "shell": "cli",
                  "mode": "question", "text": " ".join(sys.argv[1:]), "cwd": os.getcwd()}
        with open(os.path.join(rundir, f"{req_id}.req"), "w") as req:
            req.write("v=1\n" + "".join(f"{k}={escape(v)}\n" for k, v in fields.items()))
        daemon = os.open(os.path.join(rundir, "daemon.fifo"), os.O_WRONLY | os.O_NONBLOCK)
        os.write(daemon, f"req {req_id}\n".encode())
        pending = b""
        while True:
            select.select([fd], [], [])
            pending += os.read(fd, 65536)
            *lines, pending = pending.split(b"\n")
            for line in lines:
                parts = line.decode().split("\t")
                if parts[1] == "T":
                    sys.stdout.write(unescape(parts[2]))
                    sys.stdout.flush()
                elif parts[1] == "D":
                    os.close(daemon)
                    return
    finally:
        os.close(fd)
        os.unlink(fifo)


if __name__ == "__main__":
    main()
