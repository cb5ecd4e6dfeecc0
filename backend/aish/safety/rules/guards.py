"""Effect: protections switched off in any tool's own words.  Firewall managers opened (``csf -x``,
``shorewall clear``), mandatory access control set to
complain (``aa-complain``, ``semanage permissive -a``), weaker system-wide crypto
(``update-crypto-policies --set LEGACY``) and certificate checks switched off in a tool's
configuration (``conda config --set ssl_verify false``, ``export NODE_TLS_REJECT_UNAUTHORIZED=0``).

Reading their state (``status``, ``--show``, ``query``) is quiet, and so is switching a check on.  Security
software stopped, disabled or removed by any tool is ``monitors_off``' reading of the field's table
(``defences``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# Firewall managers whose own letters or words open everything (`csf -x`/`-f`, `apf -f`, `shorewall clear`).
_FIREWALL_OFF = {"csf": {"-x", "-f", "--disable", "--flush", "--stop"}, "apf": {"-f", "--flush", "--stop"},
                 "shorewall": {"clear", "stop"}, "shorewall6": {"clear", "stop"}, "shorewall-lite": {"clear", "stop"},
                 "ferm": {"-F", "--flush"}, "fail2ban-client": {"stop", "unban"}, "crowdsec-cli": set()}
_READS = {"status", "show", "list", "-l", "--show", "query", "get", "info", "--status", "get-service", "qc"}
_MAC_OFF = re.compile(r"^(aa-complain|aa-disable|aa-audit-off)$")
_GOOD_POLICIES = {"DEFAULT", "FUTURE", "FIPS", "FIPS:OSPP", "FUTURE:AD-SUPPORT"}
# A setting that checks certificates, turned off (or an insecure one turned on).
_TLS_KEY = lazy(r"(ssl|tls|cert|strict|secure|verify|https|gpgcheck)", re.IGNORECASE)
# (a key that says the check is not done: `no_check_certificate false` turns the check on)
_INSECURE_KEY = lazy(r"insecure|skip[\w-]*verify|no[\w-]*verify|allow[\w-]*unsigned|reject[\w-]*unauthorized|"
                     r"disable[-_]?(tls|ssl)|(^|[-_.])no[-_]?check[-_]?cert|ignore[-_]?(cert|ssl|tls)",
                     re.IGNORECASE)
_FALSE = {"false", "no", "0", "off", "none", "disable", "disabled"}
_TRUE = {"true", "yes", "1", "on", "enable", "enabled"}
_INSECURE_ENV = lazy(r"^(NODE_TLS_REJECT_UNAUTHORIZED=0|GOSUMDB=off|GONOSUMCHECK=1|"
                     r"PYTHONHTTPSVERIFY=0|GIT_SSL_NO_VERIFY=(1|true)|"
                     r"CURL_CA_BUNDLE=|REQUESTS_CA_BUNDLE=|SSL_CERT_FILE=/dev/null|GOINSECURE=\S*|"
                     r"GONOSUMDB=\*|GOFLAGS=.*-insecure|NPM_CONFIG_STRICT_SSL=false)$", re.IGNORECASE)
_CONFIG_WORDS = {"config", "configure", "set", "--set", "set-cluster", "--global", "-g", "settings", "conf"}


# Registry values that switch Windows protections off, however they are written (`reg add … /v EnableLUA /d 0`,
# `Set-ItemProperty … -Name EnableLUA -Value 0`).
_REGISTRY_OFF = lazy(r"\b(EnableLUA|EnableFirewall|EnableSmartScreen|ConsentPromptBehaviorAdmin)\b\W+"
                     r"(?:\S+\s+){0,4}?(?:-Value|/d|-v)\s+0\b|\b(DisableAntiSpyware|DisableAntiVirus|"
                     r"DisableRealtimeMonitoring|DisableBehaviorMonitoring|DisableIOAVProtection)\b\W+"
                     r"(?:\S+\s+){0,4}?(?:-Value|/d|-v)\s+1\b|"
                     # remote desktop opened, or opened without network-level authentication
                     r"\b(fDenyTSConnections|UserAuthentication)\b\W+(?:\S+\s+){0,4}?(?:-Value|/d|-v)\s+0\b|"
                     r"\b(EnableLUA|EnableFirewall|fDenyTSConnections|UserAuthentication)['\"]?\s+0\b|"
                     # passwords kept in clear text in memory (WDigest)
                     r"\bUseLogonCredential\b\W+(?:\S+\s+){0,4}?(?:(?:-Value|/d|-v)\s+)?1\b",
                     re.IGNORECASE)


_REGISTRY_WRITERS = {"set-itemproperty", "new-itemproperty", "sp", "reg", "regedit"}


# What every branch's line holds: a registry value's name, a firewall manager's or MAC tool's name, or a word of a
# certificate check, an insecure variable or a plain source (not "config", "set", "add": most lines hold them).
_CHECK_WORDS = ("ssl", "tls", "cert", "strict", "secure", "verify", "https", "gpgcheck", "unsigned", "unauthorized",
                "gosumdb", "gonosumcheck", "gonosumdb", "ca_bundle", "trusted", "http://")


@triggered_by(_REGISTRY_OFF, _FIREWALL_OFF, _MAC_OFF, ("semanage", "update-crypto-policies", "ufw", "firewall-cmd"),
              _CHECK_WORDS)
def rule_guard_off(c: Ctx) -> Optional[tuple]:
    """Security software stopped or removed, access control relaxed, certificate checks off."""
    texts = c.texts
    lowered = [t.lower() for t in texts]
    prog = c.prog.lower().removesuffix(".exe")
    if set(lowered) & _READS:
        return None
    reason = None
    if prog in _REGISTRY_WRITERS and _REGISTRY_OFF.search(" ".join(texts)):
        return MEDIUM, f"switches a Windows protection off in the registry ({c.text})"
    if prog in _FIREWALL_OFF and set(texts) & _FIREWALL_OFF[prog]:
        reason = f"{c.prog} opens or stops the firewall"
    elif _MAC_OFF.match(prog) and texts or prog == "semanage" and texts[:1] == ["permissive"] and \
            ("-a" in texts or "--add" in texts):
        reason = "sets mandatory access control to complain only: what it confined runs unchecked"
    elif prog == "update-crypto-policies" and "--set" in texts:
        policy = texts[texts.index("--set") + 1] if texts.index("--set") + 1 < len(texts) else ""
        if policy and policy.upper() not in _GOOD_POLICIES:
            reason = f"weakens the system-wide crypto policy to {policy}"
    elif prog == "ufw" and lowered[:2] == ["default", "allow"] and "outgoing" not in lowered or \
            prog == "firewall-cmd" and any(re.match(r"--(set-default-zone=trusted|set-target=accept)$", t)
                                           for t in lowered):
        reason = f"{c.prog} lets every incoming connection through"
    elif prog in ("export", "setx", "setenv") and any(_INSECURE_ENV.match(t) for t in texts + ["=".join(texts[:2])]) \
            or \
            prog == "go" and lowered[:2] == ["env", "-w"] and any(_INSECURE_ENV.match(t) for t in texts):
        reason = "switches certificate checks off for every program this shell starts"
    elif (set(lowered[:3]) & _CONFIG_WORDS or prog.endswith("config-manager") or lowered[:2] == ["repo", "add"] or
          "config-manager" in lowered[:2]) and _tls_off(texts):
        reason = f"switches certificate checks off in {c.prog}'s configuration"
    elif set(lowered[:3]) & (_CONFIG_WORDS | {"sources", "--add", "source", "add"}) and _plain_source(texts):
        reason = f"makes {c.prog} fetch packages over plain http or from a host it no longer checks"
    return (MEDIUM, f"{reason} ({c.text})") if reason else None


def _tls_off(texts: list) -> bool:
    """``ssl_verify false``, ``strict-ssl=false``, ``--insecure-skip-tls-verify=true``, ``http.sslVerify 0``."""
    for k, t in enumerate(texts):
        key, eq, value = t.lstrip("-").partition("=")
        if key == "setopt" and "=" in value:  # dnf's --setopt=sslverify=false, --setopt=*.gpgcheck=0
            key, _, value = value.partition("=")
        if not eq and _INSECURE_KEY.search(key) and t.startswith("--") and (
                k + 1 >= len(texts) or texts[k + 1].startswith("-")):
            return True  # a bare `--insecure-skip-tls-verify`
        if not eq:
            value = texts[k + 1] if k + 1 < len(texts) else ""
            if "=" in t or k + 1 >= len(texts):
                continue
        value = value.lower().strip("'\"")
        if _INSECURE_KEY.search(key) and (value in _TRUE or not eq and t.startswith("--") and not value):
            return True
        if _TLS_KEY.search(key) and not _INSECURE_KEY.search(key) and value in _FALSE:
            return True
    return False


_SOURCE_KEY = lazy(r"(registry|index-url|index_url|extra-index-url|find-links|mirror|source|sources|repo|"
                   r"channel|channels|proxy|--add)$", re.IGNORECASE)


def _plain_source(texts: list) -> bool:
    """``npm config set registry http://…``, ``pip config set global.index-url http://…``,
    ``gem sources --add http://…``, ``pip config set global.trusted-host x``."""
    for k, t in enumerate(texts):
        key, eq, value = t.partition("=")
        if re.search(r"trusted[-_]host", key, re.IGNORECASE) and (eq and value or k + 1 < len(texts)):
            return True
        if not eq:
            value = texts[k + 1] if k + 1 < len(texts) else ""
        if _SOURCE_KEY.search(key.split(".")[-1]) and re.match(r"^http://(?!(localhost|127\.|\[::1\]))",
                                                               value.strip("'\"")):
            return True
    return False
