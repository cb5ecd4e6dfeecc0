"""xdist's worker's configuration, session and items made once, in the template its workers fork
from (tests/fork_workers.py), not in each worker.

Why: a forked worker still parsed the command line, configured its plugins and made every item of
the run (pytest's ``Function`` and ``FunctionDefinition`` for each of ~1,930 test functions, with
their fixture closures): 0.44-0.46 s of CPU a worker, three of them at once on two cores at the
run's start (docs/performance.md, "The unit part's own costs, twenty-first session").

How: once the template has imported the test modules (at the first launcher's request, in its
environment), it does what xdist's worker code (xdist/remote.py) does up to collection, as a worker
whose identity is not known yet (xdist's variables and ``config.workerinput`` name it ``NEUTRAL``):
``_prepareconfig`` of the controller's arguments (those xdist sends every worker), xdist's
``setup_config``, the session configured and started, its items collected. What depends on the
worker is left to it: ``pytest_collection_modifyitems`` (``-m``/``-k`` deselect, tests/schedule.py
orders by the worker count and the seconds xdist hands each worker) and ``pytest_collection_finish``
(xdist sends the ids), the basetemp xdist gives it, its channel. In a worker forked from that
template, xdist's code asks ``_prepareconfig`` for its configuration with the same arguments and
gets the template's (``_prepared``): the global capture started afresh (the template's is stopped:
its files would be every worker's), the environment the template's configuration changed changed
again, the import paths its collection added added; pytest's ``wrap_session`` then runs as in any
worker, but that it gets the template's session, the configure step is the temporary directories'
factory made again for the worker's basetemp, ``pytest_sessionstart`` reaches the plugins registered
since (xdist's ``WorkerInteractor``: "workerready"), and the collection is its last two hooks.

A template whose session went wrong in any way (an exception, a collection report not passed, a
warning recorded while collecting, a thread started, a temporary directory made, a pytest or xdist
without the pieces named here) leaves it unused: each worker makes its own, as before.
``--lf``, ``--ff``, ``--nf`` and ``--sw`` read what earlier runs left when each worker collects:
they collect in each worker too.
"""
from __future__ import annotations

import os
import sys
import threading
from typing import Any, Optional

NEUTRAL = "template"  # the worker's id while the template configures: a worker, not yet which
# the collection's hooks each worker runs itself: they read its identity
LEFT_TO_THE_WORKER = ("pytest_collection_modifyitems", "pytest_collection_finish")
_READ_EARLIER_RUNS = ("lf", "failedfirst", "newfirst", "stepwise", "stepwise_skip")


class Made:
    """What the template made: a configuration, its session and items, and what else a worker
    made them from."""

    def __init__(self, config: Any, session: Any, args: list[str], environ: dict, sys_path: list[str]) -> None:
        self.config, self.session, self.args = config, session, args
        self.plugins = list(config.pluginmanager.get_plugins())  # those that saw the session start
        self.environ = environ  # what the configuration set ({name: None}: took out)
        self.sys_path = sys_path


made: Optional[Made] = None


class _Watch:
    """Registered while the template collects: whatever a worker would have reported."""

    def __init__(self) -> None:
        self.reported: list[str] = []
        self.collecting = False  # (warnings of the configuration, replayed at registration, reach the workers anyway)

    def pytest_collectreport(self, report: Any) -> None:
        if not report.passed:
            self.reported.append(f"collection {report.outcome}: {report.nodeid}")

    def pytest_warning_recorded(self, warning_message: Any, when: str, nodeid: str, location: Any) -> None:
        if self.collecting:
            self.reported.append(f"warning {warning_message.message}")


def make(controller_config: Any) -> Optional[Made]:
    """In the template, its test modules imported: a worker's configuration, started session and
    collected items, kept in ``made`` for the workers it forks.  None where it went wrong (and
    each worker collects as before)."""
    global made
    if any(controller_config.getoption(name, False) for name in _READ_EARLIER_RUNS):
        return None
    try:
        import _pytest.config
        import _pytest.main
        from _pytest.tmpdir import TempPathFactory  # noqa: F401 - what a worker's configure step makes
        from xdist.remote import setup_config  # type: ignore[import-untyped]
    except ImportError:
        return None
    if not all(hasattr(_pytest.main, name) for name in ("wrap_session", "Session")):
        return None
    args = [str(arg) for arg in controller_config.invocation_params.args or ()]
    before = dict(os.environ)
    workers = len(getattr(getattr(controller_config, "option", None), "tx", None) or ())
    os.environ.update(PYTEST_XDIST_WORKER=NEUTRAL, PYTEST_XDIST_TESTRUNUID=NEUTRAL,
                      PYTEST_XDIST_WORKER_COUNT=str(workers))
    config = session = None
    reported = ["not made"]
    try:
        config = _pytest.config._prepareconfig(list(args), None)  # (its parse puts the addopts into the list)
        setup_config(config, None)  # as xdist's worker does before its session: no basetemp yet
        # a worker's configuration has xdist's input before it is configured (plugins ask: junitxml writes no
        # file in a worker); its own is given after the fork
        config.workerinput = {"workerid": NEUTRAL, "workercount": workers, "testrunuid": NEUTRAL,
                              "mainargv": list(sys.argv)}
        config.workeroutput = {}
        session = _pytest.main.Session.from_config(config)
        config._do_configure()
        config.hook.pytest_sessionstart(session=session)
        watch = _Watch()
        config.pluginmanager.register(watch, "aish-template-watch")
        watch.collecting = True
        hook = config.hook
        callers = {name: getattr(hook, name) for name in LEFT_TO_THE_WORKER}
        kinds = {name: _answer_once_with(caller, lambda **kwargs: []) for name, caller in callers.items()}
        try:
            hook.pytest_collection(session=session)
        finally:
            for name, caller in callers.items():
                caller.__class__ = kinds[name]  # (each was silent for its call in the template's collection)
            config.pluginmanager.unregister(watch)
        reported = watch.reported
        if threading.active_count() != 1:
            reported.append("a thread started")
        if getattr(getattr(config, "_tmp_path_factory", None), "_basetemp", True) is not None:
            reported.append("a temporary directory made")
    except BaseException as error:  # noqa: B036 - whatever it was, the workers collect as before
        reported = [f"{type(error).__name__}: {error}"]
    finally:
        if config is not None:
            capture = config.pluginmanager.getplugin("capturemanager")
            if capture is not None:
                capture.stop_global_capturing()  # its files would be every forked worker's
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        after = dict(os.environ)
        os.environ.clear()
        os.environ.update(before)
    if reported or session is None:
        _forget(config)
        return None
    changed: dict = {key: value for key, value in after.items()
                     if before.get(key) != value and not key.startswith("PYTEST_XDIST_")}
    changed.update((key, None) for key in before if key not in after)
    made = Made(config, session, args, changed, list(sys.path))
    return made


def _answer_once_with(caller: Any, answer: Any) -> type:
    """Make pluggy's hook ``caller`` give ``answer(**kwargs)`` at its next call, and be itself again after
    (the template's collection: every call).  The caller object stays where pluggy and pytest keep it (pytest
    9.2 hands out pluggy's relay itself, whose callers pluggy walks when a plugin registers: a function put in
    their place broke there), only its class changes; returns the class it had."""
    real = type(caller)

    def once(self: Any, **kwargs: Any) -> Any:
        self.__class__ = real
        return answer(**kwargs)

    caller.__class__ = type(f"_Once{real.__name__}", (real,), {"__slots__": (), "__call__": once})
    return real


def _forget(config: Any) -> None:
    """A configuration the workers will not use: its assertion-rewriting hook out of the imports
    (each worker installs its own); the rest is left, never called again."""
    if config is None:
        return
    from _pytest.assertion import assertstate_key

    state = config.stash.get(assertstate_key, None)
    hook = getattr(state, "hook", None)
    if hook is not None and hook in sys.meta_path:
        sys.meta_path.remove(hook)


def serve_in_worker() -> None:
    """In a worker forked from the template, before xdist's code runs: its ``_prepareconfig`` gives
    the template's configuration (``_prepared``), once."""
    if made is None:
        return
    import _pytest.config

    original = _pytest.config._prepareconfig

    def prepared(args: Any, plugins: Any = None) -> Any:
        _pytest.config._prepareconfig = original
        if made is None or plugins is not None or [str(arg) for arg in args] != made.args:
            return original(args, plugins)
        return _prepared(made)

    _pytest.config._prepareconfig = prepared


def _prepared(made: Made) -> Any:
    """The template's configuration, as ``_prepareconfig`` leaves a worker's (its global capture
    started and suspended), with what pytest's ``wrap_session`` will do again made to use what the
    template did."""
    import _pytest.main
    from _pytest.tmpdir import TempPathFactory

    config, session = made.config, made.session
    for key, value in made.environ.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    sys.path[:] = made.sys_path + [path for path in sys.path if path not in made.sys_path]
    capture = config.pluginmanager.getplugin("capturemanager")
    if capture is not None:
        capture.start_global_capturing()
        capture.suspend_global_capture()

    real_session = _pytest.main.Session

    class _TheTemplates:
        @staticmethod
        def from_config(given: Any) -> Any:
            _pytest.main.Session = real_session
            return session if given is config else real_session.from_config(given)

    def configured() -> None:  # the template configured it; xdist has given the worker's basetemp since
        del config._do_configure
        config._tmp_path_factory = TempPathFactory.from_config(config, _ispytest=True)

    to_newcomers = config.pluginmanager.subset_hook_caller("pytest_sessionstart", made.plugins)

    def collected(args: Any = None, genitems: bool = True) -> Any:  # Session.perform_collect's end
        del session.perform_collect
        items = session.items
        try:
            config.pluginmanager.check_pending()
            config.hook.pytest_collection_modifyitems(session=session, config=config, items=items)
        finally:
            config.hook.pytest_collection_finish(session=session)
        session.testscollected = len(items)
        return items

    _pytest.main.Session = _TheTemplates  # type: ignore[misc,assignment]
    config._do_configure = configured
    # the session's start goes to the plugins registered since the template's session started, once
    _answer_once_with(config.hook.pytest_sessionstart, to_newcomers)
    session.perform_collect = collected
    return config
