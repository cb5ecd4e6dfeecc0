"""Effect: a cloud or platform CLI told to stop, suspend, pause, deallocate, power off or reboot
what it runs, when that is more than one machine.

Every provider's CLI says it in its own grammar: a verb subcommand (``gcloud compute instances stop``,
``az vm deallocate``, ``hcloud server shutdown``, ``scw instance server stop``, ``openstack server
suspend``, ``cf stop``), a verb fused with its noun (``aws ec2 stop-instances``, ``aws rds
stop-db-cluster``, ``aws redshift pause-cluster``, ``ibmcloud is instance-stop``, ``heroku ps:stop``),
or the action as an option's value (``oci compute instance action --action STOP``, ``gcloud sql
instances patch --activation-policy NEVER``).  The mechanism is one: a stop verb, and a target that
is more than one machine:

- several targets named (``stop web-1 web-2``, ``--instance-ids i-a i-b``), a glob, or targets
  computed when the line runs (``--ids $(az vm list …)``) or chosen by a selector (``--tag-name``,
  ``--filter``, ``--label``, ``--all``);
- a noun that is a fleet or a cluster (``aks stop``, ``vmss stop``, ``stop-db-cluster``,
  ``pause-cluster``, ``node-pools``), a data store every client loses (``rds``, ``sql``,
  ``postgres``, ``cosmosdb``, ``redis``), or an app platform's whole app (``webapp stop``,
  ``app versions stop``, ``heroku ps:stop web``, ``heroku maintenance:on``).

Stopping one named virtual machine stays quiet (it is routine; a forced stop is ``fleets``'), and so
do starting, listing, describing and the same verbs in help.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

NAMES = frozenset("""aws gcloud az doctl hcloud linode-cli linode scw oci openstack nova ibmcloud ic exo vultr-cli
vultr civo upcloud aliyun tccli heroku fly flyctl cf yc ncloud ionosctl stackit metal brightbox triton osc-cli
koyeb railway lightsail eksctl ecs-cli""".split())

_VERBS = frozenset("stop suspend pause deallocate hibernate shutdown shut poweroff power-off halt reboot "
                   "softstop softreset reset".split())
_FUSED_FIRST = _VERBS - {"reset", "softreset"}  # `reset-ssl-config` resets a setting, not a machine
# Verb words are split on these: `stop-db-cluster`, `ps:stop`, `instance-stop`, `droplet-action`.
_PARTS = lazy(r"[-_:.]")
# A fleet, a cluster or a data store: every machine or every client behind it stops.
_WHOLE = lazy(r"^(clusters?|db-?clusters?|vmss|scale-?sets?|node-?groups?|node-?pools?|nodepools?|instance-?groups?|"
              r"instance-?pools?|fleets?|aks|eks|gke|k8s|kubernetes|container-?clusters?|redshift|dataproc|emr|"
              r"hdinsight|spring|environments?|rds|docdb|documentdb|neptune|sql|postgres(ql)?|mysql|mariadb|"
              r"flexible-server|cosmosdb|redis|elasticache|memorystore|spanner|bigtable|alloydb|databases?|dbaas|"
              r"db-?instances?|webapp|functionapp|containerapp|app|apps|versions|ps|maintenance|synapse|"
              r"warehouses?|workspaces?)$", re.IGNORECASE)
# Options that choose targets by a rule rather than by name.
_SELECTORS = frozenset("--tag-name --tag --tags --filter --filters --label --labels --selector -l --all -a "
                       "--all-instances --resource-tag --tag-key".split())
# Switches of these CLIs that take no value.
_FLAGS = frozenset("--async --quiet -q --force -f --no-wait --yes -y --wait --hibernate --skip-shutdown "
                   "--discard-local-ssd --no-prompt --verbose -v".split())
_ACTION_OPTIONS = frozenset({"--action", "--power-action", "--operation"})
_NEVER = lazy(r"^--activation-policy(=|$)")
# Platforms whose stop takes an app down with every instance of it (`cf stop shop`).
_APP_PLATFORMS = frozenset({"cf", "koyeb", "railway"})
_QUIET = frozenset({"help", "--help", "-h", "--dry-run", "--generate-cli-skeleton", "describe", "list", "show",
                    "get", "status"})


def _verb_at(words: list) -> Optional[int]:
    """Where the stop verb stands among the first words: alone or fused with its noun."""
    for k, w in enumerate(words[:6]):
        if w.startswith("-"):
            continue
        parts = _PARTS.split(w.lower())
        if parts[0] in _FUSED_FIRST or parts[-1] in _VERBS or w.lower() in ("power-off", "maintenance:on") or \
                "-".join(parts[-2:]) == "power-off" or parts[-2:] == ["power", "off"]:
            return k
    return None


def _targets(after: list, subs: bool) -> tuple:
    """(how many targets are named, is any of them computed, globbed or chosen by a selector)."""
    named, chosen, k = 0, subs, 0
    while k < len(after):
        t = after[k]
        if t in _FLAGS:  # `--async web-1 web-2`: a switch, the names after it are targets
            k += 1
            continue
        if t.startswith("-"):
            name = t.split("=", 1)[0]
            if name in _SELECTORS:
                chosen = True
            values = [t.split("=", 1)[1]] if "=" in t else []
            k += 1
            while "=" not in t and k < len(after) and not after[k].startswith("-"):
                values.append(after[k])
                k += 1
            if re.search(r"(^|[-_])(ids?|names?|identifiers?|instances?|servers?|droplets?|vms?)$", name):
                named += sum(len([v for v in value.split(",") if v]) for value in values)
            continue
        named += 1
        chosen = chosen or "*" in t
        k += 1
    return named, chosen


def rule_cloud_stop(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if not texts or set(texts) & _QUIET:
        return None
    lowered = [t.lower() for t in texts]
    verb = _verb_at(texts)
    action = next((texts[k + 1] for k, t in enumerate(lowered[:-1]) if t.split("=")[0] in _ACTION_OPTIONS), None) or \
        next((t.split("=", 1)[1] for t in lowered if "=" in t and t.split("=")[0] in _ACTION_OPTIONS), None)
    never = any(_NEVER.match(t) for t in lowered) and "never" in lowered + [t.split("=", 1)[-1] for t in lowered]
    if verb is None and not never and not (action and _PARTS.split(action.lower())[0] in _VERBS):
        return None
    if never:  # `gcloud sql instances patch db --activation-policy=NEVER`: the database stops serving
        return MEDIUM, f"{c.prog} sets the instance never to run: it stops for every client ({c.text})"
    k = verb if verb is not None else 0
    said = texts[k] if verb is not None else f"--action {action}"
    nouns = [p for w in texts[:k + 1] if not w.startswith("-") for p in [w.lower(), *_PARTS.split(w.lower())]]
    whole = next((n for n in nouns if _WHOLE.match(n)), None) or ("app" if c.prog in _APP_PLATFORMS else None)
    subs = any(w.subs for w in c.args[k + 1:])
    named, chosen = _targets(texts[k + 1:], subs)
    if whole == "ps" and named == 1 and any(re.fullmatch(r"[a-z][\w-]*\.\d+", t) for t in texts[k + 1:]):
        whole = None  # `heroku ps:stop web.1`: one dyno
    if whole is None and not chosen and named < 2:
        return None
    why = f"every {whole} machine or client" if whole else "every instance it selects" if chosen else \
        f"{named} instances at once"
    return MEDIUM, f"{c.prog} {said} stops {why}: what they serve goes down ({c.text})"


# Only lines that say one of these words reach the rule.
_MAY = lazy(r"stop|suspend|pause|dealloc|hibernat|shut|power|halt|reboot|reset|maintenance|activation")


@triggered_by(_MAY, otherwise=False)
def may_stop(c: Ctx) -> bool:
    """A cloud CLI's name and one search of the line before the rule reads the words."""
    return c.prog.lower() in NAMES and bool(_MAY.search(c.lowered))
