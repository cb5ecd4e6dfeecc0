"""The long tail's verbs that the vocabulary leaves quiet, asked together for programs no rule names.

One entry in ``table.check`` for the rules of issue 23's long tail, so that the judge's hot path gains one
call, each gated by its own trigger words: a thing taken out of service (``out_of_service``), a tool's stored
work cleaned or its state reset (``state_cleared``), a verb fused into an option word (``fused_options``), and
a program whose own name stops or cleans, or a stop whose target is a server or a range of instances
(``named_stops``).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules import fused_options, named_stops, out_of_service, state_cleared
from aish.safety.rules.common import Ctx
from aish.safety.rules.triggers import gates_of, triggered_by

_READINGS = (out_of_service.rule_out_of_service, fused_options.rule_fused_member_option,
             state_cleared.rule_state_cleared, named_stops.rule_named_stop)


@triggered_by(*gates_of(*_READINGS))  # it answers only through them: a line none of them wakes is skipped whole
def rule_tail_verbs(c: Ctx) -> Optional[tuple]:
    """The first of the long tail's readings that answers."""
    return out_of_service.rule_out_of_service(c) or fused_options.rule_fused_member_option(c) or \
        state_cleared.rule_state_cleared(c) or named_stops.rule_named_stop(c)
