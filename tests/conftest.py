"""Shared fixtures: every test runs with private state, runtime and config paths."""
from __future__ import annotations

import atexit
import gc
import itertools
import os
import sys
import weakref
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _cache_bytecode_outside_the_tree() -> None:
    """The suite starts hundreds of Python processes (the CLI, daemons, workers) and rewrites
    the asserts of every test module; with PYTHONDONTWRITEBYTECODE each one compiles all of it
    again, about a third of the suite's CPU.  Keep that setting's promise (no __pycache__ in the
    tree) with a prefix under .pytest_cache instead: this checkout's, owned by the user (a
    shared /tmp directory would let another user plant bytecode)."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or sys.pycache_prefix:
        return
    prefix = str(TESTS.parent / ".pytest_cache" / "pycache")
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode, sys.pycache_prefix = False, prefix


_cache_bytecode_outside_the_tree()

from tests import collector_pauses, memory_state, mcp_servers, old_runs, schedule  # noqa: E402 - compiled with the cache above
# the stub server (requests), the in-process daemon (aish's service) and the helpers are
# imported by the fixtures that use them: the controller of an xdist run needs none of them
# Marks by directory, so a new module there cannot forget its own: `pytest -m "not e2e and not
# shell"` is the unit part.
DIRECTORY_MARKS = {"e2e": "e2e", "shell": "shell"}
# Most cases wait (daemon start, tmux polling, model stubs) rather than compute, so more workers
# than cores pay off: measured on 2 cores, see docs/performance.md.
WORKERS_PER_CORE = 2
# The unit part waits less (no shells, no daemons): one worker more than the cores did best on
# 2 cores, against two per core (docs/performance.md, "The unit part, sixth session").
UNIT_PART_EXTRA_WORKERS = 1


# The unit part's command (README, .ci/run, bench/bench_suite.py): its workers need not even
# collect the two directories, whose every case it deselects.
UNIT_PART_EXPRESSIONS = {"not e2e and not shell", "not shell and not e2e"}


def pytest_cmdline_main(config):
    """xdist (tryfirst) has turned ``-n`` into its workers' specs, no session is configured yet:
    the workers are forked from a template forked now (tests/fork_workers.py)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        from tests import fork_workers

        fork_workers.start(config)


def pytest_configure(config):
    # one process imports the MCP SDK; test servers fork from it (started now if the run holds them)
    mcp_servers.start_session(early=runs_mcp_tests(config))
    collector_pauses.fewer_young_collections()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _end_worker_without_teardown()


MCP_TESTS = TESTS / "mcp"  # the modules that start most of the MCP test servers


def runs_mcp_tests(config) -> bool:
    """Does a path the run names hold tests/mcp or lie in it (the unit part and the default
    suite name tests/)?  Its MCP test servers' fork server is then started at once."""
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::", 1)[0]).resolve()
        if path == MCP_TESTS or MCP_TESTS in path.parents or path in MCP_TESTS.parents:
            return True
    return False


_LEAVES_AFTER_ITS_SESSION = False


def _end_worker_without_teardown() -> None:
    """An xdist worker leaves with ``os._exit`` once every exit handler registered after this
    one has run (``weakref.finalize``'s: temporary directories): the interpreter's teardown
    would free, one by one, every object the worker's session made (about 1 s of CPU a worker,
    measured with the CPU its controller reaps).  Its results are with the controller by then
    and its exit status is not read.  Where a finalizer's exit handler is already registered
    (so it would run after this one), the worker ends as usual.

    It leaves as soon as its session has finished (``pytest_unconfigure``): xdist sent the
    controller its last message ("workerfinished") at the end of ``pytest_sessionfinish``, and the
    controller waits for every worker's process to end before its own session ends.  What pytest
    does after that is of no use in a worker: its configuration's clean-up runs the unraisable
    exception plugin's five full ``gc.collect()`` passes over the worker's heap (0.2-0.9 s of
    wall a worker, each on the run's critical path), and the interpreter then joins the threads
    the session left."""
    global _LEAVES_AFTER_ITS_SESSION
    if weakref.finalize._registered_with_atexit:  # type: ignore[attr-defined]
        return
    _LEAVES_AFTER_ITS_SESSION = True

    def leave() -> None:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(0)

    atexit.register(leave)


def pytest_sessionstart(session):
    """The controller deletes old runs' temporary directories while this run works
    (tests/old_runs.py): pytest would after the last case."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        old_runs.start(session.config)
        session.config.pluginmanager.register(_ControllerLeaves(session), "aish-controller-leaves")


class _ControllerLeaves:
    """An xdist controller leaves once the last plugin has unconfigured, with its session's exit
    status.  Its summary is printed, its workers have ended and its cases ran elsewhere; what
    pytest does after that cost the run's last 0.2-0.7 s: its clean-up runs the unraisable
    exception plugin's five full ``gc.collect()`` passes over the controller's heap (every
    case's reports), then the interpreter frees that heap.  The exit handlers still run (this
    run's lock file goes), but for pytest's second pass over old runs' directories: those were
    deleted at the start (tests/old_runs.py), and another user's runs that ended meanwhile made
    that pass last seconds.  A run in one process (-n0, -p no:xdist) ends as usual."""

    def __init__(self, session) -> None:
        self.session = session

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config):
        if not config.pluginmanager.has_plugin("dsession"):
            return
        status = int(self.session.exitstatus)
        capture = config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.stop_global_capturing()  # what it held goes to the terminal first
        from _pytest.pathlib import cleanup_numbered_dir

        atexit.unregister(cleanup_numbered_dir)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        atexit._run_exitfuncs()
        os._exit(status)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    old_runs.finish()
    cache = getattr(session.config, "cache", None)
    if exitstatus == 0 and _DURATIONS and cache is not None \
            and not os.environ.get("PYTEST_XDIST_WORKER"):
        cache.set(schedule.CACHE_KEY, schedule.record(_recorded_seconds(session.config), _DURATIONS))


def pytest_ignore_collect(collection_path, config):
    """``-m "not e2e and not shell"`` collects neither directory: nothing there could run."""
    if _is_the_unit_part(config) and collection_path.parent == TESTS \
            and collection_path.name in DIRECTORY_MARKS:
        return True
    return None


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """Collection runs with the garbage collector paused (tests/collector_pauses.py); an xdist
    controller, which collects nothing, passes straight through."""
    collector_pauses.pause()
    try:
        return (yield)
    finally:
        collector_pauses.resume()


def pytest_collection_finish(session):
    """What collection made (aish's modules, the test modules, the cases) lives for the whole
    session: kept out of the collector's full passes, which otherwise walk it every time
    (gc.freeze; the cases' own objects are collected as before).  Which of the MCP SDK's
    packages collection imported is kept for tests/test_schedule.py (none should be)."""
    schedule.AT_COLLECTION[:] = [name for name in schedule.MCP_SDK if name in sys.modules]
    gc.freeze()


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    mcp_servers.end_session()
    if _LEAVES_AFTER_ITS_SESSION:  # an xdist worker (see _end_worker_without_teardown)
        atexit._run_exitfuncs()  # as at the interpreter's exit, the last of them os._exit(0)


def pytest_collection_modifyitems(config, items):
    inside = f"{TESTS}{os.sep}"  # (a string's prefix: pathlib's relative_to per case was ~30 ms a worker)
    for item in items:
        path = str(item.path)
        directory, sep, _ = path[len(inside):].partition(os.sep) if path.startswith(inside) else ("", "", "")
        if sep and directory in DIRECTORY_MARKS:
            item.add_marker(DIRECTORY_MARKS[directory])
    _leave_out_slow_cases(config, items)
    schedule.order(items, getattr(config, "workerinput", {}).get(schedule.WORKER_INPUT_KEY))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """The controller hands its workers the modules' recorded seconds (tests/schedule.py), read
    once for all of them: every worker orders the cases alike, whatever another run writes to
    the cache meanwhile (read per worker, a run that ended between two workers' starts made
    xdist stop with "Different tests were collected")."""
    config = node.config
    seconds = getattr(config, "_aish_worker_seconds", None)
    if seconds is None:
        seconds = config._aish_worker_seconds = _recorded_seconds(config)
    node.workerinput[schedule.WORKER_INPUT_KEY] = seconds


def _recorded_seconds(config) -> dict:
    cache = getattr(config, "cache", None)
    return cache.get(schedule.CACHE_KEY, {}) if cache is not None else {}


_DURATIONS: dict[str, float] = {}


def pytest_runtest_logreport(report):
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controller, or a run without workers
        module = schedule.module_of(report.nodeid)
        _DURATIONS[module] = _DURATIONS.get(module, 0.0) + report.duration


@pytest.hookimpl(wrapper=True, specname="pytest_runtest_teardown")
def pytest_runtest_teardown_private_paths(item, nextitem):
    """After the case's last fixture is gone (a teardown that failed too), the environment it
    had goes (``_leave_private_paths``)."""
    try:
        return (yield)
    finally:
        _leave_private_paths(item)


def pytest_runtest_teardown(item, nextitem):
    """After the last static check of a run, its parsed trees are set aside (kept out of the
    collector's full passes, which walked them for the rest of the session; freeing them cost
    more), and the garbage collector paused for the static checks (``pytest_runtest_setup``)
    starts again."""
    if schedule.needs(item) == schedule.READS_SOURCES \
            and (nextitem is None or schedule.needs(nextitem) != schedule.READS_SOURCES):
        from tests import sources

        sources.set_aside()
        collector_pauses.resume()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before the case's first fixture: its private paths (``_enter_private_paths``).
    Only cases on the real wire may start an `aish` process (tests/helpers.py's ``aish``).
    The static checks run with the garbage collector paused (tests/collector_pauses.py)."""
    from tests import helpers

    _enter_private_paths(item)

    if schedule.needs(item) == schedule.READS_SOURCES:
        collector_pauses.pause()
    helpers.ON_THE_WIRE = any(item.get_closest_marker(mark) for mark in DIRECTORY_MARKS.values())


def _leave_out_slow_cases(config, items) -> None:
    """Slow cases run only when ``-m`` names the marker (``-m slow``, as .ci/run does) or the
    command line names the cases themselves; so ``-m "not e2e and not shell"`` stays the fast
    unit part (a ``-m 'not slow'`` in addopts would be replaced by any other ``-m``)."""
    if "slow" in (config.option.markexpr or "") or all("::" in arg for arg in config.args):
        return
    kept, slow = [], []
    for item in items:
        (kept if item.get_closest_marker("slow") is None else slow).append(item)
    if slow:  # (a list's `not in kept` per case was ~0.1 s of every collection)
        config.hook.pytest_deselected(items=slow)
        items[:] = kept


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject's addopts): workers for a waiting-bound suite; none when the command
    line names single cases (``tests/x.py::test_y``), which then run in this process."""
    args = config.args or []
    if args and all("::" in arg for arg in args):
        return 0
    cores = os.cpu_count() or 1
    if _is_the_unit_part(config):
        return cores + UNIT_PART_EXTRA_WORKERS
    return WORKERS_PER_CORE * cores


def _is_the_unit_part(config) -> bool:
    return " ".join((config.option.markexpr or "").split()) in UNIT_PART_EXPRESSIONS


def pytest_addoption(parser, pluginmanager):
    """With ``-p no:xdist`` (a debugger, a profiler) the addopts' ``-n`` and ``--dist`` still
    parse, and are ignored: the run is in this process.  (The addopts' ``-p xdist`` registered
    xdist's own options before ``-p no:xdist`` took it out again: those stay and parse.)"""
    group = parser.getgroup("xdist", "pytest-xdist is disabled (-p no:xdist)")
    if not pluginmanager.has_plugin("xdist") and not any(option.dest == "numprocesses" for option in group.options):
        # _addoption: pytest reserves lowercase short options for plugins; xdist registers -n so
        group._addoption("-n", "--numprocesses", dest="numprocesses", help="ignored")
        group.addoption("--dist", dest="dist", help="ignored")


_ENV_DIRS = itertools.count()
# what every case's environment says (aish's dirs under the case's path) or leaves out
_PRIVATE_DIRS = {"AISH_STATE_DIR": "state", "AISH_RUNTIME_DIR": "run", "AISH_CONFIG": "config.toml",
                 "XDG_DATA_HOME": "data"}  # XDG_DATA_HOME: `aish init` writes its loader there
_LEFT_OUT = ("OPENROUTER_API_KEY", "OPENAI_API_KEY", "AISH_CONV", "AISH_MODEL")


def _fresh_path(tmp_path_factory) -> Path:
    """A new path under one parent per process, not made yet (``mktemp`` per case was a third
    of what a trivial case cost)."""
    return tmp_path_factory.getbasetemp() / "aish" / str(next(_ENV_DIRS))


_PRIVATE = pytest.StashKey[tuple]()


def _enter_private_paths(item) -> None:
    """Point aish at fresh paths; no test may touch the real home or probe real ports.  The
    state directory is on a memory file system where there is one (tests/memory_state.py).

    The directories are made when something needs them (aish makes its state and runtime dirs
    itself; ``aish_env`` makes them for a case that asks for it): most cases never touch them,
    and two directories a case, made and later deleted by pytest, were ~4,000 a unit run
    (seconds of wall time on a disk other work writes to).  The environment is set before the
    case's first fixture is made and put back after its last one is gone
    (``pytest_runtest_setup`` and ``pytest_runtest_teardown``), not by an autouse fixture nor
    through ``monkeypatch``: a fixture of every case was a fifth of what a trivial case cost in
    its process; a case's own ``monkeypatch`` of these names is undone first, then this."""
    base = _fresh_path(item.config._tmp_path_factory)
    saved = {key: _now(key) for key in _WATCHED}
    text = str(base)
    values = {key: f"{text}/{name}" for key, name in _PRIVATE_DIRS.items()}
    memory = memory_state.directory()
    if memory is not None:  # the ledger's and the logs' fsyncs cost next to nothing there
        values["AISH_STATE_DIR"] = f"{memory}/{base.name}/state"
    values["AISH_DETECT_PORTS"] = ""
    for key, value in values.items():
        os.environ[key] = value
    for key in _LEFT_OUT:
        if saved[key] is not None:
            del os.environ[key]
    item.stash[_PRIVATE] = (base, saved)


def _leave_private_paths(item) -> None:
    entered = item.stash.get(_PRIVATE, None)
    if entered is None:
        return
    del item.stash[_PRIVATE]
    for key, value in entered[1].items():
        if _now(key) == value:  # (the names left out, mostly: absent before and after)
            continue
        if value is None:
            del os.environ[key]
        else:
            os.environ[key] = os.fsdecode(value)


# the names a case's environment sets or leaves out, read from the dict os.environ keeps them in (as
# tests/safety/kept.py does): through os.environ, which encodes each name and raises inside for an
# absent one, setting and putting back the paths was ~70 us a case, ~half of it reading
_WATCHED = (*_PRIVATE_DIRS, "AISH_DETECT_PORTS", *_LEFT_OUT)
_RAW = getattr(os.environ, "_data", None)
_ENCODED = {key: os.fsencode(key) for key in _WATCHED}


def _now(key: str):
    """The variable's value as os.environ holds it (bytes on POSIX), or None."""
    return _RAW.get(_ENCODED[key]) if _RAW is not None else os.environ.get(key)


@pytest.fixture
def aish_private_paths(request) -> Path:
    """The case's private path (tests/conftest.py's ``_enter_private_paths``), not made yet."""
    return request.node.stash[_PRIVATE][0]


@pytest.fixture
def aish_env(aish_private_paths) -> Path:
    """The case's private directory (aish's config and runtime dirs are in it; its state dir too
    where no memory file system is), made."""
    aish_private_paths.mkdir(parents=True)
    (aish_private_paths / "run").mkdir(mode=0o700)
    return aish_private_paths


@pytest.fixture
def memory_dir(aish_private_paths) -> Path:
    """A fresh directory of the case's on the memory file system where the host has one
    (tests/memory_state.py), else under its private path: for files a case writes and reads back
    and whose place it does not check, a cost ledger's (SQLite's fsyncs on this disk under load:
    ~30 ms a new ledger, on memory 0.3 ms)."""
    memory = memory_state.directory()
    path = (memory / aish_private_paths.name if memory is not None else aish_private_paths) / "files"
    path.mkdir(parents=True)
    return path


def write_config(path: os.PathLike, text: str) -> Path:
    path = Path(path)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def config_file(aish_env):
    """Write the TOML config the aish under test reads; returns a writer."""
    def write(text: str) -> Path:
        return write_config(os.environ["AISH_CONFIG"], text)
    return write


@pytest.fixture
def stub(config_file):
    """A llama.cpp-shaped model stub serving `fast` (model m); the daemon stops afterwards."""
    from tests.helpers import stop_daemon
    from tests.stub_server import StubServer

    with StubServer(shape="llamacpp") as server:
        config_file(f'[models.fast]\nendpoint = "{server.url}"\nmodel = "m"\n')
        yield server
        stop_daemon()


@pytest.fixture
def service(aish_env):
    """The daemon's Service in this process, sent the requests `aish` sends (tests/in_process.py)."""
    from tests.in_process import InProcessDaemon

    daemon = InProcessDaemon()
    yield daemon
    daemon.close()


@pytest.fixture
def wired(aish_env):
    """The daemon's server on a thread of this process serving the real service, on real
    FIFOs (tests/in_process.py's ``WiredDaemon``): ``aish_here`` runs the CLI against it."""
    from tests.in_process import WiredDaemon

    daemon = WiredDaemon()
    yield daemon
    daemon.stop()
