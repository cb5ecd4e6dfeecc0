"""Effect: a file fetched from the network, then given to a program that runs it, in the same line.

``curl -o /tmp/x.sh URL && sh /tmp/x.sh``, ``smbget -o /tmp/p.sh smb://… && sh /tmp/p.sh``, ``… && escript F``,
``ant -f F``, PowerShell's ``iex (iwr URL)``: the fetch and the run are different commands, so no rule of one
command sees both; this reads the line's segments in order (``assess`` calls it once per line).  The pipe and
process-substitution shapes stay in ``netexec``, whose download and interpreter words this shares."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, fragment
from aish.safety.rules.netexec import _INSTALLERS, CODE_EXTENSIONS, DATA_READERS, INTERPRETERS, _is_download
from aish.safety.lazy_regex import lazy


def _base(path: str) -> str:
    """A path's last part, whatever its separators and quotes (``$env:TEMP\\setup.exe`` is ``setup.exe``)."""
    return path.strip("'\"").replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].split("?")[0]


# What runs a string as PowerShell code: `iex (…)`, `[scriptblock]::Create((irm URL)).Invoke()`,
# `$ExecutionContext.InvokeCommand.InvokeScript((irm URL))`.
_RUNS_TEXT = lazy(r"^(iex|invoke-expression|\[(system\.management\.automation\.)?scriptblock\]::create|"
                  r"\S*\.invokescript|\S*\.newscriptblock)$", re.IGNORECASE)


_WEB_CLIENT = lazy(r"^\.?Download(String|Data)\b|^(iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)$|"
                   r"^(system\.)?net\.webclient$", re.IGNORECASE)


# Another machine's file named by any client: a URL of any scheme but file:, `user@host:path`, `gs://bucket/x`.
_REMOTE_SOURCE = re.compile(r"^(?!file:)[a-z][a-z0-9+.-]{1,15}://\S|^[\w.-]+@[\w.-]+:\S|^[\w.-]{2,}:[\w.~-]+/\S",
                            re.IGNORECASE)  # … and a configured remote's `name:path/file` (`remote:scripts/x.sh`)
_TO_OPTIONS = frozenset({"-o", "-O", "--output", "--output-document", "--to", "--out", "--dest", "--destination",
                         "--output-file", "--outfile"})


def _remote_copy_outputs(words: list) -> set:
    """The local names a copy from another machine writes, by any client: its output option's value, or its
    last operand after the remote source (``smbget -o /tmp/p.sh smb://…``, ``scp u@h:/x.sh /tmp/x.sh``)."""
    texts = [w.text for w in words[1:24]]
    joined = " ".join(texts)
    if "://" not in joined and "@" not in joined and ":" not in joined:
        return set()
    remote = [k for k, t in enumerate(texts) if _REMOTE_SOURCE.match(t)]
    if not remote:
        return set()
    out = {_base(texts[k + 1]) for k, t in enumerate(texts[:-1]) if t in _TO_OPTIONS}
    out |= {_base(t.split("=", 1)[1]) for t in texts if "=" in t and t.split("=", 1)[0] in _TO_OPTIONS}
    last = texts[-1]
    if not out and remote[0] < len(texts) - 1 and not last.startswith("-") and not _REMOTE_SOURCE.match(last):
        out.add(_base(last))
        out.add(_base(texts[remote[0]]))  # copied into a folder: the file keeps its name (`… /tmp && bash /tmp/x.sh`)
    return {o for o in out if o and o not in (".", "..")}


# What handles a fetched file without running it: moved, marked, checked, unpacked or shown.
_HANDLES_FILES = frozenset("""
chmod chown chgrp mv cp ln install rm mkdir touch xattr codesign minisign cosign signify shasum sha1sum sha512sum
b2sum cksum md5 stat du realpath readlink basename dirname mount hdiutil dmg2img ls
""".split())
# Data files' extensions: a program given one reads it (`csvlook data.csv`), runs nothing from it.
_DATA_EXTENSIONS = frozenset("""
csv tsv json jsonl ndjson txt md rst pdf png jpg jpeg gif svg webp mp3 mp4 mkv webm wav flac ogg avi mov tar gz tgz
bz2 xz zst zip 7z rar iso img qcow2 vmdk sig asc sha256 pem crt der parquet arrow avro orc db sqlite html htm
log yaml yml toml ini conf epub docx xlsx pptx odt ods
""".split())
# Options whose value is the file a program runs (`ant -f F`, `sicstus -l F`, `gradle --init-script F`).
_RUN_FILE_OPTIONS = frozenset({"-f", "-l", "-x", "-s", "-b", "-i", "--file", "--script", "-script", "-file", "--load",
                               "--init-file", "--init-script", "--rcfile", "--consult-file", "--build-file",
                               "--buildfile", "-buildfile", "--source", "--run", "--exec", "--execute", "--eval-file",
                               "--require", "-r", "-I", "--playbook", "--config"})
# Checkers by their names' words: they read a file to judge it (`shellcheck run.sh`, `luacheck x.lua`, `shfmt -d`).
_CHECKER_NAME = lazy(r"lint|check|fmt|format|verify|scan|audit|sum$|hash|diff|tidy")
_RUN_SUBCOMMANDS = frozenset({"r", "run", "exec", "execute", "x", "script", "load", "start", "eval", "c", "compile"})


def _extension(name: str) -> str:
    return name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""


def _fetched_file_run(bare: list, fetched: set) -> str:
    """The fetched file a program is given to run, by any program: its first operand, after a run subcommand
    (``nim r F``) or as a run-file option's value (``ant -f F``, ``abcl --load F``); a code file also after any
    one-letter flag (``petite -q F``).  Tools that move, check, unpack or show files, and data files, run nothing."""
    if len(bare) < 2:
        return ""
    prog = bare[0].text.rsplit("/", 1)[-1].lower().removesuffix(".exe")
    if prog in DATA_READERS or prog in _HANDLES_FILES or prog in _INSTALLERS or _CHECKER_NAME.search(prog):
        return ""
    for k, w in enumerate(bare[1:6], start=1):
        name = _base(w.raw)
        if name not in fetched or _extension(name) in _DATA_EXTENSIONS or w.text.startswith("-"):
            continue
        before = bare[k - 1].text
        code = _extension(name) in CODE_EXTENSIONS
        if k == 1 or before.lower() in _RUN_FILE_OPTIONS or before in _RUN_FILE_OPTIONS or \
                before.lower() in _RUN_SUBCOMMANDS and k == 2 or \
                code and re.fullmatch(r"-[a-zA-Z]", before):
            return name
    return ""


_SHORT_OUTPUT = lazy(r"-[a-zA-Z]+[oO]")  # combined short options ending in the output file's letter


def _saved_under_remote_name(prog: str, texts: list) -> bool:
    """Does the download keep the address's last name as a file?  curl only with ``-O`` (it writes to stdout
    otherwise), wget unless its output is ``-`` (``wget -qO- URL | gpg --dearmor``: nothing named ``gpg`` is saved)."""
    name = prog.lower().removesuffix(".exe")
    if name == "curl":
        return any(t in ("--remote-name", "--remote-name-all") or re.fullmatch(r"-[a-zA-Z]*O[a-zA-Z]*", t)
                   for t in texts)
    if name == "wget":
        return not any(re.fullmatch(r"-[a-zA-Z]*O-", t) or t in ("--output-document=-", "-O-") or
                       re.fullmatch(r"-[a-zA-Z]*O", t) and k + 1 < len(texts) and texts[k + 1] == "-"
                       for k, t in enumerate(texts))
    return True


def downloaded_then_run(segments: list) -> Optional[tuple]:
    """``curl -o x.sh URL && sh x.sh``, ``wget URL; chmod +x f; ./f``: a fetched file run in the same line;
    PowerShell's ``iex (iwr URL).Content``, ``IEX (New-Object Net.WebClient).DownloadString(URL)`` and
    ``[scriptblock]::Create((irm URL)).Invoke()``."""
    if len(segments) < 2:
        return None  # a fetch and its run are two commands (a single one never reaches the checks below)
    fetched = set()
    for k, seg in enumerate(segments):  # `(New-Object Net.WebClient).DownloadString(URL) | iex`
        if k and seg.link == "|" and seg.words and _RUNS_TEXT.match(seg.words[0].text) and any(
                _WEB_CLIENT.search(w.text) for s in segments[max(0, k - 4):k] for w in s.words):
            return HIGH, f"runs a script straight from the network (… | {seg.words[0].text})"
    for k, (seg, after) in enumerate(zip(segments, segments[1:])):
        if not (seg.words and after.link == "(" and _RUNS_TEXT.match(seg.words[-1].text)):
            continue
        # what the parentheses hold, nested ones too: `iex ([Text.Encoding]::UTF8.GetString((iwr URL).Content))`
        inside = " ".join(w.text for s in segments[k + 1:k + 4] if s.link in ("(", ")") for w in s.words)
        if re.search(r"\b(iwr|irm|invoke-webrequest|invoke-restmethod|new-object|curl|wget|start-bitstransfer)\b",
                     inside, re.IGNORECASE):
            shown = fragment([w.raw for w in seg.words + after.words])
            return HIGH, f"runs a script straight from the network ({shown})"
    for seg in segments:
        words = seg.words
        if not words:
            continue
        prog = words[0].text.rsplit("/", 1)[-1]
        if _is_download(words):
            texts = [w.text for w in words]
            named = _saved_under_remote_name(prog, texts)
            for i, t in enumerate(texts):
                if (t in ("-o", "-O", "--output", "--output-document") or _SHORT_OUTPUT.fullmatch(t)) and \
                        i + 1 < len(texts):  # `curl -fsSLo x.sh URL`, `wget -qO x.sh URL`
                    fetched.add(texts[i + 1].rsplit("/", 1)[-1])
                elif t.lower() in ("-outfile", "-destination") and i + 1 < len(texts):  # PowerShell, BITS
                    fetched.add(_base(words[i + 1].raw))
                elif t.startswith(("http://", "https://", "ftp://")) and named:
                    fetched.add(t.rstrip("/").rsplit("/", 1)[-1].split("?")[0])
            for red in seg.redirects:
                if red.target is not None and red.op in (">", ">|", "1>"):
                    fetched.add(red.target.text.rsplit("/", 1)[-1])
            if prog.lower().removesuffix(".exe") in ("certutil", "bitsadmin", "axel", "uclient-fetch", "lwp-download"):
                fetched.add(_base(words[-1].raw))  # `certutil -urlcache -f URL a.exe`: the last word is the file
            fetched.update(_base(texts[i + 1]) for i, t in enumerate(texts[:-1]) if t in ("-r", "-l", "get") and
                           "tftp" in texts[:2] + [prog])  # `busybox tftp -g -r x.sh HOST`, `tftp HOST -c get x.sh`
            fetched.update(_remote_copy_outputs(words))  # `scp u@h:/srv/x.sh /tmp/x.sh`
            continue
        copied = _remote_copy_outputs(words) if seg is not segments[-1] else set()  # `smbget -o /tmp/p.sh smb://…`
        if copied:
            fetched.update(copied)
            continue
        fetched.discard("")
        if not fetched:
            continue
        names = [words[0].raw] + [w.raw for w in words[1:3]] if prog.lower() in INTERPRETERS | {"sudo"} \
            else [words[0].raw]
        if any(_base(n) in fetched and _extension(_base(n)) not in _DATA_EXTENSIONS  # `python3 x.py data.csv`
               for n in names if n and not n.startswith("-")):
            return HIGH, f"runs a file it just downloaded ({fragment([w.raw for w in words])})"
        bare = [w for w in words if w.text not in ("sudo", "doas")]
        runner = bare[0].text.rsplit("/", 1)[-1].lower().removesuffix(".exe") if bare else ""
        if (runner in _INSTALLERS or runner in ("start-process", "saps")) and \
                any(_base(part) in fetched for w in bare[1:] for part in w.raw.split()):
            return MEDIUM, (f"installs a package it just downloaded: its install scripts run unreviewed "
                            f"({fragment([w.raw for w in words])})")
        given = _fetched_file_run(bare, fetched) if seg.link != "|" else ""
        if given:
            level = HIGH if _extension(given) in CODE_EXTENSIONS else MEDIUM
            return level, (f"{bare[0].text} runs {given}, a file it just downloaded: its code runs unread "
                           f"({fragment([w.raw for w in words])})")
    return None
