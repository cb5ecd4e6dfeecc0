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
