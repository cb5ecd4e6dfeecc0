"""The ``aish`` command's own cost: a warm ``aish ask`` against a minimal client, and a cold one.

1. Warm: the whole ``aish ask hi`` process (the installed console script, as a user runs
   it) with the daemon running, against ``bench/minimal_client.py`` asking the same daemon
   the same question (the protocol and nothing else), alternating, each run's wall time to
   exit and its CPU time (user + system).  Target (issue 26): aish <= 1.5x the minimal
   client.
2. Cold: ``aish ask hi`` with no daemon running, to its first byte on stdout (it starts
   the daemon).  Target: <= 120 ms on the project's kind of machine.
3. What ``aish ask`` imports (``python -X importtime``): modules and their own time.

``--against DIR`` (a source tree of another revision, e.g. ``git archive REV | tar -x -C DIR``)
alternates the cold runs between this install and that tree (its ``backend`` first on
PYTHONPATH), with the paired ratio: the host's load moves both alike.

Run: python3 bench/bench_cli.py [--runs 30] [--cold-runs 7] [--against DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.stub_server importable

from tests.stub_server import Reply, StubServer  # noqa: E402


def run(argv: list) -> tuple:
    """(wall seconds to exit, CPU seconds, stdout) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    out = proc.stdout.read()
    proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{argv[:3]} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, out


def first_byte(argv: list, rundir: Path | None = None, env: dict | None = None) -> tuple:
    """(seconds to the first byte on stdout, CPU seconds the daemon had used by then, which
    a busy host inflates far less than wall time; None when unknown)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            env=env)
    proc.stdout.read(1)
    elapsed = time.perf_counter() - start
    cpu = daemon_cpu(rundir) if rundir is not None else None
    proc.stdout.read()
    proc.wait(timeout=60)
    return elapsed, cpu


def daemon_cpu(rundir: Path) -> float | None:
    """The daemon's CPU seconds so far, every thread's, ended ones too (/proc/PID/stat's
    utime + stime: clock ticks, 10 ms each on most hosts; medians of runs smooth that)."""
    try:
        pid = int((rundir / "daemon.pid").read_text().split()[0])
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def imports(argv: list) -> list:
    """(module, own microseconds) for each module the command imports."""
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    rows = []
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "self [us]" not in line:
            own, _, name = line[len("import time:"):].split("|")
            rows.append((name.strip(), int(own)))
    return rows


def med(values: list) -> float:
    return statistics.median(values) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--cold-runs", type=int, default=7)
    parser.add_argument("--against", type=Path, help="a source tree to alternate the cold runs with")
    args = parser.parse_args()

    import aish

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(aish.__file__).parent),
                    str(ROOT / "bench" / "minimal_client.py")]
                   + ([str(args.against / "backend" / "aish")] if args.against else []),
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                   stdout=subprocess.DEVNULL, check=False)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # measure as installed: bytecode cached
    aish_cmd = [str(Path(sys.executable).parent / "aish"), "ask", "hi"]
    minimal_cmd = [sys.executable, str(ROOT / "bench" / "minimal_client.py"), "hi"]
    tmp = Path(tempfile.mkdtemp(prefix="aish-cli-"))
    (tmp / "run").mkdir(mode=0o700)
    os.environ.update(AISH_STATE_DIR=str(tmp / "state"), AISH_RUNTIME_DIR=str(tmp / "run"),
                      AISH_CONFIG=str(tmp / "config.toml"), AISH_DETECT_PORTS="", AISH_CONV="bench")
    from aish.daemon import runtime

    with StubServer(default=Reply(text="ok\nCMD: true\n", chunk_size=64)) as stub:
        (tmp / "config.toml").write_text(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n'
                                         '[context]\nmax_turns = 2\n')
        run(aish_cmd)  # the daemon starts, learns the server
        run(minimal_cmd)
        samples: dict = {"aish": ([], []), "minimal": ([], [])}
        for _ in range(args.runs):
            for name, cmd in (("minimal", minimal_cmd), ("aish", aish_cmd)):
                wall, cpu, _ = run(cmd)
                samples[name][0].append(wall)
                samples[name][1].append(cpu)
        (mw, mc), (aw, ac) = ([med(v) for v in samples["minimal"]], [med(v) for v in samples["aish"]])
        print(f"warm, whole process, median of {args.runs} alternating runs:")
        print(f"  wall: minimal client {mw:.1f} ms | aish ask {aw:.1f} ms | ratio {aw / mw:.2f}x (target <= 1.5x)")
        print(f"  CPU:  minimal client {mc:.1f} ms | aish ask {ac:.1f} ms | ratio {ac / mc:.2f}x")
        rows = imports(aish_cmd)
        base = {name for name, _ in imports(minimal_cmd)}
        extra = [(name, us) for name, us in rows if name not in base]
        print(f"  aish ask imports {len(rows)} modules, {len(extra)} more than the minimal client "
              f"({sum(us for _, us in extra) / 1000:.1f} ms of their own import time, one run):")
        print("   ", ", ".join(name for name, _ in extra))
        variants = [("this", None)]
        if args.against:
            variants.append(("against", dict(os.environ, PYTHONPATH=str((args.against / "backend").resolve()))))
        cold: dict = {name: [] for name, _ in variants}
        cold_cpu: dict = {name: [] for name, _ in variants}
        for _ in range(args.cold_runs):
            for name, env in variants:
                runtime.stop()
                wall, cpu = first_byte(aish_cmd, tmp / "run", env)
                cold[name].append(wall)
                if cpu is not None:
                    cold_cpu[name].append(cpu)
        for name, _ in variants:
            label = "" if name == "this" else f" [{args.against}]"
            print(f"cold aish ask (no daemon){label}, first byte: median {med(cold[name]):.1f} ms of "
                  f"{args.cold_runs} (runs {', '.join(f'{c * 1000:.0f}' for c in cold[name])}; target <= 120 ms)")
            if cold_cpu[name]:
                print(f"  the new daemon's CPU up to that byte: median {med(cold_cpu[name]):.1f} ms "
                      f"(runs {', '.join(f'{c * 1000:.0f}' for c in cold_cpu[name])})")
        if args.against:
            pairs = [a / b for a, b in zip(cold["this"], cold["against"])]
            print(f"  this / against, paired runs: median {statistics.median(pairs):.2f}x")
        runtime.stop()
    print(json.dumps({"warm_wall_ms": {"minimal": round(mw, 1), "aish": round(aw, 1)},
                      "warm_cpu_ms": {"minimal": round(mc, 1), "aish": round(ac, 1)},
                      "cold_first_byte_ms": {name: round(med(v), 1) for name, v in cold.items()},
                      "cold_daemon_cpu_ms": {name: round(med(v), 1) for name, v in cold_cpu.items() if v},
                      "load": os.getloadavg()[0], "imports": len(rows)}))


if __name__ == "__main__":
    main()
