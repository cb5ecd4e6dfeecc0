"""Ctrl-C at random moments of an answer, many times over, in a real shell in tmux.

Why: a Ctrl-C that lands in a few instructions of the request's reading loop once left the
question on the prompt line (tests/shell/test_zsh_interrupt.py), seen only under load, once
in thousands of tries.  This loop looks for what is left: each round asks `? qN`, waits a
random time (before the first byte, while the answer streams, or after it landed), presses
Ctrl-C, and checks that one clean, empty prompt comes back with nothing aish should not have
printed.  Every so often a round is not interrupted and its command must land on the line
(the next ask still works).  A round that goes wrong has its whole pane (with escapes) and
the daemon log's tail written to ``--out`` and the loop goes on.

Run: python3 bench/stress_ctrl_c.py [--shell zsh] [--runs 1000] [--out DIR] [--max-delay 1.2]
          [--min-delay 0] (the Ctrl-C between the two, uniformly, after Enter)
          [--trap] (an INT trap set at every prompt, as powerlevel10k's) [--two-line]
          [--columns-theme] (zsh: a prompt that holds COLUMNS at 1024 while it is expanded, as
          powerlevel10k's, and takes ~5 ms to expand, a slow theme's; each round then checks
          that COLUMNS is the pane's width)
          [--plugins] (zsh-autosuggestions and zsh-syntax-highlighting, the Debian packages)
          [--fresh] (a new shell every round: the Ctrl-C lands in a shell's first ask, while it
          sources the on-demand half)
          [--norris] (each round runs a step of a `??` task and presses Ctrl-C up to --max-delay
          after its report reached the planner, which holds its answer: `[aish] cancelled` must
          follow within 5 s; bash turns echo off just then: --max-delay 0.02 finds where a
          Ctrl-C was lost) [--pin CPU] (the shell and what it starts on one CPU: run a busy
          loop there too for load)
Prints one line per failure and a summary; exit status 1 if any round failed.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script: the repo root makes tests.* importable

from tests.shell.shellenv import PROMPT, start_shell  # noqa: E402
from tests.shell.tmux import ScreenTimeout, last_row  # noqa: E402
from tests.stub_server import Reply, StubServer  # noqa: E402

ANSWER = " ".join(f"word{n}" for n in range(60)) + "\nCMD: ls -la\n"
# powerlevel10k's precmd sets this trap and its preexec removes it (tests/shell/test_zsh_setups.py)
P10K_TRAP = """
_t_trapint() { return 0 }
_t_precmd() { trap '_t_trapint; return 130' INT }
_t_preexec() { trap - INT }
precmd_functions+=(_t_precmd)
preexec_functions+=(_t_preexec)
"""
# powerlevel10k expands its prompt with COLUMNS=1024 (a prefix saves the width, a suffix puts
# it back) and calls a shell function from it: a Ctrl-C that stops the expansion halfway left
# COLUMNS at 1024 (tests/shell/test_zsh_setups.py).  The stand-in's function does ~5 ms of work;
# a key shows COLUMNS under the prompt.
COLUMNS_THEME = r"""
setopt prompt_subst
typeset -gi _t_clm=0
_t_work() { local -i i=0; while (( i++ < 1500 )); do :; done; return 0 }
functions -M _t_work 0 0
PS1='${${_t_clm::=$COLUMNS}+}${${COLUMNS::=1024}+}${${:-$(( _t_work() ))}:+}'$PS1'${${COLUMNS::=$_t_clm}+}'
_t_columns() { zle -M "columns=$COLUMNS" }
zle -N _t_columns
bindkey '^X^K' _t_columns
"""
PLUGINS = ("source /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh\n"
           "source /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh\n")
BAD = re.compile(r"no answer from the daemon|internal error|zsh: |bash: |command not found|"
                 r"parse error|Traceback")


def private_env(base: Path) -> None:
    """aish's dirs under ``base``, as the tests' ``aish_env`` makes them."""
    for key, name in {"AISH_STATE_DIR": "state", "AISH_RUNTIME_DIR": "run",
                      "AISH_CONFIG": "config.toml", "XDG_DATA_HOME": "data"}.items():
        os.environ[key] = str(base / name)
    os.environ["AISH_DETECT_PORTS"] = ""
    for key in ("OPENROUTER_API_KEY", "OPENAI_API_KEY", "AISH_CONV", "AISH_MODEL"):
        os.environ.pop(key, None)
    (base / "run").mkdir(mode=0o700)


def at_prompt(screen: str) -> bool:
    """An empty prompt on the last row, or just above zsh's `[aish] cancelled` under it (a
    Ctrl-C that landed once zle had drawn the prompt again, before the command was placed)."""
    rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
    return bool(rows) and (rows[-1] == PROMPT.rstrip() or
                           rows[-2:] == [PROMPT.rstrip(), "[aish] cancelled"])


def problem(screen: str, question: str) -> str:
    """What is wrong with the screen once the prompt should be back, or ""."""
    if not at_prompt(screen):
        return f"last row is {last_row(screen)!r}, not an empty prompt"
    if found := BAD.search(screen):
        return f"printed {found.group(0)!r}"
    rows = [row.rstrip() for row in screen.splitlines() if row.startswith(PROMPT.rstrip())]
    asked = sum(1 for row in rows if row == PROMPT + question)
    if asked != 1:
        return f"the question's prompt row shows {asked} times"
    # a Ctrl-C that came after the answer had put its command on the line clears that line, as at
    # any prompt: bash's readline echoes it (`aish$ ls -la^C`), zsh's zle redraws the prompt
    odd = [row for row in rows[:-1] if row not in (PROMPT + question, PROMPT + "ls -la", PROMPT + "ls -la^C")]
    if odd:
        return f"unexpected prompt rows {odd!r}"
    return ""


def save(out: Path, n: int, shell, why: str, runtime: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    escaped = shell.tmux._tmux("capture-pane", "-p", "-e", "-S", "-")
    log = ""
    for path in sorted(Path(os.environ["AISH_STATE_DIR"]).rglob("*.log")):
        log += f"==> {path.name}\n" + path.read_text(errors="replace")[-4000:]
    (out / f"failure-{n}.txt").write_text(f"{why}\n--- screen (escapes kept)\n{escaped}\n"
                                          f"--- plain\n{shell.tmux.history()}\n--- logs\n{log}")


def recover(shell) -> None:
    for _ in range(3):
        shell.tmux.keys("C-c")
        try:
            shell.tmux.wait(lambda s: last_row(s) == PROMPT.rstrip(), timeout=5)
            return
        except ScreenTimeout:
            continue


def norris_round(shell, stub, n: int, delay: float) -> str:
    """One step of a `??` task, Ctrl-C ``delay`` s after its report reached the planner; why
    the round went wrong, or ""."""
    stub.queue(Reply(text="CMD: echo five\n"), Reply(text="CMD: echo six\n", first_byte_delay=9))
    asked = len(stub.requests)
    shell.ask(f"?? task {n}")
    shell.wait_prompt("echo five", timeout=20)
    shell.tmux.keys("Enter")
    deadline = time.monotonic() + 20
    while len(stub.requests) < asked + 2 and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(delay)
    shell.tmux.keys("C-c")
    try:
        shell.tmux.wait("[aish] cancelled", timeout=5)
        shell.tmux.wait(lambda s: last_row(s) == PROMPT.rstrip(), timeout=10)
    except ScreenTimeout:
        return f"Ctrl-C {delay:.3f} s after the report reached the planner: not cancelled"
    shell.ask("echo echo-$(stty -a | grep -c -- ' -echo ')")   # echo is back for commands
    screen = shell.tmux.wait(lambda s: "\necho-" in s and last_row(s) == PROMPT.rstrip(), 10)
    return "" if "\necho-0" in screen else "echo stayed off after the cancelled report"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shell", choices=("zsh", "bash"), default="zsh")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--max-delay", type=float, default=1.2)
    parser.add_argument("--min-delay", type=float, default=0.0, help="(aim at the answer's end)")
    parser.add_argument("--chunk-delay", type=float, default=0.012)
    parser.add_argument("--every", type=int, default=25, help="a round without Ctrl-C this often")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "aish-stress")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--trap", action="store_true", help="an INT trap set in precmd (p10k)")
    parser.add_argument("--two-line", action="store_true", help="a line above the prompt's")
    parser.add_argument("--columns-theme", action="store_true", help="COLUMNS=1024 while the prompt expands")
    parser.add_argument("--plugins", action="store_true", help="autosuggestions, highlighting")
    parser.add_argument("--fresh", action="store_true", help="a new shell every round")
    parser.add_argument("--norris", action="store_true", help="Ctrl-C while a step is planned")
    parser.add_argument("--pin", type=int, default=None, help="run the shell on this CPU")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="aish-stress-") as tmp, \
            StubServer(default=Reply(text=ANSWER, chunk_size=8, delay=args.chunk_delay)) as stub:
        base = Path(tmp)
        private_env(base)
        Path(os.environ["AISH_CONFIG"]).write_text(
            f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n', encoding="utf-8")
        after = P10K_TRAP if args.trap and args.shell == "zsh" else ""
        columns = args.columns_theme and args.shell == "zsh"
        after += COLUMNS_THEME if columns else ""
        before = PLUGINS if args.plugins and args.shell == "zsh" else ""

        def new_shell():
            started = start_shell(args.shell, base, before=before, after=after,
                                  prompt=f"top {args.shell}\n{PROMPT}" if args.two_line else "",
                                  wrap=None if args.pin is None else ["taskset", "-c", str(args.pin)])
            started.wait_prompt(timeout=20)
            return started

        shell = new_shell()
        started = time.monotonic()
        try:
            for n in range(1, args.runs + 1):
                if args.fresh and n > 1:
                    shell.tmux.close()
                    shell = new_shell()
                shell.tmux._tmux("clear-history")
                shell.tmux.keys("C-l")
                shell.tmux.wait(lambda s: last_row(s) == PROMPT.rstrip() and
                                s.strip().count("\n") <= (1 if args.two_line else 0), timeout=10)
                question = f"? q{n}"
                if args.norris:
                    try:
                        why = norris_round(shell, stub, n, rng.uniform(0, args.max_delay))
                    except ScreenTimeout as timeout:
                        why = f"the step did not come: {str(timeout).splitlines()[0]}"
                    stub._queue.clear()   # (a round that went wrong leaves its replies)
                else:
                    shell.ask(question)
                whole = n % args.every == 0
                if args.norris:
                    pass
                elif whole:
                    try:
                        shell.wait_prompt("ls -la", timeout=20)
                        shell.tmux.keys("C-u")
                        screen = shell.tmux.wait(lambda s: last_row(s) == PROMPT.rstrip(), 10)
                        why = problem(screen, question)
                    except ScreenTimeout as timeout:
                        why = f"the command did not land: {str(timeout).splitlines()[0]}"
                else:
                    time.sleep(rng.uniform(args.min_delay, args.max_delay))
                    shell.tmux.keys("C-c")
                    try:
                        screen = shell.tmux.wait(lambda s: at_prompt(s) or bool(BAD.search(s)),
                                                 timeout=15)
                        time.sleep(0.15)  # anything printed late shows by now
                        why = problem(shell.tmux.screen(), question)
                    except ScreenTimeout:
                        why = f"no empty prompt within 15 s (last row {shell.tmux.last_line()!r})"
                if columns and not why:
                    shell.tmux.keys("C-x", "C-k")
                    try:
                        shown = shell.tmux.wait(re.compile(r"columns=\d+"), timeout=5)
                        width = re.search(r"columns=(\d+)", shown).group(1)
                        why = "" if width == str(shell.tmux.width) else f"COLUMNS is {width} after the round"
                    except ScreenTimeout:
                        why = "no COLUMNS shown"
                if why:
                    failures += 1
                    save(args.out, n, shell, why, base / "run")
                    print(f"round {n}: {why} (saved {args.out}/failure-{n}.txt)", flush=True)
                    recover(shell)
                    if columns:         # (as a user would: a resize has zsh read the width again)
                        shell.tmux.resize(shell.tmux.width, shell.tmux.height + 1)
                        shell.tmux.resize(shell.tmux.width, shell.tmux.height)
                if n % 100 == 0:
                    print(f"{n} rounds, {failures} failed, {time.monotonic() - started:.0f} s",
                          flush=True)
        finally:
            shell.tmux.close()
            from aish.daemon import runtime
            runtime.stop()
    print(f"done: {args.runs} rounds, {failures} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
