"""A multi-step task's state: what the planner was asked, what ran, why it stopped.

Kept as a plain dict on the shell's session (``Session.task``) and in its
session log, so a daemon restart loses nothing and ``? :norris resume`` picks
the task up where it was.  This module only shapes that state; the loop that
changes it is ``app/norris.py``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

# planning: the planner is being asked; waiting: a step is on the user's prompt line;
# done / halted: over (halted ones may be resumed).
ACTIVE = ("planning", "waiting")


@dataclass
class Task:
    goal: str
    model: str  # fixed at launch: every planner call of the task goes to it (no routing)
    state: str = "planning"
    steps: int = 0  # steps proposed so far
    failures: int = 0  # failed steps in a row
    spent: float = 0.0  # dollars of the task's planner calls
    steps_before: int = 0  # steps and dollars before the last resume: a resume after a
    spent_before: float = 0.0  # limit halt is the user's choice to go on, so limits count anew
    proposed: str = ""  # the step on the prompt line while waiting
    reason: str = ""  # the DONE summary or the HALT reason
    messages: list = field(default_factory=list)  # the planner's transcript after its system message
    ran: list = field(default_factory=list)  # [command, status, ms] per reported step
    folded: int = 0  # the oldest reports shortened to one line each (app/norris_fold.py)
    shell: str = "zsh"
    cwd: str = ""
    workdir: str = ""  # where the task started: autorun's writes (when allowed) stay under it
    tag: str = ""  # marks the task's data (step output, tool results) in the planner's transcript
    tainted: str = ""  # why autorun is off for this task: text the planner read gave instructions

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: Optional[dict]) -> Optional["Task"]:
        """The task a log entry describes; None for a missing or unreadable one."""
        if not isinstance(raw, dict):
            return None
        known = {k: raw[k] for k in cls.__dataclass_fields__ if k in raw}
        try:
            task = cls(**known)
        except TypeError:
            return None
        return task if isinstance(task.goal, str) and isinstance(task.messages, list) else None

    @property
    def active(self) -> bool:
        return self.state in ACTIVE

    def lines(self, max_steps: int) -> list[str]:
        """What ``? :norris`` alone prints."""
        out = [f"[aish] norris: {self.state} - goal: {self.goal}",
               f"  model {self.model}; step {self.steps} of at most {max_steps}; "
               f"{self.failures} failed in a row; ${self.spent:.4f} spent"]
        for command, status, ms in self.ran[-5:]:
            out.append(f"  ran [{status} {ms}ms] {command}")
        if self.state == "waiting" and self.proposed:
            out.append(f"  on the prompt line: {self.proposed}")
        if self.reason:
            out.append(f"  {'done' if self.state == 'done' else 'why'}: {self.reason}")
        if self.state == "halted":
            out.append("  '? :norris resume' continues it")
        return out
