"""How far a verb read from any program's own words goes: medium, or nothing.

``vocabulary.rule_vocabulary`` reads the verb, the nouns around it and the options (``Facts``); the
level is decided here on those facts alone, so the table of strengths against what they act on (a
cache, a package, a database, a whole deployment) can be read in one place.  Verbs that cannot be
undone whatever their strength (a revoked certificate, a yanked release) are decided first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from aish.safety.rules.common import MEDIUM
from aish.safety.verbs import (PACKAGE_TOOLS, RESET, RESET_NOUNS, RESET_WIPES, SESSION_MANAGERS, WEAK_BROAD,
                               WEAK_DATA_NOUNS)


@dataclass
class Facts:
    """What the level is decided on."""

    prog: str
    verb: str
    strength: int
    source: str  # where the verb was read: "subcommand" | "program" | "option" | "letter"
    nouns: list
    data: list  # nouns that hold data
    light: list  # nouns that are cheap to lose
    named: bool  # a name follows the verb (or the program is the verb)
    everything: bool  # a scope that takes everything
    forced: bool
    heavy_option: Optional[str]
    abrupt: bool  # nosave, immediate, -9
    confirmed: bool = False  # told not to ask in so many words (`-Force`, `--yes`), not a bare `-f`


def level_of(f: Facts) -> Optional[int]:
    """Medium, or None: the verb's strength against what it acts on (a cache or a database)."""
    level: Optional[int]
    quiet = f.light and not f.data or f.prog in PACKAGE_TOOLS and not f.data
    undone = withdrawn(f)
    if undone is not None:
        return undone
    if f.source == "option" and f.prog in PACKAGE_TOOLS:
        return None  # `flatpak mask --remove app`, `pip --delete`: packages
    if f.strength == 4:
        # a package taken back from its registry is lost to everyone who depends on it, light or not
        level = None if f.verb != "unpublish" and (f.light or f.prog in PACKAGE_TOOLS) and not f.data else MEDIUM
        if f.source == "option" and not (f.named or f.data):
            level = None
    elif f.strength == 3 and f.verb in RESET:
        wipes = f.prog in RESET_WIPES and f.verb == "reset"  # `kubeadm reset`, `ykman piv reset`
        level = MEDIUM if wipes or any(n in RESET_NOUNS for n in f.nouns) or (f.forced or f.everything) and \
            not f.light else None
        if f.verb == "reinstall":  # a site or an app installed again over its data; a package only costs a download
            level = MEDIUM if f.prog not in PACKAGE_TOOLS and (f.forced or f.confirmed or f.everything) else None
    elif f.strength == 3 and f.source == "option":  # `--delete` edits as often as it destroys: data must be named
        strong = [n for n in f.data if n not in WEAK_DATA_NOUNS]
        level = MEDIUM if strong and not quiet or f.everything and not f.light or \
            f.confirmed and f.named and not f.light else None
    elif f.strength == 3:
        bare = not (f.data or f.named or f.everything or f.forced)  # `minikube delete`: the program's own object
        level = MEDIUM if not quiet and not (bare and f.verb in ("prune", "expire", "discard", "undeploy")) else None
        if f.verb == "gc" and not f.forced:
            level = None  # garbage collection drops what nothing refers to; forced, it takes what it is told
    elif f.strength == 2:  # a VM powered off is a plug pulled: what it had not written is lost
        pulled = f.verb in ("poweroff", "power-off") and bool({"vm", "vms", "machine", "instance"} & set(f.nouns))
        level = MEDIUM if f.prog in SESSION_MANAGERS or f.abrupt or f.forced or pulled else None
    elif f.verb == "cancel" and set(f.nouns) & _BILLED:  # `stripe subscriptions cancel sub_1`: not taken back
        level = MEDIUM
    elif f.verb == "unset" and set(f.nouns) & SECRET_NOUNS:  # `fly secrets unset KEY`: the app loses it
        level = MEDIUM if f.named else None
    elif f.verb == "clean" and set(f.nouns) & _DEPLOYED:  # `hal deploy clean`: the whole deployment is removed
        level = MEDIUM
    elif f.verb in ("clear", "flush", "empty"):
        level = MEDIUM if f.data and not f.light or f.everything and not quiet else None
    else:
        level = MEDIUM if (f.data and (f.everything or f.heavy_option or f.forced and f.verb in ("drain", "evict"))
                           or f.everything and not quiet and f.verb in WEAK_BROAD
                           or f.abrupt and f.verb in ("stop", "kill")) else None
    if level is None and f.heavy_option and f.strength:
        level = MEDIUM
    return level


# What a cancel ends for good: a subscription, an account, a reserved instance (billing stops, the data goes).
# What a deployed app is given to reach the rest (`fly secrets unset`, `dokku config:unset`: read as secrets).
SECRET_NOUNS = frozenset({"secret", "secrets", "credential", "credentials", "token", "tokens", "password",
                          "passwords"})
_BILLED = frozenset({"subscription", "subscriptions", "account", "accounts", "instance", "instances", "reservation",
                     "reservations", "contract", "contracts", "membership", "plan", "tenant", "tenants"})
# What a clean after it removes whole (`hal deploy clean`, `garden cleanup namespace`).
_DEPLOYED = frozenset({"deploy", "deployment", "deployments", "namespace", "namespaces", "environment",
                       "environments", "env", "cluster", "clusters", "stack", "stacks", "installation"})
# Certificate authorities' objects: cleaning one revokes and deletes it (`puppetserver ca clean --certname x`).
_CERT_NOUNS = {"ca", "cert", "certs", "certificate", "certificates", "pki"}
# What a secrets server mounts: disabling the mount deletes what it holds (`vault secrets disable kv/`).
_MOUNT_NOUNS = {"secrets", "secret", "auth", "audit", "kv", "pki", "transit", "engine", "engines"}
_LOGIN_NOUNS = {"auth", "login", "session", "sessions", "oauth"}

def withdrawn(f: Facts) -> Optional[int]:
    """Verbs that cannot be undone whatever their strength: a revoked certificate or token, a yanked release,
    a certificate cleaned from its authority, a secrets mount disabled.  None: not one of them."""
    nouns = set(f.nouns)
    if f.verb == "revoke":
        return MEDIUM if (f.named or f.data) and not nouns & _LOGIN_NOUNS else None
    if f.verb == "yank":
        return MEDIUM if f.named else None
    if f.verb == "clean" and nouns & _CERT_NOUNS and f.named:
        return MEDIUM
    if f.verb == "disable" and nouns & _MOUNT_NOUNS and f.named:
        return MEDIUM
    return None
