"""Programs that hand what they are given to other people, though no address is on their line: read by
``reach`` as senders.

- pastebins and their clients (``haste``, ``ix``, ``sprunge``, ``fpaste``; ``hut paste create``, a
  ``gist`` or ``snippet`` subcommand);
- chat, push and notification services (``slackcat``, ``discord.sh --file``, ``telegram-send``,
  ``gotify push``, ``ntfy publish``, ``pb push``, ``apprise``, ``matrix-commander``, ``signal-cli send``):
  the service is configured once, so the line names only a channel or nothing;
- sharing to a device or a public folder (``kdeconnect-cli --share``, ``keybase fs cp … /keybase/public/``,
  a copy into ``~/Public`` or ``public_html``);
- a copy to a ``host:path`` destination by a program whose other rules already look at it (PuTTY's
  ``pscp``, WinSCP), or to another machine's share (``copy KEY \\\\host\\share\\``, ``Copy-Item``,
  ``robocopy``): the destination is another machine.

Whether what they send is secret is ``reach``'s question, as for any sender: a key or credential
file named, redirected in, fed from a pipe or a substitution."""
from __future__ import annotations

import re
from functools import lru_cache

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import Ctx

# Name parts of pastebins, chat, push and notification services, and device sharing.
_CHANNELS = frozenset({"paste", "pastes", "haste", "hastebin", "ix", "sprunge", "termbin", "fpaste", "dpaste", "gist",
                       "pastebin", "slack", "slackcat", "discord", "telegram", "matrix", "signal", "gotify", "ntfy",
                       "pushover", "pushbullet", "pb", "apprise", "webhook", "teams", "mattermost", "mmost",
                       "rocketchat", "zulip", "kdeconnect", "toot", "mastodon", "sendxmpp", "xmpp",
                       "irc", "twilio", "mailgun", "sendgrid", "ses", "chat", "notify", "0x0", "sendto",
                       "bluetooth", "obexftp", "obex"})
# Subcommands that publish (`hut paste create`, `glab snippet create`, `keybase chat upload`).
_PUBLISH_NOUNS = frozenset({"paste", "pastes", "gist", "gists", "snippet", "snippets", "chat", "message", "msg"})
_SENDS = frozenset({"create", "new", "upload", "send", "push", "publish", "pub", "post", "put", "attach", "share",
                    "file", "files"})
# Options that attach or share a file (`--file`, `--attach`, `--share`, `-a`).
_ATTACH = LazyRegex(r"^--?(file|files|attach\w*|share|upload|document|image|photo|a)(=|$)", re.IGNORECASE)
# Local notifiers and coreutils' `paste`: what they are given stays on this machine.
LOCAL = frozenset({"notify-send", "terminal-notifier", "osascript", "dunstify", "kdialog", "zenity", "growlnotify",
                    "herbe", "notify-osd", "toast", "burnttoast", "paste"})
# A folder others read: keybase's public tree, the Mac's Public folder, a user's web folder.
_PUBLIC_PLACE = LazyRegex(r"^/keybase/public/|(^|/)(Public|public_html|Sites)(/|$)")
# `user@host:path`, `host.domain:path`, `host:/path` (scp's destination); not a drive letter, a URL or `me:F`.
_HOST_PATH = LazyRegex(r"^([\w.-]+@[\w.-]+|[\w-]+(\.[\w-]+)+|[\w-]{2,}(?=:([/~]|$))):(?!//)\S*$")
_PARTS = re.compile(r"[-_.]+")
# Programs met on most lines, never a sink by name: their parts are not worth splitting.
_PLAIN = frozenset({"cat", "ls", "cd", "echo", "grep", "cp", "mv", "rm", "git", "docker", "sudo", "find", "sed", "awk",
                    "curl", "ssh", "tar", "kubectl", "npm", "pip", "python", "python3", "make", "chmod", "mkdir"})


def is_sink(c: Ctx) -> bool:
    """Does this program hand what it is given to other people or machines?"""
    prog = c.prog.lower()
    if prog in LOCAL:
        return False
    parts = _name_parts(prog) if prog not in _PLAIN else ()
    texts = c.texts
    if not parts and not texts:
        return False
    operands = [t for t in texts if not t.startswith("-")]
    first = [t.lower() for t in operands[:3]]
    if parts and not parts.isdisjoint(_CHANNELS):
        return not first[:1] or first[0] not in ("list", "ls", "help", "version", "login", "logout", "config",
                                                 "get", "read", "receive", "listen", "sub", "subscribe")
    if not _PUBLISH_NOUNS.isdisjoint(first) and any(
            first[k] in _PUBLISH_NOUNS and operands[k + 1].lower() in _SENDS for k in range(min(3, len(operands) - 1))):
        return True  # `hut paste create FILE`, `glab snippet create`, `keybase chat upload`
    if ({"share", "send"} & set(first[:2]) or "share" in prog) and any(_ATTACH.match(t) for t in texts):
        return True  # `kdeconnect-cli --share FILE`
    last = operands[-1] if len(operands) >= 2 else ""
    if ("ublic" in last or "Sites" in last) and _PUBLIC_PLACE.search(last):
        return True  # `keybase fs cp KEY /keybase/public/me/`, `cp KEY ~/Public/`
    if texts and ":" in texts[-1] and copies_to_host(c):
        return True
    return "\\" in c.lowered and copies_to_share(c)  # a share's backslashes leave one in its word at least


# `\\host\share\…` as written (the shell's reading takes the backslashes), not this machine's own.
SHARE = LazyRegex(r"^['\"]?\\\\(?!(localhost|127\.0\.0\.1|\.|\?)\\)[\w.$-]+\\[^\\]")


_WRITERS = frozenset({"out-file", "set-content", "add-content", "export-csv", "export-clixml", "tee-object", "tee",
                      "sc", "ac"})


def copies_to_share(c: Ctx) -> bool:
    """``copy KEY \\\\203.0.113.5\\drop\\``: the last operand (switches aside) is another machine's share."""
    operands = [w.raw for w in c.args if not w.text.startswith(("-", "/")) or w.raw.startswith("\\\\")]
    least = 1 if c.prog.lower() in _WRITERS else 2  # `… | Out-File \\\\host\\drop\\env.txt`: fed by the pipe
    return len(operands) >= least and bool(SHARE.match(operands[-1]))


@lru_cache(maxsize=16384)  # as many names as table._program keeps
def _name_parts(prog: str) -> frozenset:
    """A program's name split at ``-``, ``_`` and ``.``, its script suffix first taken off (kept: names repeat)."""
    return frozenset(p for p in _PARTS.split(_SCRIPT_SUFFIX.sub("", prog)) if p)


_SCRIPT_SUFFIX = re.compile(r"\.(sh|py|exe|js)$")


def copies_to_host(c: Ctx) -> bool:
    """``pscp FILE user@host:/tmp/``: the last operand is another machine's path."""
    texts = c.texts
    return len([t for t in texts if not t.startswith("-")]) >= 2 and bool(_HOST_PATH.match(texts[-1]))
