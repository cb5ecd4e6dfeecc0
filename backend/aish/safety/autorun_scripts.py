"""Programs whose words are themselves a program: what in them only reads or prints.

``find``'s expression, ``sed`` and ``awk`` scripts, ``jq``/``yq`` filters, ``ps``'s BSD
letters, what ``echo`` and ``printf`` would put on the terminal, how long ``sleep`` keeps a
step going.  Each check gets (program, all words, operands, walk) and says why the words do
more than read, or ``""``; ``autorun_programs`` calls it after the options were checked.
"""
from __future__ import annotations

import re

from aish.safety.autorun_paths import Walk, option_like
from aish.safety.read_only import CONTROL_ESCAPES, ENVIRONMENT, FIND_ACTIONS, FIND_PRIMARIES, FIND_VALUED, FOREVER
from aish.safety.rules.common import fragment
from aish.safety.lazy_regex import lazy


def _find(prog: str, args: list, operands: list, walk: Walk) -> str:
    value = False
    for w in args:
        t = w.text
        if value:
            value = False
            continue
        value = t in FIND_VALUED
        if t in FIND_ACTIONS:
            return f"{FIND_ACTIONS[t]} (find {t})"
        if w.glob and not w.quoted and option_like(w, walk):
            return "a file name from a pattern could be read as find's expression"
        if t.startswith("-") and t not in FIND_PRIMARIES and not t[1:].isdigit() and not re.match(r"^[-+]?\d", t):
            return f"find {t} is not known to only read"
    return ""


def _ps(prog: str, args: list, operands: list, walk: Walk) -> str:
    for w in operands:
        if re.fullmatch(r"[a-zA-Z]+", w.text) and "e" in w.text:
            return f"{ENVIRONMENT} (ps {w.text})"
    return ""


_SED_ADDRESS = r"(?:\d+(?:~\d+)?|\$|/(?:[^/\\]|\\.)*/I?)"
_SED_SIMPLE = lazy(rf"^{_SED_ADDRESS}?(?:,{_SED_ADDRESS}|,[+~]\d+)?\s*([pdqQ=lnNgGhHxDPz{{}}]\d*)$")


def _sed_script_reads(script: str) -> bool:
    """Does this sed script only print (p, d, q, s/// without the e or w flags, y///)?"""
    for part in re.split(r"[;\n]", script):
        part = part.strip()
        if not part or _SED_SIMPLE.match(part):
            continue
        m = re.match(rf"^{_SED_ADDRESS}?(?:,{_SED_ADDRESS})?\s*([sy])(.)", part)
        if not m or m.group(2) in "\\\n ":
            return False
        delim, body = m.group(2), part[m.end():]
        pieces = re.split(rf"(?<!\\){re.escape(delim)}", body)
        if len(pieces) != 3 or (m.group(1) == "s" and not re.fullmatch(r"[gpiImM\d]*", pieces[2])) or \
                (m.group(1) == "y" and pieces[2]):
            return False
    return True


def _sed(prog: str, args: list, operands: list, walk: Walk) -> str:
    scripts = [args[k + 1].text for k, w in enumerate(args[:-1]) if w.text in ("-e", "--expression")]
    scripts += [w.text.split("=", 1)[1] for w in args if w.text.startswith("--e") and "=" in w.text
                and "--expression".startswith(w.text.split("=", 1)[0])]  # getopt_long's abbreviations
    if not scripts and operands:
        scripts = [operands[0].text]
    bad = next((s for s in scripts if not _sed_script_reads(s)), None)
    return f"sed {fragment([bad], 30)} is not known to only print" if bad is not None else ""


# ARGV and ARGC: a program that sets them chooses the files it reads.
_AWK_UNSAFE = lazy(r"\bsystem\b|(?<!\|)\|(?!\|)|\bgetline\b|\bENVIRON\b|@|\bclose\b|\bprint[f]?\b[^;}\n]*>|"
                   r"\bARG[VC]\b")


def _awk(prog: str, args: list, operands: list, walk: Walk) -> str:
    for w in args:  # the program, and any -e / --source text, wherever it stands
        if _AWK_UNSAFE.search(w.text):
            return f"{prog} {fragment([w.text], 30)} is not known to only print"
    return ""


_JQ_ENV = lazy(r"\$ENV\b|\benv\b|\bstrenv\b|\bload\w*|\binput_filename\b")  # yq's load_str, load_xml...
_JQ_FILES = lazy(r"\b(import|include)\b|\bmodulemeta\b")


def _jq(prog: str, args: list, operands: list, walk: Walk) -> str:
    if any(w.text in ("-f", "--from-file") for w in args):
        return f"{prog} -f runs a filter from a file"
    program = operands[0].text if operands else ""
    if _JQ_ENV.search(program):
        return f"{ENVIRONMENT} ({prog} {fragment([program], 30)})"
    if _JQ_FILES.search(program):
        return f"{prog} reads files named in its filter ({fragment([program], 30)})"
    return ""


def _printer(prog: str, args: list, operands: list, walk: Walk) -> str:
    if any(CONTROL_ESCAPES.search(w.text) for w in args):
        return f"prints terminal control sequences ({prog})"
    return ""


def _sleep(prog: str, args: list, operands: list, walk: Walk) -> str:
    if any(not re.fullmatch(r"\d{1,2}(\.\d*)?s?", w.text) for w in operands):
        return f"{FOREVER} ({prog} {fragment([w.text for w in operands], 20)})"  # a minute at most
    return ""


SPECIAL: dict = {"sleep": _sleep, "echo": _printer, "printf": _printer, "find": _find, "ps": _ps, "sed": _sed,
                  "awk": _awk, "gawk": _awk, "mawk": _awk, "jq": _jq, "yq": _jq}

