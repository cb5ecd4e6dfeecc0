"""One request as it is sent: its weight in tokens, the window it must fit, and the answer cap
(``Limits.plan`` makes it); and where a weight stands against the window.

Apart from ``llm/limits.py`` (what a model can take, learned per model) because the callers of a
model (``app/model_call``, ``attempt``, ``fit``, ``cost_guard``) read a plan and never the
learning behind it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

MIN_ANSWER = 64  # fewer tokens left for the answer than this: the prompt does not fit
MARGIN = 0.03  # of the window, for what counting still gets wrong
NEAR_WINDOW = 0.9  # app/fit.py: an empty reply to a prompt this close to the window is an overflow


@dataclass
class Plan:
    """How one request is sent: its weight, the window, and the answer cap to send."""

    prompt_tokens: int
    window: Optional[int]
    answer_tokens: Optional[int]  # the cap to send (None: none)
    answer_param: str = "max_tokens"
    # set while ``prompt_tokens`` holds texts' upper bounds (``TokenCounter.defer``): far enough
    # from the window that the bounds decided as their counts would; gives the real weight (one
    # tokenize request per bound: asked for where an exact figure is wanted, ``by_bounds``)
    settle: Optional[Callable[[], int]] = field(default=None, repr=False, compare=False)

    @property
    def fits(self) -> bool:
        return self.window is None or self.prompt_tokens + MIN_ANSWER <= self.window

    @property
    def by_bounds(self) -> bool:
        """Does ``prompt_tokens`` hold upper bounds rather than counts?"""
        return self.settle is not None

    def exact_prompt_tokens(self) -> int:
        """The weight as counted (the calibration learns from this one)."""
        if self.settle is not None:
            self.prompt_tokens, self.settle = self.settle(), None
        return self.prompt_tokens


def far_from(window: Optional[int], prompt: int, cap: Optional[int]) -> bool:
    """Would a smaller weight than ``prompt`` plan the same request (it fits, the answer cap
    is not cut, an empty reply is not near the window)?"""
    if not window:
        return True
    return (prompt + MIN_ANSWER <= window and prompt < window * NEAR_WINDOW
            and (cap is None or prompt + cap + int(window * MARGIN) <= window))
