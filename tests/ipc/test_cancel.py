"""ipc/cancel.py: a request's cancel token, read on every event of an answer's stream."""
from __future__ import annotations

import threading

from aish.ipc import cancel as cancel_mod
from aish.ipc.cancel import CancelToken


def test_a_token_nobody_waits_on_makes_no_event(monkeypatch):
    """A request made two or three tokens, each with an Event (a Condition and two locks), and
    its stream read ``cancelled`` through it on every event; no one waited on most of them."""
    made: list = []
    real = threading.Event

    def event():
        made.append(1)
        return real()

    monkeypatch.setattr(cancel_mod.threading, "Event", event)
    token = CancelToken()
    heard: list = []
    unregister = token.on_cancel(lambda: heard.append("first"))
    token.on_cancel(lambda: heard.append("second"))
    unregister()
    assert token.cancelled is False and made == []
    token.cancel()
    token.cancel()  # (once only)
    assert token.cancelled is True and heard == ["second"] and made == []
    assert token.wait(0) is True and made == []  # already cancelled: nothing to wait for
    token.on_cancel(lambda: heard.append("late"))  # runs at once
    assert heard == ["second", "late"]


def test_a_waiter_wakes_when_another_thread_cancels():
    token = CancelToken()
    assert token.wait(0.01) is False
    woke: list = []
    waiter = threading.Thread(target=lambda: woke.append(token.wait(5)))
    waiter.start()
    token.cancel()
    waiter.join(5)
    assert woke == [True] and not waiter.is_alive()
