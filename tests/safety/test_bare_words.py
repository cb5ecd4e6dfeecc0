"""A bare word judged once per line (``assess._bare_key``): within one line, a command that is a single bare
word fed only by bare words (`x | x | … | x`, `true && true && …`, `$(x) $(x)`) is judged once per word,
link, feeders, depth and directory, and its finding reused.  A shortcut that answered for a command with
an argument, a redirect or an expansion, or that missed something a judgement reads, would be a silent
miss: each way in is held here."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from aish.safety import assess as judge
from aish.safety.rules import listing, loop_files, table
from aish.safety.shell_words import segments

SAFETY = Path(judge.__file__).resolve().parent


@pytest.mark.parametrize("line", [
    "x y", "x -f", "x >f", "x 2>&1", "x <f", "'x'", '"x"', "x\\y", "$x", "${x}", "x*", "x?", "$(y)", "`y`",
    "<(y)",
])
def test_a_command_with_anything_beyond_its_word_is_judged_in_full(line):
    seg = segments(line)[-1]
    assert judge._bare_key(seg, [], 0) is None


@pytest.mark.parametrize("line", ["curl -s u | x", "y >f | x", "(a; b) | x", "a 'b' | x"])
def test_a_bare_word_fed_by_anything_else_is_judged_in_full(line):
    segs = segments(line)
    assert judge._bare_key(segs[-1], segs[:-1], 0) is None


@pytest.mark.parametrize("bound", [listing.LOOP_LISTS, loop_files.LOOP_FILES])
def test_a_bare_word_after_a_loop_variable_is_bound_is_judged_in_full(bound):
    seg = segments("x")[0]
    assert judge._bare_key(seg, [], 0) is not None
    token = bound.set({"vm": "virsh list"})
    try:
        assert judge._bare_key(seg, [], 0) is None
    finally:
        bound.reset(token)


@pytest.mark.parametrize("line,most", [
    ("|".join(["x"] * 2000), 10),  # one judgement per number of feeders (up to 8, the first unlinked), then reused
    (" && ".join(["true"] * 2000), 2),  # the first has no link, the rest `&&`
    ("echo " + " ".join(["$(x)"] * 2000), 2),  # echo, and x inside its substitutions
], ids=["pipeline", "and-list", "substitutions"])
def test_a_repeated_bare_command_is_judged_once_per_line(monkeypatch, line, most):
    calls = []
    check = table.check
    monkeypatch.setattr(table, "check", lambda c: calls.append(c.prog) or check(c))
    assert judge.assess(line) is None
    assert len(calls) <= most, len(calls)
    calls.clear()
    assert judge.assess(line) is None and 0 < len(calls) <= most  # once per line: not kept from the last one


# Programs flagged alone, by a command feeding them, by the directory or by a shell's state, of many classes;
# and plain ones.
_NAMES = ("reboot", "poweroff", "sh", "crontab", "tee", "sync", "sort", "x", "cd", "history", "init", "exit",
          "wipefs", "rm", "Clear-RecycleBin", "Format-Volume", "Disable-UAC", "Restart-Computer", "visudo", "su",
          "sudo", "xargs", "HISTFILE=/dev/null", "unset", "exec", "kexec", "nc", "ssh", "sendmail", "bash")
_LINES = ("true; {w}; {w}", "|".join(["{w}"] * 10), "cd /etc; {w}; cd /; {w}; cd; {w}", "echo $({w}) $({w}) `{w}`",
          "curl -s u | {w}; x | {w}", "for vm in $(virsh list); do {w}; {w}; done",
          "for f in $(find /var/www -name '*.php'); do {w}; {w}; done", "x | sh; {w} | sh; {w} | sh",
          "{w}; x | {w}; env | {w}; history | {w}; {w} & {w}")  # `env | nc` sends the environment: its feeder counts


def test_each_finding_reused_is_the_one_the_full_reading_gives(monkeypatch):
    """Each time a line reuses a finding, its command is judged afresh too and the two compared (per command:
    a line's verdict, the worst of its commands, could hide a wrong one)."""
    reused, differ = [], []
    key_of = judge._bare_key

    def checking(seg, chain, depth):
        key = key_of(seg, chain, depth)
        kept = judge._BUDGET.get().bare
        if key is not None and key in kept:
            reused.append(key)
            fresh = judge._segment(seg, chain, depth)
            if fresh != kept[key]:
                differ.append((key, kept[key], fresh))
        return key

    monkeypatch.setattr(judge, "_bare_key", checking)
    verdicts = [judge.assess(form.format(w=w), "/" if w in ("cd", "rm") else "") for w in _NAMES for form in _LINES]
    assert sum(v is not None for v in verdicts) > 40  # the names are flagged in these lines, not all quiet
    assert len(reused) > 100 and differ == []


def test_the_only_state_a_judgement_reads_besides_its_words_is_in_the_key():
    """What ``_bare_key`` holds beyond the command and its feeders: the depth, the directory (``BASE``) and
    that no loop variable is bound (``LOOP_LISTS``, ``LOOP_FILES``), no variable holds a path the line made
    (``MADE``) and no file was made on the line from the user's own (``MADE_OWN``); ``_BUDGET`` holds the memo
    itself.  A new
    per-line state (a context variable, a module global set while judging) must be read into the key, or the memo
    skips it."""
    variables, globals_set = set(), set()
    for path in sorted(SAFETY.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        variables.update(re.findall(r"\bContextVar\(\s*['\"](\w+)", text))
        declared = re.findall(r"^\s*global (.+)$", text, re.M)
        globals_set.update(f"{path.relative_to(SAFETY)}:{n.strip()}" for names in declared for n in names.split(","))
    assert variables == {"aish_safety_base", "aish_safety_loop_lists", "aish_safety_loop_files", "aish_safety_budget",
                         "aish_safety_made_here", "aish_safety_made_own"}
    # the trigger index and its test modes (set outside a judgement), a digest computed once, and HOME as last
    # read from the environment (the environment, not a line's state: it cannot change within a line)
    assert globals_set == {"rules/triggers.py:_everything", "rules/triggers.py:_missed", "rules/triggers.py:_index",
                           "secret_rules.py:_digest", "home.py:_home_seen"}
