"""Effect: accounts switched off, or their credentials voided, where it costs the way in, by any identity, hosted or
BMC tool.

Disabling, suspending or locking one named user is an administrator's routine and easily undone (``ipa
user-disable bob``, ``gam update user bob@acme.com suspended on``: quiet, as session 16 decided).  It costs the
way in, and is medium, where the account is:

- every user, or the invoking user's own (``ssoadm user suspend --all``, ``portalctl users lock $USER``): nobody,
  or the one typing, can sign in again to undo it;
- an administrator switched off, by a setting (``gam update user admin@acme.com suspended on``, ``az ad user
  update --id admin@contoso.com --account-enabled false``, ``pveum user modify root@pam --enable 0``) or by a
  verb ``credentials_replaced`` does not read (``auth0 users block admin@acme.com``; its ``user-disable admin``
  is high there);
- a user of a server's management controller (``ipmitool user disable 2``, ``ipmiutil user -d -u 2``): a BMC
  has a handful of users, all of them its administrators, and out-of-band access to the machine goes with them;
- a machine's credentials: a service account or an access key disabled or made inactive (``gcloud iam
  service-accounts disable SA``, ``aws iam update-access-key … --status Inactive``): every service signing in
  with them fails;
- a password voided (``rabbitmqctl clear_password admin``, ``aws iam delete-login-profile --user-name X``):
  the account can no longer sign in with one.

Quiet: enabling, listing and showing; one ordinary user disabled, suspended or locked by name; a key made
active; one's own password changed.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word

_OFF_VERBS = frozenset({"disable", "suspend", "lock", "expire", "block", "deactivate"})
_PEOPLE = frozenset({"user", "users", "account", "accounts", "member", "members", "login", "logins", "person",
                     "people", "identity", "identities", "principal", "principals"})
_EVERYONE = frozenset({"--all", "-a", "all", "*", "--all-users", "everyone"})
_SELF = lazy(r"^(\$\{?(user|logname)\}?|\$\((whoami|id -un)\)|`whoami`|me|self|-self|--self)$", re.IGNORECASE)
# A privileged account by its name, an address's local part or a path's last piece.
_ADMIN = lazy(r"^(?:users?/)?(root|admin|administrator|superuser|sysadmin|sa|sysdba|[\w.-]*admin)(@\S*)?$",
              re.IGNORECASE)
# Settings that switch an account off: `suspended on`, `--account-enabled false`, `enabled=false`.
_OFF_SETTING = lazy(r"^-{0,2}(suspended|locked|disabled|blocked)$|^-{0,2}(account-?)?enabled?$|^-{0,2}status$",
                    re.IGNORECASE)
_OFF_STATUS = frozenset({"inactive", "disabled", "suspended", "locked", "blocked"})
_ON = frozenset({"on", "true", "yes", "1", "y"})
_OFF = frozenset({"off", "false", "no", "0", "n", "inactive", "disabled", "suspended", "locked", "blocked"})
# Management controllers by their tools' names.
_BMC = lazy(r"ipmi|bmc|idrac|racadm|ilo|redfish|xcc|onecli|smcipmi|ipmicfg", 0)
_CREDENTIALS = frozenset({"service-accounts", "service-account", "serviceaccount", "serviceaccounts", "access-key",
                          "access-keys", "accesskey", "api-key", "api-keys", "apikey", "keys", "key", "token",
                          "tokens", "credential", "credentials"})
_VOIDS = frozenset({"clear", "delete", "remove", "del", "rm", "void", "revoke"})
_PASSWORDS = frozenset({"password", "passwd", "login-profile", "loginprofile"})
_LOOKS = frozenset({"help", "list", "ls", "show", "get", "info", "describe", "enable"})


@triggered_by(("disable", "suspend", "lock", "expire", "block", "deactivat", "enabled", "--enable", "inactive",
               "password", "passwd", "login-profile", "ipmi"))
def rule_account_off(c: Ctx) -> Optional[tuple]:
    """``ssoadm user suspend --all``, ``ipmitool user disable 2``, ``rabbitmqctl clear_password admin``."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if not lowered or "--help" in lowered or "--dry-run" in lowered:
        return None
    leading = [t for k, t in enumerate(lowered) if t[:1] != "-" and (k == 0 or lowered[k - 1][:1] != "-" or
                                                                      lowered[k - 1] in ("-d", "--disable"))][:4]
    words = {p for t in leading for p in split_word(t)} | set(leading)
    if set(leading[:3]) & _LOOKS:
        return None
    verb = next((v for v in _OFF_VERBS if v in words), "")
    people = bool(words & _PEOPLE)
    if verb and (people or c.prog.lower().startswith("user")):
        if set(lowered) & _EVERYONE:
            return MEDIUM, f"{c.prog} {verb}s every account: nobody can sign in to undo it ({c.text})"
        if any(_SELF.match(t) for t in texts):
            return MEDIUM, f"{c.prog} {verb}s your own account: you can no longer sign in ({c.text})"
    if verb == "disable" and people and _BMC.search(c.prog.lower()) or \
            "ipmi" in c.prog.lower() and people and "-d" in lowered:
        return MEDIUM, f"{c.prog} disables a user of the management controller: out-of-band access to the " \
                       f"machine goes with it ({c.text})"
    if (verb in ("disable", "deactivate") or _switched_off(lowered)) and words & _CREDENTIALS:
        return MEDIUM, f"{c.prog} switches off a machine credential: every service signing in with it fails ({c.text})"
    if people and (verb or _switched_off(lowered)) and any(_ADMIN.match(v) for t in texts for v in t.split("=")[-1:]):
        return MEDIUM, f"{c.prog} switches an administrator's account off: its sign-ins stop ({c.text})"
    fused = [set(re.split(r"[-_]", t.lstrip("-"))) | {t.lstrip("-").replace("_", "-")} for t in lowered[:3]]
    if any(f & _VOIDS and (f & _PASSWORDS or "login-profile" in "-".join(sorted(f))) for f in fused):
        return MEDIUM, f"{c.prog} voids an account's password: it can no longer sign in with one ({c.text})"
    return None


def _switched_off(lowered: list) -> bool:
    """``suspended on``, ``--account-enabled false``, ``-s enabled=false``, ``--status Inactive``."""
    for k, t in enumerate(lowered):
        key, eq, value = t.partition("=")
        if not eq:
            value = lowered[k + 1] if k + 1 < len(lowered) else ""
        if not _OFF_SETTING.match(key):
            continue
        name = key.lstrip("-")
        if name in ("suspended", "locked", "disabled", "blocked") and value in _ON or \
                name == "status" and value in _OFF_STATUS or \
                name not in ("suspended", "locked", "disabled", "blocked", "status") and value in _OFF - {"on"}:
            return True
    return False
