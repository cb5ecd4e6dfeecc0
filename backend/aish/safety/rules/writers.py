"""What a command writes into a file, whoever the writer: the (file, text) pairs ``meaning`` judges.

A line in sshd_config means the same whether ``tee`` appends it or ``sed -i`` substitutes it,
``perl -pi`` rewrites it, ``augtool`` or ``crudini`` sets it, ``dd of=`` copies it, an ansible or
salt one-liner puts it there, ``visudo`` is handed ``tee`` as its editor, or interpreter code
opens the file for writing.  Redirections and ``tee`` are read by ``meaning`` itself (their
content comes from the pipe); the writers here name their text on their own line.

Each pair is an *edit*: only what the text says is judged (``PermitRootLogin yes``), not the
mere fact of editing (``content`` judges that).
"""
from __future__ import annotations

import re
import shlex
from typing import Callable

from aish.safety.unwrap import unwrap
from aish.safety.program_names import alias
from aish.safety.lazy_regex import lazy

# [/ADDRESS/]s/PATTERN/REPLACEMENT/ with any delimiter: the replacement lands in the file, on the lines the
# address picks (`/^PermitRootLogin/s/no/yes/` writes `PermitRootLogin … yes`)
_SUBSTITUTE = lazy(r"(?:^|[;{\s]|/(?P<address>(?:\\.|[^/])*)/\s*)s(.)((?:\\.|(?!\2).)*)\2((?:\\.|(?!\2).)*)\2")
# sed's commands that put text in: `a text`, `1i\ text`, `$a text`, `/x/c text`
_ADD_TEXT = lazy(r"(?:^|[;}\n])\s*(?:\d+|\$|/[^/]*/)?\s*[aic]\\?\s*(.+)", re.MULTILINE)
_CODE_OPTIONS = {"-c", "-e", "-E", "-r", "--eval", "-p"}
# a quoted absolute or home path the code opens for writing (`open('/etc/hosts','a')`, `open(F,">>/etc/x")`)
_CODE_PATH = lazy(r"""['"](?:\+?>>?\s*)?((?:/|~/)[\w.@%+/-]+)['"]""")
_CODE_WRITES = lazy(r"""['"]\s*(?:\+?>>?)|,\s*['"](?:a|w|a\+|w\+|ab|wb)['"]|\b(?:write|puts|print\s+\w+\s|"""
                    r"""appendFile|writeFile|file_put_contents|File\.write|Add-Content|Set-Content)""")
_INTERPRETERS = re.compile(r"^(python[\d.]*|perl|ruby|node|php|lua|bun|deno)$")
_ANSIBLE_MODULES = {"lineinfile", "blockinfile", "copy", "replace", "ansible.builtin.lineinfile",
                    "ansible.builtin.blockinfile", "ansible.builtin.copy", "ansible.builtin.replace"}


def _sed_text(script: str) -> str:
    """What a sed or ``perl -pe`` script writes: its replacements and added lines."""
    texts = [(re.sub(r"[\^$\\]|\.\*", "", m.group("address")) + " " if m.group("address") else "") + m.group(4)
             for m in _SUBSTITUTE.finditer(script)]
    if not texts:
        texts = [m.group(1) for m in _ADD_TEXT.finditer(script)]
    return "\n".join(t.replace("\\n", "\n").replace("\\", "") for t in texts)


def _in_place(words: list) -> list:
    """``sed -i SCRIPT FILE…`` / ``perl -pi -e SCRIPT FILE…``: (file, text) for each file."""
    prog = words[0].text
    texts = [w.text for w in words[1:]]
    inplace = any(re.fullmatch(r"-[A-Za-z]*i\S*|--in-place(=\S*)?", t) for t in texts)
    if not inplace:
        return []
    scripts: list = []
    files: list = []
    k = 0
    while k < len(texts):
        t = texts[k]
        if t in ("-e", "--expression") or (prog == "perl" and re.fullmatch(r"-[a-z]*e", t)):
            if k + 1 < len(texts):
                scripts.append(texts[k + 1])
            k += 2
            continue
        if not t.startswith("-"):
            (files if scripts or prog == "perl" else scripts).append(t)
        k += 1
    text = _sed_text("\n".join(scripts))
    return [(f, text) for f in files] if text else []


def _augtool(words: list, fed: str) -> list:
    """``augtool set /files/etc/ssh/sshd_config/PermitRootLogin yes`` (also fed as lines)."""
    lines = [" ".join(w.text for w in words[1:] if not w.text.startswith("-"))] + fed.splitlines()
    out = []
    for line in lines:
        m = re.match(r"^\s*set\s+/files(/\S+?)/([\w.-]+)(\[\d+\])?\s+(.+)$", line)
        if m:
            out.append((m.group(1), f"{m.group(2)} {m.group(4).strip(chr(39) + chr(34))}"))
    return out


def _crudini(words: list) -> list:
    """``crudini --set FILE SECTION KEY VALUE``."""
    texts = [w.text for w in words[1:]]
    if "--set" not in texts:
        return []
    rest = [t for t in texts[texts.index("--set") + 1:] if not t.startswith("--")]
    return [(rest[0], f"{rest[2]} {rest[3]}\n{rest[2]}={rest[3]}")] if len(rest) >= 4 else []


def _key_values(text: str) -> dict:
    try:
        parts = shlex.split(text)
    except ValueError:
        parts = text.split()
    return dict(p.split("=", 1) for p in parts if "=" in p)


def _ansible(words: list) -> list:
    """``ansible all -m lineinfile -a "path=… line=…"``."""
    texts = [w.text for w in words[1:]]
    module = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-m", "--module-name")), "")
    args = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-a", "--args")), "")
    if module not in _ANSIBLE_MODULES or not args:
        return []
    kv = _key_values(args)
    path = kv.get("path") or kv.get("dest") or kv.get("name") or ""
    text = "\n".join(kv.get(k, "") for k in ("line", "block", "content", "replace") if kv.get(k))
    return [(path, text.replace("\\n", "\n"))] if path and text else []


def _salt(words: list) -> list:
    """``salt '*' file.append /etc/sudoers 'line'``, ``file.replace PATH pattern=… repl=…``."""
    texts = [w.text for w in words[1:]]
    k = next((i for i, t in enumerate(texts) if re.fullmatch(r"file\.(append|prepend|replace|line|blockreplace|"
                                                              r"managed|write)", t)), None)
    if k is None or k + 1 >= len(texts):
        return []
    path, rest = texts[k + 1], texts[k + 2:]
    kv = {t.split("=", 1)[0]: t.split("=", 1)[1] for t in rest if re.match(r"^\w+=", t)}
    text = "\n".join([t for t in rest if not re.match(r"^\w+=", t)] +
                     [kv[n] for n in ("repl", "content", "contents", "text") if n in kv])
    return [(path, text)] if text else []


def _visudo(words: list, fed: str) -> list:
    """``echo '…' | sudo EDITOR='tee -a' visudo``: the editor is tee, the text what is piped in."""
    assigned = " ".join(w.text for w in words if re.match(r"^(SUDO_EDITOR|VISUAL|EDITOR)=", w.text))
    inner = unwrap(words)[0]
    if not inner or inner[0].text != "visudo" or "tee" not in assigned:
        return []
    texts = [w.text for w in inner[1:]]
    target = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-f", "--file")), "/etc/sudoers")
    return [(target, fed)]


def _code(words: list) -> list:
    """``python3 -c "open('/etc/sudoers','a').write(…)"``: the whole code is the text written."""
    texts = [w.text for w in words[1:]]
    code = next((texts[k + 1] for k, t in enumerate(texts[:-1])
                 if t in _CODE_OPTIONS or re.fullmatch(r"-[a-zA-Z]*[ce]", t)), "")
    if not code or not _CODE_WRITES.search(code):
        return []
    literals = "\n".join(m.group(2) for m in re.finditer(r"""(['"])((?:(?!\1).){1,400})\1""", code))
    text = literals.replace("\\n", "\n").replace("\\t", "\t") + "\n" + code
    return [(m.group(1), text) for m in _CODE_PATH.finditer(code)][:8]


def edits(seg, fed: Callable[[], str]) -> list:
    """(file, text) pairs for every file this segment edits with text it names (see the module's doc).  ``fed``
    gives what the segment is fed (echo's words, a heredoc, a pipe's): asked only by the editors that read it
    (augtool, dd, visudo), so most commands never compute it."""
    words = seg.words
    if not words:
        return []
    inner = unwrap(words)[0]
    if not inner:
        return []
    prog = inner[0].text.rsplit("/", 1)[-1]
    prog = alias(prog) or prog  # perl5.36 -pi, python3.12 -c: perl's and python's
    if prog in ("sed", "gsed") or prog == "perl" and any(re.fullmatch(r"-[a-zA-Z]*i\S*", w.text) for w in inner):
        return _in_place(inner)
    if prog == "augtool":
        return _augtool(inner, fed())
    if prog == "crudini":
        return _crudini(inner)
    if prog == "ansible":
        return _ansible(inner)
    if prog in ("salt", "salt-call", "salt-ssh"):
        return _salt(inner)
    if prog == "dd":
        return [(w.text[3:], fed()) for w in inner[1:] if w.text.startswith("of=")]
    if _INTERPRETERS.match(prog):
        return _code(inner)
    return _visudo(words, fed()) if inner[0].text == "visudo" else []  # what _visudo looks for first
