"""Effect: routers and switches told to change, drop or stop, in their own command languages.

Routing daemons' shells and network operating systems take their commands as arguments
(``birdc disable all``, ``net del interface swp1``, ``nv unset …``), as ``-c`` lines (``vtysh -c
'conf t' -c 'no router bgp 65001'``, Junos' ``cli -c "request system reboot"``, Arista's ``FastCli
-c 'reload now'``, VyOS' ``vbash -c '…; delete interfaces …; commit'``), or through ``ssh`` to the
device (``ssh admin@router '/system reset-configuration'``, ``ssh sw1 'write erase'``).  Their
languages share a few verbs, judged wherever such a line appears:

- the device restarted, powered off or reset to factory state (``reload``, ``request system
  reboot|power-off|zeroize``, ``/system reboot``, ``write erase``, ``erase startup-config``,
  ``firstboot -y``, ``ovs-vsctl emer-reset``);
- configuration removed (``delete …``, ``del …``, ``unset …``, RouterOS' ``… remove``, ``no router
  …``, ``no interface …``) or an interface or protocol taken down (``shutdown``, ``link down``,
  ``disable``, ``birdc down``);
- every routing session reset (``clear ip bgp *``, ``birdc restart all``).

``show``, ``print``, ``get`` and ``no shutdown`` (which brings an interface up) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.fed import fed_lines
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# Shells of routing daemons and network operating systems: their arguments are their own commands.
NOS_CLIS = frozenset({"vtysh", "birdc", "birdc6", "birdcl", "cli", "Cli", "FastCli", "clish", "imish", "klish",
                      "sonic-cli", "vbash", "vyatta-op-cmd-wrapper", "vyatta-cfg-cmd-wrapper", "sr_cli", "net", "nv",
                      "gobgp", "cl", "vcli", "ncs_cli", "confd_cli", "fboss2", "clixon_cli", "zebra", "quagga",
                      "config", "tmsh", "configctl"})  # SONiC's `config interface shutdown Ethernet0`, F5's tmsh
_LINE_OPTIONS = frozenset({"-c", "--command", "-e", "--exec", "-C", "-x"})

_RESTART = lazy(r"^(reload(?!\s+cancel)(\s.*)?|(request\s+)?system\s+(reboot|power-?off|halt|shutdown|zeroize|"
                r"reset-configuration|factory-reset)\b.*|run\s+(reboot|poweroff|shutdown)\b.*|"
                r"/system\s+(reboot|shutdown|reset-configuration)\b.*|action\s+reboot\b.*|"
                r"request\s+(system\s+)?(reboot|zeroize|power-?off|halt)\b.*|"
                r"(write|wr)\s+erase\b.*|erase\s+(startup-config|nvram:?|flash:?|/all|bootflash:?|"
                r"config)\b.*|(delete|format)\s+(/force\s+)?(flash|bootflash|nvram|disk0|startup)[:\s].*|"
                r"(delete|format)\s+(/force\s+)?(flash|bootflash|nvram|disk0):?$|"
                r"reset\s+saved-configuration\b.*|load\s+factory-default\b.*|restore\s+factory-default\b.*|"
                r"factory-reset\b.*|config\s+reload\b.*|"
                # a vendor's prefix before the power word: FortiOS' `execute reboot`, PAN-OS' `request restart
                # system`, SR OS' `admin reboot now`, OPNsense's `configctl system halt`, TMOS' `reboot`
                r"(execute|exec|request|admin|diagnose\s+sys|configctl\s+\w+)\s+(\w+\s+)?(reboot|reload|"
                r"shutdown|halt|power-?off|restart|factoryreset|factory-reset|zeroize)\b.*|reboot|"
                r"load\s+(sys\s+)?config\s+default\b.*)$", re.IGNORECASE)
_REMOVE = lazy(r"(^|\s)(delete|del|unset|remove)\s+\S.*$|^/[\w/ -]+\s+(remove|reset|reset-configuration)\b.*$|"
               r"^(no|undo)\s+(router|interface|vlan|ip|ipv6|neighbor|network|route-map|access-list|prefix-list|bgp|"
               r"ospf|vrf|bridge|bond|vxlan|address-family|redistribute|spanning-tree|vpc|feature|username|"
               r"aaa|mpls|isis|evpn|static|port-channel|switchport|hostname)\b.*$", re.IGNORECASE)
_DOWN = lazy(r"^(shutdown|shut)$|\b(admin-?)?state\s+(off|down|disabled?)\b|(?<!no )\bshutdown(\s|$)|"
             r"\blink\s+down\b|"
             r"^/[\w/ -]+\s+disable\b|^(set\s+\S.*\s)?disable$|"
             r"^set\s+.*\bdisable\b|^deactivate\s+\S|^down$|^disable\s+\S+|"
             r"^config\s+interface\s+shutdown\b|^interface\s+\S+\s+shutdown$", re.IGNORECASE)
_RESET_SESSIONS = lazy(r"^clear\s+(ip\s+|ipv6\s+)?(bgp|ospf|isis|route|mpls)\b.*(\*|\ball\b|process)|"
                       r"^restart\s+all$|^clear\s+bgp\b.*", re.IGNORECASE)
# The device reset to factory state by a program of its own (OpenWrt's `firstboot`, Open vSwitch's `emer-reset`).
_FACTORY = re.compile(r"^(firstboot|jffs2reset|factoryreset|factory-reset|factory_reset)$|"
                      r"^(emer-reset|factory-reset|reset-configuration|zeroize|erase-config)$", re.IGNORECASE)
# A bridge, port or link deleted by a verb fused to its noun (`brctl delbr`, `ovs-vsctl del-port`).
_FUSED_DELETE = re.compile(r"^(del|delete|rm|remove|destroy)[-_]?(br|bridge|if|port|bond|vlan|flows?|link|"
                           r"controller|manager|mirror|qos|queue)$", re.IGNORECASE)
# Machine images reset to a blank state (unless only chosen operations run, or they are only listed).
_SYSPREP = frozenset({"virt-sysprep", "sysprep"})
_RESTRICTED = frozenset({"--list-operations", "--operations", "--enable", "--help", "-n", "--dry-run"})
_READS = lazy(r"^(show|sh|print|get|display|ping|traceroute|list|ls|monitor|help|\?)\b", re.IGNORECASE)


def judge_line(line: str) -> str:
    """What one line of a router's or switch's language does that costs traffic ("" when nothing)."""
    line = " ".join(line.split())
    if not line or _READS.match(line) or line.lower().startswith("no shut"):
        return ""
    if _RESTART.match(line):
        return "restarts, powers off or resets the device"
    if _REMOVE.match(line):
        return "removes configuration from the device: what it carried stops"
    if _DOWN.search(line):
        return "takes an interface or a protocol down: its traffic stops"
    if _RESET_SESSIONS.match(line):
        return "resets every routing session: routes are withdrawn until they come back"
    return ""


def _lines(c: Ctx) -> list:
    texts = c.texts
    lines = []
    for k, t in enumerate(texts[:-1]):
        if t in _LINE_OPTIONS:
            lines += re.split(r"[;\n]|\\n", texts[k + 1])
    if not lines:
        operands = [t for t in texts if not t.startswith("-") or t in ("-a",)]
        lines = [" ".join(operands)]
    return lines + fed_lines(c)


def rule_device_cli(c: Ctx) -> Optional[tuple]:
    """A network OS shell given a line that changes or stops the device."""
    for line in _lines(c)[:16]:
        what = judge_line(line)
        if what:
            return MEDIUM, f"{c.prog}: '{line.strip()[:40]}' {what} ({c.text})"
    return None


_UNIX_FIRST = lazy(r"^(reload|write|erase|request|/\w+|configure|conf|clear|no|undo|delete|del|unset|run|reset|"
                   r"load|execute|admin|configctl|tmsh|"
                   r"restore|format|factory-reset|system)\b")


def rule_ssh_device(c: Ctx) -> Optional[tuple]:
    """``ssh admin@sw1 'write erase'``: a line in a network device's language run on the host reached."""
    operands, k = [], 0
    texts = c.texts
    while k < len(texts):
        if texts[k].startswith("-"):
            k += 2 if texts[k] in ("-p", "-l", "-i", "-o", "-J", "-F", "-E", "-c", "-m", "-L", "-R", "-D", "-b", "-e",
                                  "-I", "-O", "-Q", "-S", "-W", "-w", "-B", "-P") else 1
            continue
        operands.append(texts[k])
        k += 1
    if len(operands) < 2:
        return None
    for line in re.split(r"[;\n]", " ".join(operands[1:]))[:16]:
        line = line.strip()
        if _UNIX_FIRST.match(line):
            what = judge_line(line)
            if what:
                return MEDIUM, f"'{line[:40]}' on {operands[0]} {what} ({c.text})"
    return None


@triggered_by(_FACTORY, _SYSPREP, _FUSED_DELETE)
def rule_factory_or_fused(c: Ctx) -> Optional[tuple]:
    """A program or subcommand that resets a device to its factory state, or deletes a bridge or port."""
    prog = c.prog.lower().removesuffix(".sh")
    if not c.texts:  # a bare program: only its name
        return _factory_named(c, prog, "") if _FACTORY.match(prog) else None
    first = next((t for t in c.texts if not t.startswith("-")), "")
    if _FACTORY.match(prog) or _FACTORY.match(first):
        return _factory_named(c, prog, first)
    if prog in _SYSPREP and c.texts and _RESTRICTED.isdisjoint(c.texts):
        return MEDIUM, f"{c.prog} resets the machine image: its users' keys, logs and history go ({c.text})"
    if _FUSED_DELETE.match(first):
        return MEDIUM, f"{c.prog} {first} deletes it: the traffic through it stops ({c.text})"
    return None


def _factory_named(c: Ctx, prog: str, first: str) -> tuple:
    said = first if first and _FACTORY.match(first) else ""
    return MEDIUM, f"{c.prog} {said} resets the device to its factory state: its configuration is lost ({c.text})"


def rule_device_prompt(c: Ctx) -> Optional[tuple]:
    """A line typed at a router's own prompt (``reload``, ``write erase``, ``erase startup-config``): no
    program of a Unix system has these names and words."""
    line = " ".join([c.prog] + c.texts)
    if c.prog == "write" and c.texts[:1] != ["erase"]:
        return None  # write(1) sends a message to a user
    what = judge_line(line)
    return (MEDIUM, f"'{line[:40]}' {what} ({c.text})") if what else None


RULES: dict = {**{p: [rule_device_cli] for p in NOS_CLIS}, "ssh": [rule_ssh_device],
               **{p: [rule_device_prompt] for p in ("reload", "write", "erase", "wr")}}
