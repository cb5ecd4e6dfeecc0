"""The norris task state and the planner-answer parsing, without a daemon."""
from __future__ import annotations

from aish.app import norris
from aish.app.norris_task import Task
from aish.app.sessions import Session


def test_done_and_halt_lines_are_found_anywhere_case_insensitive():
    assert norris._verdict("All good.\nDONE:  built   and tested ") == ("DONE", "built and tested")
    assert norris._verdict("halt: needs root") == ("HALT", "needs root")
    assert norris._verdict("CMD: ls\nnothing else") == ("", "")
    assert norris._verdict("DONE without a colon") == ("", "")


def test_task_round_trips_and_junk_is_no_task():
    task = Task(goal="g", model="fast", steps=2, ran=[["ls", 0, 3]])
    assert Task.from_dict(task.to_dict()) == task
    assert Task.from_dict(None) is None
    assert Task.from_dict({"model": "fast"}) is None  # no goal
    assert Task.from_dict({"goal": "g", "model": "m", "messages": "not a list"}) is None
    assert Task.from_dict({"goal": "g", "model": "m", "unknown": 1}).goal == "g"  # newer fields ignored


def test_halt_keeps_the_state_and_only_stops_an_active_task():
    session = Session("c")
    assert norris.halt(session) is None
    session.set_task(Task(goal="g", model="fast", state="waiting", proposed="ls").to_dict())
    stopped = norris.halt(session)
    assert stopped is not None and session.task["state"] == "halted" and session.task["proposed"] == ""
    assert norris.halt(session) is None  # already halted
    lines = Task.from_dict(session.task).lines(10)
    assert lines[0] == "[aish] norris: halted - goal: g"
    assert "'? :norris resume' continues it" in lines[-1]


def test_a_shortened_transcript_keeps_the_goal_the_newest_steps_and_a_line_per_older_step():
    from aish.app import norris_fold

    task = Task(goal="g", model="fast")
    task.messages.append({"role": "user", "content": "Goal: g\nWhat is the first step?"})
    for n in range(1, 7):
        task.messages.append({"role": "assistant", "content": f"CMD: step {n}"})
        task.messages.append({"role": "user", "content": f"Step {n} ran: `step {n}`\nexit status {n % 2}, 5 ms"
                                                         f"\n\n{'printed ' * 50}"})
        task.ran.append([f"step {n} " + "x" * 100, n % 2, 5])
    assert norris_fold.shorten(task, window=1024) == "2 earlier steps kept as one line each"
    first = task.messages[0]["content"]
    assert first.startswith("Goal: g\nWhat is the first step?" + norris_fold.DIGEST_MARK)
    assert "\n1. `step 1 xxx" in first and "…` exit status 1, 5 ms" in first and "\n2. `step 2" in first
    assert [m["role"] for m in task.messages] == ["user"] + ["assistant", "user"] * 4  # turns still alternate
    assert task.messages[1]["content"] == "CMD: step 3"
    # the next notches keep 2 steps, then 1, then the newest step's output goes; then nothing is left
    assert norris_fold.shorten(task, window=1024) == "2 earlier steps kept as one line each"
    assert norris_fold.shorten(task, window=1024) == "1 earlier step kept as one line each"
    assert task.folded == 5 and "\n5. `step 5" in task.messages[0]["content"]
    assert norris_fold.shorten(task, window=1024) == "the newest step's output left out"
    assert task.messages[-1]["content"].startswith("Step 6 ran: `step 6`\nexit status 0, 5 ms\n[output left out")
    assert norris_fold.shorten(task, window=1024) is None
    # a small window lists only the newest folded steps, and counts the others
    small = norris_fold._with_digest("Goal: g", task, 3).splitlines()
    assert [line[:2] for line in small[3:]] == ["(2", "3.", "4.", "5."]
