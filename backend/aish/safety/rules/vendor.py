"""Vendor and hardware tools, hypervisor hosts, and the network cut, in their own words.

What these programs destroy is said in words only their manuals define, so each kind is a row: a
set of program names (any spelling: ``STM32_Programmer_CLI.exe``, ``kafka-configs.sh``) and a
pattern over the arguments.  The kinds: out-of-band controllers reset to factory state or their
logs erased (``racadm racresetcfg``, ``ipmitool sel clear``), microcontrollers' flash erased
(``-e all``, ``--eraseall``, ``device recover``), schema-sync tools allowed to drop, cluster tools'
unsafe recoveries (``elasticsearch-node unsafe-bootstrap``), message logs cut to seconds of
retention and stream applications reset, package repositories dropping publications or every
package, environment managers removing environments, image-ostree resets, game servers' consoles
killing every entity, a hypervisor host or its guests powered off or destroyed (``esxcli system
shutdown``, ``vim-cmd vmsvc/power.off``), traffic dropped at an interface (``tc … netem loss
100%``), connections killed by pattern (``tcpkill``, ``ss -K``), USB ports and disks powered off.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy


@dataclass(frozen=True)
class Row:
    programs: frozenset
    pattern: re.Pattern
    level: int
    says: str


def _row(programs: str, pattern: str, level: int, says: str) -> Row:
    return Row(frozenset(programs.split()), re.compile(pattern, re.IGNORECASE), level, says)


_ROWS = (
    # out-of-band controllers
    _row("racadm", r"(^| )(racresetcfg|systemerase|sslresetcfg|jobqueue delete .*jid_clearall|lclog clear|"
                   r"clrsel|clearpending|storage resetconfig|storage deletevd)\b|(^| )racreset\b", HIGH,
         "resets or erases the server's controller, its settings or its disks"),
    _row("ipmitool ipmiutil", r"(^| )sel clear\b|(^| )sel -d\b|(^| )mc reset\b|(^| )bmc reset\b|"
                              r"(^| )raw 0x30 0x02\b|(^| )lan set \d+ access off|(^| )user set password\b",
         MEDIUM, "erases the controller's event log or resets the controller"),
    # microcontrollers and flash
    _row("stm32_programmer_cli stm32_programmer_cli.exe stm32cubeprogrammer", r"(^| )(-e|--erase)\s+(all|\[)",
         MEDIUM, "erases the whole flash of the chip"),
    _row("nrfutil nrfjprog nrfjprog.exe", r"\b(device )?recover\b|--eraseall|(^| )--recover\b|(^| )erase\b",
         MEDIUM, "erases the chip's flash and protection"),
    _row("st-flash pyocd probe-rs jlinkexe jlink openocd dfu-util esptool esptool.py teensy_loader_cli",
         r"(^| )erase(_flash|-flash| --chip| --all)?\b|mass_erase|flash erase_sector|erase_all|--erase-all|"
         r"(^| )-E\b",
         MEDIUM, "erases the chip's flash"),
    # schema sync and cluster recovery
    _row("sqldef mysqldef psqldef sqlite3def mssqldef", r"--enable-drop(-table)?\b", MEDIUM,
         "applies the schema and drops every table or column not in it"),
    _row("skeema", r"--allow-unsafe\b", MEDIUM, "pushes the schema with drops allowed"),
    _row("elasticsearch-node opensearch-node", r"(^| )(unsafe-bootstrap|detach-cluster|remove-customs|"
                                               r"remove-settings|override-version)\b", HIGH,
         "forces the node's cluster state: data the cluster held can be lost"),
    _row("kafka-configs kafka-configs.sh kafka-topics kafka-topics.sh",
         r"(retention\.ms|segment\.ms|delete\.retention\.ms)=(\d{1,5}|-?0)\b(?!\d)|"
         r"retention\.bytes=\d{1,6}\b(?!\d)", MEDIUM,
         "cuts the topic's retention to almost nothing: its messages are deleted"),
    _row("kafka-streams-application-reset kafka-streams-application-reset.sh", r".", MEDIUM,
         "resets a stream application: its offsets and internal topics are deleted"),
    _row("kafka-consumer-groups kafka-consumer-groups.sh",
         r"--reset-offsets\b.*--execute|--execute\b.*--reset-offsets|(^| )--delete\b", MEDIUM,
         "resets or deletes a consumer group's offsets"),
    _row("cosign", r"^clean\b", MEDIUM, "deletes an image's signatures and attestations from the registry"),
    _row("aptly", r"^(publish drop|repo drop|snapshot drop|mirror drop|db cleanup)\b|^repo remove \S+ .*(\*|\.\*|Name)",
         MEDIUM, "drops a repository's publication or removes its packages"),
    _row("reprepro", r"\b(removematched|removefilter|removesrcs?)\b|\bremove \S+ ['\"]?\*|(^| )clearvanished\b",
         MEDIUM, "removes every package the pattern matches from the repository"),
    _row("conda mamba micromamba", r"^(?=.*(\s-y\b|--yes\b))(?=env\b|.*--all\b|.*\s-a\b)"
                                   r"(env (remove|rm|delete)|remove)\b|^env (remove|rm|delete) .*(-n|--name) "
                                   r"(base|root|\S*prod\S*)\b", MEDIUM,
         "removes a whole environment with everything installed in it, without asking"),
    _row("pyenv rbenv nodenv goenv plenv jenv", r"^uninstall (-f|--force)\b|^uninstall .*(-f|--force)\b", MEDIUM,
         "removes an interpreter version without asking"),
    _row("rpm-ostree", r"^reset\b|^(rebase|deploy) .*--(force|reboot)|^cleanup (-p|-r|--rollback|--pending)",
         MEDIUM, "drops the layered packages and overrides of the system image"),
    _row("rcon rcon-cli mcrcon mcrcon.exe rconc rcon-client", r"\bkill @e\b|\bkill @a\b|\bstop\b|\bop @a\b|"
                                                              r"\bwhitelist off\b|\bban-ip\b", MEDIUM,
         "tells the game server to kill every entity or stop"),
    _row("ilorest", r"(^| )(factorydefaults|factoryresetcontroller|clearlogs|deletelogs|iloreset|serverclone load|"
                    r"clearrestapistate|secureboot --resetdefaultkeys|sethostname)\b", HIGH,
         "resets the server's controller to factory settings or erases its logs"),
    # hypervisor hosts
    _row("esxcli", r"\bnetwork firewall set\b.*--enabled\s+(false|0)\b|\bsystem shutdown (poweroff|reboot)\b|"
                   r"\bvm process kill\b|\bstorage (vmfs|filesystem) "
                   r"unmount\b|\bnetwork ip interface remove\b", HIGH,
         "powers the hypervisor host off or kills its guests"),
    _row("vim-cmd", r"vmsvc/(power\.(off|shutdown|reset|reboot|suspend)|destroy|unregister|snapshot\.remove(all)?)\b|"
                    r"hostsvc/(maintenance_mode_enter|standby_mode_enter|net/vnic_remove)", HIGH,
         "powers a guest off, destroys it or deletes its snapshots"),
    _row("xe", r"^(host-(shutdown|reboot|disable|emergency-ha-disable|forget|declare-dead)|pool-(eject|destroy|"
               r"emergency-reset-master)|vm-(destroy|uninstall)|sr-(destroy|forget)|vdi-destroy)\b", HIGH,
         "shuts down, removes or destroys a host, pool, guest or storage"),
    # the network cut
    _row("tc", r"\b(matchall|match\s+u32\s+0\s+0)\b.*\baction\s+drop\b|"
               r"\bnetem\b.*\b(loss|drop|corrupt)\s+(random\s+)?(100|[5-9]\d(\.\d+)?)%|"
               r"\brate\s+(\d{1,3}(bit|bps)|\dkbit)\b", HIGH,
         "drops the interface's traffic: connections to this machine stop"),
    _row("tcpkill cutter tcpkill.exe", r".", HIGH, "kills every connection the pattern matches"),
    _row("ss", r"(^| )(-K|--kill)\b|(^| )-\w*K\w*\b", MEDIUM, "kills every socket the filter matches"),
    _row("wondershaper", r"(^| )(\S+ )?\d{1,2} \d{1,2}$|(-d|-u) \d{1,2}\b(?!\d)", MEDIUM,
         "limits the interface to almost no bandwidth"),
    _row("udisksctl", r"^power-off\b.*(/dev/(sda|vda|xvda|hda|nvme0n1|mmcblk0|disk0)\b|\$)", MEDIUM,
         "powers the system's first disk off: the system loses its own files"),
    _row("uhubctl", r"(-a|--action)\s*(=\s*)?(off|0|cycle|2|toggle|3)\b", MEDIUM,
         "powers USB ports off: the devices on them stop"),
)
_BY_PROGRAM: dict = {}
for _r in _ROWS:
    for _p in _r.programs:
        _BY_PROGRAM.setdefault(_p, []).append(_r)
NAMES = frozenset(_BY_PROGRAM)
_READ_ONLY = lazy(r"(^| )(--help|--version|--dry-run|--print)( |$)")


def rule_vendor(c: Ctx) -> Optional[tuple]:
    """A vendor tool's own words for erasing, resetting or cutting off."""
    rows = _BY_PROGRAM.get(c.prog.lower())
    if not rows:
        return None
    joined = " ".join(c.texts)
    if _READ_ONLY.search(joined):
        return None
    for row in rows:
        if row.pattern.search(joined):
            return row.level, f"{c.prog} {row.says} ({c.text})"
    return None


RULES: dict = {p: [rule_vendor] for p in _BY_PROGRAM}


def rule_git_dashed(c: Ctx) -> Optional[tuple]:
    """``git-filter-repo …`` is ``git filter-repo …``: git runs any ``git-NAME`` on the path as its subcommand."""
    sub = c.prog[4:]
    if not c.prog.startswith("git-") or not re.fullmatch(r"[a-z][a-z0-9-]*", sub) or not c.words:
        return None
    head = c.words[0]
    return c.check([replace(head, text="git", raw="git"), replace(head, text=sub, raw=sub)] + list(c.args))
