"""Effect: machines or services stopped by what an HTTP request's body says (read by ``http``).

Cloud and controller APIs take the action in the body, not the address: ``{"type": "power_off"}`` to
DigitalOcean's droplet actions, ``{"ResetType": "ForceOff"}`` to a controller's API, OpenStack's
``{"os-stop": null}`` or ``{"reboot": {"type": "HARD"}}``, ``{"action": "shutdown"}``, and a
workload's ``{"spec": {"replicas": 0}}`` patched straight into the Kubernetes API.  Power cut
(``power_off``, ``ForceOff``, a hard reset or a power cycle) is flagged for one machine, as pulling
the plug is; a graceful stop, shutdown, reboot, suspend or pause only for many at once (a tag or
label chooses them, the address says all, the body lists more than one id).  Bodies that create,
start or read stay quiet, and so do methods that carry no body to act on (GET, HEAD).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

_BODY_OPTIONS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json", "--body-data",
                           "--post-data", "-body", "--body"})
_ACTION_KEY = r'"(?:type|action|resettype|reset_type|command|cmd|op|operation|power_?state|powerstate)"\s*:\s*"'
# Actions that cut the power (data not yet written is lost) and actions that stop gracefully.
_CUT = lazy(_ACTION_KEY + r"(power[-_ ]?off|force[-_ ]?off|hard[-_ ]?reset|power[-_ ]?cycle|force[-_ ]?restart|"
            r"pushpowerbutton|nmi|kill)\"", re.IGNORECASE)
_GRACEFUL = lazy(_ACTION_KEY + r"(shutdown|graceful[-_ ]?shutdown|stop|halt|reboot|restart|suspend|pause|"
                 r"hibernate|deallocate|shelve)\"", re.IGNORECASE)
# OpenStack's server actions: the key is the action (`{"os-stop": null}`, `{"reboot": {"type": "HARD"}}`).
_KEYED = lazy(r'^\s*\{\s*"(os-stop|os-start|reboot|suspend|pause|shelve|shelveoffload|forcedelete|os-resetstate)"\s*:',
              re.IGNORECASE)
_HARD = lazy(r'"type"\s*:\s*"hard"', re.IGNORECASE)
_REPLICAS_ZERO = lazy(r'"(replicas|replicaCount|desiredCount|desired_capacity|minReplicas|maxReplicas)"\s*:\s*0\b')
_MANY_IN_ADDRESS = lazy(r"[?&](tag_name|tag|label_selector|labelSelector|selector|filter)=|/_all\b|/all(/|$|\?)|\*")
_ID_LIST = lazy(r'"\w*ids"\s*:\s*\[\s*"[^"]*"\s*,')


def _bodies(c: Ctx) -> list:
    """The request bodies given: ``-d '{…}'``, ``--json='{…}'``, and HTTPie's items (``type=power_off``,
    ``replicas:=0``) written as the JSON they send."""
    texts = c.texts
    out = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _BODY_OPTIONS]
    out += [t.split("=", 1)[1] for t in texts if "=" in t and t.split("=", 1)[0] in _BODY_OPTIONS]
    if c.prog.lower() in ("http", "https", "xh", "xhs", "httpie"):
        items = [m.groups() for t in texts if (m := _ITEM.fullmatch(t))]
        if items:
            out.append("{" + ", ".join(f'"{k}": {v}' if raw else f'"{k}": "{v}"' for k, raw, v in items) + "}")
    return out


_ITEM = lazy(r"([A-Za-z_][\w.-]*)(:)?=(.*)")  # HTTPie's `key=value` and `key:=json`


def body_action(c: Ctx, method: str, url: str) -> Optional[tuple]:
    """(level, reason) for a POST, PUT or PATCH whose body stops machines or workloads, or None."""
    if method in ("GET", "HEAD", "OPTIONS", "DELETE") or "/redfish/" in url.lower():
        return None  # a Redfish controller's actions are read with firmware's (`firmware_writes`)
    body = " ".join(b for b in _bodies(c) if "{" in b)
    if not body:
        return None
    many = bool(_MANY_IN_ADDRESS.search(url) or _ID_LIST.search(body) or
                any(_MANY_IN_ADDRESS.search("?" + t.replace("==", "=", 1)) for t in c.texts if "==" in t))
    cut = _CUT.search(body)
    if cut is not None:
        return MEDIUM, f"asks the API to {cut.group(1)}: the machine loses power, unsaved state is lost ({c.text})"
    keyed = _KEYED.match(body)
    if keyed is not None and keyed.group(1).lower() not in ("os-start",) and \
            (many or keyed.group(1).lower() in ("forcedelete", "os-resetstate") or _HARD.search(body)):
        return MEDIUM, f"asks the API to {keyed.group(1)} the server ({c.text})"
    graceful = _GRACEFUL.search(body)
    if graceful is not None and many:
        return MEDIUM, f"asks the API to {graceful.group(1)} every machine it selects ({c.text})"
    zero = _REPLICAS_ZERO.search(body)
    if zero is not None and not zero.group(1).startswith("min"):
        return MEDIUM, f"sets {zero.group(1)} to 0 through the API: everything it serves stops ({c.text})"
    return None
