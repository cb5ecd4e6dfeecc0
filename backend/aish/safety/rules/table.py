"""From program name to the effect rules that judge it, and the rule that follows
commands given as text (``bash -c``, ``eval``, ``watch``, ``su -c``, ``ssh host cmd``,
``docker exec … sh -c``, an interpreter's heredoc)."""
from __future__ import annotations

import functools
from typing import NamedTuple, Optional

from aish.safety.command_line import harmless, subcommand
from aish.safety.rules import (accounts, content, decoded, delete, embedded, exfil, history,
                               http, inout, interp, lockout, mass, meaning, netdevices, netexec,
                               outputs, own_options, perms, remote, remote_shell, resolution, secret_perms,
                               shellstate, statements, stopping, vocabulary, windows)
from aish.safety.rules import broad_stops, disk_tools, documents, said_elsewhere
from aish.safety.rules import fleets, recovery_off, vendor, winadmin
from aish.safety.rules import git_mirrors, prompt_statements, transfer_clients
from aish.safety.rules import archive_members, bare_verbs, device_apps, overwrites, record_ids, teardowns
from aish.safety.rules import bare_bypass, object_verbs, replaced_state, script_runs, tail_verbs
from aish.safety.rules import applescript, cut_short, manager_exit, registry_writes, shell_histories, vcs_plumbing
from aish.safety.rules import key_stores, privileged_grants, ps_drives, ps_targets, remote_admin, unpacked_system
from aish.safety.rules import dotfile_managers, each_repo, everyday_loss, firewall_open, remote_overwrite
from aish.safety.rules import chip_erase, controller_actions, device_targets, macro_shells
from aish.safety.rules import account_databases, api_calls, api_runners, confinement_loosened, firewall_flush
from aish.safety.rules import device_actions, mac_settings
from aish.safety.rules import ed_scripts, mirror_deletes, unpacked_over, work_discarded
from aish.safety.rules import forced_restores, short_verbs, word_places
from aish.safety.rules import clear_cmdlets, windows_resets
from aish.safety.rules import documented
from aish.safety.rules import published_dirs, secrets_dumped, system_parts
from aish.safety.rules import firmware_writes, whole_resets
from aish.safety import program_names
from aish.safety.rules import package_sources
from aish.safety.rules import age_reapers, factory_defaults, onto_one_name, rm_elsewhere
from aish.safety.rules import delete_letters, retention_zero
from aish.safety.rules import raw_devices, store_resets, total_scopes
from aish.safety.rules import carried_commands, code_calls, downloaded_runs, unknown_senders
from aish.safety.rules import client_scripts, fed_shells
from aish.safety.rules import ps_taking_verbs, win_file_losses, win_launchers, win_services, win_switch_verbs
from aish.safety.rules import registry_launch_points, restart_switches, win_admin_deletes, win_path_replaced
from aish.safety.rules import script_options, whole_ranges, win_machine_state
from aish.safety.rules import exposure, served_commands, served_outputs
from aish.safety.rules import broad_reading
from aish.safety.rules import firewall_drops, kernel_breaks, link_drops, login_shells, volume_changes
from aish.safety.rules import secret_destinations, url_installs
from aish.safety.rules import api_bodies
from aish.safety.rules import device_writes, last_readings
from aish.safety.rules import triggers
from aish.safety.rules import registry_switch_offs
from aish.safety.rules import autostart_writable, consent_skipped, dropped_starts, identity_backdoors
from aish.safety.rules import prompt_wrappers, startup_folders
from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, worst
from aish.safety.rules.disk_names import MKFS_NAME

from aish.safety.rules.text_commands import (_SHELLS, _VERSIONED, container_command,  # noqa: F401 - read here
                                          rule_exec_string)



_TABLES: tuple = (delete.RULES, content.RULES, perms.RULES, lockout.RULES, stopping.RULES, history.RULES, mass.RULES,
           remote.RULES, netexec.RULES, shellstate.RULES, interp.RULES, windows.RULES, http.RULES, exfil.RULES,
           meaning.RULES, outputs.RULES, inout.RULES, secret_perms.RULES,
           resolution.RULES, accounts.RULES, netdevices.RULES, remote_shell.RULES, decoded.RULES, embedded.RULES,
           documents.RULES, broad_stops.RULES, disk_tools.RULES, said_elsewhere.RULES,
           vendor.RULES, fleets.RULES, winadmin.RULES, transfer_clients.RULES, git_mirrors.RULES, vcs_plumbing.RULES,
           shell_histories.RULES, cut_short.RULES, registry_writes.RULES, manager_exit.RULES,
           firewall_open.RULES, everyday_loss.RULES, each_repo.RULES, dotfile_managers.RULES, remote_overwrite.RULES,
           applescript.RULES, macro_shells.RULES, ed_scripts.RULES, windows_resets.RULES, system_parts.RULES,
           published_dirs.RULES, secrets_dumped.RULES, package_sources.RULES, win_launchers.RULES,
           fed_shells.RULES, script_runs.RULES, win_file_losses.RULES, win_services.RULES,
           win_admin_deletes.RULES, registry_launch_points.RULES, win_path_replaced.RULES,
           win_machine_state.RULES)
# disks changed in place, kernel settings that break, login shells taken away by other systems' tools
_TABLES += (volume_changes.RULES, kernel_breaks.RULES, login_shells.RULES, firewall_drops.RULES,
             link_drops.RULES)
_TABLES += (served_commands.RULES, served_outputs.RULES)  # commands whose output a socket tool or server sends
_TABLES += (registry_switch_offs.RULES,)  # protections switched off by a registry value's name
_TABLES += (autostart_writable.RULES,)  # things started by themselves from places others can write
_TABLES += (startup_folders.RULES, dropped_starts.RULES)  # programs put where they start by themselves
_TABLES += (identity_backdoors.RULES,)  # credentials added to applications, directory roles given
_TABLES += (prompt_wrappers.RULES,)  # password prompts caught by an alias
_TABLES += (consent_skipped.RULES,)  # sessions watched or controlled without asking
_TABLES += (recovery_off.RULES,)  # Time Machine's deletions said as what goes
_TABLES += (exposure.RULES,)  # versioned interpreters' file servers (php8.2 -S, python3.12 -m http.server)
RULES: dict = {}
for _table in _TABLES:
    for _prog, _rules in _table.items():
        RULES.setdefault(_prog, [])
        RULES[_prog] = RULES[_prog] + [r for r in _rules if r not in RULES[_prog]]
for _p in _SHELLS | {"eval", "watch", "ssh", "mosh", "autossh", "docker", "podman", "lxc", "incus", "vagrant",
                     "multipass"}:
    RULES.setdefault(_p, []).append(rule_exec_string)


# Programs whose rules judge every form, and subcommands a program's rules judge in full: a
# None from them means "judged harmless", so the vocabulary rule does not second-guess it.
COVERED_ALL = frozenset("""
rm unlink rmdir srm find shred wipe mv rsync truncate dd mke2fs mkswap newfs mkntfs mkdosfs mformat fdisk sfdisk
gdisk cfdisk parted sgdisk cp install ln tee sed awk gawk sponge crontab chmod chown chgrp setfacl shutdown
reboot poweroff halt init telinit iptables ip6tables iptables-legacy iptables-nft iptables-restore
ip6tables-restore ipset nft ufw firewall-cmd pfctl ifconfig ifdown route rmmod modprobe chattr chflags kill
killall pkill skill killall5 umount mount swapoff efibootmgr grub-install grub2-install userdel deluser
luserdel groupdel delgroup usermod passwd chage gpasswd chsh chpasswd chgpasswd history fc unset export
declare typeset readonly alias trap unalias eval watch ssh mosh autossh sh bash zsh dash ksh mksh fish ash su
runuser tcsh csh ip dropdb dropuser mysqladmin pg_restore etcdctl zfs zpool lvremove vgremove hg
service rc-service sv rc-update update-rc.d chkconfig launchctl terraform tofu terragrunt
pvremove blkdiscard wipefs cryptsetup mdadm hdparm nvme sg_format lvreduce lvresize flashrom flashprog fuser kill-port
fkill fkill-cli
taskkill curl wget http https xh httpie del erase rd format vssadmin wbadmin bcdedit reg net sc schtasks
qdel bkill scancel condor_rm
takeown icacls robocopy wsl netsh ipconfig manage-bde wevtutil diskpart cmdkey
""".split()) | {p.lower() for p in windows.RULES}
COVERED_SUBS: dict = {
    "git": frozenset("push reset clean checkout restore switch stash filter-branch filter-repo rebase reflog gc "
                     "prune update-ref rm branch tag remote".split()),
    "docker": frozenset("rm rmi kill prune container image volume network system builder buildx compose stack "
                        "service swarm secret config node machine pod stop".split()),
    "kubectl": frozenset("delete drain scale apply exec replace cordon taint config".split()),
    "helm": frozenset("uninstall delete del un".split()),
    "systemctl": frozenset("stop disable mask kill isolate set-default restart reload reboot poweroff halt kexec "
                           "soft-reboot emergency rescue".split()),
    **{p: frozenset("remove purge autoremove erase del delete rm".split())
       for p in ("apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "apk", "snap", "pkg")},
    "terraform": frozenset({"destroy", "state", "workspace", "apply"}),
    "tofu": frozenset({"destroy", "state", "workspace", "apply"}),
}
COVERED_SUBS["podman"] = COVERED_SUBS["docker"]
# git's add-on subcommands (git-lfs, git-annex, git-extras...), left to the vocabulary
GIT_ADDONS = frozenset("lfs annex worktree submodule sparse-checkout maintenance town flow branchless absorb "
                       "machete delete-merged-branches clear clear-soft reset-file obliterate delete-branch "
                       "delete-tag delete-submodule delete-squashed-branches".split())
COVERED_SUBS["oc"] = COVERED_SUBS["kubectl"]


def covered(prog: str, texts: list) -> bool:
    """Do this program's rules judge this form in full?"""
    if prog in COVERED_ALL or prog.lower() in COVERED_ALL or MKFS_NAME.match(prog):
        return True
    return _covered_by_words(prog, texts)


def _covered_by_words(prog: str, texts: list) -> bool:
    """``covered`` for a program not covered whatever its words: git's own subcommands, COVERED_SUBS."""
    if prog == "git":  # its rules know git; add-ons (git lfs, git bug...) and aliases are left to the vocabulary
        return vcs_plumbing.git_own(texts) and subcommand(texts) not in GIT_ADDONS
    subs = COVERED_SUBS.get(prog)
    return subs is not None and subcommand(texts) in subs


def known(prog: str) -> bool:
    """Does a rule look at this program (so an unflagged verdict means "judged harmless")?"""
    return prog in RULES or bool(MKFS_NAME.match(prog))




def _interpreter_variant(prog: str) -> Optional[list]:
    """JRuby, MicroPython, php-cli…: judged by their language's rules."""
    m = interp.VARIANT.match(prog.lower())
    return RULES.get(m.group(2)) if m else None


def _given_arguments(c: Ctx) -> Optional[tuple]:
    """Classes read from a program's arguments (disks written over, controllers' deletes, chips erased, archives
    unpacked over, mirrors that delete, work discarded, Windows reset): a bare program has none to read."""
    if not c.texts:
        return None
    return (device_targets.rule_onto_device(c) or controller_actions.rule_controller_action(c) or
            chip_erase.rule_chip_erase(c) or unpacked_over.rule_unpacked_over(c) or
            mirror_deletes.rule_mirror_deletes(c) or work_discarded.rule_work_discarded(c) or
            windows_resets.rule_windows_reset(c))


# The declared readings ``check`` asks, by their numbers in the trigger index: one whose words the line lacks is
# skipped with a test of the set ``triggers.asked`` gives (its wrapper would answer None or False without calling it);
# a woken one is called through its wrapper (under ``checked()``: every one, and listed where it answered anyway).
_GRANT = triggers.number_of(privileged_grants.may_grant, skipped=False)
_BARE_VERB = triggers.number_of(bare_verbs.rule_bare_verb)
_APP_UNINSTALLED = triggers.number_of(device_apps.rule_app_uninstalled)
_MANIFEST_DOWN = triggers.number_of(teardowns.rule_manifest_down)
_CLONE_FORCED = triggers.number_of(vcs_plumbing.rule_clone_forced)
_RECORD_IDS = triggers.number_of(record_ids.rule_record_ids)
_STORE_ENTRY = triggers.number_of(key_stores.rule_store_entry_deleted)
_FORCED_RESTORE = triggers.number_of(forced_restores.rule_forced_restore)
_WMI_SHUTDOWN = triggers.number_of(windows_resets.rule_wmi_shutdown)
_OBJECT_VERB = triggers.number_of(object_verbs.rule_object_verb)
_BARE_BYPASS = triggers.number_of(bare_bypass.rule_bare_bypass)
_DELETE_LETTERS = triggers.number_of(delete_letters.may_delete, skipped=False)
_RETENTION_ZERO = triggers.number_of(retention_zero.may_be_zero, skipped=False)
_TOTAL_SCOPE = triggers.number_of(total_scopes.may_be_total, skipped=False)
_RAW_DEVICE = triggers.number_of(raw_devices.rule_raw_device)
_STORE_RESET = triggers.number_of(store_resets.may_reset, skipped=False)
_STATEMENT = triggers.number_of(statements.rule_statement_argument)
_FACTORY_RESET = triggers.number_of(factory_defaults.may_reset, skipped=False)
_WHOLE_RESET = triggers.number_of(whole_resets.may_reset, skipped=False)
_URL_INSTALL = triggers.number_of(url_installs.may_install_from_url, skipped=False)
_RESTART = triggers.number_of(restart_switches.may_restart, skipped=False)
_SCRIPT_OPTION = triggers.number_of(script_options.may_carry_script, skipped=False)
_WHOLE_RANGE = triggers.number_of(whole_ranges.may_span_all, skipped=False)
_PUBLISH = triggers.number_of(secret_destinations.may_publish, skipped=False)
_SEND = triggers.number_of(unknown_senders.may_send, skipped=False)




# Rules that judge the command their program carries themselves: their verdict on it stands.
_CARRIERS = frozenset({fleets.rule_fanned_out, remote.rule_fleet, system_parts.rule_forfiles,
                       embedded.rule_command_options, interp.rule_interpreter_body, interp.rule_awk_system})


class _Program(NamedTuple):
    """What ``check`` reads from a program's name alone: found once per name, not once per command."""
    session_only: bool  # the shell's own bookkeeping, help and listings of cmdlets
    rules: Optional[list]  # the table rules that name it (None: none), before a cmdlet's verb adds one
    clear_cmdlet: bool  # PowerShell's Clear-<Noun>
    covered_all: bool  # its rules judge every form of it
    prompt_word: bool
    targets_all: bool  # a cmdlet of a verb that stops, removes or switches off
    remote_admin: bool
    unpacks: bool
    interpreter: bool  # one of interp.RULES
    text_arguments: bool  # one of carried_commands.TEXT_ARGUMENTS
    shell: bool  # one of _SHELLS
    onto_one_name: bool
    age_reaper: bool
    netsh: bool
    shell_like: bool
    dashed: bool  # `Verb-Noun`: a cmdlet's name (ps_taking_verbs reads only those)
    account_database: bool  # classes read in their tools' own words, by the tool's name (``check``'s last rows)
    mac_setting: bool
    confinement: bool
    firewall_flush: bool
    by_words: bool  # git, or one of COVERED_SUBS: covered in full by some of its subcommands (``_covered_by_words``)


def _read_program(prog: str) -> _Program:
    rules = RULES.get(prog) or RULES.get(prog.lower()) or RULES.get(_VERSIONED.sub("", prog)) or \
        (RULES["awk"] if prog.lower().endswith("awk") else None) or \
        _interpreter_variant(prog)  # goawk, frawk, original-awk, onetrue-awk; jruby, micropython, php-cli
    if rules is not None and prog.lower().endswith("awk") and rules is not RULES["awk"]:
        rules = rules + [r for r in RULES["awk"] if r not in rules]  # goawk, frawk: fed a shell AND awk's own writes
    if "-" in prog and prog != prog.lower() and prog.lower() in RULES and rules is not RULES[prog.lower()]:
        rules = (rules or []) + [r for r in RULES[prog.lower()] if r not in (rules or ())]  # `Copy-Item`: copy-item's
    if prog[-4:].lower() == ".exe" and prog[:-4].lower() in RULES:  # `schtasks.exe`: every rule `schtasks` has
        rules = (rules or []) + [r for r in RULES[prog[:-4].lower()] if r not in (rules or ())]
    plain = program_names.alias(prog)  # pypy3, jython, dnf5, pip3.12: also judged as python, dnf, pip
    if plain and plain in RULES:
        rules = (rules or []) + [r for r in RULES[plain] if r not in (rules or ())]
    if rules is None and MKFS_NAME.match(prog):  # mkfs.xfs, newfs_msdos, newfs_apfs, jfs_mkfs, make_ext4fs
        rules = [content.rule_mkfs]
    clear_cmdlet = prog[:6].lower() == "clear-"  # PowerShell's Clear-<Noun>, for any noun
    if clear_cmdlet:
        rules = (rules or []) + [clear_cmdlets.rule_clear_cmdlet]
    low = prog.lower()
    return _Program(session_only=ps_targets.session_only(prog), rules=rules, clear_cmdlet=clear_cmdlet,
                    covered_all=bool(prog in COVERED_ALL or low in COVERED_ALL or MKFS_NAME.match(prog)),
                    prompt_word=low in prompt_statements.PROMPT_WORDS, targets_all=ps_targets.may_target_all(prog),
                    remote_admin=low in remote_admin.NAMES, unpacks=unpacked_system.may_unpack(prog),
                    interpreter=prog in interp.RULES, text_arguments=low in carried_commands.TEXT_ARGUMENTS,
                    shell=prog in _SHELLS, onto_one_name=low in onto_one_name.NAMES,
                    age_reaper=bool(age_reapers.NAMES.match(prog)), netsh=low in ("netsh", "netsh.exe"),
                    shell_like=downloaded_runs.shell_like(prog), dashed="-" in prog,
                    account_database=prog in account_databases.NAMES, mac_setting=low in mac_settings.NAMES,
                    confinement=prog in confinement_loosened.NAMES, firewall_flush=low in firewall_flush.NAMES,
                    by_words=prog == "git" or prog in COVERED_SUBS)


# what a name says, kept for the names judged lately (the corpora name ~4,900 programs; a daemon far fewer)
_program = functools.lru_cache(maxsize=8192)(_read_program)


def check(c: Ctx) -> Optional[tuple]:
    if harmless(c.prog, c.texts):
        return None  # a dry run, help, signal 0: only says what would happen
    named = _program(c.prog)
    if named.session_only:
        return None  # `Remove-Job -Name *`, `Get-PSSession | Remove-PSSession`: the shell's own bookkeeping
    rules = named.rules
    if named.dashed and not named.clear_cmdlet and ps_taking_verbs.may_take(c.prog, rules is None, c.lowered):
        rules = (rules or []) + [ps_taking_verbs.rule_taking_verb]  # Disable-, Unregister-, Revoke-<Noun>
    best = None
    if named.prompt_word:
        best = prompt_statements.rule_prompt_statement(c)  # `drop table users;`, `DROP SEQUENCE ids;` at a prompt
    for rule in rules or ():
        best = worst(best, rule(c))
    if named.targets_all:  # `Stop-Service -Name * -Force`, `… | Set-NetAdapter -AdminStatus Down`
        best = worst(best, ps_targets.rule_every_one(c))  # (a cmdlet no rule names stays unknown to the rest)
    if named.remote_admin:  # `pskill \\DB01 x`, `regedit /s \\fs\x.reg`, `repair-bde C: E:`
        best = worst(best, remote_admin.rule_remote_admin(c))
    if best is not None and best[0] == HIGH:
        return best  # nothing below replaces a finding but by a higher one (``worst``: the first wins a tie)
    in_full = named.covered_all or named.by_words and _covered_by_words(c.prog, c.texts)  # (used four times below)
    asked = triggers.asked(c)  # a declared reading whose number is not in it is skipped without a call
    if (best is None or best[0] < HIGH) and _GRANT in asked and \
            privileged_grants.may_grant(c):  # Domain Admins, Everyone:full
        best = worst(best, privileged_grants.rule_privilege_granted(c))
    if (best is None or best[0] < MEDIUM) and _URL_INSTALL in asked and url_installs.may_install_from_url(c) and \
            netexec.rule_install_from_url not in (rules or ()):  # `kubectl krew install --manifest-url=URL`
        best = worst(best, url_installs.rule_installed_from_url(c))
    if (best is None or best[0] < HIGH) and outputs.may_write_essential(c):  # `eget x/y --to /usr/bin/sudo`
        best = worst(best, outputs.rule_output_over_essential(c))
    if (best is None or best[0] < HIGH) and named.unpacks:  # Expand-Archive … System32 -Force
        best = worst(best, unpacked_system.rule_unpacked_into_system(c))
    best = broad_reading.broad(c, best, known=rules is not None)
    if best is not None and best[0] == HIGH:
        return best
    if (best is None or best[0] < MEDIUM) and _RESTART in asked and \
            restart_switches.may_restart(c):  # `Rename-Computer … -Restart`
        best = worst(best, restart_switches.rule_restart_switch(c))
    if (best is None or best[0] < HIGH) and _SCRIPT_OPTION in asked and \
            script_options.may_carry_script(c):  # `… -ScriptString 'rm …'`
        best = worst(best, script_options.rule_script_option(c))
    if (best is None or best[0] < MEDIUM) and _WHOLE_RANGE in asked and \
            whole_ranges.may_span_all(c):  # `--start-ip 0.0.0.0 --end-ip 255…`
        best = worst(best, whole_ranges.rule_whole_range(c))
    if (best is None or best[0] < MEDIUM) and not named.interpreter:  # `xonsh -c '…'`, `sage -c '…'`
        best = worst(best, interp.rule_interpreter_body(c))
    if (best is None or best[0] < MEDIUM) and carried_commands.may_carry(c) and \
            not any(r in _CARRIERS for r in rules or ()) and \
            (not in_full or "exec" in c.texts[:3] or "--" in c.texts):  # `srun -N 16 rm -rf …`
        best = worst(best, carried_commands.rule_carried_command(c, known, in_full))
    if (best is None or best[0] < MEDIUM) and (c.args or c.seg.redirects or c.chain) and \
            (not named.text_arguments or code_calls.runs_fed_code(c)):
        best = worst(best, code_calls.rule_code_calls(c))  # `root -e 'gSystem->Exec("rm -rf …")'`, any language
    if (best is None or best[0] < HIGH) and _SEND in asked and unknown_senders.may_send(c) and \
            not named.text_arguments:  # `box files:upload ~/.ssh/id_ecdsa`
        best = worst(best, unknown_senders.rule_unknown_sender(c))
        best = worst(best, unknown_senders.rule_published_home_image(c))  # `pack build R/x --path ~ --publish`
    if (best is None or best[0] < HIGH) and secret_destinations.may_carry(c) and \
            not named.text_arguments:  # `httping -l "https://…?k=$(base64 KEY)"`
        best = worst(best, secret_destinations.rule_secret_to_destination(c))
    if (best is None or best[0] < HIGH) and _PUBLISH in asked and secret_destinations.may_publish(c) and \
            not named.text_arguments:  # `webtorrent seed ~/.electrum/wallets/x`
        best = worst(best, secret_destinations.rule_secret_published(c))
    if (best is None or best[0] < HIGH) and downloaded_runs.may_run_download(c):  # `loksh -c "$(wget -qO- …)"`
        best = worst(best, downloaded_runs.rule_downloaded_code_run(c))
    if best is None and not in_full:
        best = vocabulary.rule_vocabulary(c)
        if best is None and win_switch_verbs.may_act(c):  # `dnscmd /zonedelete corp.com /f`: the verb in a switch
            best = win_switch_verbs.rule_switch_verb(c, vocabulary.rule_vocabulary)
        if best is None or best[0] < MEDIUM:
            best = worst(best, own_options.rule_own_options(c, unknown=rules is None))
        if best is None or best[0] < MEDIUM:
            best = worst(best, _BARE_VERB in asked and bare_verbs.rule_bare_verb(c) or
                         archive_members.rule_archive_members(c) or replaced_state.rule_replaces_live(c) or
                         _APP_UNINSTALLED in asked and device_apps.rule_app_uninstalled(c) or
                         _MANIFEST_DOWN in asked and teardowns.rule_manifest_down(c) or
                         _CLONE_FORCED in asked and vcs_plumbing.rule_clone_forced(c) or
                         _RECORD_IDS in asked and record_ids.rule_record_ids(c) or
                         _STORE_ENTRY in asked and key_stores.rule_store_entry_deleted(c) or _given_arguments(c) or
                         _FORCED_RESTORE in asked and forced_restores.rule_forced_restore(c) or
                         short_verbs.rule_short_verbs(c) or word_places.rule_word_places(c) or
                         _WMI_SHUTDOWN in asked and windows_resets.rule_wmi_shutdown(c) or
                         rm_elsewhere.rule_rm_elsewhere(c) or
                         _OBJECT_VERB in asked and object_verbs.rule_object_verb(c) or
                         _BARE_BYPASS in asked and bare_bypass.rule_bare_bypass(c) or tail_verbs.rule_tail_verbs(c) or
                         (age_reapers.rule_reaped(c) if named.age_reaper else None))
        if (best is None or best[0] < MEDIUM) and rules is None and _DELETE_LETTERS in asked and \
                delete_letters.may_delete(c):
            best = worst(best, delete_letters.rule_delete_letters(c))
        if (best is None or best[0] < MEDIUM) and _RETENTION_ZERO in asked and retention_zero.may_be_zero(c):
            best = worst(best, retention_zero.rule_retention_zero(c))
        if (best is None or best[0] < MEDIUM) and _TOTAL_SCOPE in asked and total_scopes.may_be_total(c):
            best = worst(best, total_scopes.rule_total_scope(c))
        if (best is None or best[0] < HIGH) and _RAW_DEVICE in asked:
            best = worst(best, raw_devices.rule_raw_device(c))
        if (best is None or best[0] < MEDIUM) and _STORE_RESET in asked and store_resets.may_reset(c):
            best = worst(best, store_resets.rule_store_reset(c))
    if best is None or best[0] == LOW:
        best = worst(best, _STATEMENT in asked and statements.rule_statement_argument(c) or
                     overwrites.rule_forced_overwrite(c) or
                     ps_drives.rule_drive_removed(c) or api_calls.rule_api_call(c) or
                     short_verbs.rule_unsafe_diff_applied(c))
    if (best is None or best[0] == LOW) and api_bodies.may_send(c):  # `curl -d 'TRUNCATE TABLE t' URL/sql`
        best = worst(best, api_bodies.rule_api_body(c))
    # classes read in their tools' own words once nothing above found more than low (by the tool's name, or a cheap
    # test of its line)
    if (best is None or best[0] == LOW) and named.account_database:
        best = worst(best, account_databases.rule_account_database(c))
    if (best is None or best[0] == LOW) and account_databases.may_import(c):
        best = worst(best, account_databases.rule_keys_imported(c))
    if (best is None or best[0] == LOW) and device_actions.may_act(c):
        best = worst(best, device_actions.rule_device_action(c))
    if (best is None or best[0] == LOW) and named.mac_setting:
        best = worst(best, mac_settings.rule_mac_setting(c))
    if (best is None or best[0] == LOW) and named.confinement:
        best = worst(best, confinement_loosened.rule_confinement_loosened(c))
    if (best is None or best[0] == LOW) and named.firewall_flush:
        best = worst(best, firewall_flush.rule_firewall_flushed(c))
    if (best is None or best[0] == LOW) and api_runners.may_call(c):
        best = worst(best, api_runners.rule_api_call_run(c))
    if (best is None or best[0] == LOW) and _FACTORY_RESET in asked and factory_defaults.may_reset(c):
        best = worst(best, factory_defaults.rule_defaults_restored(c))
    if (best is None or best[0] == LOW) and _WHOLE_RESET in asked and whole_resets.may_reset(c) and \
            (not in_full or named.netsh):
        best = worst(best, whole_resets.rule_whole_reset(c))
    if best is None or best[0] == LOW:
        best = worst(best, firmware_writes.rule_firmware_written(c, tool=not in_full))
    if best is not None and best[0] == HIGH:
        return best
    best = last_readings.read(c, best, unknown=rules is None, in_full=in_full)
    if (best is None or best[0] == LOW) and device_writes.may_write(c):  # `blkzone reset /dev/sdh`, `wrmsr …`
        best = worst(best, device_writes.rule_device_written(c, unknown=rules is None))
    if (best is None or best[0] == LOW) and named.onto_one_name:
        best = worst(best, onto_one_name.rule_onto_one_name(c))
    if (best is None or best[0] == LOW) and not in_full:  # the last word: the program's own docs
        best = worst(best, documented.rule_documented(c))
    if (best is None or best[0] == LOW) and not named.interpreter and not named.shell and \
            not named.text_arguments:  # `JLinkExe <<EOF erase`, `loksh <<EOF …`
        best = worst(best, client_scripts.rule_client_script(c, known=rules is not None, shell=named.shell_like))
    return best
