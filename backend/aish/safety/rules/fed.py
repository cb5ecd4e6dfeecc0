"""What a program is fed on its standard input, in every spelling: an ``echo``/``printf`` piped in
(``echo "rmr /app" | zkCli.sh``), a here-string (``hbase shell <<< "truncate 'events'"``) or a
heredoc (``rman target / <<EOF … EOF``).  An admin shell runs these lines as its own commands, so
they are judged in the language the shell speaks: as if typed after the program's name, and as
database statements.  Programs that send the text to people (``mail``, ``wall``) or only store or
print it (``cat > x.sql``) run nothing."""
from __future__ import annotations

import re

from aish.safety.rules.common import Ctx
from aish.safety.lazy_regex import lazy

# Programs whose standard input is a message or a file's content, not commands.
PROSE_PROGRAMS = frozenset({"mail", "mailx", "mutt", "sendmail", "msmtp", "s-nail", "neomutt", "wall", "write",
                            "logger", "notify-send", "tee", "cat", "sponge", "dd", "gpg", "age", "openssl",
                            "base64", "xclip", "xsel", "pbcopy", "wl-copy", "lp", "lpr", "say", "espeak", "festival",
                            "figlet", "cowsay", "less", "more", "vipe", "sort", "uniq", "wc", "grep", "sed", "awk",
                            "tr", "cut", "head", "tail", "jq", "yq", "gzip", "xz", "zstd", "bzip2",
                            "mosquitto_pub", "kafkacat", "kcat", "curl", "wget", "http", "ssh", "scp", "kubectl",
                            "crontab", "at", "batch"})
_MAX_LINES = 12  # lines judged from one input: the judgement stays bounded
_ECHO_OPTIONS = lazy(r"-[neE]+")


def fed_text(c: Ctx) -> str:
    """The text fed to this command on its standard input by a here-string, a heredoc or an
    ``echo``/``printf`` right before it in a pipe ("" when none)."""
    parts = []
    for r in c.seg.redirects:
        if r.op == "<<<" and r.target is not None:
            parts.append(r.target.text)
        elif r.body:
            parts.append(r.body)
    feeder = c.chain[-1] if c.chain else None
    if feeder is not None and feeder.words and feeder.words[0].text in ("echo", "printf"):
        parts.append(" ".join(w.text for w in feeder.words[1:] if not _ECHO_OPTIONS.fullmatch(w.text)))
    return "\n".join(parts)


def fed_lines(c: Ctx) -> list:
    """The fed text as the lines a shell reads (``\\n`` written out, ``;`` between statements)."""
    text = fed_text(c)
    if not text:
        return []
    lines = [line.strip() for line in re.split(r"\\n|\n|;", text)]
    return [line for line in lines if line and not line.startswith(("#", "--", "//"))][:_MAX_LINES]


def is_fed(c: Ctx) -> bool:
    """Could this command be reading commands from its standard input?"""
    return bool(c.chain or c.seg.redirects) and c.prog not in PROSE_PROGRAMS


_EVERY_FUSED = lazy(r"^(disable|drop|truncate|delete|kill|stop|flush|purge|remove|destroy)_?all$", re.IGNORECASE)


def says_every(word: str) -> bool:
    """``disable_all``, ``drop_all``, ``killall``: an admin shell's verb fused with "every one"."""
    return bool(_EVERY_FUSED.match(word))


_CONNECTION = re.compile(r"^[^\s]*[/@:=.][^\s]*$|^\d+$")  # `/`, `sys/pw@db`, `host:port`, `-u=x`


def argument_line(c: Ctx) -> str:
    """A whole command line given to an admin shell as one argument after its connection
    (``dgmgrl / "remove database standby"``), or "": judged as if typed at the shell's prompt.
    A line after a subcommand word (``todo add "delete old files"``) is a name, not a command."""
    connected = False
    for t in c.texts:
        if t.startswith("-"):
            connected = connected or t in ("-u", "-U", "-h", "-H", "--host", "-S", "--server")
            continue
        if " " in t.strip() and re.match(r"[A-Za-z]", t):
            return t if connected else ""  # after no connection it may be a message (`notify "remove done"`)
        if not _CONNECTION.match(t):
            return ""
        connected = True
    return ""
