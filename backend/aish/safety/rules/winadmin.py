"""Windows administration: what an admin's cmdlets and built-in programs mean, beyond deleting files.

- built-in programs made to run code from an address or a share (``mshta http…``, ``regsvr32
  /i:http… scrobj.dll``, ``rundll32 javascript:…`` or ``\\\\host\\share\\x.dll,Entry``);
- credential material copied out: a memory dump of ``lsass`` (``procdump -ma lsass.exe``,
  ``comsvcs.dll MiniDump``), the SAM, SYSTEM or SECURITY hive saved (``reg save``), the domain
  database copied (``ntds.dit`` by ``esentutl``, ``ntdsutil ifm``, a shadow copy's path);
- mail sent outside (forwarding on a mailbox, inbox rules that forward or redirect, transport rules
  that copy) and compliance purges;
- a drive root shared, or a share opened to everyone; scripts allowed machine-wide; a firewall rule
  that lets everything in; an admin's password reset; a cluster stopped; a database or web server
  stopped with its dependants (``-Force``); update and security services disabled or their updates
  uninstalled; a WSL distribution unregistered with its disk; IIS stopped; server logs emptied; a
  file written over by ``Move-Item -Force``; ``cmd /c "…"`` judged as the command it runs.
A machine's own, named, one-user share, a policy for the current process, a rule for one port and a
service restarted stay quiet.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx
from aish.safety.rules.windows import _raw as raw_word
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_REMOTE_CODE = lazy(r"^(https?|ftp)://|^\\\\[^\\]+\\|^(javascript|vbscript|about):", re.IGNORECASE)
_CREDENTIAL_FILE = lazy(r"ntds\.dit\b|\\config\\(sam|system|security)\b|\\(sam|system|security)\.(save|hiv|"
                        r"sav|bak)\b|HarddiskVolumeShadowCopy\d+\\windows\\(ntds|system32\\config)",
                        re.IGNORECASE)
_HIVES = lazy(r"^(hklm|hkey_local_machine)\\(sam|system|security)\\?$", re.IGNORECASE)
_ADMINS = lazy(r"admin|administrator|krbtgt|domain admins?|enterprise admins?|root|^sa$|svc_?backup",
               re.IGNORECASE)
_EVERYONE = lazy(r"^['\"]?(everyone|\*s-1-1-0|authenticated users|domain users|users|guests?|anonymous "
                 r"logon)['\"]?$", re.IGNORECASE)
_DRIVE_ROOT = lazy(r"^['\"]?[a-z]:\\?['\"]?$", re.IGNORECASE)
_SERVERS = lazy(r"^['\"]?(mssql\w*|sqlserveragent|sqlagent\w*|w3svc|was|iisadmin|mysql\w*|mariadb|"
                r"postgresql[\w-]*|oracle\w*|msexchange\w*|ntds|dns|dhcpserver|kdc|netlogon|"
                r"mongodb|redis|elasticsearch[\w-]*|rabbitmq|tomcat\w*|apache\w*|nginx|clussvc|"
                r"vmms|hyper-v\w*)['\"]?$", re.IGNORECASE)
_SECURITY_SERVICES = lazy(r"^['\"]?(wuauserv|usosvc|waasmedicsvc|bits|windefend|wdnissvc|sense|mpssvc|"
                          r"securityhealthservice|wscsvc|eventlog|trustedinstaller|cryptsvc|"
                          r"appidsvc|sysmon\w*|wdfilter|bfe)['\"]?$", re.IGNORECASE)
_SERVER_LOGS = lazy(r"\\inetpub\\logs\\|\\system32\\logfiles\\|\\winevt\\|\\programdata\\[^\\]+\\logs?\\|"
                    r"\\exchange server\\[^\\]+\\logging\\|\\mssql\\log\\", re.IGNORECASE)
_DATA_OR_DOC = lazy(r"\.(db|sqlite3?|mdb|accdb|mdf|ldf|xlsx?|docx?|pptx?|csv|pst|ost|kdbx|pdf|odt|ods|"
                    r"json|xml|txt|md)['\"]?$", re.IGNORECASE)


def _value(texts: list, *names: str) -> str:
    """The value after ``-Name`` (any case, also ``-Name:value``)."""
    lowered = [t.lower() for t in texts]
    for k, t in enumerate(lowered):
        for name in names:
            if t == name and k + 1 < len(texts):
                return texts[k + 1]
            if t.startswith(name + ":"):
                return texts[k][len(name) + 1:]
    return ""


def _positional(texts: list, valued: set) -> list:
    out, k = [], 0
    while k < len(texts):
        t = texts[k]
        if t.startswith("-") or t.startswith("/"):
            k += 2 if t.lower() in valued else 1
            continue
        out.append(t)
        k += 1
    return out


def _lolbins(prog: str, c: Ctx, lowered: list) -> Optional[tuple]:
    texts = c.texts
    if prog == "mshta" and any(_REMOTE_CODE.search(t) or "script:http" in t.lower() for t in texts):
        return HIGH, f"mshta runs a script from an address or a share ({c.text})"
    if prog == "regsvr32" and any(re.match(r"^[/-]i:", t, re.IGNORECASE) and _REMOTE_CODE.search(t[3:])
                                  or t.lower().startswith(("http:", "https:")) for t in texts):
        return HIGH, f"regsvr32 runs a scriptlet fetched from an address ({c.text})"
    if prog == "rundll32":
        joined = " ".join(texts)
        if re.search(r"comsvcs(\.dll)?\s*,?\s*#?(minidump|24)", joined, re.IGNORECASE):
            return HIGH, f"rundll32 dumps a process's memory: with lsass, every signed-in user's credentials " \
                         f"({c.text})"
        if any(_REMOTE_CODE.search(t) for t in texts) or re.search(r"url\.dll,\s*(openurl|fileprotocolhandler)\s+"
                                                                       r"(https?|\\\\)", joined, re.IGNORECASE):
            return HIGH, f"rundll32 runs code from an address or a share ({c.text})"
        if re.search(r"powrprof(\.dll)?\s*,\s*setsuspendstate", joined, re.IGNORECASE):
            return MEDIUM, f"rundll32 puts the machine to sleep or hibernation ({c.text})"
    return None


def _credentials(prog: str, c: Ctx, lowered: list) -> Optional[tuple]:
    texts = c.texts
    joined = " ".join(lowered)
    share = any(t.startswith("\\\\") for t in texts)
    where = ", to a share" if share else ""
    if prog in ("out-minidump", "get-processmemorydump", "invoke-mimikatz", "invoke-ninjacopy"):
        return HIGH, f"{c.prog} dumps a process's memory or copies locked files: with lsass, credentials ({c.text})"
    if prog in ("procdump", "procdump64", "sqldumper", "createdump", "dumpert", "nanodump") and "lsass" in joined:
        return HIGH, f"{prog} dumps lsass: every signed-in user's credentials{where} ({c.text})"
    if prog == "reg" and lowered[:1] in (["save"], ["export"]) and len(texts) > 1 and _HIVES.match(texts[1]):
        return HIGH, f"reg saves the {texts[1].split(chr(92))[-1].upper()} hive: password hashes{where} ({c.text})"
    if prog == "ntdsutil" and re.search(r"\bifm\b", joined):
        return HIGH, f"ntdsutil copies the domain database: every account's password hash{where} ({c.text})"
    if prog in ("esentutl", "copy", "xcopy", "robocopy", "copy-item", "cp", "cpi", "move-item") and \
            any(_CREDENTIAL_FILE.search(t) for t in texts):
        return HIGH, f"{prog} copies the domain database or a password hive{where} ({c.text})"
    return None


def _mail(prog: str, c: Ctx, lowered: list) -> Optional[tuple]:
    texts = c.texts
    if prog == "set-mailbox":
        forward = _value(texts, "-forwardingsmtpaddress", "-forwardingaddress")
        if forward and forward.lower().strip("'\"") not in ("$null", "", "null"):
            return HIGH, f"forwards the mailbox's mail to {forward} ({c.text})"
    if prog in ("new-inboxrule", "set-inboxrule") and any(t in ("-forwardto", "-redirectto", "-forwardasattachmentto")
                                                          for t in lowered):
        return HIGH, f"an inbox rule sends the mailbox's mail to someone else ({c.text})"
    if prog in ("new-transportrule", "set-transportrule") and any(
            t in ("-blindcopyto", "-redirectmessageto", "-addtorecipients", "-copyto", "-addmanagerasrecipienttype")
            for t in lowered):
        return HIGH, f"a transport rule copies or redirects the organisation's mail ({c.text})"
    if prog == "new-compliancesearchaction" and "-purge" in lowered:
        hard = "harddelete" in lowered
        return HIGH, f"purges every message the search found{' for good' if hard else ''} ({c.text})"
    return None


def _exposure(prog: str, c: Ctx, lowered: list) -> Optional[tuple]:
    texts = c.texts
    if prog == "new-smbshare":
        path = _value(texts, "-path")
        granted = [_value(texts, o) for o in ("-fullaccess", "-changeaccess", "-readaccess")]
        if _DRIVE_ROOT.match(path):
            return HIGH, f"shares the whole drive {path} on the network ({c.text})"
        if any(_EVERYONE.match(g.split(",")[0].strip()) for g in granted if g):
            return MEDIUM, f"opens the share to everyone on the network ({c.text})"
    if prog == "net" and lowered[:1] == ["share"] and len(texts) > 1 and "=" in texts[1]:
        path = texts[1].split("=", 1)[1]
        if _DRIVE_ROOT.match(path):
            return HIGH, f"shares the whole drive {path} on the network ({c.text})"
        if any(re.match(r"/grant:(everyone|users|guest)", t) for t in lowered):
            return MEDIUM, f"opens the share to everyone on the network ({c.text})"
    if prog == "set-executionpolicy" and any(t in ("unrestricted", "bypass") for t in lowered):
        scope = _value(texts, "-scope").lower()
        if scope in ("", "localmachine"):
            return MEDIUM, f"lets every unsigned PowerShell script run, for every user of the machine ({c.text})"
    if prog == "new-netfirewallrule" and "inbound" in lowered and "allow" in lowered:
        port = _value(texts, "-localport").lower()
        narrowed = any(t in ("-program", "-remoteaddress", "-service", "-localport") for t in lowered)
        if port in ("any", "*") or not narrowed:
            return HIGH, f"a firewall rule lets every inbound connection in ({c.text})"
    if prog == "set-netfirewallprofile" and _value(texts, "-defaultinboundaction").lower() == "allow":
        return HIGH, f"the firewall lets every inbound connection in ({c.text})"
    if prog == "netsh":
        joined = " ".join(lowered)
        if re.search(r"firewallpolicy\s+allowinbound", joined):
            return HIGH, f"the firewall lets every inbound connection in ({c.text})"
        if "add rule" in joined and "dir=in" in joined and "action=allow" in joined and (
                "protocol=any" in joined or not re.search(r"\b(localport|program|remoteip|service)=", joined)
                or "localport=any" in joined):
            return HIGH, f"a firewall rule lets every inbound connection in ({c.text})"
    return None


def _services(prog: str, c: Ctx, lowered: list) -> Optional[tuple]:
    texts = c.texts
    feeder = c.chain[-1].words if c.chain else []
    fed = [raw_word(w).text for w in feeder[1:]] if feeder and feeder[0].text.lower() in ("get-service", "gsv") else []
    named = _value(texts, "-name", "-displayname") or next(iter(_positional(texts, {"-name"})), "") or \
        _value(fed, "-name", "-displayname") or next(iter(_positional(fed, {"-name"})), "")
    names = [n.strip("'\"").rstrip("*") for n in named.split(",") if n]
    if prog in ("stop-service", "spsv") and "-force" in lowered and any(_SERVERS.match(n.strip()) for n in names):
        return MEDIUM, f"stops {names[0]} and every service that depends on it ({c.text})"
    if prog in ("stop-service", "spsv") and any(_SECURITY_SERVICES.match(n.strip()) for n in names):
        return MEDIUM, f"stops {names[0]}: updates or protection stop ({c.text})"
    if prog == "set-service" and _value(texts, "-startuptype").lower() == "disabled" and any(
            _SECURITY_SERVICES.match(n.strip()) for n in names):
        return MEDIUM, f"disables {names[0]}: updates or protection stay off ({c.text})"
    if prog == "sc" and lowered[:1] == ["config"] and len(texts) > 1 and _SECURITY_SERVICES.match(texts[1]) and \
            re.search(r"start=\s*disabled", " ".join(lowered)):
        return MEDIUM, f"disables {texts[1]}: updates or protection stay off ({c.text})"
    if prog == "stop-cluster":
        return HIGH, f"stops the whole failover cluster and every role on it ({c.text})"
    if prog in ("remove-cluster",):
        return HIGH, f"destroys the failover cluster ({c.text})"
    if prog in ("stop-clusterresource", "stop-clustergroup", "remove-clusternode", "remove-clusterresource",
                "remove-clustergroup"):
        return MEDIUM, f"{c.prog} takes a clustered role or node out of service ({c.text})"
    if prog == "stop-clusternode":
        return MEDIUM, f"stops the cluster service on a node: its roles move or stop ({c.text})"
    if prog == "wusa" and any(t.startswith(("/uninstall", "-uninstall")) for t in lowered):
        return MEDIUM, f"uninstalls an update: the fixes it brought are gone ({c.text})"
    if prog == "wslconfig" and any(t in ("/u", "/unregister") for t in lowered):
        return HIGH, f"unregisters a WSL distribution: its whole disk is deleted ({c.text})"
    if prog == "iisreset" and "/stop" in lowered:
        return MEDIUM, f"stops IIS: every site on the server goes down ({c.text})"
    if prog == "set-adaccountpassword" and "-reset" in lowered:
        who = _value(texts, "-identity") or next(iter(_positional(texts, {"-identity", "-newpassword", "-server",
                                                                           "-credential"})), "")
        if _ADMINS.search(who):
            return HIGH, f"resets an administrator's password ({c.text})"
        return LOW, f"resets an account's password ({c.text})"
    return None


def _files(prog: str, c: Ctx, lowered: list) -> Optional[tuple]:
    texts = c.texts
    if prog in ("clear-content", "clc", "set-content", "sc") and any(_SERVER_LOGS.search(t) for t in texts) and \
            (prog in ("clear-content", "clc") or _value(texts, "-value").strip("'\"") in ("", "$null")):
        return MEDIUM, f"{c.prog} empties a server's logs: the record of what happened is gone ({c.text})"
    if prog in ("move-item", "mi", "move") and "-force" in lowered:
        dest = _value(texts, "-destination")
        ops = _positional(texts, {"-path", "-destination", "-literalpath", "-include", "-exclude", "-filter"})
        dest = dest or (ops[1] if len(ops) > 1 else "")
        if dest and _DATA_OR_DOC.search(dest) and not re.search(r"\.(bak|old|orig)['\"]?$|\\(build|dist|temp|tmp)\\",
                                                                dest, re.IGNORECASE):
            return MEDIUM, f"Move-Item -Force writes over {dest} if it exists ({c.text})"
    if prog == "cmd" and lowered[:1] in (["/c"], ["/k"], ["/q"]) and len(texts) > 1:
        inner = " ".join(texts[lowered.index("/c") + 1:] if "/c" in lowered else texts[1:])
        found = c.recurse(inner)
        return (found[0], f"{found[1]} (through cmd /c)") if found else None
    return None


def rule_winadmin(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower().removesuffix(".exe")
    c = replace(c, args=[raw_word(Word(part, part)) if "\\ " in w.raw else raw_word(w) for w in c.args
                         for part in re.split(r"(?<=\\) ", w.raw)])  # `HKLM\SAM`, `C:\ -x`: no escapes here
    lowered = [t.lower() for t in c.texts]
    for part in (_lolbins, _credentials, _mail, _exposure, _services, _files):
        found = part(prog, c, lowered)
        if found is not None:
            return found
    return None


_NAMES = ("mshta regsvr32 rundll32 procdump procdump64 sqldumper createdump dumpert nanodump reg ntdsutil esentutl "
          "copy xcopy robocopy copy-item cpi set-mailbox new-inboxrule set-inboxrule new-transportrule "
          "set-transportrule new-compliancesearchaction new-smbshare net set-executionpolicy new-netfirewallrule "
          "set-netfirewallprofile netsh stop-service spsv set-service sc stop-cluster stop-clusternode wusa wslconfig "
          "iisreset set-adaccountpassword out-minidump get-processmemorydump invoke-mimikatz invoke-ninjacopy "
          "remove-cluster stop-clusterresource stop-clustergroup remove-clusternode remove-clusterresource "
          "remove-clustergroup clear-content clc set-content move-item mi move cmd").split()
RULES: dict = {}
for _p in _NAMES:
    RULES[_p] = [rule_winadmin]
    RULES[_p + ".exe"] = [rule_winadmin]
