"""The classes judged for any program, whatever rule names it: secrets sent out, protections off, the
machine or a service stopped, access opened, disks built over.  Kept apart from ``table.py``, which
decides which of a program's own rules run: these run after them, for every command, each behind a
cheap test of the name or the line so that an everyday command pays for few of them."""
from __future__ import annotations

import functools
from typing import NamedTuple, Optional

from aish.safety.rules import (add_ons_off, auth_overrides, auth_patches, bulk_offline, checker_repairs,
                               cloud_guards_off,
                               cloud_stops,
                               cluster_membership,
                               cmdlet_switches, config_editors, daemons, devices, everyone_grants, exposure, guards,
                               host_keys, lockers_off, machines, made_public, media, netexec, network_cut,
                               one_way_verbs, open_servers, own_binary_stops, port_kills, product_grants,
                               product_stops, reach, release_upgrades, scaled_to_zero, service_managers, sinks,
                               code_reach, token_runs, ways_in,
                               updates_off, vendor, weakened, windows_closed, written_options)
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, worst
from aish.safety.rules import triggers
from aish.safety.rules.triggers import triggered_by


# Words one of which a line must hold for servers opened, updates off, scaling to zero or public grants to apply:
# plain substring tests of the lowered line (a regex alternation of them tried at every position cost 10x more).
_OPENED_OR_SCALED = ("protected-mode", "requirepass", "auth", "grant", "xpack", "security", "allow_empty", "insecure",
                     "anonymous", "alwaysallow", ":2375", "bind_ip", "system:", "accept-hosts", ":default", "upgrade",
                     "automatic", "yum-cron", "wuauserv", "usosvc", "waasmedic", "softwareupdate", " 0", "=0",
                     "drain", "-enable", "replica", "public", "allusers", "0.0.0.0/0", "::/0", "source-address",
                     "cidr", "source-ranges", "autoupdate", "apt-daily", "unattended", "availability", "allauth",
                     "memcached", "listen-client-urls", "app.token", "app.password", "provider.token",
                     "packagekit")


@triggered_by(_OPENED_OR_SCALED, otherwise=False)
def _opened_or_scaled(c: Ctx) -> bool:
    line = (c.prog + " " + " ".join(c.texts)).lower()
    return any(word in line for word in _OPENED_OR_SCALED)


# The declared readings ``broad`` asks, by their numbers in the trigger index: one whose words the line lacks is
# skipped with a test of the set ``triggers.asked`` gives (its wrapper would answer None or False without calling it:
# ~0.1 us a call, ~15 a command); a woken one is called through its wrapper (under ``checked()``: every one).
_GUARD_OFF = triggers.number_of(guards.rule_guard_off)
_CHECKS_OFF = triggers.number_of(host_keys.rule_checks_off)
_SERVER_STOPPED = triggers.number_of(daemons.rule_server_stopped)
_PRODUCT_STOP = triggers.number_of(product_stops.may_stop, skipped=False)
_OWN_BINARY_STOP = triggers.number_of(own_binary_stops.may_stop, skipped=False)
_CLOUD_GUARD_OFF = triggers.number_of(cloud_guards_off.may_switch_off, skipped=False)
_CLOUD_STOP = triggers.number_of(cloud_stops.may_stop, skipped=False)
_MEMBERSHIP = triggers.number_of(cluster_membership.may_change_membership, skipped=False)
_PRODUCT_GRANT = triggers.number_of(product_grants.may_grant, skipped=False)
_ADD_ONS_OFF = triggers.number_of(add_ons_off.may_switch_off, skipped=False)
_ONE_WAY = triggers.number_of(one_way_verbs.may_be_one_way, skipped=False)
_NETWORK_CUT = triggers.number_of(network_cut.may_cut, skipped=False)
_OPENED_OR_SCALED_N = triggers.number_of(_opened_or_scaled, skipped=False)
_DEVICE_GIVEN = triggers.number_of(devices.rule_device_given)
_AUTH_PATCH = triggers.number_of(auth_patches.may_patch, skipped=False)
_TOKEN_RUN = triggers.number_of(token_runs.rule_run_as_another)
_WAY_IN = triggers.number_of(ways_in.rule_way_in)
_CODE_SHELL = triggers.number_of(code_reach.rule_code_in_arguments)


class _Named(NamedTuple):
    """What ``broad`` reads from a program's name alone: found once per name, not once per command."""
    service_manager: bool
    exposure: bool
    fetches: bool  # one of netexec.BROAD
    offline: bool
    checker: bool  # a checker's name (`fsck`, `e2fsck`, `chkdsk`)
    cmdlet_weakens: bool
    config_editor: bool
    locker: bool
    windows_closer: bool
    upgrader: bool
    port_killer: bool
    git_dashed: bool
    down_name: bool  # network_cut's `…-disconnect`, `…down`


def _read_name(prog: str) -> _Named:
    low = prog.lower()
    return _Named(service_manager=low in service_managers.NAMES, exposure=prog in exposure.NAMES,
                  fetches=low in netexec.BROAD, offline=bulk_offline.may_offline(prog),
                  checker="check" in low or "chk" in low, cmdlet_weakens=cmdlet_switches.may_weaken(prog),
                  config_editor=low in config_editors.NAMES, locker=lockers_off.may_unlock(prog),
                  windows_closer=prog in windows_closed.NAMES, upgrader=bool(release_upgrades.MAY_UPGRADE.search(low)),
                  port_killer=bool(port_kills.NAMES.match(low)), git_dashed=prog.startswith("git-"),
                  down_name=bool(network_cut.DOWN_NAME.match(low)))


_named = functools.lru_cache(maxsize=8192)(_read_name)  # what a name says, kept for the names judged lately


def _bare_by_name(c: Ctx, known: bool) -> Optional[tuple]:
    """A bare program's name and what is around it (`dbshut`, `yes | do-release-upgrade`, `VAR=false server`)."""
    if product_stops.may_stop(c):
        found = product_stops.rule_product_stopped(c, known)
        if found is not None:
            return found
    named = _named(c.prog)
    if named.upgrader:
        found = release_upgrades.rule_release_upgraded(c)
        if found is not None:
            return found
    if named.down_name:  # `vpnc-disconnect`
        return network_cut.rule_down_by_name(c)
    if "," in c.prog:  # `…AccessRule("Everyone","FullControl",…)` as the shell splits it
        return everyone_grants.rule_access_rule_arguments(c)
    return auth_overrides.rule_auth_overridden(c) if len(c.seg.words) > len(c.words) else None


def broad(c: Ctx, best: Optional[tuple], known: bool) -> Optional[tuple]:
    """The classes judged for any program: secrets sent out, protections off, the machine stopped, disks built
    over.  A bare program is judged by its name only (a long pipeline has thousands of them)."""
    if not c.texts and not c.xargs:
        if best is not None:
            return best
        if len(c.seg.words) > len(c.words) and written_options.may_write(c):  # `strace -o /etc/ld.so.preload ls`
            written = written_options.rule_written_by_option(c)
            if written is not None:
                return written
        sent = reach.rule_secrets_reach(c, known=known) if (c.chain or c.seg.redirects) and sinks.is_sink(c) else None
        if sent is not None:
            return sent  # `haste < ~/.ssh/id_rsa`, `cat KEY | ix`
        return daemons.rule_server_stopped(c, known) or \
            (None if known else machines.rule_machine_stop(c, known=False)) or _bare_by_name(c, known)
    if best is None or best[0] < HIGH:
        best = worst(best, reach.rule_secrets_reach(c, known=known))
    named = _named(c.prog)
    asked = triggers.asked(c)  # a declared reading whose number is not in it is skipped without a call
    if (best is None or best[0] < HIGH) and named.service_manager:
        best = worst(best, service_managers.rule_service_manager(c))
    if (best is None or best[0] < HIGH) and named.exposure:
        best = worst(best, exposure.rule_exposed(c))
    if best is None and named.fetches:
        best = netexec.rule_fetched_code(c)
    if (best is None or best[0] < MEDIUM) and _GUARD_OFF in asked:
        best = worst(best, guards.rule_guard_off(c))
    if (best is None or best[0] < MEDIUM) and _CHECKS_OFF in asked:
        best = worst(best, host_keys.rule_checks_off(c))
    if best is None or best[0] < MEDIUM:
        best = worst(best, machines.rule_machine_stop(c, known=known))
    if (best is None or best[0] < MEDIUM) and _SERVER_STOPPED in asked:
        best = worst(best, daemons.rule_server_stopped(c, known))
    if (best is None or best[0] < MEDIUM) and _PRODUCT_STOP in asked and product_stops.may_stop(c):
        best = worst(best, product_stops.rule_product_stopped(c, known))
    if (best is None or best[0] < MEDIUM) and _OWN_BINARY_STOP in asked and own_binary_stops.may_stop(c):
        best = worst(best, own_binary_stops.rule_own_binary_stop(c))
    if (best is None or best[0] < MEDIUM) and _CLOUD_GUARD_OFF in asked and cloud_guards_off.may_switch_off(c):
        best = worst(best, cloud_guards_off.rule_guard_switched_off(c))
    if (best is None or best[0] < MEDIUM) and _CLOUD_STOP in asked and cloud_stops.may_stop(c):
        best = worst(best, cloud_stops.rule_cloud_stop(c))
    if (best is None or best[0] < MEDIUM) and named.offline:
        best = worst(best, bulk_offline.rule_bulk_offline(c))
    if (best is None or best[0] < MEDIUM) and c.texts and _MEMBERSHIP in asked and \
            cluster_membership.may_change_membership(c):
        best = worst(best, cluster_membership.rule_membership_changed(c))
    if (best is None or best[0] < MEDIUM) and c.texts and _PRODUCT_GRANT in asked and product_grants.may_grant(c):
        best = worst(best, product_grants.rule_product_grant(c))
    if (best is None or best[0] < MEDIUM) and c.texts and _ADD_ONS_OFF in asked and add_ons_off.may_switch_off(c):
        best = worst(best, add_ons_off.rule_add_ons_off(c))
    if (best is None or best[0] < MEDIUM) and c.texts and _ONE_WAY in asked and one_way_verbs.may_be_one_way(c):
        best = worst(best, one_way_verbs.rule_one_way(c))
    if (best is None or best[0] < MEDIUM) and c.texts and named.checker:
        best = worst(best, checker_repairs.rule_checker_repair(c))
    if (best is None or best[0] < MEDIUM) and named.cmdlet_weakens:
        best = worst(best, cmdlet_switches.rule_cmdlet_weakens(c))
    if (best is None or best[0] < MEDIUM) and everyone_grants.may_grant(c):
        best = worst(best, everyone_grants.rule_everyone_granted(c))
    if (best is None or best[0] < MEDIUM) and named.config_editor:
        best = worst(best, config_editors.rule_config_edited(c))
    if (best is None or best[0] < MEDIUM) and auth_overrides.may_override(c):
        best = worst(best, auth_overrides.rule_auth_overridden(c))
    if (best is None or best[0] < MEDIUM) and named.locker:
        best = worst(best, lockers_off.rule_locker_off(c))
    if (best is None or best[0] < MEDIUM) and _NETWORK_CUT in asked and network_cut.may_cut(c):
        best = worst(best, network_cut.rule_network_cut(c))
    if (best is None or best[0] < MEDIUM) and named.windows_closer:
        best = worst(best, windows_closed.rule_every_window_closed(c))
    if (best is None or best[0] < MEDIUM) and named.upgrader:
        best = worst(best, release_upgrades.rule_release_upgraded(c))
    if best is None and not known and named.port_killer:
        best = port_kills.rule_port_killed(c)
    if best is None or best[0] < MEDIUM:
        best = worst(best, weakened.rule_weakened(c) or weakened.rule_assignments(c))
    if best is None or best[0] < MEDIUM:
        best = worst(best, media.rule_media_loss(c))
    if (best is None or best[0] < MEDIUM) and _OPENED_OR_SCALED_N in asked and _opened_or_scaled(c):
        best = worst(best, open_servers.rule_access_off(c) or updates_off.rule_updates_off(c) or
                     scaled_to_zero.rule_scaled_to_zero(c) or made_public.rule_made_public(c))
    if best is None and named.git_dashed and not known:
        best = vendor.rule_git_dashed(c)
    if (best is None or best[0] < HIGH) and _DEVICE_GIVEN in asked:
        best = worst(best, devices.rule_device_given(c, known=known))
    if (best is None or best[0] < HIGH) and _AUTH_PATCH in asked and auth_patches.may_patch(c):
        best = worst(best, auth_patches.rule_auth_patched(c))
    if (best is None or best[0] < HIGH) and _TOKEN_RUN in asked:
        best = worst(best, token_runs.rule_run_as_another(c))
    if (best is None or best[0] < HIGH) and _WAY_IN in asked:
        best = worst(best, ways_in.rule_way_in(c))
    if (best is None or best[0] < HIGH) and _CODE_SHELL in asked:
        best = worst(best, code_reach.rule_code_in_arguments(c))
    if (best is None or best[0] < HIGH) and written_options.may_write(c):
        best = worst(best, written_options.rule_written_by_option(c))
    return best
