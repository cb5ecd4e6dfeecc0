"""``python -m aish.daemon [--handler MODULE:ATTR]``: run the daemon in this process.

Clients start it detached through ``aish daemon start`` (``spawn.start``).
The real handler is ``aish.app.service.Service``; it is imported on a background
thread once the FIFO is being served, so a cold start costs the caller little more
than the interpreter's own start and the ask path's imports (the rest loads after the
first answer: ``WARM_UP_AFTER``).  ``--handler`` (or
``AISH_DAEMON_HANDLER``) swaps in another callable ``handler(request, reply)``
— tests use it to script the daemon; ``MODULE`` may also be a ``.py`` path.
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Callable, Optional

from aish.daemon import heap, method_cache, restart, runtime
from aish.daemon.logfile import LineFormat, RotatingLog
from aish.daemon.server import Server
from aish.errors import AishError, DaemonError

if TYPE_CHECKING:
    from aish.app.service import Service


LOG_MAX_BYTES = 2_000_000  # then the log moves to daemon.log.1 and a new one starts


def setup_logging() -> logging.Logger:
    """Everything under the ``aish`` logger goes to a size-bounded file, never a terminal.
    A log that cannot be opened (unwritable or missing state dir) is no reason not to
    serve: records are dropped and users are told which directory to fix."""
    path = runtime.log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler: logging.Handler = RotatingLog(path, max_bytes=LOG_MAX_BYTES)
    except OSError as exc:
        runtime.log_problem = (f"the daemon log {path} cannot be written ({exc.strerror}): "
                               f"make {path.parent} writable, or set AISH_STATE_DIR")
        handler = logging.NullHandler()
    handler.setFormatter(LineFormat())
    # A record's caller (file, line, function), thread and multiprocessing names are never
    # written by that format, but logging finds them for every record: the caller by walking the
    # stack (``findCaller``, ~3% of a request thread's CPU at 50 shells).  The logging HOWTO's
    # "Optimization" switches turn those looks off for this process (the daemon's own); the
    # process id is the format's own (``LineFormat``: no ``getpid`` per record).
    logging._srcfile = None
    logging.logThreads = False
    logging.logMultiprocessing = False
    logging.logProcesses = False
    root = logging.getLogger("aish")
    root.handlers[:] = [handler]
    root.setLevel(os.environ.get("AISH_DAEMON_LOG_LEVEL", "INFO").upper())
    root.propagate = False
    logging.captureWarnings(True)
    return logging.getLogger("aish.daemon")


def load_handler(spec: str, log: logging.Logger) -> Callable:
    """``module:attr`` or ``/path/to/file.py:attr``; a class is built with ``log``."""
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        raise DaemonError(f"handler {spec!r} is not MODULE:ATTR")
    try:
        if module_name.endswith(".py"):
            import importlib.util

            loader_spec = importlib.util.spec_from_file_location("aish_daemon_handler", module_name)
            if loader_spec is None or loader_spec.loader is None:
                raise ImportError(f"no module at {module_name}")
            module = importlib.util.module_from_spec(loader_spec)
            loader_spec.loader.exec_module(module)
        else:
            import importlib

            module = importlib.import_module(module_name)
        target = getattr(module, attr)
    except Exception as exc:
        raise DaemonError(f"cannot load handler {spec}: {exc}") from None
    if isinstance(target, type):
        target = target(log)
    return getattr(target, "handle", target)


# The service's warm-up (``Service.warm_up``: the judgement of suggested commands, the cost
# ledger, MCP servers...) runs once the first request is answered, or after this many idle
# seconds (no request being answered meanwhile: a first question on a busy machine can take
# longer), at the latest ``WARM_UP_LATEST`` seconds after the service is built.  Not before: a
# cold ``aish ask`` waits for every module the daemon imports before its first byte, and work in
# another thread still takes the GIL from the answer.  The ask
# path itself imports what it needs (tests/e2e/test_first_answer_imports.py).
WARM_UP_AFTER = 2.0
WARM_UP_LATEST = 30.0


class LazyService:
    """``aish.app.service.Service``, built off the request path; ``handle`` waits for it."""

    def __init__(self, log: logging.Logger, start: bool = True, settle_heap: bool = False) -> None:
        self.log = log
        self._settle_heap = settle_heap  # the daemon's own process: its heap frozen once warm (daemon/heap.py)
        self.service: Optional[Service] = None
        self.error: Optional[BaseException] = None
        self._ready = threading.Event()
        self._served = threading.Event()  # a first request was answered: the rest may load
        self._asking = 0  # requests in ``handle`` now: the daemon is not idle while one is
        self._asking_lock = threading.Lock()
        if start:
            self.start()

    def start(self, after: Optional[threading.Event] = None) -> None:
        """Build in the background; ``after``: once it is set (the daemon's FIFO and pidfile
        are up, so the client that started it sends its question while the service loads,
        and the two threads do not take turns at the GIL before that)."""
        threading.Thread(target=self._build, args=(after,), name="service-init", daemon=True).start()

    def _build(self, after: Optional[threading.Event]) -> None:
        if after is not None:
            after.wait()
        try:
            from aish.app.service import Service

            self.service = Service(logging.getLogger("aish"))
        except BaseException as exc:  # reported to every request, logged once
            self.error = exc
            self.log.exception("cannot build the service")
        finally:
            self._ready.set()
        if self.service is None:
            return
        latest = time.monotonic() + WARM_UP_LATEST
        while not self._served.wait(WARM_UP_AFTER) and self._asking and time.monotonic() < latest:
            pass  # a question still being answered is not idle time
        self.service.warm_up()
        method_cache.save()  # what the next start need not compile (daemon/method_cache.py)
        if self._settle_heap:
            heap.settle()  # what was loaded so far is never walked by the collector again

    def handle(self, request, reply):
        if not self._ready.is_set():  # a cold start's question: other processes' part begins now
            from aish.app.early import begin

            begin(request)
        with self._asking_lock:
            self._asking += 1
        try:
            self._ready.wait()
            if self.service is None:
                raise AishError(f"the daemon cannot serve requests: {self.error}",
                                hint=runtime.log_problem or f"see {runtime.log_path()}")
            return self.service.handle(request, reply)
        finally:
            with self._asking_lock:
                self._asking -= 1
            if self.service is not None:
                self._served.set()

    def close(self) -> None:
        if self.service is not None:
            self.service.close()


def restore_user_environment() -> None:
    """Undo what ``spawn._child_env`` added (``AISH_SPAWNED``, the caller's import path in
    ``PYTHONPATH``), once this interpreter's path is set up: MCP stdio servers then see the
    user's own environment."""
    if os.environ.pop("AISH_SPAWNED", None):
        user = os.environ.pop("AISH_USER_PYTHONPATH", None)
        if user is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = user


def main(argv: Optional[list] = None) -> int:
    # (--resume: exec'd over a daemon whose install was replaced; daemon/restart.py)
    argv, resume = restart.parse(sys.argv[1:] if argv is None else argv)
    spec = os.environ.get("AISH_DAEMON_HANDLER", "")
    if argv[:1] == ["--handler"] and len(argv) == 2:
        spec = argv[1]
    elif argv:
        print("usage: python -m aish.daemon [--handler MODULE:ATTR]", file=sys.stderr)
        return 2
    restore_user_environment()
    os.umask(0o077)
    log = setup_logging()
    method_cache.install(runtime.log_path().parent)  # (a forked daemon has it from spawn already)
    threading.excepthook = lambda a: log.error("thread %s crashed", a.thread and a.thread.name,
                                               exc_info=a.exc_value)
    service = None
    try:
        if spec:
            handler = load_handler(spec, log)
        else:
            service = LazyService(log, start=False, settle_heap=True)
            handler = service.handle
        server = Server(handler, log=log, resume=resume, restart_argv=argv,
                        before_restart=service.close if service is not None else lambda: None)
        if service is not None:
            service.start(after=server.ready)
        signal.signal(signal.SIGTERM, lambda *_: server.shutdown())
        signal.signal(signal.SIGINT, lambda *_: server.shutdown())
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        server.serve_forever()
    except DaemonError as err:
        log.info("not serving: %s", err)
        print(f"aish daemon: {err}", file=sys.stderr)
        return 1
    except Exception:
        log.exception("daemon crashed")
        return 1
    finally:
        if service is not None:
            try:
                service.close()
            except Exception:
                log.exception("closing the service failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
