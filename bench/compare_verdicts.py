"""Do two versions of the judge give the same verdicts?  Counts of differing verdicts (level and reason).

A change meant only to make the judge faster must leave every verdict as it was.  This judges the
same commands with this checkout's ``backend`` and another's (a git revision, or a directory holding
a ``backend``), each side in its own process (two versions of ``aish`` cannot share one), and counts
the commands whose level or reason differs, per input set.

Inputs: every command line of ``tests/corpus/`` (judged in several working directories: the judge
reads relative paths against the cwd), the inputs the tests give the judge when ``--recorded FILE``
names a file written by ``bench/record_assess.py``, and any ``--extra FILE`` (plain lines, or JSON
lines with a ``cmd`` field).  Commands of ``--extra`` files are never printed (they may be private
working material): only their counts and line numbers are; ``--show N`` prints the first N
differences of the repository's own sets.

Run: python3 bench/compare_verdicts.py --against REV [--extra FILE ...] [--recorded FILE] [--show 20]
     [--homes /root /home/someone]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CWDS = ("", "/", "/etc", "/home/someone/project")  # "" is a shell whose cwd is not known

_CHILD = r'''
import json, logging, os, sys, time
sys.path.insert(0, sys.argv[1])
logging.disable(logging.CRITICAL)
from aish.safety.assess import assess
pairs = json.load(open(sys.argv[2], encoding="utf-8"))
out = []
for command, cwd in pairs:
    v = assess(command, cwd)
    out.append(None if v is None else [v.level, v.reason])
json.dump(out, open(sys.argv[3], "w", encoding="utf-8"))
'''


def corpus_lines() -> list:
    """Every command of ``tests/corpus/`` (labels and the ``⏎`` line joiner as the tests read them)."""
    lines = []
    for path in sorted((ROOT / "tests" / "corpus").rglob("*.txt")):
        if path.name.startswith("secrets_") or path.name == "answers.txt":
            continue  # redactor inputs and answer blocks, not commands
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                lines.append(re.sub(r"^\[[\w-]+\] ", "", line).replace("⏎", "\n"))
    return lines


def extra_lines(path: Path) -> list:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("{"):
            try:
                out.append(json.loads(line)["cmd"])
                continue
            except (ValueError, KeyError):
                pass
        out.append(re.sub(r"^\[[\w-]+\] ", "", line).replace("⏎", "\n"))
    return out


def _cut_short(verdict) -> bool:  # type: ignore[no-untyped-def]
    """A line past the judge's CPU budget: how much of it is judged depends on the host's speed."""
    return verdict is not None and "too long to judge in full" in verdict[1]


def backend_of(rev: str, dest: Path) -> Path:
    if Path(rev).is_dir():
        return Path(rev).resolve() / "backend"
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "backend"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "backend"


def judge_both(backends: tuple, pairs: list, tmp: Path, home: str) -> list:
    """Each backend's verdicts on ``pairs``, the two processes side by side."""
    src = tmp / "in.json"
    src.write_text(json.dumps(pairs), encoding="utf-8")
    env = dict(os.environ, HOME=home)
    outs = [tmp / f"out{k}.json" for k in range(len(backends))]
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, str(backend), str(src), str(out)], env=env)
                for backend, out in zip(backends, outs)]
    if any(child.wait(timeout=3600) for child in children):
        raise SystemExit("a judging process failed")
    return [json.loads(out.read_text(encoding="utf-8")) for out in outs]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", required=True, help="a git revision, or a directory with a backend/")
    parser.add_argument("--ours", help="judge this revision instead of this checkout (a change already landed)")
    parser.add_argument("--extra", nargs="*", default=[], help="more command files (never printed)")
    parser.add_argument("--recorded", help="(command, cwd) pairs written by bench/record_assess.py")
    parser.add_argument("--show", type=int, default=0, help="print this many differences of the public sets")
    parser.add_argument("--homes", nargs="*", default=["/home/someone"],
                        help="HOME values to judge under (home decides what `~` and `/home/NAME` are)")
    args = parser.parse_args()
    sets: dict = {"tests/corpus": ([(line, cwd) for cwd in CWDS for line in corpus_lines()], True)}
    if args.recorded:
        recorded = [tuple(p) for p in json.loads(Path(args.recorded).read_text(encoding="utf-8"))]
        sets["recorded test inputs"] = (sorted(set(recorded)), True)
    for name in args.extra:
        lines = extra_lines(Path(name))
        sets[Path(name).name] = ([(line, cwd) for cwd in ("", "/") for line in lines], False)
    total = 0
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        old_backend = backend_of(args.against, tmp)
        # a copy: a rebase of this checkout while the sets are judged must not change this side
        (tmp / "ours").mkdir()
        ours_backend = backend_of(args.ours, tmp / "ours") if args.ours else \
            shutil.copytree(ROOT / "backend", tmp / "ours" / "backend", ignore=shutil.ignore_patterns("__pycache__"))
        for home in args.homes:
            for name, (pairs, public) in sets.items():
                ours, theirs = judge_both((Path(ours_backend), old_backend), pairs, tmp, home)
                differing = [k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b]
                timed = [k for k in differing if _cut_short(ours[k]) or _cut_short(theirs[k])]
                differing = [k for k in differing if k not in set(timed)]
                total += len(differing)
                print(f"HOME={home:14s} {name:28s} {len(pairs):7d} judged, {len(differing)} differ"
                      + (f" ({len(timed)} more cut short by the time budget on one side: speed decides those)"
                         if timed else ""))
                for k in differing[:args.show]:
                    where = repr(pairs[k]) if public else f"line {k % (len(pairs) // 2) + 1}, cwd {pairs[k][1]!r}"
                    print(f"    {where}\n      this: {ours[k]}\n      that: {theirs[k]}")
    print(f"{total} differing verdicts in all")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
