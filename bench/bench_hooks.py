"""Cost of the integration's precmd/preexec hooks per prompt, inside a real shell.

Each shell sources the integration, then times 2000 rounds of preexec+precmd (the work
done for every command line) against 2000 rounds of two empty functions called the same
way, in the same process; prints the per-prompt cost and the difference.
Target: at most 0.5 ms per prompt.

Run: python3 bench/bench_hooks.py [--rounds 2000]
"""
from __future__ import annotations

import argparse
import re
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_US = 500.0

ZSH = r'''
_b_pre() { : }
_b_cmd() { local -i st=$?; : }
integer n=$1 i
float t0 t1 t2
t0=$EPOCHREALTIME
for (( i = 0; i < n; i++ )); do _b_pre "git status --short"; _b_cmd; done
t1=$EPOCHREALTIME
for (( i = 0; i < n; i++ )); do _aish_preexec "git status --short"; _aish_precmd; done
t2=$EPOCHREALTIME
print -r -- $(( (t1 - t0) * 1e6 / n )) $(( (t2 - t1) * 1e6 / n )) $#_aish_hist
'''

BASH = r'''
_b_pre() { :; }
_b_cmd() { local st=$?; :; }
n=$1
t0=${EPOCHREALTIME//[!0-9]/}
for (( i = 0; i < n; i++ )); do _b_pre "git status --short"; _b_cmd; done
t1=${EPOCHREALTIME//[!0-9]/}
for (( i = 0; i < n; i++ )); do _aish_preexec "git status --short"; _aish_precmd; done
t2=${EPOCHREALTIME//[!0-9]/}
echo "$(( (t1 - t0) / n )) $(( (t2 - t1) / n )) ${#_aish_hist[@]}"
'''


def run(shell: str, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        script = ROOT / "shell" / f"aish.{shell}"
        body = ZSH if shell == "zsh" else BASH
        (home / "bench.sh").write_text(body)
        env = dict(os.environ, HOME=str(home), HISTFILE=str(home / "hist"))
        if shell == "zsh":
            (home / ".zshrc").write_text(f"source '{script}'\nzmodload zsh/datetime\n")
            env["ZDOTDIR"] = str(home)
            cmd = ["zsh", "--no-globalrcs", "-i", "-c", f"source {home}/bench.sh {rounds}"]
        else:
            (home / "rc").write_text(f"source '{script}'\n")
            cmd = ["bash", "--noprofile", "--rcfile", str(home / "rc"), "-i", "-c",
                   f"source {home}/bench.sh {rounds}"]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120,
                             stdin=subprocess.DEVNULL).stdout
        out = re.sub(r"\x1b\]133;[^\x07]*\x07", "", out).split()  # the OSC 133 marks hooks print
    base, hooks, kept = float(out[0]), float(out[1]), out[2]
    cost = hooks - base
    verdict = "ok" if hooks <= TARGET_US else "OVER TARGET"
    print(f"{shell:4}: empty hooks {base:6.1f} us  aish hooks {hooks:6.1f} us per prompt "
          f"(+{cost:.1f} us, ratio {hooks / max(base, 0.01):.1f}; history kept {kept}; "
          f"target <= {TARGET_US:.0f} us: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    for shell in ("zsh", "bash"):
        if shutil.which(shell):
            run(shell, args.rounds)
        else:
            print(f"{shell}: not installed, skipped")


if __name__ == "__main__":
    main()
