"""Judging stays linear in the command's length and bounded in time.

A model can suggest a very long command (the daemon accepts 20,000 characters);
judging runs on a daemon thread and must not hold it for long.  The bounds here
are loose on purpose (judging stops after 1 s of work): before the fix these took 30-100 s
and 8 s.  They count the CPU time of the judging thread, not the clock: on a busy machine the
clock also counts the time other processes ran.
"""
from __future__ import annotations

import time

from aish.safety.assess import assess


def _timed(command: str) -> tuple:
    start = time.thread_time()
    verdict = assess(command)
    return time.thread_time() - start, verdict


def test_a_long_pipeline_is_judged_quickly():
    command = "|".join(["x"] * 9999)  # 19,997 characters, one segment per two
    elapsed, _ = _timed(command)
    assert elapsed < 5.0, elapsed


def test_rm_with_thousands_of_arguments_is_judged_quickly_and_still_flagged():
    command = "rm -rf " + " ".join(chr(97 + i % 26) for i in range(9990)) + " ~"
    elapsed, verdict = _timed(command)
    assert elapsed < 5.0, elapsed
    assert verdict is not None and verdict.level == "high"


def test_deep_nesting_and_many_substitutions_are_bounded():
    nested = "echo " + "$(" * 400 + "rm -rf /" + ")" * 400
    elapsed, _ = _timed(nested)
    assert elapsed < 5.0, elapsed
    subs = "echo " + " ".join(["$(x)"] * 4000)
    elapsed, _ = _timed(subs)
    assert elapsed < 5.0, elapsed


def test_a_dangerous_command_after_a_long_harmless_prefix_is_still_found():
    command = " && ".join(["true"] * 2000) + " && rm -rf /"
    elapsed, verdict = _timed(command)
    assert elapsed < 5.0, elapsed
    assert verdict is not None and verdict.level == "high"


def test_what_is_nested_too_deep_to_follow_is_not_passed_as_harmless():
    verdict = assess("echo " + "$(" * 40 + "rm -rf /" + ")" * 40)
    assert verdict is not None and verdict.level == "medium" and "nested too deeply" in verdict.reason
    assert assess("echo $(echo $(echo $(date)))") is None


def test_a_command_cut_short_by_the_time_budget_says_so(monkeypatch):
    from aish.safety import assess as assess_module

    monkeypatch.setattr(assess_module, "_TIME_BUDGET", -1.0)  # every deadline already passed
    verdict = assess("ls; ls; ls")
    assert verdict is not None and verdict.level == "medium" and "not checked" in verdict.reason


def test_a_command_the_judge_failed_on_is_not_passed_as_harmless(monkeypatch):
    """A reading that raises (a bug) must not make the command look judged and quiet: it says it was not judged."""
    from aish.safety import assess as assess_module

    def broken(text, depth):
        raise RuntimeError("a reading's bug")

    monkeypatch.setattr(assess_module, "_assess", broken)
    verdict = assess("rm -rf ~/important")
    assert verdict is not None and verdict.level == "medium" and "not judged" in verdict.reason


def test_a_short_command_is_judged_without_reading_the_cpu_clock(monkeypatch):
    """The thread's CPU clock is a system call (5 µs in some VMs, a tenth of a short command's
    judgement); the wall clock bounds it until the budget could be near.  The wall clock is the
    test's own (1 µs a read): on a loaded host the real one can pass the 10 ms of grace while the
    thread waits for a core, and the test failed now and then in full runs."""
    from aish.safety import assess as assess_module

    line = "ls -la; git status | grep x"
    assess(line)  # a process's first judgement builds the trigger index and compiles patterns
    reads = []
    real = time.thread_time
    wall = {"now": 100.0}

    def a_quiet_host_wall_clock() -> float:
        wall["now"] += 1e-6
        return wall["now"]

    monkeypatch.setattr(assess_module.time, "perf_counter", a_quiet_host_wall_clock)
    monkeypatch.setattr(assess_module.time, "thread_time", lambda: reads.append(1) or real())
    assess(line)
    assert reads == []


def test_the_budget_counts_the_cpu_time_of_the_thread_not_the_clock(monkeypatch):
    """Wall time passes while the thread is descheduled on a busy host: only its own CPU counts."""
    from aish.safety import assess as assess_module

    clock = {"wall": 100.0, "cpu": 7.0}
    monkeypatch.setattr(assess_module.time, "perf_counter", lambda: clock["wall"])
    monkeypatch.setattr(assess_module.time, "thread_time", lambda: clock["cpu"])
    budget = assess_module._Budget(clock["wall"])
    clock["wall"] += 0.005
    assert not budget.spent()  # the CPU clock is not read yet
    clock["wall"] += 0.015
    clock["cpu"] += 0.02  # ran all along: its deadline is 1 CPU-second after its start
    assert not budget.spent()
    clock["wall"] += 5.0
    clock["cpu"] += 0.5  # descheduled most of the five seconds
    assert not budget.spent()
    clock["cpu"] += 0.49
    assert budget.spent()
