"""Effect: a security control switched off through a setter CLI, judged by the WORDS of the setting's key,
for any program.

``setting_pairs`` and ``protections_off`` know settings by their names (``EnableLUA``, ``…security.enabled``);
appliances, BMCs, switches, chat, identity and package tools name the same controls in their own keys,
and a program no rule names says it the same way: a key whose words name a control (authentication,
login, lockout, password policy, MFA, firewall, SELinux/AppArmor, audit, TLS/SSL verification, brute-force
protection, the screen lock) given an off value (``false``, ``0``, ``none``, ``never``, ``disabled``, an
empty string), a key that names the control's absence (``disable_ssl_validation``, ``insecure-…``,
``…_Auth_Type_None``, ``…allow_insecure…``) given an on value, or an access list given anyone (``*``,
``any``, ``ACCEPT``).  Only in a setter's words: a verb that sets (``set``, ``config set``, ``update``,
``-mod``, ``HSET``, ``ConfigPut``, ``--commit``), then ``KEY VALUE``, ``KEY=VALUE``, ``--key=VALUE``,
``/key:VALUE``, ``Section:Key=Value``, ``--key K --value V``, ``-p KEY -s VALUE``
(``mmctl config set ServiceSettings.EnableMultifactorAuthentication false``, ``ceph config set global
auth_cluster_required none``, ``bmc-config --commit --key-pair="Lan_Conf_Auth:Admin_Enable_Auth_Type_None=Yes"``,
``ipa pwpolicy-mod --minlength=0``, ``net accounts /lockoutthreshold:0``).  A key of no control word of its
own (``--enabled``, ``--minlength``) counts where the setter's words name the control (``esxcli network
firewall set --enabled false``).  Deleting a network OS's AAA entry from its configuration store (``… DEL
"AAA|authentication"``) falls back to whatever the default lets in.  Reads (``get``, ``show``), the same keys
given protective values, and keys that guard nothing (``cache.enabled false``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules import setting_pairs
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# A control's name inside a key (lowered, separators kept): what the setting guards.
_CONTROL = lazy(r"auth(?!ors?(?![a-z]))|\baaa\b|login|lockout|autolock|lock[-_ ]?screen|screen[-_ ]?lock|"
                r"lock[-_]?enabled|install[-_]?lock|passw|passcode|\bpwd|pwdlockout|pwpolicy|requirepass|"
                r"complexity|multifactor|mfa\b|two[-_]?factor|2fa|\botp\b|firewall|selinux|apparmor|audit|"
                r"cert(ificate)?s?[-_]?(check|verif|valid)|check[-_]?cert|\bssl|ssl\b|ssl[-_]|_ssl|tls|verif|validation|"
                r"brute[-_]?force|bruteforce|protected[-_]?mode|https[-_]?(only|required)|force[-_]?https|"
                r"anti[-_]?(virus|malware)|malware|clamav|tamper|"
                r"protection|ipblock|blocking|integrity|quarantine|gatekeeper|secure[-_]?boot|secureboot|"
                r"secur|tacacs|radius|remote[-_]?(login|access|management|admin)|privilege|sudo|\busers?\W\w*\W?enabled?$")
# The control's absence named by the key itself: set on, the control is off.
_ABSENCE = lazy(r"disable|insecure|(^|[^a-z])no[-_]?(anti|auth|ssl|tls|verif|lockout|login|passw|firewall|audit|"
                r"check|cert)|"
                r"skip|bypass|allow[-_]?unsigned|unsafe|trust[-_]?all|ignore|permissive|"
                r"no[-_]?integrity|nointegrity|type[-_]?none|anonymous|allow[-_]?guest|guest[-_]?(enabled?|access)|"
                r"null[-_]?ok|nullok|empty[-_]?passw|without|unprivileged|turn[-_ ]?off|do[-_ ]?not|prevent")
# Keys of no control word of their own, read in the setter's context (``firewall set --enabled false``).
_GENERIC = lazy(r"^(enabled?|state|status|mode|required?|active|min[-_]?(pwd[-_]?)?length|minlen|maxfail|"
                r"max[-_]?(fail|failures|attempts|retries|tries)|threshold|length|check|verify)$")
# Keys an access list is given in: anyone there is everyone.
_ACCESS = lazy(r"allow|access|input|hosts|trusted|from|source|zone|bind|action|policy")
_OFF = frozenset({"false", "0", "no", "off", "disabled", "disable", "none", "never", "null", "nil", "n", "",
                  "inactive", "no_access", "noaccess", "alwaysoff", "ignore", "optional", "permissive",
                  "$false", "0x0", "0x00000000"})
_ON = frozenset({"true", "1", "yes", "on", "enabled", "enable", "y", "always", "$true", "0x1", "0x00000001"})
_ANYONE = frozenset({"*", "any", "all", "everyone", "accept", "0.0.0.0/0", "::/0", "0.0.0.0", "public",
                     "anonymous", "allow_all", "allowall"})
_ABOUT = lazy(r"notif|remind|banner|message|hint|color|colour|theme|label|title|caption")
_ANY_VALUE = lazy(r"^(allow|permit|accept)[-_]?(any|all|every)")  # `login-policy allow-any-login`
# A word that says the command sets (a verb, or an option that commits what it is given).
_SETTER = lazy(r"^(set|/set|config|configure|mod|modify|update|put|configput|hset|hmset|setprop|write|apply|"
               r"commit|--commit|--set|--set[-_]\w+|-w|--write|--apply|ConfigPut|set-\w+|\w+-set|[\w:]+:set|\w+-mod|\w+_set|"
               r"passwordsettings|/lockoutthreshold:\w*|/min\w*:\w*)$", re.IGNORECASE)
_READS = frozenset({"get", "show", "list", "print", "query", "read", "--get", "--show", "--list", "-l", "status",
                    "--checkout", "checkout", "describe", "hget", "hgetall", "dump", "export", "info", "--help",
                    "-h", "help", "--query", "configquery", "keys", "scan"})
_REMOVES = frozenset({"del", "hdel", "unset", "--unset"})
_NAME_OPTIONS = frozenset({"-p", "--property", "--key", "-k", "--path", "--name", "-n"})
_VALUE_OPTIONS = frozenset({"-s", "--set", "--value", "-v"})
_BUILDS = lazy(r"^(make|gmake|cmake|meson|ninja|configure|\./configure|bazel|scons|cargo|pip\d?|npx|docker|"
               r"podman|env|export)$")
_TABLE_KEY = lazy(r"^[A-Z_]+\|")  # a network OS's configuration store: `AAA|authentication`, `TACPLUS|global`

_GATE = lazy(r"auth|virus|malware|clamav|tamper|https-only|https_only|login|lock|passw|passcode|pwd|pwpolicy|"
             r"complexity|factor|mfa|2fa|otp|"
             r"firewall|selinux|apparmor|audit|ssl|tls|verif|validation|brute|protect|block|integrity|quarantine|"
             r"gatekeeper|secur|tacacs|radius|remote|privilege|sudo|insecure|aaa|users?\.|cert",
             re.IGNORECASE)


@triggered_by(_GATE, otherwise=False)
def may_set_control(c: Ctx) -> bool:
    """Cheap: a control's word in the line, a setter's word among the first words, no read."""
    if len(c.texts) < 2 or _BUILDS.match(c.prog.lower()) or not _GATE.search(c.prog + " " + c.lowered):
        return False
    first = c.texts[:8]
    return any(_SETTER.match(t) for t in first) or c.prog.lower().endswith(("-set", "_set", "-mod", "config")) or \
        any(t.upper() in ("DEL", "HDEL") for t in first) or _registry_value(c.texts) is not None


def rule_control_off(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:48]
    low = [t.lower() for t in texts]
    positional = [t for t in low if not t.startswith("-")]
    if set(positional[:3]) & _READS or set(low[:3]) & _READS:
        return None
    context = c.prog.lower() + " " + " ".join(t for t in positional if "=" not in t)
    registry = _registry_value(texts)  # a registry path's words name where, not what: the value's name alone
    pairs = [(registry, "")] if registry else [((key, value), context) for key, value in _pairs(c.prog, texts, low)]
    for (key, value), around in pairs:
        said = judge(key, value, around)
        if said:
            return MEDIUM, f"{c.prog}: {said} ({c.text})"
    for k, t in enumerate(low[:-1]):  # `sonic-db-cli CONFIG_DB DEL "AAA|authentication"`
        if t in _REMOVES and _TABLE_KEY.match(texts[k + 1].strip("'\"")) and _CONTROL.search(low[k + 1]):
            return MEDIUM, f"{c.prog}: the {texts[k + 1]} entry is deleted, its control falls back to the " \
                f"default ({c.text})"
    return None


def judge(key: str, value: str, context: str = "") -> Optional[str]:
    """What giving KEY the VALUE does to the control the key names; None when it guards nothing or stays on."""
    key_l = key.strip().strip("'\"").lower().lstrip("-/")
    value_l = value.strip().strip("'\"").lower()
    last = re.split(r"[./:@|\[\]\s]", key_l.rstrip("./"))[-1] if key_l else ""
    if _ABOUT.search(key_l):  # `PasswordExpirationNotificationDays=0`: what is said about the control
        return None
    named = bool(_CONTROL.search(key_l))
    if not named and not (_GENERIC.match(last) and _CONTROL.search(context)):
        return None
    # `appcmd set config /section:anonymousAuthentication /enabled:false`: the absence the setter names is off
    if _ABSENCE.search(key_l) or (not named and _ABSENCE.search(context)):
        if value_l in _ON:
            return f"{key.strip(chr(39) + chr(34))} set to {value_l}: the control it names is bypassed"
        return None
    if value_l in _OFF:
        return f"{key.strip(chr(39) + chr(34))} set to {value_l or 'nothing'}: the control it names is switched off"
    if (value_l in _ANYONE or _ANY_VALUE.match(value_l)) and _ACCESS.search(last):
        return f"{key.strip(chr(39) + chr(34))} set to {value_l}: anyone is let in"
    return None


def _pairs(prog: str, texts: list, low: list) -> list:
    """(key, value) in the setters' spellings the docstring lists."""
    out = list(setting_pairs.pairs(prog, texts))
    for k, t in enumerate(texts):
        if "=" in t and not t.startswith("="):  # `k=v`, `--k=v`, `--key-pair=Section:Key=Value`
            key, _, value = t.rpartition("=")
            out.append((key.split("=", 1)[-1] if key.startswith("-") and key.count("=") else key, value))
        elif t.startswith("/") and ":" in t and "/" not in t[1:]:  # `/lockoutthreshold:0`
            key, _, value = t[1:].partition(":")
            out.append((key, value))
        elif t.startswith("-") and "=" not in t and k + 1 < len(texts):  # `--pwdlockout off`, `--enabled false`
            nxt = low[k + 1].strip("'\"")
            if nxt in _OFF or nxt in _ON or nxt in _ANYONE:
                out.append((t, texts[k + 1]))
        if low[k] in _NAME_OPTIONS and k + 1 < len(texts):  # `-p KEY -s VALUE`, `--key K V`
            after = low[k + 2:k + 4]
            if after and after[0] in _VALUE_OPTIONS and len(after) > 1:
                out.append((texts[k + 1], texts[k + 3]))
            elif after and not after[0].startswith("-"):
                out.append((texts[k + 1], texts[k + 2]))
        if low[k].startswith("--value=") and k:  # `occ config:system:set KEY --value=false`
            before = [p for p in texts[:k] if not p.startswith("-")]
            if before:
                out.append((before[-1], t.split("=", 1)[1]))
    setter = next((k for k, t in enumerate(texts) if _SETTER.match(t) and not t.startswith("-")), None)
    if setter is not None:  # `racadm set K V`, `ceph config set WHO K V`, `HSET "AAA|authentication" login none`
        rest = [t for t in texts[setter + 1:] if not t.startswith("-")]
        if len(rest) >= 2:
            out.append((".".join(rest[:-1]), rest[-1]))
        for k in range(len(rest) - 1):
            out.append((rest[k], rest[k + 1]))
    return out


def _registry_value(texts: list) -> Optional[tuple]:
    """``reg add KEY /v NAME /t TYPE /d DATA``: the value's name and its data (the key's path before the name)."""
    low = [t.lower() for t in texts[:16]]
    if "/v" not in low or "/d" not in low or "add" not in low:
        return None
    name_at, data_at = low.index("/v") + 1, low.index("/d") + 1
    if name_at >= len(texts) or data_at >= len(texts):
        return None
    return texts[name_at], texts[data_at]
