"""Effect: a cloud CLI told to stop or switch off the service that watches the account.

An account's audit trail, configuration recorder, threat detector, security hub, flow logs, log sinks, default
encryption and keys are each switched off by one call of the provider's CLI, in its own grammar: a verb fused with
what it stops (``aws cloudtrail stop-logging``, ``aws configservice stop-configuration-recorder``, ``aws ec2
disable-ebs-encryption-by-default``, ``aws securityhub disable-security-hub``), a bare verb after a guard service
(``aws inspector2 disable``, ``gcloud services disable logging.googleapis.com``), or an update told ``--no-enable``,
``--disabled``, ``--enabled false`` or ``off`` (``aws guardduty update-detector --no-enable``, ``gcloud logging sinks
update S --disabled``, ``az security auto-provisioning-setting update --auto-provision off``).  From then on nothing
records what is done in the account, or what was stored is no longer encrypted: medium.  Stopping a query, a job or
a machine is not a guard's (``aws logs stop-query``, ``aws ec2 stop-instances``: ``cloud_stops``' if anything);
starting, listing and describing stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.cloud_stops import NAMES
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_OFF_VERBS = frozenset({"stop", "disable", "deactivate", "suspend", "pause", "disassociate"})
# What watches or protects the account, in the words its services, subcommands and objects are named with.
_GUARD = lazy(r"cloudtrail|trails?\b|logging|\blogs?\b|log-?(groups?|sinks?|profiles?|analytics)|recorder|"
              r"configservice|guardduty|detector|securityhub|security-?hub|security-?center|macie|inspector|audit|"
              r"defender|sentinel|\bsecurity\b|flow-?logs?|encryption|\bkms\b|\bwaf|shield|threat|armor|analyzer|"
              r"guard|diagnostic|\bscc\b|\bdlp\b|event-?selectors?|cloudwatch|alarms?|backup|"
              r"auto-?provision", re.IGNORECASE)
# Objects whose stop ends one piece of work, not a guard.
_WORK = frozenset({"query", "queries", "job", "jobs", "task", "tasks", "export", "import", "build", "run", "session",
                   "replication", "instance", "instances", "migration", "execution", "test", "training", "stream"})
_SWITCH_OFF = lazy(r"^--(no-enabled?|disabled?)$|^--(enabled?|status|state|auto-?provision|(pricing-)?tier)(=|$)",
                   re.IGNORECASE)
_OFF_VALUE = frozenset({"false", "off", "no", "disabled", "0", "$false", "free"})  # `--tier free`: the plan's guard off
_QUIET = frozenset({"help", "--help", "-h", "--dry-run", "--generate-cli-skeleton", "describe", "list", "show", "get",
                    "status"})
_PARTS = lazy(r"[-_:.]")
_CAMEL = lazy(r"(?<=[a-z])(?=[A-Z])")


_WORDS = ("stop", "disable", "deactivate", "suspend", "pause", "disassociate", "--no-enable", "false", "off", "free")


@triggered_by(_WORDS, otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: a cloud CLI's name and an off word in its line."""
    if c.prog.lower() not in NAMES:
        return False
    line = c.lowered
    return any(word in line for word in _WORDS)


def _switched_off(texts: list) -> bool:
    """An option saying the thing updated is off: ``--no-enable``, ``--disabled``, ``--enabled false``."""
    for k, t in enumerate(texts):
        m = _SWITCH_OFF.match(t)
        if not m:
            continue
        if m.group(1):
            return True
        value = t.split("=", 1)[1] if "=" in t else (texts[k + 1] if k + 1 < len(texts) else "")
        if value.lower().strip("'\"") in _OFF_VALUE:
            return True
    return False


def rule_guard_switched_off(c: Ctx) -> Optional[tuple]:
    """``aws cloudtrail stop-logging --name T``, ``aws guardduty update-detector --detector-id D --no-enable``."""
    texts = c.texts[:32]
    if set(t.lower() for t in texts) & _QUIET:
        return None
    words = []
    for t in texts:
        if t.startswith("-"):
            break
        words.append(_CAMEL.sub("-", t).lower())  # aliyun's `StopLogging`
    fused = bare = False
    for w in words:
        parts = [p for p in _PARTS.split(w) if p]
        if not parts or not set(parts) & _OFF_VERBS or set(parts) & _WORK:
            continue
        rest = "-".join(p for p in parts if p not in _OFF_VERBS)
        if rest and _GUARD.search(rest):
            fused = True
        elif not rest:
            bare = True
    around = " ".join(words)
    if not (fused or (bare or _switched_off(texts)) and _GUARD.search(around) and not set(words) & _WORK):
        return None
    return MEDIUM, f"{c.prog} switches off what watches or protects the account (audit, logs, detection, " \
                   f"encryption): nothing records what is done from now on ({c.text})"
