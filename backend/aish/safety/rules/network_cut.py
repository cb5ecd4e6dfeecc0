"""Effect: the network a remote user stands on cut, by a VPN or overlay client or a network manager.

A user logged in over a VPN or an overlay network (WireGuard, Tailscale, NetBird, ZeroTier, Nebula,
IPsec) loses the session when it goes down (``wg-quick down wg0``, ``tailscale down``, ``netbird
down``, ``zerotier-cli leave NET``, ``ipsec down office``, ``swanctl --terminate --ike office``,
``openvpn3 session-manage --disconnect``); one logged in over the wire loses it when a network manager
switches the interface or the technology off (``connmanctl disable ethernet``, ``connmanctl offline
on``, ``wicked ifdown all``, ``nmcli con mod eth0 ipv4.method disabled``, ``netctl stop-all``,
``ubus call network.interface.wan down``, ``iwctl station wlan0 disconnect``, ``netplan set
ethernets.eth0.dhcp4=false`` before an apply).  Consumer VPN apps
disconnecting (``nordvpn disconnect``) leave the direct network in place and stay quiet, and so do
bringing things up, status and listings.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# VPN and overlay clients, by name.
_OVERLAY = lazy(r"^(wg|wg-quick|wireguard\w*|tailscale|netbird|zerotier(-cli)?|nebula\w*|tinc|tincd|headscale|"
                r"innernet|yggdrasil\w*|twingate|ziti\w*|pritunl\w*|firezone\w*|openvpn\d?|openvpn3|ipsec|"
                r"swanctl|strongswan|libreswan|\w*vpn\w*|defguard\w*|husarnet|tailscaled?|nordlayer|"
                r"cloudflared|warp-cli|globalprotect|anyconnect|vpncli|f5fpc)$")
# Apps whose disconnect puts the direct network back (the user is not standing on them).
_CONSUMER = frozenset("""
nordvpn mullvad expressvpn protonvpn protonvpn-cli windscribe surfshark piactl hotspotshield cyberghost ivpn
warp-cli nordlayer mozillavpn
""".split())
# What a consumer app may do without cutting the way in (the direct network stays).
_CONSUMER_SAFE = frozenset("logout disconnect stop".split())
_DOWN = frozenset("down leave logout stop terminate stop-all".split())
_DISCONNECT = frozenset("disconnect --disconnect --terminate -t --down --stop".split())
# netplan set values that take an interface's address away once applied.
_NETPLAN_OFF = ("dhcp4=false", "dhcp4=no", "dhcp6=false", "=null", "activation-mode=off", "addresses=[]")
_NOT_DOING = frozenset("--help -h status --status show list".split())


def _overlay_down(c: Ctx, name: str, lowered: list) -> Optional[tuple]:
    operands = [t for t in lowered if not t.startswith("-")]
    said = next((t for t in operands[:2] if t in _DOWN and not (name in _CONSUMER and t in _CONSUMER_SAFE)), None)
    if said is None and name not in _CONSUMER:
        said = next((t for t in lowered if t in _DISCONNECT), None)
    if said is None or name == "openvpn" and said != "--disconnect":
        return None
    return MEDIUM, f"{c.prog} {said} takes the VPN or overlay network down: a remote session over it is cut " \
        f"({c.text})"


def _manager_off(c: Ctx, name: str, lowered: list) -> Optional[tuple]:
    """A network manager switching an interface, a technology or the whole network off."""
    operands = [t for t in lowered if not t.startswith("-")]
    first = operands[0] if operands else ""
    said = ""
    if name == "connmanctl" and (first == "disable" and operands[1:2] and operands[1] != "bluetooth" or
                                 first == "offline" and operands[1:2] == ["on"] or first == "disconnect"):
        said = " ".join(operands[:2])
    elif name == "wicked" and first in ("ifdown", "down"):
        said = " ".join(operands[:2])
    elif name == "nmcli" and any(t in ("ipv4.method", "+ipv4.method") for t in lowered) and "disabled" in lowered:
        said = "ipv4.method disabled"
    elif name in ("netctl", "netctl-auto") and first in ("stop-all", "disable-all", "stop"):
        said = first
    elif name == "ubus" and first == "call" and operands[1:2] and operands[1].startswith("network.interface") \
            and "down" in operands[2:]:
        said = f"{operands[1]} down"
    elif name == "iwctl" and "disconnect" in operands:
        said = "disconnect"
    elif name == "wpa_cli" and set(operands) & {"disable_network", "remove_network", "disconnect"}:
        said = next(t for t in operands if t in ("disable_network", "remove_network", "disconnect"))
    elif name == "iwctl" and "set-property" in operands and "powered" in operands and "off" in operands:
        said = "Powered off"
    elif name == "netplan" and first == "set" and any(t.endswith(_NETPLAN_OFF) for t in lowered[1:]):
        said = next(t for t in lowered[1:] if t.endswith(_NETPLAN_OFF))  # applied next, the address goes
    if not said:
        return None
    return MEDIUM, f"{c.prog} {said} switches the network off: a remote session over it is cut ({c.text})"


def rule_network_cut(c: Ctx) -> Optional[tuple]:
    """A VPN or overlay taken down, or a network manager switching the network off."""
    name = c.prog.lower().rsplit("/", 1)[-1]
    lowered = [t.lower() for t in c.texts]
    if not lowered or set(lowered) & _NOT_DOING and not set(lowered) & {"down", "leave"}:
        return None
    if _OVERLAY.match(name):
        return _overlay_down(c, name, lowered)
    return _manager_off(c, name, lowered)


_CUT_STEMS = ("down", "leave", "logout", "disconnect", "terminate", "stop", "-t")
_CUT_WORDS = frozenset("down leave logout stop terminate stop-all disconnect --disconnect --terminate -t --down "
                       "--stop".split())
_MANAGERS = frozenset({"connmanctl", "wicked", "nmcli", "netctl", "netctl-auto", "ubus", "iwctl", "netplan", "wpa_cli"})


@triggered_by(_MANAGERS, _CUT_STEMS, otherwise=False)
def may_cut(c: Ctx) -> bool:
    """Could this be a network cut (a manager's name, or an overlay's name with a word that takes it down)?"""
    name = c.prog.lower().rsplit("/", 1)[-1]
    if name in _MANAGERS:
        return True
    low = c.lowered
    return any(w in low for w in _CUT_STEMS) and bool(_CUT_WORDS & set(c.texts)) and _OVERLAY.match(name) is not None


# A VPN client's own "down" program: vpnc-disconnect, wg-down, openconnect-stop.
DOWN_NAME = lazy(r"^(\w*vpn\w*|wg|wireguard|tinc|openconnect|ipsec|strongswan|tailscale|zerotier)[-_]"
                 r"(disconnect|down|stop|off)$")


def rule_down_by_name(c: Ctx) -> Optional[tuple]:
    """``vpnc-disconnect``: a program named for taking the VPN down."""
    if DOWN_NAME.match(c.prog.lower()):
        return MEDIUM, f"{c.prog} takes the VPN down: a remote session over it is cut ({c.text})"
    return None
