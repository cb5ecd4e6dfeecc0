"""Effect: whatever the code given to an interpreter does (``python -c``, ``node -e``,
``perl -e``, ``ruby -e``, ``php -r``, ``pwsh -c``, a heredoc fed to ``python3 -``).

The body is code, not a shell line, so it is read for what reaches the system: commands
handed to a shell (``os.system("…")``, ``execSync('…')``, backticks) are judged as shell
commands; file-system calls (``shutil.rmtree``, ``fs.rmSync``, ``FileUtils.rm_rf``,
``unlink``) are judged on their target (``os.path.expanduser("~")`` is home, a name
computed at run time is judged at its worst); code fetched from the network or decoded
before it runs is flagged as unreadable.
"""
from __future__ import annotations

import base64
import functools
import re
from typing import Optional

from aish.safety.rules import code_clients, code_http, code_normalized, code_reach, code_secret_sends, \
    code_servers, code_translated, code_writes
from aish.safety.rules.code_effects import file_effects
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, fragment, target, worst
from aish.safety.rules.delete import delete_level
from aish.safety.rules.exfil import secret_path
from aish.safety.rules.shell_outs import shell_outs
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_PYTHON = re.compile(r"^(python[\d.]*|pypy[\d.]*|python[\d.]*-dbg|py)$")  # py: the Windows launcher
# option that takes the body, per interpreter
_BODY_OPTIONS = {"python": ("-c",), "node": ("-e", "--eval", "-p", "--print"), "nodejs": ("-e", "--eval", "-p"),
                 "perl": ("-e", "-E"), "ruby": ("-e",), "php": ("-r",), "lua": ("-e",), "luajit": ("-e",),
                 "Rscript": ("-e",), "osascript": ("-e",), "bun": ("-e", "--eval", "-p"), "deno": ("eval",),
                 "pwsh": ("-c", "-command", "-Command"), "powershell": ("-c", "-command", "-Command"),
                 "powershell.exe": ("-c", "-command", "-Command"), "pwsh.exe": ("-c", "-command", "-Command"),
                 "tclsh": (), "groovy": ("-e",), "jshell": (), "julia": ("-e",), "elixir": ("-e",),
                 "kotlin": ("-e",), "kotlinc": ("-e", "-expression"), "scala": ("-e",), "guile": ("-c",),
                 "racket": ("-e", "--eval"),
                 "erl": ("-eval",), "sbcl": ("--eval",), "clisp": ("-x",), "csi": ("-e", "-eval", "-p"),
                 "gosh": ("-e",), "emacs": ("--eval",), "janet": ("-e",), "chibi-scheme": ("-e",),
                 "R": ("-e",), "r": ("-e",), "ipython": ("-c",), "raku": ("-e",), "perl6": ("-e",),
                 "rakudo": ("-e",), "clojure": ("-e", "--eval"), "clj": ("-e", "--eval"), "bb": ("-e", "--eval"),
                 "lein": (), "nbb": ("-e",), "ecl": ("-eval", "--eval"), "chez": (), "octave": ("--eval",),
                 "matlab": ("-batch", "-r"),
                 "hy": ("-c",), "coffee": ("-e",), "ts-node": ("-e", "--eval"), "tsx": ("-e", "--eval"),
                 "crystal": ("eval",), "expect": ("-c",), "swipl": ("-g",), "gforth": ("-e",),
                 "vim": ("-c", "--cmd"), "nvim": ("-c", "--cmd"), "vi": ("-c",), "gvim": ("-c",), "ex": ("-c",),
                 "ngs": ("-e",), "scheme": ("--eval",), "gnuplot": ("-e",), "jrunscript": ("-e",),
                 # math REPLs: code on the line, or on stdin (`gp -q <<< 'system("…")'`)
                 "maxima": ("--batch-string", "-r", "--run-string"), "scilab": ("-e",), "scilab-cli": ("-e",),
                 "wolframscript": ("-code", "-c"), "math": ("-run",), "wolfram": ("-run", "-code"),
                 "MathKernel": ("-run",), "gp": (), "octave-cli": ("--eval",), "sage": ("-c",), "gap": ("-c",),
                 "maple": ("-c",)}
_EDITORS = {"vim", "nvim", "vi", "gvim", "ex"}
_POWERSHELL = {"pwsh", "powershell", "powershell.exe", "pwsh.exe"}

_STR = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`([^`]*)`)"""
# Calls that hand a string to a shell.
_SHELL_CALLS = lazy(
    r"(?P<call>\bos\.(?:system|popen)|\bsubprocess\.\w+|\bcommands\.getoutput|\bpty\.spawn|(?<![\w.])system|"
    r"(?<![\w])\.?exec(?:Sync)?|\bspawnSync|\bshell_exec|\bpassthru|(?<![\w.])popen|\bproc_open|\bIO\.popen|"
    r"\bOpen3\.\w+|\bProcess\.spawn|\bKernel\.system|\bRuntime\.getRuntime\(\)\.exec|\bdo\s+shell\s+script|"
    r"\bos\.execute|\bio\.popen|(?<=\()(?:!|process|shell|ext:shell|run-shell-command|uiop:run-program))"
    r"\s*\(?\s*(?:\[\s*)?" + _STR + r"(?P<plus>(?:\s*(?:\+|\.\.?)\s*[\w.$()'\"\[\]{}/~-]+){1,4})?")
_LIST_CALL = lazy(r"\b(?:subprocess\.\w+|spawnSync|spawn|execFileSync|execFile|Popen)\s*\(\s*\[([^\]]*)\]"
                  r"|\b(?:spawnSync|spawn|execFileSync|execFile)\s*\(\s*" + _STR + r"\s*,\s*\[([^\]]*)\]")
_BACKTICKS = lazy(r"(?:%x|\bqx)(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\]|/([^/]*)/|!([^!]*)!)|`([^`]+)`")
# File-system calls: (pattern capturing the target expression, recursive?)
_FS_CALLS = [
    (re.compile(r"\bshutil\.rmtree\s*\(\s*((?:[^,()]|\([^()]*\))+)"), True),
    (re.compile(r"\bos\.(?:remove|unlink|rmdir|removedirs)\s*\(\s*((?:[^,()]|\([^()]*\))+)"), False),
    (re.compile(r"\bPath\s*\(\s*([^)]+)\)\s*\.\s*(?:unlink|rmdir)\s*\("), False),
    (re.compile(r"(?<![\w.])([a-z_]\w*)\s*\.\s*(?:unlink|rmdir)\s*\(\s*\)"), False),  # `p.unlink()` over a walk
    (re.compile(r"(?:\b(?:fs|fsp|fse|promises)|\))\.(?:rmSync|rm|rmdirSync|rmdir|removeSync|remove|emptyDirSync|"
                r"emptyDir)\s*\(\s*((?:[^,()]|\([^()]*\))+)(?=[^;]*recursive|[^;]*Sync|[^;]*remove|[^;]*empty)"), True),
    # fs-extra: removing is recursive
    (re.compile(r"\bfse\.(?:removeSync|remove|emptyDirSync|emptyDir)\s*\(\s*((?:[^,()]|\([^()]*\))+)"), True),
    (re.compile(r"(?:\b(?:fs|fsp|promises)|\))\.(?:unlinkSync|unlink)\s*\(\s*((?:[^,()]|\([^()]*\))+)"), False),
    (re.compile(r"\brimraf(?:\.sync)?\s*\(\s*((?:[^,()]|\([^()]*\))+)"), True),
    (re.compile(r"\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|rmtree|remove_entry_secure)\s*\(?\s*([^,)\s;]+)"),
     True),
    (re.compile(r"\b(?:File\.(?:delete|unlink)|FileUtils\.(?:rm|rm_f))\s*\(?\s*([^,)\s;]+)"), False),
    (re.compile(r"\b(?:rmtree|remove_tree)\s*\(?\s*([^,)\s;]+)"), True),
    # Lisps and Erlang: `(delete-directory/files DIR)`, `file:del_dir_r("DIR")`, `(delete-file F)`
    (re.compile(r"\(\s*delete-directory/files\s+((?:[^()\s]|\((?:[^()]|\([^()]*\))*\))+)"), True),
    (re.compile(r"\(\s*delete-directory\s+((?:[^()\s]|\([^()]*\))+)\s+t\s*\)"), True),  # emacs: t, recursive
    (re.compile(r"\(\s*(?:delete-file|delete-directory)\s+((?:[^()\s]|\([^()]*\))+)"), False),
    (re.compile(r"\bfile:del_dir_r\s*\(\s*([^,()]+)"), True),
    (re.compile(r"\bfile:(?:delete|del_dir)\s*\(\s*([^,()]+)"), False),
    (re.compile(r"(?<![\w.$>])(?:unlink|rmdir)\b\s*\(?\s*([^,)\s;]+)"), False),
]
# Expressions for home, whatever the language.
_HOME_EXPR = lazy(r"expanduser\(\s*['\"]~/?['\"]\s*\)|Path\.home\(\)|environ\[\s*['\"]HOME['\"]\s*\]|"
                  r"getenv\(\s*['\"]HOME['\"]\s*\)|process\.env\.HOME|homedir\(\)|Dir\.home|"
                  r"ENV\[\s*['\"]HOME['\"]\s*\]|\$ENV\{\s*HOME\s*\}|\$env:USERPROFILE|\$HOME|~|"
                  r"find-system-path\s+(?:\(quote\s+|')home-dir|\(getenv\s+\"HOME\"\)|os:getenv\(\"HOME\"\)")
_FETCH = lazy(r"\burlopen\b|\brequests\.(?:get|post)\b|\burllib\b|\bhttp\.client\b|\burlretrieve\b|"
              r"\bfetch\s*\(|\bhttps?\.get\b|\bNet::HTTP\b|\bURI\.open\b|\bopen-uri\b|\bLWP::|\bHTTP::Tiny\b|"
              r"\bfile_get_contents\s*\(\s*['\"]https?:|\bDownloadString\b|\bInvoke-WebRequest\b|\biwr\b|"
              r"\bInvoke-RestMethod\b|\birm\b|\bcurl_exec\b|\bWebClient\b|['\"]https?://|"
              r"popen\s*\(\s*['\"](?:curl|wget)\b|(?:`|qx\W|%x\W)\s*(?:curl|wget)\b", re.IGNORECASE)
_RUNS_CODE = lazy(r"\b(?:exec|eval|compile|Function|instance_eval|class_eval|Invoke-Expression|iex|"
                  r"execfile|runpy|(?<![.\w])load(?:string)?|pickle\.loads?|dill\.loads?|marshal\.loads|unserialize|yaml\.unsafe_load)\s*[\s(]",
                  re.IGNORECASE)
# Code that loads and runs a file straight from an address: `source("https://…")`, `include(download("https://…"))`,
# `dofile`, `load`, `require_once`, `(load "https://…")`.
_SOURCES_ADDRESS = lazy(r"(?<![\w.])(?:source|include|include_once|require|require_once|dofile|load|loadfile|"
                        r"import|eval)\s*\(?\s*(?:(?:download|url|readLines|fetch|getURL)\s*\(\s*)?"
                        r"['\"]https?://")
_DECODE = lazy(r"b64decode|base64\.decode|atob\s*\(|Buffer\.from\([^)]*base64|decode_base64|Base64\.decode|"
               r"base64_decode|FromBase64String|codecs\.decode\([^)]*rot|zlib\.decompress|marshal\.loads|"
               # hex, rot13, base32/85, compressed and character-code spellings of hidden text
               r"fromhex|unhexlify|a2b_hex|Buffer\.from\([^)]*['\"]hex['\"]|\bpack\s*\(?\s*['\"]H|hex2bin|"
               r"['\"]rot_?13['\"]|str_rot13|fromCharCode|b32decode|b85decode|a85decode|gzinflate|gzuncompress|"
               r"gzdecode|\[char\]\s*0x|decode\(\s*['\"]hex['\"]|unpack\s*\(?\s*['\"]m|decode_hex|from_hex",
               re.IGNORECASE)
_SENDS = lazy(r"urlopen\([^)]*data\s*=|requests\.(post|put)\(|method\s*:\s*['\"]POST|http\.request\(|"
              r"Net::HTTP\.post|socket\.(create_connection|connect)|\.send(all)?\(", re.IGNORECASE)
_SECRET_SOURCE = lazy(r"os\.environ|process\.env\b(?!\.\w)|\bENV\b(?!\[)|%ENV|\.ssh/id_|\.aws/credentials|"
                      r"\.kube/config|\.netrc|/etc/shadow")
# A client library told to empty its whole store: Redis' FLUSHALL/FLUSHDB, memcached's flush_all, mongo's drop.
_STORE_WIPE = lazy(r"(?:\.|->|::)\s*(?:flush_?all|flush_?db|FlushAll|FlushDB|dropDatabase|drop_database|"
                   r"database\s*\.\s*drop)\b"
                   r"(?!\s*[=:])", re.IGNORECASE)
# Package installs from a repository or URL inside code (R's remotes/devtools, Julia's Pkg, pip's main).
_CODE_INSTALL = lazy(r"\binstall_(?:github|gitlab|bitbucket|git|url)\s*\(|\bPkg\.add\s*\(\s*(?:url\s*=|"
                     r"PackageSpec\s*\(\s*url)|\bpip\.main\s*\(\s*\[\s*['\"]install['\"]\s*,\s*['\"](?:git\+|https?:)")
# Groovy's `"rm -rf x".execute()` and `["rm", "-rf", x].execute()`.
_GROOVY_EXECUTE = lazy(r"(?:" + _STR + r"|\[([^\]]*)\])\s*\.\s*execute\s*\(")
_KILL_ALL = lazy(r"\b(?:os\.kill|process\.kill|Process\.kill)\s*\(\s*-1\b|\bkill\s*\(?\s*-?9\s*,\s*-1\b")


_VERSION_AT_END = re.compile(r"[\d.]+$")


@functools.lru_cache(maxsize=16384)  # a pure reading of the name, asked up to four times a command (the corpora
# name ~5,000 programs: kept for all of them, as table._program is)
def _family(prog: str) -> str:
    if _PYTHON.match(prog):
        return "python"
    base = _VERSION_AT_END.sub("", prog)
    variant = VARIANT.match(prog.lower())  # jruby, micropython, php-cli
    return base if base in _BODY_OPTIONS else variant.group(2) if variant else prog


# Interpreters under other makers' names: JRuby, TruffleRuby, mruby, MicroPython, IronPython, GraalPy, LuaJIT,
# php-cli, perl5.36, node20.
VARIANT = re.compile(r"^(j|truffle|m|micro|circuit|iron|graal|c|mini|rb|pico)?(ruby|python|perl|lua|php|node)"
                     r"(jit|[\d.]+|-(cli|cgi|\d[\d.]*))?$")


# Options that take code in most languages, read for programs the table above does not name
# (`xonsh -c`, `sage -c`, `nim e --eval:…`, `dotnet script eval …`, `conda run -n x python -c …`)
# when what follows reads as code: a call with a quoted argument.
_ANY_BODY_OPTIONS = frozenset({"-c", "-e", "--eval", "-eval", "--exec", "--execute", "--command", "--expr",
                               "--expression", "-batch", "eval", "exec"})
# a call with a string: f("x"), or a Lisp form (f "x")
_CALL_WITH_STRING = lazy(r"[A-Za-z_][\w.:!?]*\s*\([^)]*['\"]|\(\s*[A-Za-z_!][\w.:!?-]*\s+['\"]")
# Shells: their `-c` is shell text, judged as commands by the shells' own rule.
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "busybox", "ash", "csh", "tcsh", "yash"})


def _any_body(texts: list) -> Optional[str]:
    """The code an unknown program is given after an option that usually takes code, if it reads as code."""
    for k, t in enumerate(texts):
        head, sep, value = t.partition("=") if t.startswith("--") else (t, "", "")
        if not sep and t.startswith("--eval:"):
            head, sep, value = "--eval", ":", t[len("--eval:"):]
        if head not in _ANY_BODY_OPTIONS:
            continue
        code = value if sep else (texts[k + 1] if k + 1 < len(texts) else "")
        if _CALL_WITH_STRING.search(code):
            return code
    return None


def body(c: Ctx) -> Optional[str]:
    """The code the interpreter runs from the command line or a heredoc, if any."""
    family = _family(c.prog)
    options = _BODY_OPTIONS.get(family)
    if options is None:  # code is called with a quoted string: a line with no quote in its words holds none
        return None if family in _SHELLS or "'" not in c.lowered and '"' not in c.lowered else _any_body(c.texts)
    texts = c.texts
    if family in ("pwsh", "powershell", "powershell.exe", "pwsh.exe"):
        for k, t in enumerate(texts):
            if t.lower() in ("-encodedcommand", "-enc", "-e", "-ec", "-en", "-enco") and k + 1 < len(texts):
                return _decode_utf16(texts[k + 1])
            if t.lower() in ("-c", "-command") and k + 1 < len(texts):
                return " ".join(texts[k + 1:])
            if t.lower() in ("-file", "-f"):
                return None
        rest = [t for t in texts if not t.startswith("-")]
        return " ".join(rest) if rest else _stdin_body(c)
    if family in _EDITORS:  # every -c and +cmd is an ex command; the rest are files
        cmds = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in options] + \
            [t[1:] for t in texts if t.startswith("+") and len(t) > 1]
        return "\n".join(cmds) or None
    for k, t in enumerate(texts):
        if t in options and k + 1 < len(texts):
            return texts[k + 1]
        if t.startswith("--") and "=" in t and t.split("=", 1)[0] in options:  # --batch-string='…'
            return t.split("=", 1)[1]
        if family == "python" and t.startswith("-c") and len(t) > 2:
            return t[2:]
        if family in ("perl", "ruby") and re.fullmatch(r"-[a-zA-Z]*[eE]", t) and k + 1 < len(texts):
            return texts[k + 1]
        if not t.startswith("-") and t != "-" and t not in _STDIN_FILES:
            return None  # a script file: not readable here (its standard input, `/dev/stdin`, is read below)
    return _stdin_body(c)


_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _stdin_body(c: Ctx) -> Optional[str]:
    bodies = [r.body for r in c.seg.redirects if r.body] + \
             [r.target.text for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
    fed = c.chain[-1].words if c.chain else []
    if fed and fed[0].text == "cat" and len(fed) == 1:  # `cat <<'EOF' | python3`: the heredoc cat prints
        bodies += [r.body for r in c.chain[-1].redirects if r.body] + \
                  [r.target.text for r in c.chain[-1].redirects if r.op == "<<<" and r.target is not None]
    if fed and fed[0].text in ("echo", "printf"):  # `echo 'file delete -force ~/' | tclsh`
        text = " ".join(w.text for w in fed[1:] if not re.fullmatch(r"-[neE]+", w.text))
        bodies.append(text.replace("\\n", "\n") if fed[0].text == "printf" or "-e" in fed[1:2] else text)
    return "\n".join(bodies) or None


def _decode_utf16(text: str) -> str:
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4)).decode("utf-16-le", "replace")
    except (ValueError, UnicodeError):
        return ""


def _path_of(expr: str, code: str = "") -> Word:
    """The target a code expression names, as a shell word for ``target``: a string literal, home,
    a literal given to a call (``glob("/var/log/*")``), the root a walk or glob in the same code
    starts from, else a name computed at run time (judged at its worst)."""
    expr = re.sub(r"^[rbuRBU]{1,2}(?=['\"])", "", expr.strip())  # python's r'C:\x'
    literal = re.fullmatch(_STR, expr)
    if literal:
        text = next(g for g in literal.groups() if g is not None)
        return Word(text, text)
    if _HOME_EXPR.search(expr):
        rest = re.search(r"""['"](/[^'"]*)['"]\s*\)?\s*$""", expr)  # os.path.join(home, "x")
        text = "~" + (rest.group(1) if rest else "")
        return Word(text, text)
    inner = re.search(r"^[\w.]*\(\s*" + _STR, expr)
    walked = re.search(r"\bPath\s*\(\s*" + _STR + r"\s*\)\s*\.\s*(?:r?glob|iterdir|walk)\b", code) or \
        re.search(r"\b(?:os\.walk|glob\.glob|glob|rglob|Dir\.glob|readdirSync|scandir|listdir|"
                       r"(?:find|finddepth)\s*\(\s*(?:sub\s*\{[^}]*\}|\\&\w+)\s*,)\s*\(?\s*" + _STR, code)
    for found, suffix in ((inner, ""), (walked, "/*")):
        if found:
            text = next(g for g in found.groups() if g is not None)
            return Word(text.rstrip("/*") + suffix if suffix else text, text)
    return Word("$" + re.sub(r"\W", "_", expr)[:20], expr, has_var=True)  # computed at run time


def rule_interpreter_body(c: Ctx) -> Optional[tuple]:
    code = body(c)
    if not code:
        return None
    shown = fragment([c.prog, code.replace("\n", " ")], 70)
    if _family(c.prog) in _POWERSHELL:
        found = c.recurse(code.replace("\\", "/"))  # PowerShell is a shell; a backslash there is no escape
        return worst((found[0], f"{found[1]} (inside {c.prog})") if found else None, code_reach.judge(c.prog, code))
    written = code  # as given: decoders and fetchers are read on it, the rest on the code written out plainly
    code = code_reach.home_spelled_out(code_normalized.normalized(code))
    best = worst(code_reach.judge(c.prog, code), code_translated.judge(c, code, shown))
    best = worst(best, code_clients.judge(c, code, shown, written))
    if (best is None or best[0] < MEDIUM) and code_http.may_call(code):  # `Net::HTTP::Delete.new("/orders")`
        best = worst(best, code_http.rule_code_http(c, code))
    for m in _SHELL_CALLS.finditer(code):
        if m.group("call") == "exec" and _family(c.prog) == "python":
            continue  # python's exec() runs python, judged below
        command = next((g for g in m.groups()[1:4] if g is not None), "")
        if m.group("plus"):  # 'rm -rf ' + process.env.HOME, "rm -rf " . getenv("HOME"), lua's ..: computed at run time
            command += _path_of(m.group("plus").lstrip(" +.")).text
        found = c.recurse(command.replace("\\'", "'").replace('\\"', '"'))
        if found:
            best = worst(best, (found[0], f"{found[1]}, run by {c.prog} code"))
    for m in _GROOVY_EXECUTE.finditer(code):
        parts = re.findall(r"""['"]([^'"]*)['"]""", m.group(4)) if m.group(4) is not None else []
        command = " ".join(_quote(p) for p in parts) if parts else next((g for g in m.groups()[:3] if g), "")
        found = c.recurse(command) if command else None
        if found:
            best = worst(best, (found[0], f"{found[1]}, run by {c.prog} code"))
    for command in shell_outs(code) + code_reach.tcl_commands(c.prog, code):
        found = c.recurse(command)
        if found:
            best = worst(best, (found[0], f"{found[1]}, run by {c.prog} code"))
    for m in _LIST_CALL.finditer(code):
        parts = re.findall(r"""['"]([^'"]*)['"]""", (m.group(1) or "") + " " + (m.group(5) or ""))
        head = next((g for g in m.groups()[1:4] if g is not None), None)
        command = " ".join(([head] if head else []) + [_quote(p) for p in parts])
        found = c.recurse(command) if command else None
        if found:
            best = worst(best, (found[0], f"{found[1]}, run by {c.prog} code"))
    if _family(c.prog) in ("perl", "ruby", "php"):
        for m in _BACKTICKS.finditer(code):
            found = c.recurse(next((g for g in m.groups() if g), ""))
            if found:
                best = worst(best, (found[0], f"{found[1]}, run by {c.prog} code"))
    for pattern, recursive in _FS_CALLS:
        for m in pattern.finditer(code):
            word = _path_of(m.group(1), code)
            t = target(word)
            level = delete_level(t, recursive or word.text.endswith("/*"))  # every name a walk or glob gives
            if level is not None and level >= MEDIUM:
                best = worst(best, (level, f"{c.prog} code deletes {describe(t)} ({shown})"))
    for level, what, t in file_effects(code):
        if level >= MEDIUM:
            best = worst(best, (level, f"{c.prog} code {what} {describe(t)} ({shown})"))
    best = worst(best, code_writes.judge(code, c.recurse, c.prog))  # `io.open("/etc/sudoers","a"):write(…)`
    if _RUNS_CODE.search(written) and _FETCH.search(written) or _SOURCES_ADDRESS.search(written):
        best = worst(best, (HIGH, f"{c.prog} code runs code fetched from the network ({shown})"))
    elif _RUNS_CODE.search(written) and _DECODE.search(written):
        best = worst(best, (MEDIUM, f"{c.prog} code runs decoded text nobody read first ({shown})"))
    if _SENDS.search(code) and _SECRET_SOURCE.search(code):
        best = worst(best, (MEDIUM, f"{c.prog} code sends the environment or keys to the network ({shown})"))
    if best is None or best[0] < HIGH:  # `requests.post(URL, data=check_output(["gh", "auth", "token"]))`
        best = worst(best, code_secret_sends.judge(c.prog, code, shown))
    if (best is None or best[0] < HIGH) and c.chain:  # `gh auth token | python3 -c '…post(URL, sys.stdin.read())'`
        best = worst(best, code_secret_sends.piped_in(c, code, shown))
    if best is None or best[0] < HIGH:  # `http.createServer((q, s) => s.end(JSON.stringify(process.env)))`
        best = worst(best, code_servers.judge(c.prog, code, shown, secret_path))
    if _CODE_INSTALL.search(code):
        best = worst(best, (MEDIUM, f"{c.prog} code installs a package straight from a repository ({shown})"))
    if _STORE_WIPE.search(code):
        best = worst(best, (HIGH, f"{c.prog} code empties a whole data store (every key or the database) ({shown})"))
    if _KILL_ALL.search(code):
        best = worst(best, (HIGH, f"{c.prog} code kills every process you can signal ({shown})"))
    if c.prog == "osascript" and re.search(r"\b(shut\s*down|restart|log\s*out|to\s+sleep)\b|"
                                           r"\baevt(rsdn|rrst|rlgo|logo|shut|slep)\b", code, re.IGNORECASE):
        best = worst(best, (MEDIUM, f"osascript shuts down, restarts or logs out the Mac ({shown})"))
    return best


def rule_awk_system(c: Ctx) -> Optional[tuple]:
    """``awk 'BEGIN{system("rm -rf ~")}'``: awk hands the string to a shell."""
    texts, k = c.texts, 0
    while k < len(texts) and texts[k].startswith("-"):
        k += 2 if texts[k] in ("-F", "-v", "-f") else 1
    if k >= len(texts) or "-f" in texts[:k]:
        return None
    best = None
    program = texts[k]
    for m in re.finditer(r"\bsystem\s*\(((?:\s*(?:\"(?:[^\"\\]|\\.)*\"|\$?\w+(?!\w)))+)\s*\)", program):
        # awk joins strings and names side by side: `"ssh " host " sudo reboot"`; a name is read at run time
        command = "".join(part[1:-1] if part.startswith('"') else "$AWK_" + part.lstrip("$")
                          for part in re.findall(r"\"(?:[^\"\\]|\\.)*\"|\$?\w+", m.group(1)))
        found = c.recurse(command)
        if found:
            best = worst(best, (found[0], f"{found[1]}, run by awk"))
    return worst(best, code_writes.judge(program, c.recurse, c.prog))  # `print "…" >> "/etc/sudoers"`


def _quote(part: str) -> str:
    return part if re.fullmatch(r"[\w@%+=:,./~-]+", part) else "'" + part.replace("'", "'\\''") + "'"


RULES: dict = {"awk": [rule_awk_system], "gawk": [rule_awk_system], "mawk": [rule_awk_system],
               "nawk": [rule_awk_system]}
for _p in ("python", "python2", "python3", "py", "pypy", "pypy3", "node", "nodejs", "perl", "ruby", "php", "lua",
           "luajit", "Rscript", "osascript", "bun", "deno", "pwsh", "powershell", "powershell.exe", "pwsh.exe",
           "groovy", "julia", "elixir", "kotlin", "scala", "tclsh", "jshell", "guile", "racket", "erl", "sbcl",
           "clisp", "csi", "gosh", "emacs", "janet", "chibi-scheme", *_BODY_OPTIONS, "ipython3"):
    RULES[_p] = [rule_interpreter_body]
