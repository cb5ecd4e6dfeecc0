"""stdio transport: the server is a child process speaking JSON-RPC, one message per line.

Most published MCP servers only speak stdio.  A reader thread owns stdout
and hands each response to whoever waits for that id, so two shells may call
the same server at once; a second thread keeps the last lines of stderr, the
only place a crashing server says why.  Shutdown follows the spec: close
stdin, then SIGTERM, then SIGKILL.
"""
from __future__ import annotations

import collections
import json
import logging
import os
import shlex
import subprocess
import threading
from typing import Any, Optional

from aish.errors import ToolError
from aish.mcp import jsonrpc


class _Waiter:
    def __init__(self) -> None:
        self.event = threading.Event()
        self.msg: Optional[dict] = None


class StdioTransport:
    def __init__(self, argv: list[str], env: Optional[dict] = None,
                 log: Optional[logging.Logger] = None) -> None:
        if not argv:
            raise ToolError("empty command for a stdio server", hint="give the program and its arguments")
        self.argv = [str(a) for a in argv]
        self.shown = " ".join(shlex.quote(a) for a in self.argv)
        self.log = log or logging.getLogger("aish.mcp")
        self.session_id: Optional[str] = None  # stdio has no sessions; kept for symmetry
        self.protocol_version: Optional[str] = None
        self._lock = threading.Lock()  # the waiters table
        self._wlock = threading.Lock()  # stdin: one message at a time, never under _lock
        self._waiters: dict[str, _Waiter] = {}
        self._stderr: collections.deque = collections.deque(maxlen=20)
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env={**os.environ, **{str(k): str(v) for k, v in (env or {}).items()}},
                start_new_session=True, bufsize=0)
        except FileNotFoundError:
            raise ToolError(f"command not found: {self.argv[0]}",
                            hint="install it or fix the server's command") from None
        except OSError as exc:
            raise ToolError(f"cannot start {self.argv[0]}: {exc.strerror}") from None
        threading.Thread(target=self._read_stdout, name="aish-mcp-stdout", daemon=True).start()
        threading.Thread(target=self._read_stderr, name="aish-mcp-stderr", daemon=True).start()

    def reset(self) -> None:
        self.protocol_version = None

    # ---------------------------------------------------------------- calls
    def request(self, msg: dict, timeout: float) -> dict:
        key = str(msg["id"])
        waiter = _Waiter()
        with self._lock:
            self._waiters[key] = waiter
        try:
            self._write(msg)
            if not waiter.event.wait(timeout):
                raise ToolError(f"{self._name()} did not answer {msg.get('method')} within {timeout:g}s",
                                hint="raise the server's timeout in the config")
        finally:
            with self._lock:
                self._waiters.pop(key, None)
        if waiter.msg is None:
            raise ToolError(self._exit_text())
        return waiter.msg

    def notify(self, msg: dict, timeout: float) -> None:
        self._write(msg)

    def close(self, timeout: float = 3.0) -> None:
        """Close stdin, wait; SIGTERM, wait; SIGKILL."""
        proc = self._proc
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        for step in (None, proc.terminate, proc.kill):
            if step is not None:
                try:
                    step()
                except OSError:
                    pass
            try:
                proc.wait(timeout=timeout / 2 if step is None else 1.0)
                break
            except subprocess.TimeoutExpired:
                continue
        self._wake_all()

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    # ---------------------------------------------------------------- details
    def _name(self) -> str:
        return self.argv[0].rsplit("/", 1)[-1]

    def _write(self, msg: dict) -> None:
        line = (json.dumps(msg, separators=(",", ":")) + "\n").encode("utf-8")
        with self._wlock:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write(line)
                self._proc.stdin.flush()
            except (OSError, ValueError):
                raise ToolError(self._exit_text()) from None

    def _exit_text(self) -> str:
        code = self._proc.poll()
        last = next((line for line in reversed(self._stderr) if line.strip()), "")
        text = f"{self._name()} exited" + (f" (status {code})" if code is not None else "")
        return text + (f": {last[:200]}" if last else "")

    def _read_stdout(self) -> None:
        assert self._proc.stdout is not None
        for raw in self._proc.stdout:
            try:
                msg: Any = json.loads(raw)
            except ValueError:
                self.log.info("mcp: %s wrote a non-JSON line to stdout", self._name())
                continue
            if jsonrpc.is_response(msg):
                with self._lock:
                    waiter = self._waiters.get(str(msg.get("id")))
                if waiter is not None:
                    waiter.msg = msg
                    waiter.event.set()
            elif jsonrpc.is_server_request(msg):
                try:
                    self._write(jsonrpc.answer_server_request(msg))
                except ToolError:
                    pass
        self._wake_all()

    def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        for raw in self._proc.stderr:
            self._stderr.append(raw.decode("utf-8", "replace").rstrip())

    def _wake_all(self) -> None:
        """The process is gone: every waiter gets "no answer" (msg None) at once."""
        with self._lock:
            waiters = list(self._waiters.values())
        for waiter in waiters:
            waiter.event.set()
