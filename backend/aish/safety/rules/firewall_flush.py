"""Effect: a packet filter emptied or switched off, or a service opened to every network, in the words of
firewalls and service tools other rules do not name.

- Filters of the BSDs and appliances flushed or disabled in their own syntax: IPFilter's ``ipf -Fa`` (``-Fi``,
  ``-F a``, ``-D``) and ``ipnat -C``, NPF's ``npfctl flush``, IPFW through its sysctl
  (``net.inet.ip.fw.enable=0``) or a rule passing everything from anywhere, FireHOL's ``panic``, Check Point's
  ``fw unloadlocal`` and ``cpstop``, pfSense's ``easyrule pass`` from any source.  Flushing and loading a rule
  file in one command (``ipf -Fa -f /etc/ipf.rules``, ``pfctl -F all -f /etc/pf.conf``) is how rules are
  reloaded and stays quiet (read by ``lockout`` for pf).
- OpenBSD's ``rcctl set DAEMON flags …`` starts the daemon with those options: judged as the daemon started
  with them (``rcctl set sshd flags -o PermitRootLogin=yes``); ``rcctl disable pf`` switches pf off at boot.
- CUPS administered from anywhere (``cupsctl --remote-admin --remote-any``, ``_remote_admin=1 _remote_any=1``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.fed import fed_text
from aish.safety.lazy_regex import lazy

NAMES = frozenset({"pfctl", "ipf", "ipnat", "npfctl", "sysctl", "fw", "cpstop", "easyrule", "rcctl", "cupsctl", "ipfw",
                   "firehol"})
_IPF_FLUSH = lazy(r"^-[A-Za-z]*F[aio]?$")
_FW_SYSCTL = lazy(r"^net\.inet6?\.ip6?\.fw\.enable=0$|^net\.pf\.enable=0$")
_LOADS = lazy(r"^-[A-Za-z]*f$")
_BLOCKS_ALL = lazy(r"^\s*block\b(\s+(drop|return))?(\s+(in|quick|log))*\s*(all|from\s+any)?\s*$", re.MULTILINE)


def reloads(texts: list) -> bool:
    """A rule file loaded by the same command that flushed: ``-f FILE`` (not an empty one)."""
    return any(_LOADS.match(t) and k + 1 < len(texts) and texts[k + 1] not in ("/dev/null", "-")
               for k, t in enumerate(texts))


def rule_firewall_flushed(c: Ctx) -> Optional[tuple]:
    prog, texts = c.prog.lower(), c.texts
    if prog == "ipf":
        if "-D" in texts:
            return MEDIUM, f"ipf -D switches IPFilter off: every packet passes ({c.text})"
        flush = next((k for k, t in enumerate(texts) if _IPF_FLUSH.match(t)), None)
        if flush is not None and not reloads(texts):
            return MEDIUM, f"ipf flushes the firewall's rules: with no rules, what they kept out gets in ({c.text})"
        return None
    if prog == "ipnat" and any(re.fullmatch(r"-[A-Za-z]*C[A-Za-z]*", t) for t in texts) and not reloads(texts):
        return MEDIUM, f"ipnat -C removes every NAT rule: what was forwarded or hidden behind them stops ({c.text})"
    if prog == "ipfw" and "add" in texts and re.search(r"\b(allow|accept|pass|permit)\s+(ip|all)\s+from\s+any\s+to\s+"
                                                      r"any\b(?!\s+via\s+lo)", " ".join(texts)):
        return MEDIUM, f"ipfw adds a rule that lets every packet in from anywhere ({c.text})"
    if prog == "firehol" and texts[:1] == ["panic"]:
        return MEDIUM, f"firehol panic blocks all traffic but one ssh session: every other connection is cut ({c.text})"
    if prog == "npfctl" and texts[:1] == ["flush"]:
        return MEDIUM, f"npfctl flush empties the packet filter's rules ({c.text})"
    if prog in ("sysctl", "ipfw") and any(_FW_SYSCTL.match(t) for t in texts):
        return MEDIUM, f"switches the packet filter off through its sysctl: every packet passes ({c.text})"
    if prog == "fw" and texts[:1] in (["unloadlocal"], ["unload"]):
        return MEDIUM, f"fw {texts[0]} unloads the firewall's security policy: all traffic passes ({c.text})"
    if prog == "cpstop":
        return MEDIUM, f"cpstop stops the Check Point firewall ({c.text})"
    if prog == "easyrule" and texts[:1] == ["pass"] and "any" in [t.lower() for t in texts[3:4]]:
        return MEDIUM, f"easyrule opens the firewall to traffic from any address ({c.text})"
    if prog == "pfctl" and any(_LOADS.match(t) for t in texts) and ("-" in texts or "/dev/stdin" in texts):
        rules = fed_text(c).replace("\\n", "\n")  # `echo 'block drop in all' | pfctl -f -`: the rules fed
        if _BLOCKS_ALL.search(rules) and not re.search(r"^\s*pass\b", rules, re.MULTILINE):
            return MEDIUM, f"pfctl loads rules that block every incoming packet, ssh included ({c.text})"
    if prog == "rcctl":
        return _rcctl(c)
    if prog == "cupsctl":
        said = " ".join(texts).lower()
        if ("--remote-admin" in said or "_remote_admin=1" in said) and \
                ("--remote-any" in said or "_remote_any=1" in said):
            return MEDIUM, f"lets anyone on any network administer the printers ({c.text})"
    return None


def _rcctl(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if texts[:1] == ["disable"] and "pf" in texts[1:] or texts[:4] == ["set", "pf", "status", "off"]:
        return MEDIUM, f"switches the packet filter off at the next boot ({c.text})"
    if len(texts) >= 4 and texts[0] == "set" and texts[2] == "flags":
        found = c.recurse(" ".join([texts[1]] + [_quoted(t) for t in texts[3:]]))
        if found is not None and found[0] >= MEDIUM:
            return found[0], f"{found[1]}, each time rcctl starts {texts[1]} ({c.text})"
    return None


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'" if re.search(r"[^\w@%+=:,./-]", word) else word
