"""What the README's rc line adds to an interactive shell's start-up.

Runs `zsh -i -c exit` and `bash -i -c exit` with an rc holding the README's exact line
(read from README.md; the loader it sources written once by `aish init` beforehand, as the
first shell start does) and with the same rc without it, alternating the runs so drift (CPU
frequency, cache) hits both alike; prints medians and the difference.  Target: at most 3 ms
added (median).  For comparison it also times the old `eval "$(aish init <shell>)"` line.

Wall-clock figures swing with a busy host (steal time); when valgrind is installed the
benchmark also counts the instructions each start-up executes (callgrind), which do not:
the added instructions and their ratio are the figure to compare across days.

`-i -c exit` starts no line editor in the bare shell, while aish's key bindings start it
(readline, zle) during its rc: the difference above charges aish for work every
interactive shell does anyway.  What a person waits for is the first prompt, so the
benchmark also times that: the shell on a pseudo-terminal, from start to its prompt on
screen (precmd hooks and the line editor included on both sides), alternating runs.

With `--against REV` it also sources the scripts of git revision REV and of this checkout
directly, alternating, to show what a change to the scripts did (before/after, same run).

Run: python3 bench/bench_shell_startup.py [--runs 60] [--against REV]
"""
from __future__ import annotations

import argparse
import os
import pty
import select
import signal
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 3.0


def readme_line(shell: str) -> str:
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.rstrip().endswith(f"# ~/.{shell}rc"):
            return line.rsplit("#", 1)[0].rstrip()
    raise SystemExit(f"README.md has no rc line for {shell}")


def environment(home: Path) -> dict:
    """HOME in a temp dir; `aish` on PATH is this interpreter running this checkout."""
    bindir = home / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    wrapper = bindir / "aish"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} -m aish \"$@\"\n")
    wrapper.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("ZDOTDIR", "XDG_DATA_HOME", "BASH_ENV")}
    env.update(HOME=str(home), HISTFILE=str(home / "hist"), PATH=f"{bindir}:{env['PATH']}",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "backend"), env.get("PYTHONPATH")])))
    return env


PROMPT = "aish-bench-ready$ "


def command(shell: str, home: Path, name: str, line: str) -> tuple[list[str], dict]:
    rcdir = home / name
    rcdir.mkdir(parents=True, exist_ok=True)
    env = environment(home)
    text = f"PS1='{PROMPT}'\n{line}\n"
    if shell == "zsh":
        (rcdir / ".zshrc").write_text(text)
        env["ZDOTDIR"] = str(rcdir)
        return ["zsh", "--no-globalrcs", "-i", "-c", "exit"], env
    (rcdir / "rc").write_text(text)
    return ["bash", "--noprofile", "--rcfile", str(rcdir / "rc"), "-i", "-c", "exit"], env


def one(cmd: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) * 1000


def first_prompt(cmd: list[str], env: dict) -> float:
    """ms from starting the interactive shell on a pty to its prompt on screen."""
    argv = [a for a in cmd if a not in ("-c", "exit")]
    master, slave = pty.openpty()
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env={**env, "TERM": "xterm-256color"}, stdin=slave, stdout=slave,
                            stderr=slave, start_new_session=True, close_fds=True)
    os.close(slave)
    seen, took = b"", float("nan")
    try:
        deadline = start + 10
        while time.perf_counter() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
                if PROMPT.encode() in seen:
                    took = (time.perf_counter() - start) * 1000
                    break
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
    return took


def scripts_at(rev: str, dest: Path) -> Path:
    """The shell/ directory of git revision ``rev``, written under ``dest``."""
    out = dest / f"shell-{rev}"
    out.mkdir(parents=True, exist_ok=True)
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{rev}:shell"],
                           capture_output=True, text=True, check=True).stdout.split()
    for name in names:
        text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:shell/{name}"],
                              capture_output=True, text=True, check=True).stdout
        (out / name).write_text(text, encoding="utf-8")
    return out


def against(shell: str, home: Path, rev: str, runs: int) -> None:
    old = command(shell, home, "old", f"source '{scripts_at(rev, home) / f'aish.{shell}'}'")
    new = command(shell, home, "new", f"source '{ROOT / 'shell' / f'aish.{shell}'}'")
    for _ in range(3):
        one(*old), one(*new)
    before, after = [], []
    for _ in range(runs):
        before.append(one(*old))
        after.append(one(*new))
    b, a = statistics.median(before), statistics.median(after)
    print(f"      sourced directly: {rev} {b:6.2f} ms  this checkout {a:6.2f} ms  "
          f"({a - b:+5.2f} ms, ratio {a / b:4.2f})")
    if shutil.which("valgrind"):
        i0, i1 = instructions(*old), instructions(*new)
        if i0 and i1:
            print(f"      instructions: {rev} {i0 / 1e6:.2f} M  this checkout {i1 / 1e6:.2f} M "
                  f"(ratio {i1 / i0:.2f})")


def bench(shell: str, runs: int, rev: str = "") -> float:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        subprocess.run(["aish", "init", shell], env=environment(home), stdout=subprocess.DEVNULL,
                       check=True)   # what the first shell start does: write the loader
        base = command(shell, home, "without", ":")
        aish = command(shell, home, "readme", readme_line(shell))
        old = command(shell, home, "eval", f'eval "$(aish init {shell})"')
        for _ in range(5):  # warm the page cache
            one(*base), one(*aish), one(*old)
        without, with_, evals = [], [], []
        for n in range(runs):
            without.append(one(*base))
            with_.append(one(*aish))
            if n % 4 == 0:  # the slow line: a quarter of the runs is enough for its median
                evals.append(one(*old))
        counts = (instructions(*base), instructions(*aish)) if shutil.which("valgrind") else None
        prompt0, prompt1 = [], []
        for _ in range(runs):
            prompt0.append(first_prompt(*base))
            prompt1.append(first_prompt(*aish))
    m0, m1, m2 = statistics.median(without), statistics.median(with_), statistics.median(evals)
    diff = m1 - m0
    verdict = "ok" if diff <= TARGET_MS else "OVER TARGET"
    print(f"{shell:4}: without {m0:6.2f} ms  README line {m1:6.2f} ms  added {diff:+5.2f} ms "
          f"(ratio {m1 / m0:4.2f}; target <= {TARGET_MS} ms: {verdict})")
    print(f"      old eval line {m2:7.2f} ms  added {m2 - m0:+7.2f} ms (ratio {m2 / m0:5.2f})")
    p0, p1 = statistics.median(prompt0), statistics.median(prompt1)
    print(f"      first prompt on a pty: without {p0:6.2f} ms  README line {p1:6.2f} ms  "
          f"added {p1 - p0:+5.2f} ms (ratio {p1 / p0:4.2f})")
    if counts and all(counts):
        i0, i1 = counts
        print(f"      instructions: without {i0 / 1e6:.2f} M  with {i1 / 1e6:.2f} M  "
              f"added {(i1 - i0) / 1e6:+.2f} M (ratio {i1 / i0:.2f})")
    if rev:
        with tempfile.TemporaryDirectory() as tmp:
            against(shell, Path(tmp), rev, runs)
    return diff


def instructions(cmd: list[str], env: dict) -> int:
    """Instructions one start-up executes, counted by callgrind (0 when it cannot)."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                         env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    return int(found.group(1)) if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--against", default="", metavar="REV",
                        help="also compare with the scripts of this git revision")
    args = parser.parse_args()
    for shell in ("zsh", "bash"):
        if shutil.which(shell):
            bench(shell, args.runs, args.against)
        else:
            print(f"{shell}: not installed, skipped")


if __name__ == "__main__":
    main()
