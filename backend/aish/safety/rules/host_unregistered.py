"""Effect: this machine taken off the service that manages, patches, monitors or supports it, by its own client.

A management or support service knows a host through the client installed on it; the client's bare ``unregister``
(``insights-client --unregister``, ``subscription-manager unregister``), ``deregister``, ``detach`` told not to ask
(``pro detach --assume-yes``), ``disconnect`` (``azcmagent disconnect``) or ``--disable`` ends that, and so does a
program named for it run with no object (``rhn-unregister --force``): updates and entitlements, monitoring, remote
management and support stop, and the service usually deletes what it kept about the host. No object is named: the
object is the machine itself (a named node, runner or peer is ``out_of_service``'s). The client is known by its
name (an agent, a connector, a subscription, insights or inventory tool; a VPN's client is not one) or by the word
before the verb (``nessuscli agent unlink``).

Quiet: a VPN's or a device's disconnect (``warp-cli disconnect``, ``bluetoothctl disconnect``: not a management
client), ``runnerctl unregister`` (no client's name, nothing skipped), an option that only changes a schedule
(``--disable-schedule``), registration and status (``insights-client --register``, ``--status``), dry runs.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_VERBS = frozenset({"unregister", "deregister", "de-register", "detach", "disconnect", "unlink", "unclaim",
                    "--unregister", "--deregister", "--de-register", "--disconnect", "--unlink", "--disable",
                    "--unclaim", "-unregister", "-deregister", "-unclaim"})
# A client's own name: only its (un|de)register words (a VPN's client disconnects a session, `gpclient disconnect`).
_CLIENT_NAME = lazy(r"client")
# A client of a management, support, monitoring or inventory service, by its name.
# (not a bare "client": a VPN's client disconnects a session, `gpclient disconnect`)
_CLIENT = lazy(r"agent|connect|subscription|insights|landscape|sensor|inventory|telemetry|monitor|manage|enrol|"
               r"register")
_VPN = lazy(r"vpn|tunnel|proxy|warp|wg|^gp|openconnect|anyconnect")
# The word before the verb naming the machine's own membership (`nessuscli agent unlink`).
_SELF_WORDS = frozenset({"agent", "system", "host", "machine", "computer", "server", "this", "self", "instance",
                         "management", "mgmt", "console", "manager"})
# A program named for its machine's unregistering (`rhn-unregister`, `agent-deregister.sh`), given no object.
_NAMED = lazy(r"(^|[-_])(un|de-?)register([-_.]|$)")
_CONFIRMED = frozenset({"-y", "--yes", "--assume-yes", "-f", "--force", "--no-prompt", "--quiet", "-q",
                        "--non-interactive"})
_LOOKS = frozenset({"--help", "-h", "help", "--dry-run", "status", "--status", "show", "list"})


@triggered_by(("regist", "detach", "disconnect", "unlink", "--disable", "unclaim"))
def rule_host_unregistered(c: Ctx) -> Optional[tuple]:
    """``insights-client --unregister``, ``subscription-manager unregister``, ``pro detach --assume-yes``."""
    lowered = [t.lower() for t in c.texts]
    if set(lowered) & _LOOKS:
        return None
    name = c.prog.lower().rsplit("/", 1)[-1]
    if _NAMED.search(name) and all(t.startswith("-") for t in lowered):  # `rhn-unregister --force`
        return MEDIUM, f"{c.prog} takes this machine off the service that manages it: its updates, monitoring, " \
                       f"support or remote management stop ({c.text})"
    if not lowered:
        return None
    k = next((j for j, t in enumerate(lowered[:3]) if t in _VERBS or t.lstrip("-") == "de-register"), -1)
    if k < 0:
        return None
    before = [t for t in lowered[:k] if not t.startswith("-")]
    if before and not set(before) <= _SELF_WORDS:
        return None  # `cloudctl provider unregister`: a part of the program's own setup
    if any(not t.startswith("-") and t not in _SELF_WORDS for t in lowered[k + 1:]):
        return None  # something named: a node, a network, a device (out_of_service reads named things)
    client = bool(_CLIENT.search(name) and not _VPN.search(name) or before or
                  _CLIENT_NAME.search(name) and "regist" in lowered[k])  # `spacewalk-client --unregister`
    if not client and not (lowered[k] in ("detach", "unregister", "deregister") and set(lowered) & _CONFIRMED):
        return None
    if lowered[k] == "--disable" and not client:
        return None
    return MEDIUM, f"{c.prog} {c.texts[k]} takes this machine off the service that manages it: its updates, " \
                   f"monitoring, support or remote management stop ({c.text})"
