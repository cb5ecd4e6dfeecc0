"""The daemon's kept threads and its one alarm thread (aish/ipc/workers.py)."""
from __future__ import annotations

import threading
import time

from aish.ipc.workers import Alarms, Workers
from tests.helpers import wait_until


def test_a_finished_job_leaves_its_thread_for_the_next():
    pool = Workers(name="t")
    names: list = []
    done = threading.Event()
    pool.run(lambda: names.append(threading.current_thread().name))
    wait_until(lambda: pool.idle() == 1, what="the thread is idle")
    pool.run(lambda: (names.append(threading.current_thread().name), done.set()))
    assert done.wait(5)
    assert names[0] == names[1]


def test_a_busy_thread_never_delays_another_job():
    pool = Workers(name="t")
    release, second = threading.Event(), threading.Event()
    pool.run(release.wait, 10)  # a slow model
    pool.run(second.set)
    assert second.wait(5), "the second job waited behind the first"
    release.set()


def test_an_idle_thread_ends_and_a_job_after_it_still_runs():
    pool = Workers(name="t", idle_seconds=0.05)
    ran = threading.Event()
    threads: list = []
    pool.run(lambda: threads.append(threading.current_thread()))
    wait_until(lambda: threads and not threads[0].is_alive(), what="the idle thread ends")
    assert pool.idle() == 0
    pool.run(ran.set)
    assert ran.wait(5)


def test_a_failing_job_is_reported_and_the_thread_kept(monkeypatch):
    reported: list = []
    monkeypatch.setattr(threading, "excepthook", lambda args: reported.append(args.exc_type))
    pool = Workers(name="t")
    pool.run(lambda: 1 / 0)
    wait_until(lambda: pool.idle() == 1, what="the thread is idle again")
    assert reported == [ZeroDivisionError]


def _alarms_once() -> tuple:
    """Three alarms, the middle one cancelled: what fired, whether the case set them up as meant
    (the early one due before the late one, the cancel before the cancelled one was due), the
    start.  A loaded host may pause this thread between the calls (a pause of 0.10 s between the
    first and the last made the early alarm due after the late one, and the case failed though
    the alarms ran in time order): what counts is the alarms' own times, not the time since
    the start."""
    alarms = Alarms()
    fired: list = []
    done = threading.Event()
    start = time.monotonic()
    late = alarms.at(0.15, lambda: (fired.append("late"), done.set()))
    cancelled = alarms.at(0.12, lambda: fired.append("cancelled"))  # between the two, if it ran
    early = alarms.at(0.05, lambda: fired.append("early"))  # earlier than the first: wakes the thread sooner
    cancelled.cancel()
    as_meant = time.monotonic() < cancelled.when and early.when < late.when
    assert done.wait(10)
    return fired, as_meant, start


def test_alarms_run_in_time_order_and_a_cancelled_one_never():
    for _ in range(20):  # a loaded host may pause this thread between its calls: then try again
        fired, as_meant, start = _alarms_once()
        if as_meant:
            break
    assert as_meant, "the host never let the case set its alarms up in time"
    assert fired == ["early", "late"]
    assert time.monotonic() - start >= 0.14


def test_the_process_keeps_one_of_each_whichever_thread_asks_first():
    from aish.ipc.workers import kept

    made: list = []

    def make() -> object:
        time.sleep(0.01)  # threads asking meanwhile must wait for this one
        made.append(object())
        return made[-1]

    one = kept(make)
    got: list = []
    threads = [threading.Thread(target=lambda: got.append(one())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1 and all(g is made[0] for g in got) and len(got) == 8
