"""MCP servers the MCP tests run against (official SDK, plus a plain-JSON one), and
helpers to start the SDK one as a subprocess on a free loopback port."""
from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SDK_SERVER = Path(__file__).resolve().parent / "sdk_server.py"
OAUTH_SERVER = Path(__file__).resolve().parent / "oauth_server.py"  # demands OAuth (python oauth_server.py PORT)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stdio_argv() -> list[str]:
    return [sys.executable, str(SDK_SERVER), "stdio"]


class SdkHttpServer:
    """``sdk_server.py http PORT [flags]`` (or ``sse PORT``) running until ``stop()``."""

    def __init__(self, *flags: str, port: int | None = None, mode: str = "http",
                 script: Path = SDK_SERVER) -> None:
        self.flags = flags
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/" + ("sse" if mode == "sse" else "mcp")
        self._err = tempfile.TemporaryFile()  # a pipe nobody reads could fill and stall the server
        words = [str(self.port), *flags] if script != SDK_SERVER else [mode, str(self.port), *flags]
        self.proc = subprocess.Popen([sys.executable, str(script), *words],
                                     stdout=subprocess.DEVNULL, stderr=self._err)
        self._wait_ready(60.0)  # a loaded machine starts the SDK slowly

    def _wait_ready(self, limit: float) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._err.seek(0)
                err = self._err.read().decode(errors="replace")
                raise RuntimeError(f"SDK server exited early: {err[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("SDK server did not start listening in time")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:  # graceful shutdown would wait for a slow tool a test abandoned
                self.proc.wait(1)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._err.close()
