"""xdist's workers forked from one warmed template process, not each started on a fresh Python.

Why: a popen worker starts an interpreter and imports pytest, xdist, execnet, the conftests, the
test modules and the aish modules they import, all on its own: ~1.1 s of CPU a worker before its
first case, three of them at once on two cores (docs/performance.md, "Workers forked from a
template").  Here the controller forks a template at its ``pytest_cmdline_main`` (pytest, xdist
and the conftest are imported by then, no session is configured yet: nothing a session does is
copied), the template imports the test modules through the controller's assertion-rewriting
import hook (a failing assert in a worker reads as before) and forks one child per worker.

xdist still starts a process per worker: its tx becomes ``popen//python=LAUNCHER``, where
LAUNCHER is ``python -I -S tests/mcp_servers/launch.py --or-python SOCKET`` (stdlib only, ~10 ms),
to which execnet appends ``-u -c BOOTSTRAP`` as to any Python.  The launcher hands its pipes to
the template and stands for the forked child (fork_server.py's wire: signals passed on, the
child's exit status, the child killed when the launcher is); the child takes the pipes as its
stdio, the launcher's environment and working directory, and runs BOOTSTRAP as ``python -u -c``
would.  Everything after that (the worker's config, its conftests' hooks, its collection) runs
in the worker as before: what the template imported is only found in ``sys.modules`` already.

The template leaves when the controller does (a pidfd on it), killing its children.  No fork
(-n0, -p no:xdist, a --tx of one's own, AISH_TEST_FORK_WORKERS=0, a controller with threads, no
fork or pidfd on the platform): plain popen workers.  A template that is gone: each launcher runs
BOOTSTRAP itself (``--or-python``), a plain popen worker again.
"""
from __future__ import annotations

import atexit
import gc
import io
import os
import shlex
import shutil
import sys
import tempfile
import threading
import traceback
import types
from pathlib import Path

from tests import template_session
from tests.mcp_servers import fork_server

LAUNCHER = Path(fork_server.__file__).with_name("launch.py")
WANTED_ENV = "AISH_TEST_FORK_WORKERS"  # "0": every worker on a fresh Python (to tell a fault of the fork's)
BOOTSTRAP_FLAGS = ["-u", "-c"]  # what execnet's popen gateway runs: python -u -c BOOTSTRAP
PRELOADED: list[str] = []  # in a forked worker, the modules its template had imported


def wanted(config) -> bool:
    """Workers (xdist made ``-n N`` N ``popen`` specs, none of them one's own), and a process
    that can fork them: one thread (a fork copies only the one, and maybe another's held lock)."""
    specs = getattr(config.option, "tx", None) or []
    return bool(specs) and set(specs) == {"popen"} and os.environ.get(WANTED_ENV, "1") != "0" \
        and hasattr(os, "fork") and hasattr(os, "pidfd_open") and threading.active_count() == 1


def start(config) -> bool:
    """In the controller, after xdist turned ``-n N`` into N ``popen`` specs: fork the template and
    point the specs at the launcher.  Whether it did."""
    if not wanted(config):
        return False
    specs = config.option.tx
    directory = Path(tempfile.mkdtemp(prefix="aish-workers-"))
    try:
        listener = fork_server.listen(directory)
    except OSError:
        shutil.rmtree(directory, ignore_errors=True)
        return False
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    owner = os.getpid()
    if os.fork() == 0:
        _template(listener, directory, owner, config)
    listener.close()  # the template's alone: with it gone, a launcher is refused, not left waiting
    atexit.register(shutil.rmtree, directory, True)
    launcher = shlex.join([sys.executable, "-I", "-S", str(LAUNCHER), "--or-python", str(directory / "sock")])
    config.option.tx = [f"popen//python={launcher}"] * len(specs)
    return True


def _template(listener, directory: Path, owner: int, config) -> None:
    """The forked controller: import, then fork a worker per launcher until the owner leaves;
    never returns."""
    try:
        # a process group of its own: the terminal's ^C reaches the launchers, which pass it on (once
        # per worker).  Not a session: that is a scheduling group of its own (autogroup), and with
        # one the workers' cases took up to 1.4x the wall for the same CPU on a loaded host
        os.setpgid(0, 0)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):
            os.dup2(null, fd)
        os.close(null)
        import execnet.gateway_base  # noqa: F401 - what the workers import whatever they run
        import xdist.remote  # type: ignore[import-untyped]  # noqa: F401

        fork_server.serve(listener, owner, become_worker, lambda request: preload(config, request))
    except BaseException:  # noqa: B036 - whatever ends the template, the controller's code must not go on here
        traceback.print_exc()
    finally:
        shutil.rmtree(directory, ignore_errors=True)
        os._exit(0)


def preload(config, request: dict) -> None:
    """Import what every worker imports: the test modules (with the conftests and aish modules
    they import) of the paths the run names, through the controller's assertion-rewriting hook,
    in collection order.  They are imported once the first worker is asked for, in its launcher's
    environment and directory (the controller's once its session is configured: a module may read
    a variable it sets, as tests/mcp/test_fork_server.py's skip does).  A module that fails to
    import is left to the worker, which reports it as before; the hook is taken out after (a worker
    installs its own)."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    if not config.getoption("lf", False):  # --lf collects only some files: import no other
        from _pytest.pathlib import ImportMode, import_path

        mode = ImportMode(config.getoption("importmode"))
        namespaces = config.getini("consider_namespace_packages")
        for path in modules_to_import(config):
            try:
                import_path(path, mode=mode, root=config.rootpath, consider_namespace_packages=namespaces)
            except BaseException:  # noqa: B036 - pytest.skip at a module's top is one
                continue
    hook = config.pluginmanager.rewrite_hook
    if hook in sys.meta_path:
        sys.meta_path.remove(hook)
    template_session.make(config)  # a worker's session and items, made once (tests/template_session.py)
    compile_lazy_patterns()
    PRELOADED[:] = sorted(sys.modules)  # (what tests/test_fork_workers.py finds compiled in a worker)
    gc.freeze()  # the children's collections leave the template's objects (and their pages) alone


def compile_lazy_patterns() -> int:
    """Compile, once for every worker, the patterns aish's modules compile on first use (LazyRegex, and an
    AnyCase's lowered pattern, the one ASCII text is searched with): a daemon compiles only what its first
    texts ask (aish/safety/lazy_regex.py), but each worker of a run compiled most of the judge's and the
    redactor's (a third of the corpora asked 1,035 of 1,238), ~0.15 s of CPU a worker.  A pattern that
    fails to compile is left to the rule that uses it, as before.  How many were compiled here."""
    lazy_regex, any_case = sys.modules.get("aish.safety.lazy_regex"), sys.modules.get("aish.safety.any_case")
    if lazy_regex is None:
        return 0
    patterns = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("aish.") and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, lazy_regex.LazyRegex):
                    patterns[id(value)] = value
                elif any_case is not None and isinstance(value, any_case.AnyCase):
                    patterns[id(value._lower)] = value._lower
    compiled = 0
    for pattern in patterns.values():
        try:
            compiled += pattern.compiled is not None
        except Exception:  # noqa: BLE001 - re.error and whatever a broken pattern raises: the rule's to raise
            continue
    return compiled


def modules_to_import(config) -> list[Path]:
    """The test modules a worker collects for the run's arguments, in pytest's order (a
    directory's entries by name; what ``pytest_ignore_collect`` leaves out, left out)."""
    from _pytest.python import path_matches_patterns

    patterns = config.getini("python_files")
    found: list[Path] = []

    def walk(path: Path) -> None:
        if config.hook.pytest_ignore_collect(collection_path=path, config=config):
            return
        if path.is_dir():
            for entry in sorted(os.scandir(path), key=lambda entry: entry.name):
                if entry.is_dir() and entry.name != "__pycache__" or entry.name.endswith(".py"):
                    walk(Path(entry.path))
        elif path_matches_patterns(path, patterns) and path not in found:
            found.append(path)

    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::", 1)[0])
        if path.exists():
            walk(path.resolve())
    return found


def become_worker(fds: list[int], request: dict, keep_closed: list) -> None:
    """In a child of the template: become ``python -u -c BOOTSTRAP`` as the launcher was asked to
    run it (its stdio, environment, working directory); never returns."""
    fork_server.become_child(fds, request, keep_closed, _run_bootstrap, exit_handlers=True)


def _run_bootstrap(request: dict) -> None:
    argv = list(request["argv"])
    if argv[:-1] != BOOTSTRAP_FLAGS:
        raise SystemExit(f"fork_workers: not an execnet bootstrap: {argv[:-1]}")
    sys.argv = ["-c"]
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    sys.stdout, sys.stderr = (  # as -u makes them: each line passed on at once
        io.TextIOWrapper(io.BufferedWriter(io.FileIO(fd, "w", closefd=False)), write_through=True,
                         line_buffering=True, errors=errors)
        for fd, errors in ((1, "strict"), (2, "backslashreplace")))
    for name in ("stdin", "stdout", "stderr"):  # (setattr: typeshed has them final)
        setattr(sys, f"__{name}__", getattr(sys, name))
    template_session.serve_in_worker()
    main = sys.modules["__main__"] = types.ModuleType("__main__")
    exec(compile(argv[-1], "<string>", "exec"), vars(main))
