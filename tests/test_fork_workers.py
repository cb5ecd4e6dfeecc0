"""xdist's workers forked from a template (tests/fork_workers.py) are workers as a fresh Python
made them: each its own process, environment (its launcher's, and xdist's variables), random
state and threads; a conftest's module state as that worker's own configuration left it; asserts
rewritten; a crash reported; and no process left behind when the run is killed.  Checked on a
probe run of its own (its conftest starts the template as tests/conftest.py does): two workers,
one crashes, xdist starts a third, and the run is killed while a worker holds."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import types
from pathlib import Path
from types import SimpleNamespace

from tests import fork_workers

ROOT = Path(__file__).resolve().parent.parent
PROBE_CONFTEST = '''
import json, os, random, threading
from tests import fork_workers

CONFIGURED = []  # the processes whose pytest_configure ran with this module
COLLECTED = set()  # the processes that made the items


def pytest_cmdline_main(config):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        fork_workers.start(config)


def pytest_configure(config):
    CONFIGURED.append(os.getpid() if hasattr(config, "workerinput") or not os.environ.get("PYTEST_XDIST_WORKER")
                      else "a worker configured without xdist's input")
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ["PROBE_CONTROLLER_SET"] = "after the fork"


def pytest_itemcollected(item):
    COLLECTED.add(os.getpid())


def pytest_collection_finish(session):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    facts = {"worker": os.environ["PYTEST_XDIST_WORKER"], "pid": os.getpid(), "parent": os.getppid(),
             "random": random.random(), "threads": threading.active_count(), "configured": CONFIGURED,
             "collected": sorted(COLLECTED), "items": [item.nodeid for item in session.items],
             "basetemp": str(session.config._tmp_path_factory.getbasetemp()),
             "env": os.environ.get("PROBE_CONTROLLER_SET"), "reports": os.environ.get("PROBE_REPORTS"),
             "cmdline": open("/proc/self/cmdline").read()}
    path = os.path.join(os.environ["PROBE_FACTS"], f"{os.getpid()}")
    with open(path + ".part", "w") as out:  # whole or absent: the test reads them while the run goes on
        json.dump(facts, out)
    os.replace(path + ".part", path + ".json")


def pytest_runtest_logreport(report):
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # what a worker started after it inherits
        os.environ["PROBE_REPORTS"] = "some"
'''
PROBE_TESTS = '''
import os, time, pytest
AT_IMPORT = os.environ.get("PROBE_CONTROLLER_SET")


def test_rewritten_and_imported_in_the_session_env():
    assert AT_IMPORT == "after the fork"
    try:
        assert [1, 2] == [1, 3]
    except AssertionError as error:
        assert "At index 1 diff: 2 != 3" in str(error)
        open(os.path.join(os.environ["PROBE_FACTS"], "..", "rewritten"), "w").close()


@pytest.mark.parametrize("case", [1, 2])
def test_crash_then_hold(case):
    try:
        os.close(os.open(os.environ["PROBE_CRASHED"], os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        open(os.environ["PROBE_HOLD"], "w").write(f"{os.getpid()} {os.getppid()}")
        time.sleep(60)
    os._exit(3)
'''


def _probe(tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    """Two workers: one crashes (xdist starts another), the next holds until the run is killed."""
    package = tmp_path / "probe"  # a package, as tests/ is: its conftest is not imported again by name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "conftest.py").write_text(PROBE_CONFTEST)
    (package / "test_probe.py").write_text(PROBE_TESTS)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")  # (parsed into the args list)
    (tmp_path / "facts").mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "AISH_TEST_"))}
    env.update(PYTHONPATH=str(ROOT), PROBE_FACTS=str(tmp_path / "facts"), PYTHONUNBUFFERED="1",
               PROBE_CRASHED=str(tmp_path / "crashed"), PROBE_HOLD=str(tmp_path / "hold"),
               PYTEST_PLUGINS="xdist.plugin")  # (-p xdist would read every installed package's entry points)
    with open(tmp_path / "output", "w") as output:
        return subprocess.Popen([sys.executable, "-m", "pytest", "-q", "--disable-plugin-autoload",
                                 f"--basetemp={tmp_path / 'temp'}", "-n", "2", "probe"],
                                cwd=tmp_path, env=env, stdout=output, stderr=subprocess.STDOUT), tmp_path


def _running(pid: int) -> bool:
    """Not ended (a zombie has: its parent ended too, and whoever inherits it reaps it in time)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _gone(*pids: int) -> list[int]:
    deadline = time.monotonic() + 10
    while any(map(_running, pids)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return [pid for pid in pids if _running(pid)]


def _children(pid: int) -> list[int]:
    return [int(child) for task in os.listdir(f"/proc/{pid}/task")
            for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]


def test_forked_workers_are_workers_as_before_and_leave_with_their_run(tmp_path):
    run, where = _probe(tmp_path)
    hold, facts = where / "hold", where / "facts"
    deadline = time.monotonic() + 60
    while not hold.exists() or not hold.read_text() or len(list(facts.glob("*.json"))) < 3:
        assert time.monotonic() < deadline and run.poll() is None, (where / "output").read_text()
        time.sleep(0.02)
    worker, template = map(int, hold.read_text().split())
    launchers = _children(run.pid)
    output = (where / "output").read_text()
    run.kill()
    run.wait(10)
    workers = [json.loads(path.read_text()) for path in facts.glob("*.json")]
    problems = []
    if "node down: Not properly terminated" not in output or not (where / "rewritten").exists():
        problems.append(f"the probe run went otherwise than as xdist runs it (one passed, one crashed): {output}")
    if not any(worker_facts["reports"] for worker_facts in workers):
        problems.append("the worker xdist started after the crash has not the controller's environment")
    if len(workers) != 3:  # gw0, gw1 and the crashed one's replacement
        problems.append(f"{len(workers)} workers configured")
    for worker_facts in workers:
        name = worker_facts["worker"]
        if not worker_facts["cmdline"].startswith(f"{sys.executable}\0-m\0pytest\0"):
            problems.append(f"{name} is not a fork of the controller's template: {worker_facts['cmdline']!r}")
        # configured and collected once, by the template it was forked from (tests/template_session.py),
        # with the worker's own basetemp
        if worker_facts["configured"] != [worker_facts["parent"]] or run.pid in worker_facts["configured"]:
            problems.append(f"{name}'s conftest was configured by {worker_facts['configured']}")
        if worker_facts["collected"] != [worker_facts["parent"]]:
            problems.append(f"{name}'s items were made by {worker_facts['collected']}, not its template")
        if not worker_facts["basetemp"].endswith(f"popen-{name}") or len(worker_facts["items"]) != 3:
            problems.append(f"{name}: basetemp {worker_facts['basetemp']}, items {worker_facts['items']}")
        if worker_facts["env"] != "after the fork" or worker_facts["threads"] != 1:
            problems.append(f"{name}: environment {worker_facts['env']!r}, {worker_facts['threads']} threads")
    for key in ("worker", "pid", "random"):
        if len({worker_facts[key] for worker_facts in workers}) != len(workers):
            problems.append(f"the workers share their {key}: {[worker_facts[key] for worker_facts in workers]}")
    problems += [f"{pid} outlived its killed run" for pid in _gone(worker, template, *launchers)]
    assert not problems, "\n".join(problems)


class _Caller:
    def __call__(self, **kwargs):
        return []


class _Plugins:
    """What ``template_session.make`` asks of a configuration's plugins and hooks."""

    def __init__(self, happens: str) -> None:
        self.happens, self.registered = happens, []
        # hook callers as pluggy's are: objects whose class ``make`` may change for one call
        self.pytest_collection_modifyitems, self.pytest_collection_finish = _Caller(), _Caller()

    def register(self, plugin, name=None):
        self.registered.append(plugin)

    def unregister(self, plugin):
        self.registered.remove(plugin)

    def getplugin(self, name):
        return None

    def get_plugins(self):
        return list(self.registered)

    def pytest_sessionstart(self, session):
        pass

    def pytest_collection(self, session):
        for plugin in self.registered:
            if self.happens == "a module that fails to import":
                plugin.pytest_collectreport(SimpleNamespace(passed=False, outcome="failed", nodeid="test_broken.py"))
            elif self.happens == "a warning while collecting":
                plugin.pytest_warning_recorded(SimpleNamespace(message="cannot collect"), "collect", "", None)
        if self.happens == "an error":
            raise RuntimeError("collecting")


def test_a_collection_the_template_cannot_hand_on_is_left_to_each_worker(monkeypatch):
    """What a worker would report while collecting (a collection report not passed, a warning) or
    cannot be handed on (an error, --lf reading the last run when each worker collects): ``make``
    keeps nothing, and a worker's ``_prepareconfig`` stays pytest's (it collects and reports as before)."""
    import _pytest.config
    import _pytest.main
    import xdist.remote

    from tests import template_session

    real = _pytest.config._prepareconfig
    monkeypatch.setattr(template_session.threading, "active_count", lambda: 1)
    monkeypatch.setattr(_pytest.main, "Session", SimpleNamespace(from_config=lambda config: object()))
    monkeypatch.setattr(xdist.remote, "setup_config", lambda config, basetemp: None)
    wrong = []
    for happens in ("nothing", "a module that fails to import", "a warning while collecting", "an error", "--lf"):
        plugins = _Plugins(happens)
        config = SimpleNamespace(pluginmanager=plugins, hook=plugins, stash={}, _do_configure=lambda: None,
                                 _tmp_path_factory=SimpleNamespace(_basetemp=None),
                                 getoption=lambda name, default=None, lf=happens == "--lf": lf and name == "lf",
                                 invocation_params=SimpleNamespace(args=("-q",)))
        monkeypatch.setattr(_pytest.config, "_prepareconfig", lambda args, plugins, config=config: config)
        monkeypatch.setattr(template_session, "made", None)
        kept = template_session.make(config)
        monkeypatch.setattr(_pytest.config, "_prepareconfig", real)
        template_session.serve_in_worker()
        served = _pytest.config._prepareconfig is not real
        if (kept is not None, served) != (happens == "nothing",) * 2:
            wrong.append(f"{happens}: kept {kept}, served {served}")
    assert not wrong, wrong


def _config(tx, **option) -> SimpleNamespace:
    return SimpleNamespace(option=SimpleNamespace(tx=tx, **option))


def test_workers_are_forked_only_from_a_controller_with_plain_popen_workers(monkeypatch):
    """-n0 and -p no:xdist (no specs), a --tx of one's own, AISH_TEST_FORK_WORKERS=0, a process
    with threads: plain workers, or none."""
    monkeypatch.setattr(fork_workers.threading, "active_count", lambda: 1)
    cases = {"-n 3": (["popen"] * 3, {}, True), "-n 1": (["popen"], {}, True), "-n0": ([], {}, False),
             "-p no:xdist": (None, {}, False), "--tx ssh": (["ssh=host"], {}, False),
             "AISH_TEST_FORK_WORKERS=0": (["popen"] * 2, {fork_workers.WANTED_ENV: "0"}, False)}
    wrong = []
    for name, (tx, env, forks) in cases.items():
        with monkeypatch.context() as patch:
            patch.delenv(fork_workers.WANTED_ENV, raising=False)  # the run's own setting is not the case's
            for key, value in env.items():
                patch.setenv(key, value)
            if fork_workers.wanted(_config(tx)) != forks:
                wrong.append(name)
    monkeypatch.setattr(fork_workers.threading, "active_count", lambda: 2)
    if fork_workers.wanted(_config(["popen"] * 3)):
        wrong.append("a controller with a thread")
    assert not wrong, wrong


def test_a_launcher_whose_template_is_gone_runs_the_worker_itself(tmp_path):
    """Refused (the template ended before it connected), or closed unanswered (while it asked)."""
    closing = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    closing.bind(str(tmp_path / "closing"))
    closing.listen(1)
    refused = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    refused.bind(str(tmp_path / "refused"))
    refused.close()
    outputs = []
    for path in ("refused", "closing"):
        launcher = subprocess.Popen([sys.executable, "-I", "-S", str(fork_workers.LAUNCHER), "--or-python",
                                     str(tmp_path / path), "-c", "import os; print(os.getpid())"],
                                    stdout=subprocess.PIPE, text=True)
        if path == "closing":
            closing.accept()[0].close()
        outputs.append((launcher.communicate(timeout=30)[0].strip(), launcher.pid, launcher.returncode))
    closing.close()
    assert outputs == [(str(pid), pid, 0) for _, pid, _ in outputs]


def test_a_forked_worker_starts_with_the_patterns_aish_compiles_on_first_use_compiled():
    """The template compiles them once (``compile_lazy_patterns``), not each worker at its cases' first use;
    one that fails to compile is left to its rule, an AnyCase's pattern for other letters to its first use."""
    from aish.safety.any_case import AnyCase
    from aish.safety.lazy_regex import LazyRegex

    def uncompiled(names) -> list:
        return [f"{name}.{attr}" for name in names if name.startswith("aish.") and sys.modules.get(name)
                for attr, value in vars(sys.modules[name]).items()
                if getattr(value, "_compiled", 0) is None
                or getattr(getattr(value, "_lower", None), "_compiled", 0) is None]

    # in a worker forked from the template (the unit part's), none of the modules it had imported has one left
    assert uncompiled(fork_workers.PRELOADED) == [], "compiled in the template, before the fork"
    module = types.ModuleType("aish.probe_patterns")
    module.fine, module.broken, module.any_case = LazyRegex(r"a+b"), LazyRegex(r"a(b"), AnyCase(r"x|y")
    sys.modules[module.__name__] = module
    try:
        assert fork_workers.compile_lazy_patterns() >= 2
        assert uncompiled([module.__name__]) == ["aish.probe_patterns.broken"]
        assert module.any_case._any._compiled is None
    finally:
        del sys.modules[module.__name__]
