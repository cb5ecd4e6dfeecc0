"""Code given to any language host, read for what it runs (extends ``code_calls``).

``interp`` knows how each interpreter it names takes its code and ``code_calls`` reads quoted arguments that look
like code for any program.  Hosts no rule names are also fed their code on standard input (``printf '…' | tcc
-run -``, ``echo '…;;' | fsharpi``, ``jjs -scripting <<< '…'``, ``scons -f /dev/stdin <<< '…'``) and spell their
way to a shell in shapes of their own:

- a body fed on stdin to a program told to read it (``-``, ``/dev/stdin``) or given nothing else to run (a REPL);
- a makefile fed to any make-like (``remake -f -``, ``pmake -f /dev/stdin``): its recipe lines are shell commands;
- calls of the hosts' own: ``$EXEC("…")`` (Nashorn), ``\\write18{…}`` (TeX), ``proc:system("rm", ("-rf", …))``
  (XQuery's sequence), ``"…".execute()`` (Groovy), ``Process.Start("rm", "-rf …")`` (.NET);
- a debugger's, a disassembler's or a REPL's shell escape in the commands it is given (``r2 -c '!rm …'``, ``lldb -o
  'platform shell …'``, ``:! …`` in ghci);
- .NET's deletes (``Directory.Delete("…", true)``, ``File.Delete("…")``).

Every command found is judged as the shell command it is; text filters fed code (``cat``, ``grep``, ``tee``,
clipboards) are not hosts and are not read.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_LIMIT = 4000
# Programs fed text they do not run.
_FILTERS = frozenset("""cat tac grep egrep fgrep rg ag sed tee wc head tail less more sort uniq cut tr xclip xsel
pbcopy wl-copy clip clip.exe base64 base32 xxd od hexdump gzip bzip2 xz zstd nc ncat socat curl wget ssh mail mailx
sendmail logger tr fold fmt column jq yq bat highlight pygmentize aspell hunspell diff cmp md5sum sha256sum sha1sum
gpg openssl lp lpr enscript a2ps iconv dos2unix unix2dos rev nl paste split csplit espeak say festival""".split())
FILTERS = _FILTERS
_REPL_WORDS = frozenset({"fsi", "repl", "console", "shell", "eval", "e", "i", "interactive"})  # `dotnet fsi`, `nim e -`
# Options naming a library the host loads before the code it is fed (`irb -r open-uri`, `lua -l socket`).
_LIBRARY_OPTIONS = frozenset({"-r", "--require", "-l", "--library", "-I", "--include", "-M", "--module"})
_STDIN_WORDS = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "*"})  # AutoHotkey's `*`: stdin

_STR = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
_STRING = lazy(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")
_HOST_CALLS = LazyRegex(
    r"(?:\$EXEC|\bproc:(?:system|execute)|\bProcess\.Start|\bos\.exec|\bshell\.exec|\bstd::system|\bRun|"
    r"\bcommand_line|\bsystem_command)\s*\(\s*(?:\[\s*)?(?P<strings>" + _STR + r"(?:\s*,\s*(?:\(\s*|\[\s*)?" + _STR +
    r"){0,12})"
    r"|(?P<groovy>" + _STR + r")\s*\.\s*execute\s*\(")
# Process builders that take the program and its arguments in steps (Rust's `Command::new("rm").args([…])`, Go's
# `exec.Command("rm", "-rf", …)`, Crystal's `Process.run("rm", […])`, D's `executeShell`, Bun's `Bun.spawnSync([…])`).
_BUILDERS = LazyRegex(r"(?:\bCommand::new|\bexec\.Command(?:Context)?|\bProcess\.run|\bexecuteShell|\bexecuteCommand|"
                      r"\bBun\.spawn(?:Sync)?|\bDeno\.Command|\bnew\s+Deno\.Command)\s*\((?P<rest>[^;\n]{0,300})")
_WRITE18 = LazyRegex(r"\\write18\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}")
# A shell escape at the start of a command: `!rm …`, `:! rm …`, `:shell rm`, `platform shell rm`, `system rm`.
_ESCAPE = LazyRegex(r"(?:^|[;\n])\s*(?::\s*!|!!?|:?(?:platform\s+)?shell\s+|\.?system\s+)\s*([^;\n]+)")
_ESCAPE_OPTIONS = frozenset({"-c", "-qc", "-ex", "-o", "-O", "--one-line", "-e", "--eval", "-x", "--exec",
                             "--execute", "--command", "-i", "--batch-string", "-cmd", "-k"})
_DOTNET_DELETE = LazyRegex(r"\b(?:System\.IO\.)?(Directory|File)\.Delete\s*\(\s*(" + _STR + r")\s*(,\s*true)?|"
                           r"\b(deleteTree)\s*\(\s*(" + _STR + r")", re.IGNORECASE)
_MAKEFILE = LazyRegex(r"(?m)^[\w./$(){}%-]+\s*:[^=\n]*\n\t")
_CHEAP = ("EXEC", "proc:", "Process.", "exec", "system", "Run", "command_line", "execute", "write18",
          "Delete", "!", "shell", "Command", "Shell", "spawn", "deleteTree")


def fed_body(c: Ctx) -> Optional[str]:
    """What a program is fed on stdin when it runs it: told to read stdin, or given nothing else to run."""
    feeder = c.chain[-1].words if c.chain else []
    if not c.seg.redirects and not (feeder and feeder[0].text in ("echo", "printf", "cat")) or c.prog in _FILTERS:
        return None
    texts = c.texts
    told = any(t in _STDIN_WORDS or t.endswith("=-") or t == "-f-" for t in texts)  # `--eval=-`, `--file=-`
    if not told and any(not t.startswith("-") and t not in _REPL_WORDS and not (k and texts[k - 1] in _LIBRARY_OPTIONS)
                        for k, t in enumerate(texts)):  # `irb -r open-uri <<< '…'`: a library, not a script
        return None
    bodies = [r.body for r in c.seg.redirects if r.body]
    bodies += [_unquote(r.target.text) for r in c.seg.redirects if r.op == "<<<" and r.target is not None]
    if feeder and feeder[0].text in ("echo", "printf"):
        text = " ".join(w.text for w in feeder[1:] if not re.fullmatch(r"-[neE]+", w.text))
        bodies.append(text.replace("\\n", "\n").replace("\\t", "\t") if feeder[0].text == "printf" or
                      "-e" in [w.text for w in feeder[1:2]] else text)
    elif feeder and feeder[0].text == "cat" and len(feeder) == 1:
        bodies += [r.body for r in c.chain[-1].redirects if r.body]
    return "\n".join(bodies)[:_LIMIT] or None


def _unquote(text: str) -> str:
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text.replace("\\n", "\n").replace("\\t", "\t")


def recipes(text: str) -> list:
    """A makefile's recipe lines (tab-led lines after a rule), when the text reads as a makefile."""
    if not _MAKEFILE.search(text):
        return []
    return [line[1:].strip().lstrip("@-+").strip() for line in text.split("\n")[:80] if line.startswith("\t")]


def escapes(c: Ctx, fed: Optional[str]) -> list:
    """The commands a host's own escapes run, in the values of its command options and the lines it is fed."""
    texts = c.texts
    values = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _ESCAPE_OPTIONS] + ([fed] if fed else [])
    return [m.group(1) for v in values[:6] if "!" in v or "shell" in v or "system" in v
            for m in _ESCAPE.finditer(v)][:6]


def commands(code: str) -> list:
    """The shell commands the hosts' own calls in ``code`` run."""
    if not any(w in code for w in _CHEAP):
        return []
    found = []
    for m in list(_HOST_CALLS.finditer(code))[:6]:
        if m.group("groovy"):
            found.append(m.group("groovy")[1:-1])
            continue
        parts = [next(g for g in s.groups() if g is not None) for s in _STRING.finditer(m.group("strings"))]
        found.append(" ".join(parts))  # `Process.Start("rm", "-rf /x")`: the arguments' text as the shell reads it
    for m in list(_BUILDERS.finditer(code))[:4]:
        rest = re.split(r"\.(?:status|spawn|output|Run|Output|CombinedOutput|Start|exec)\s*\(", m.group("rest"))[0]
        found.append(" ".join(next(g for g in s.groups() if g is not None) for s in _STRING.finditer(rest)))
    found += [m.group(1) for m in list(_WRITE18.finditer(code))[:4]]
    for m in list(_DOTNET_DELETE.finditer(code))[:4]:
        path = (m.group(2) or m.group(5))[1:-1]  # .NET's Delete(path, true), Zig's deleteTree(path): recursive
        recursive = m.group(4) or m.group(1).lower() == "directory" and m.group(3)
        found.append(("rm -rf " if recursive else "rm -f ") + _quote(path))
    return [f.replace("\\'", "'").replace('\\"', '"') for f in found if f.strip()]


def tex_like(c: Ctx) -> list:
    """Quoted arguments holding a host's own call that do not read as code otherwise (``'\\write18{rm …}'``)."""
    return [w.text[:_LIMIT] for w in c.args[:24] if w.quoted and ("write18" in w.text or "$EXEC" in w.text)][:2]


def judge(c: Ctx, code: str, shown: str) -> Optional[tuple]:
    """The worst of what the hosts' own calls and a makefile's recipes in ``code`` run."""
    best: Optional[tuple] = None
    for command in commands(code) + recipes(code)[:20]:
        found = c.recurse(command)
        if found is not None and found[0] >= MEDIUM and (best is None or found[0] > best[0]):
            best = (found[0], f"{found[1]}, run by {c.prog} code ({shown})")
    return best


def rule_escapes(c: Ctx, fed: Optional[str]) -> Optional[tuple]:
    """A shell escape in a host's one-shot commands (``r2 -q -c '!rm -rf ~/x'``), judged as its command."""
    if fed is None and len(c.args) < 2:
        return None
    best: Optional[tuple] = None
    for command in escapes(c, fed):
        found = c.recurse(command.strip())
        if found is not None and found[0] >= MEDIUM and (best is None or found[0] > best[0]):
            best = (found[0], f"{found[1]}, a shell escape run by {c.prog}")
    return best


def _quote(part: str) -> str:
    return part if re.fullmatch(r"[\w@%+=:,./~$-]+", part) else "'" + part.replace("'", "'\\''") + "'"
