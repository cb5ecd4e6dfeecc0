"""Effect: a machine (host, VM, instance, node, appliance, device) or a whole platform stopped, shut down,
reset or suspended by the program that manages it, in the manager's own words.

One service or container stopped is routine and stays quiet (``systemctl stop nginx``, ``docker stop web``):
the manager starts it again as configured.  A machine stopped is another matter: everything that runs on it
stops for every user and client, and it stays down until someone starts it.  Managers of any make say it in a
few shapes, read here instead of a table of programs:

- a machine noun with a stop verb among the first positional words: separate (``hammer host stop``,
  ``ucloud uhost stop``, ``gcloud compute instances stop``, ``iotedge system stop``), dotted (``xo-cli
  vm.stop``, ``acli vm.shutdown``), fused (``aws ec2 stop-instances``, ``StopInstances``, ``xe
  vm-shutdown``, ``Stop-VM``), or the noun in the program's own name (``vmadm stop``, ``onevm poweroff``,
  ``docker-machine stop``, ``idevicediagnostics restart``);
- a manager's bare ``shutdown`` of a named guest (``virsh shutdown web01``, ``qm shutdown 100``) or its
  ``halt``/``poweroff`` (``vagrant halt``); an address given a reset or power-down word (``amttool HOST
  reset``);
- a management call whose dotted or colon verb is a shutdown (``squidclient mgr:shutdown``, ``hass-cli
  service call homeassistant.stop``, ``upscmd ups@host shutdown.stayoff``);
- a filesystem or a storage cluster suspended or frozen (``mmfsctl gpfs0 suspend``, ``fsfreeze --freeze /data``,
  ``ceph osd set pause``): every read and write on it hangs;
- a platform's own control script or a power tool told ``--stop``/``--suspend`` (``bbb-conf --stop``,
  ``acpitool --suspend``, ``sg_start --stop /dev/sda``) or an ACPI/APM tool's sleep letter (``acpitool -s``,
  ``apm -z``).

Starting, listing, status, help and ``-WhatIf`` stay quiet, as do a developer's on-demand daemons
(``gradle --stop``, ``bazel shutdown``) and a service's or an app's stop.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# A host, a node, an appliance, a device, a whole system: whatever stops it, everything on it stops.
HOSTS = frozenset("host hosts node nodes appliance appliances device devices system baremetal hypervisor hypervisors "
                  "resource resources".split())
# A guest (a VM, an instance, a cloud server): one stopped gently is routine (`virsh shutdown web01`, `az vm
# deallocate -n scratch-vm`, `aws ec2 stop-instances --instance-ids i-0abc`, `Stop-VM -Name web`): it starts
# again as it was.  Stopped by force, reset, or several at once, it is not.
GUESTS = frozenset("vm vms instance instances guest guests droplet droplets server servers machine machines "
                   "vps virtualmachine virtualmachines".split())
# Stop words said of a host (`restart`/`reboot` of a host too: a machine's restart is a reboot).
VERBS = frozenset("stop shutdown shut-down halt poweroff power-off suspend hibernate reset hard-reset hardreset "
                  "deallocate offline restart reboot kill terminate".split())
# Said of a guest, these pull the plug or reset it: what it had not written is lost.
FORCED = frozenset("poweroff power-off reset hard-reset hardreset kill".split())
_FORCE_WORDS = lazy(r"^(-f|--force|-force|--hard|-hard|-turnoff|forced?=(true|yes|1)|--kill|-k)$", re.IGNORECASE)
# A manager's bare verb that can only mean a forced stop (`onevm poweroff --hard 12`, `vmctl stop -f web`).
_BARE = frozenset({"poweroff", "power-off"})
# Said to an address (`amttool 10.0.0.5 reset`): the machine there is reset or powered down.
_ADDRESS_VERBS = frozenset("reset hard-reset hardreset powerdown power-down powercycle power-cycle poweroff power-off "
                           "shutdown halt".split())
# The verb of a dotted or colon management call (`mgr:shutdown`, `homeassistant.stop`, `shutdown.stayoff`).
_CALL_SHUTDOWN = frozenset({"shutdown", "halt", "poweroff"})
_DOTTED_STOP = frozenset({"stop", "suspend", "hibernate"})
# Restarted, these are a service's restart (`pcs resource restart web`), not a machine's.
_NOT_REBOOTED = frozenset({"resource", "resources", "system"})
_PARTS = lazy(r"[-_.:/]")
_CAMEL = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# A machine noun in the program's name: `vmadm`, `onevm`, `vmctl`, `docker-machine`, `idevicediagnostics`.
_NAMED_MACHINE = lazy(r"^(one|i)?(vm|host|device|machine|instance|guest)s?(ctl|adm|admin|cli|mgr|tool|diagnostics)?$|"
                      r"[-_](vm|machine|host|device|instance)s?$|^(vm|machine|device)[-_]", re.IGNORECASE)
_NAMED_HOST = lazy(r"host|device", re.IGNORECASE)
_ADDRESS = lazy(r"^(\d{1,3}(\.\d{1,3}){3}|\$\{?\w+\}?)$")
_QUIET = frozenset("help --help -h -? /? --dry-run -whatif --what-if list ls status show info describe get "
                   "--version -version version".split())
# Power-management programs whose own letters put this machine to sleep (`acpitool -s`, `apm -z`).
_SLEEP_TOOL = lazy(r"^(acpi|apm)", re.IGNORECASE)
_SLEEP_LETTERS = frozenset({"-s", "-S", "-z", "-Z", "--suspend", "--hibernate", "--standby"})
_STOP_OPTIONS = frozenset({"--stop", "--shutdown", "--halt", "--poweroff", "--suspend", "--hibernate"})
# `--stop` alone names nothing: it stops a platform only when the program's name says it runs one (`bbb-conf`,
# `mailcow-conf`, `zimbra-server`); elsewhere it ends the program's own work (a traffic shaper, a player).
_PLATFORM_NOUNS = frozenset({"conf", "config", "setup", "ctl", "admin", "server", "platform", "cluster", "node",
                             "host", "vm", "machine", "stack", "suite", "appliance", "system", "cloud", "farm",
                             "grid"})
_API_PATH = lazy(r"^/(\S*/)?(nodes|qemu|lxc|vms?|hosts?|instances|machines|servers|guests)/\S*/"
                 r"(stop|reset|poweroff|power-off)/?$", re.IGNORECASE)
# Text-argument programs (their `run` carries another command) that also manage machines (`podman machine stop`).
_CONTAINER_TOOLS = frozenset({"docker", "podman"})
# A program named for cutting connections: `tcpdrop`, `conn-kill`, `tcpkill`.
_CONNECTIONS = lazy(r"^(tcp|udp|conn|connection|sock|session)s?[-_]?(drop|kill|cut|reset|close)$", re.IGNORECASE)
_FIRST_DISK = lazy(r"^/dev/(sda|vda|xvda|hda|nvme0n1|mmcblk0|disk0)$")
# Options these managers take without a value, so the word after one is a positional word.
_FLAGS = frozenset("-f --force -y --yes -q --quiet -v --verbose --async --no-wait -a --all".split())


def _positionals(texts: list) -> list:
    """The first positional words (an option's value skipped), with where each stands."""
    out: list = []
    k = 0
    while k < len(texts) and len(out) < 5:
        t = texts[k]
        if t.startswith("-") and len(t) > 1:
            k += 1 if "=" in t or t.lower() in _FLAGS or t in _STOP_OPTIONS else 2
            continue
        out.append(t)
        k += 1
    return out


def _parts(word: str) -> list:
    return [p.lower() for piece in _PARTS.split(word) for p in (_CAMEL.findall(piece) or [piece]) if p]


def _noun(word: str) -> Optional[str]:
    """"host" or "guest" for a machine noun (`uhost`, `esxhost`: a host by its last letters), else None."""
    low = word.lower()
    if low in HOSTS or low.endswith(("host", "hosts")) and len(low) <= 8:
        return "host"
    return "guest" if low in GUESTS else None


def _fused(word: str) -> Optional[tuple]:
    """(noun kind, verb) of a verb fused with a machine noun: `stop-instances`, `StopInstances`, `vm-shutdown`,
    `vm.stop`, `Stop-VMHost`, `Stop-ClusterResource`; else None."""
    parts = _parts(word)
    lead = next((k for k, p in enumerate(parts[:3]) if p in VERBS), 0)
    if lead and len(parts) > lead + 1:
        parts = parts[lead:]  # a vendor's prefix: `euca-stop-instances`, `nova-stop-servers`
    if len(parts) < 2 or "/" in word and "." not in word or parts[-1] == "server" or \
            parts[0] in ("server", "servers"):
        return None  # `adb kill-server`, `watchman shutdown-server`: a program's own daemon
    if parts[-1] in ("node", "nodes") and parts[0] in ("suspend", "hibernate"):
        return None  # `Suspend-ClusterNode -Drain`: its roles move elsewhere first
    if parts[0] in VERBS and _noun(parts[-1]) and (parts[-1] not in ("resource", "resources", "system")
                                                   or "cluster" in parts):
        return _noun(parts[-1]), parts[0]
    if "cluster" in parts[1:] and parts[0] == "stop" and parts[-1] in ("group", "node"):
        return "host", parts[0]  # `Stop-ClusterGroup`, `Stop-ClusterNode`: what the cluster runs goes offline
    if parts[-1] in VERBS and _noun(parts[0]) and len(parts) == 2 and parts[0] not in ("resource", "resources"):
        return _noun(parts[0]), parts[-1]
    return None


def _call(word: str) -> Optional[str]:
    """A dotted or colon management call whose verb is a shutdown (`mgr:shutdown`, `homeassistant.stop`)."""
    if "." not in word and ":" not in word or "/" in word and "." not in word.rsplit("/", 1)[-1]:
        return None
    pieces = [p.lower() for p in re.split(r"[.:]", word.rsplit("/", 1)[-1]) if p]
    if len(pieces) < 2:
        return None
    if pieces[-1] in _CALL_SHUTDOWN or pieces[0] in _CALL_SHUTDOWN and ":" not in word:
        return word
    if "." in word and ":" not in word and pieces[-1] in _DOTTED_STOP and len(pieces) == 2 and \
            not re.search(r"\d", pieces[0]):
        return word
    return None


_MAY = ("stop", "shut", "halt", "power", "suspend", "hibernat", "reset", "restart", "reboot", "dealloc", "offline",
        "standby", "kill", "terminat", "drop", "-off", "freez", "pause", "quiesc", "safemode", " fail")


@triggered_by(_MAY, _SLEEP_TOOL, otherwise=False)
def may_stop(c: Ctx) -> bool:
    """Cheap: a stop, sleep or shutdown word on the line (or an ACPI/APM tool), and not a reading."""
    low = c.prog.lower() + " " + c.lowered
    return (any(w in low for w in _MAY) or bool(_SLEEP_TOOL.match(c.prog))) and c.prog.lower() not in READ_ONLY


def rule_machine_stop(c: Ctx) -> Optional[tuple]:
    from aish.safety.rules.carried_commands import TEXT_ARGUMENTS
    from aish.safety.rules.daemons import _EVERYDAY, _ON_DEMAND
    prog = c.prog.lower()
    texts = c.texts
    if prog in TEXT_ARGUMENTS and prog not in _CONTAINER_TOOLS or {t.lower() for t in texts} & _QUIET:
        return None
    on_demand = prog.rsplit("/", 1)[-1] in _ON_DEMAND  # a developer's build or notebook server
    if on_demand:
        return None
    said = _said(c, prog, texts, prog in _EVERYDAY and prog != "vagrant")
    if said is None:
        return None
    return MEDIUM, f"{c.prog} {said}: the machine or platform goes down for everyone on it ({c.text})"


def _said(c: Ctx, prog: str, texts: list, everyday: bool) -> Optional[str]:
    """What on the line stops a host or a platform, or a guest by force or several at once; or None."""
    forced = any(_FORCE_WORDS.match(t) for t in texts)
    fused = _fused(c.prog) if "-" in c.prog else None
    if fused and _stops(fused, forced, c, texts):  # `Stop-VMHost esx01`, `Stop-VM -Name web -Force`
        return f"{fused[1]}s a {fused[0]}"
    if texts and texts[0].lower() in ("-offline", "-off-line"):
        return "takes a cluster resource or group offline"  # `hares -offline oradb_res -sys node1`
    if _CONNECTIONS.search(prog) and {t.lower() for t in texts} & {"-a", "--all", "all"}:
        return "drops every connection"  # `tcpdrop -a`: every TCP connection of every user and service
    path = next((t for t in texts if _API_PATH.match(t)), None)
    if path is not None:  # `pvesh create /nodes/pve1/qemu/100/status/stop`: the machine's hard stop, by its API path
        return f"calls {path}"
    if _SLEEP_TOOL.match(prog) and set(texts) & _SLEEP_LETTERS:
        return "puts this machine to sleep"
    if not everyday and set(texts) & _STOP_OPTIONS and "--start" not in texts:
        devices = [t for t in texts if t.startswith("/dev/")]
        own_work = not devices and not set(texts) & (_STOP_OPTIONS - {"--stop"}) and \
            _PLATFORM_NOUNS.isdisjoint(_PARTS.split(prog.rsplit("/", 1)[-1]))  # `comcast --stop`, `audacious --stop`
        if not own_work and (not devices or any(_FIRST_DISK.match(t) for t in devices)):
            return "is told to stop what it runs" if not devices else "stops the system disk"
    words = _positionals(texts)
    frozen = _storage_suspended(prog, texts, words)
    if frozen:
        return frozen
    named = None if prog == "node" or not _NAMED_MACHINE.search(prog) else \
        "host" if _NAMED_HOST.search(prog) else "guest"
    for k, w in enumerate(words[:4]):
        low = w.lower()
        before = [_noun(x) for x in words[:k] if _noun(x)]
        after = _noun(words[k + 1]) if k + 1 < len(words) else None  # `cloudmonkey stop virtualmachine id=X`
        kind = before[-1] if before else after or (named if not everyday else None)
        rest = words[k + 2:] if kind == after and not before else words[k + 1:]
        if low in VERBS and kind and _stops((kind, low), forced, c, texts, rest):
            if low in ("restart", "reboot") and {x.lower() for x in words[:k]} & _NOT_REBOOTED:
                return None  # `pcs resource restart web`: a service's restart
            return f"{w}s a {kind}"
        if low in _BARE and k == 0 and not everyday and not any(t.startswith("/dev/") for t in texts):
            return f"{w}s the machine it manages"  # `onevm poweroff 12`: the plug pulled
        if low in _ADDRESS_VERBS and k and _ADDRESS.match(words[k - 1]):
            return f"{w}s the machine at {words[k - 1]}"
        fused = _fused(w)
        if fused and _stops(fused, forced, c, texts, words[k + 1:]):
            return f"{w} stops a {fused[0]}" if fused[0] == "host" else f"{w} stops guests at once or by force"
        if not fused and _call(w):
            return f"{w} stops a machine or a platform"
    return None


# Said of a filesystem or a storage cluster, these hang every read or write on it until someone resumes it.
_IO_STOPS = frozenset({"suspend", "suspend-write", "freeze", "--freeze", "quiesce", "pause", "fail"})
_STORAGE_NOUNS = frozenset({"fs", "filesystem", "filesystems", "osd", "osds", "volume", "pool", "cluster"})
_STORAGE_NAME = lazy(r"fs|freeze|^dm", re.IGNORECASE)


def _storage_suspended(prog: str, texts: list, words: list) -> Optional[str]:
    """A filesystem or a storage cluster suspended or frozen (`mmfsctl gpfs0 suspend`, `fsfreeze --freeze /data`,
    `xfs_freeze -f /srv`, `dmsetup suspend vg-lv`, `ceph osd set pause`, `hdfs dfsadmin -safemode enter`)."""
    said = {w.lower() for w in words[:4]} | {t.lower() for t in texts if t.startswith("--")}
    storage = bool(_STORAGE_NAME.search(prog)) or bool(said & _STORAGE_NOUNS)
    if not storage:
        return None
    if said & {"unset", "resume", "--unfreeze", "thaw"}:
        return None
    verb = next((w for w in said if w in _IO_STOPS), None)
    if verb is None and "freeze" in prog and "-f" in texts:
        verb = "freeze"
    if verb is None and "-safemode" in texts and "enter" in texts:
        verb = "-safemode enter"
    return f"{verb}: every read and write on the filesystem hangs until it is resumed" if verb else None


def _stops(said: tuple, forced: bool, c: Ctx, texts: list, after: Optional[list] = None) -> bool:
    """A host's stop always; a guest's when forced, reset, or of several guests (a list, a glob, `--all`)."""
    kind, verb = said
    if kind == "host":
        return True
    if verb in FORCED or verb in ("stop", "shutdown", "halt", "shut-down", "deallocate", "terminate") and forced:
        return True
    if verb in ("suspend", "hibernate", "restart", "reboot"):
        return False  # a guest's state saved, or its reboot (`guest_reboots`)
    targets = [t for t in (after if after is not None else texts) if not t.startswith("-")]
    return len(targets) > 1 or any("," in t or "*" in t for t in texts) or \
        bool({t.lower() for t in texts} & {"--all", "-a", "-all", "all"}) or any(w.subs for w in c.args)
