"""What code reaches beyond its own process, whatever the language (read by ``interp``): a shell
handed to another machine (a reverse or bind shell: a socket and a shell in the same code), a
key read and sent to the network, and every file under home deleted by a walk.

Also, home spelled inside strings (``"rm -rf #{Dir.home}/x"``, ``"rm -rf " . getenv("HOME") .
"/x"``, ``f"{os.environ['HOME']}"``, Tcl's ``$env(HOME)``) is written out as ``~`` before the
code's shell-outs are read, so the command they build is judged as typed.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_HOME = (r"(?:ENV\[\s*['\"]HOME['\"]\s*\]|Dir\.home|process\.env\.HOME|"
         r"(?:require\(\s*['\"]os['\"]\s*\)|os)\.homedir\(\)|"
         r"os\.environ\[\s*['\"]HOME['\"]\s*\]|os\.getenv\(\s*['\"]HOME['\"]\s*\)|getenv\(\s*['\"]HOME['\"]\s*\)|"
         r"os\.path\.expanduser\(\s*['\"]~['\"]\s*\)|Path\.home\(\)|\$ENV\{\s*HOME\s*\}|\$_SERVER\[['\"]HOME['\"]\]|"
         r"System\.getProperty\(\s*\"user\.home\"\s*\)|\$HOME)")
# "…" + HOME + "…", "…" . HOME . "…", #{HOME}, ${HOME}, {HOME} in an f-string, Tcl's $env(HOME)
_SPELLED = lazy(rf"(?P<q>[\"'])\s*[.+]\s*{_HOME}\s*[.+]\s*(?P=q)|#\{{\s*{_HOME}\s*\}}|\$\{{\s*{_HOME}\s*\}}|"
                rf"\{{\s*{_HOME}\s*\}}|\$env\(HOME\)|\$::env\(HOME\)")
_SOCKET = lazy(r"\bsocket\b|\bTCPSocket\b|IO::Socket|\bfsockopen\b|\bnet\.connect\b|"
               r"require\(\s*['\"]net['\"]\s*\)|\bnet\.Socket\b|createConnection|"
               r"Sockets\.TCPClient|\bIO::Socket|\bsocket\.create_connection|\bnew\s+Socket\(|\bsocat\b|"
               r"/dev/tcp/|socketConnection|\bgen_tcp\b|\b(?:Deno|Bun)\.connect|\bnet\.Dial|TcpStream::connect|"
               r"\bSockets\b|\bTcp(?:Client|Listener)\b|\bsocket\.tcp\b|java\.net\.Socket\b", re.IGNORECASE)
_SHELL = lazy(r"/bin/(ba|z|da)?sh\b|\b(ba|z|da|k)?sh\s+[<>]&|\bcmd(\.exe)?\b|\bpty\.spawn\b|\bpowershell\b|\bsh\s+-i\b|"
              r"\b(?:Invoke-Expression|iex)\b|\bspawn\(\s*['\"](?:ba)?sh['\"]|"
              r"['\"](?:/usr)?(?:/bin/)?(?:ba|z|da|k|fi)?sh(?:\.exe)?(?:\s+-i)?['\"]|`(?:ba|z)?sh\b", re.IGNORECASE)
# A command read from the connection and run: `IO.popen(l)`, `system $_`, `iex $d`
_RUNS_RECEIVED = lazy(r"popen\(\s*[a-z_$]|\bsystem\s*\(?\s*\$|\bexec\s*\(?\s*\$|\biex\s+\$|"
                      r"Invoke-Expression\s+\$|\bshell_exec\(\s*\$|\beval\(\s*[a-z_$]|"
                      # any language's run of what it holds (`execSync(d…)`, `system(readLines(s…))`, `Open3.capture2e(
                      # s.gets)`, `subprocess.run(s.recv(…)`), a backtick or %x() of a value (`` `#{l}` ``, `` `$_` ``)
                      r"\b(?:execSync|spawnSync|system|passthru|check_output|getoutput|capture2e?|capture3|run|"
                      r"popen2?|Popen)\(\s*(?!['\"\[(])[a-z_$][\w.]*(?:\(|\.recv|\.read|\.gets|\.decode|,|\))|"
                      r"`[^`]*(?:#\{|\$\w)[^`]*`|%x\(\s*#\{", re.IGNORECASE)
_STREAMS = lazy(r"\bdup2\b|\bpty\.spawn\b|<&\s*\d|>&\s*\d|[<>]&\s*(?:%d|\$\w|#\{)|\bexec\s+sprintf\b|"
                r"\bpipe\(|\.pipe\(|\bstdin\b|\bSTDIN\b|"
                r"GetStream\(|\bexec\s*\(|\bsystem\s*\(|\bspawn\(|\biex\b|Invoke-Expression|"
                r"\bget(?:Input|Output)Stream\(|\bproc_open\b|\bProcess\.(?:run|start|spawn|new)\b|\binput:\s*\w|"
                r"\bPort\.open\b|\.pipeTo\(|\.Stdin\s*=|\bProcessBuilder\b|\bstdin\s*=", re.IGNORECASE)
# Key and credential files named in code (also read by `exfil` for code whose output is piped to a sender).
KEY_FILE_IN_CODE = lazy(r"\.ssh/id_\w+\b(?!\.pub)|\.aws/credentials|\.kube/config|\.netrc|/etc/shadow|\.gnupg|"
                        r"\.git-credentials|\.docker/config\.json|serviceaccount/token|\.pgpass|\.config/gcloud")
_NETWORK = lazy(r"['\"]https?://|\bLWP::|\bHTTP::Tiny\b|\burlopen\b|\brequests\.\w+\(|\bfetch\s*\(|"
                r"\bhttps?\.(request|get)\b|Net::HTTP|\bcurl\b|\bInvoke-(WebRequest|RestMethod)\b|"
                r"\bsocket\b|\bTCPSocket\b|\bfsockopen\b|\bnet\.connect\b|\bsmtplib\b", re.IGNORECASE)
NETWORK_IN_CODE = _NETWORK  # read by code_secret_sends
_WALK = lazy(r"\b(?:os\.walk|rglob|glob\.glob|glob|Dir\.glob|Dir\[|readdirSync|walkSync|listdir|scandir|"
             r"File::Find|find\(|iterdir|walkdir|Get-ChildItem)\b", re.IGNORECASE)
_DELETE = lazy(r"\b(?:os\.remove|os\.unlink|\.unlink\(|File\.delete|File\.unlink|FileUtils\.rm\w*|unlinkSync|"
               r"\bunlink\b|rmtree|rmSync|Remove-Item|\.delete\(\)|shred)", re.IGNORECASE)
_HOME_ANYWHERE = lazy(_HOME + r"|(expand_path\(\s*)?['\"]~/?(\*\*?/?\*?)?['\"]", re.IGNORECASE)


def home_spelled_out(code: str) -> str:
    """The code with home's spellings inside strings written as ``~`` (bounded: one pass)."""
    return _SPELLED.sub("~", code) if "HOME" in code or "home" in code else code


def tcl_commands(prog: str, code: str) -> list:
    """Tcl's and expect's ``exec rm -rf ~/x`` and expect's ``spawn rm -rf ~/x`` (up to a bracket, a semicolon or
    the line's end)."""
    if not re.match(r"^(tclsh|wish|expect|jimsh)[\d.]*$", prog):
        return []
    return [m.group(1) for m in re.finditer(r"(?:^|[\[;{\s])(?:exec|spawn)\s+(?:--\s+)?([^\]\n;}]+)", code)][:20]


# chmod of a key in any language with a mode others can read or write (`os.chmod(…/.ssh/id_rsa, 0o644)`)
_CHMOD_KEY = lazy(r"chmod\w*\s*\((?=[^;]*(?:\.ssh/id_|\.aws/credentials|\.kube/config|\.gnupg|/etc/shadow|"
                  r"\.netrc|\.pgpass|\.git-credentials))[^;]*?,\s*0o?[0-7]?[0-7]([0-7])([0-7])\b")


def judge(prog: str, code: str) -> Optional[tuple]:
    shown = fragment([prog, code.replace("\n", " ")], 70)
    m = _CHMOD_KEY.search(code)
    if m and (int(m.group(1)) & 6 or int(m.group(2)) & 6):
        return MEDIUM, f"{prog} code lets others read a private key or credentials ({shown})"
    if _SOCKET.search(code) and (_SHELL.search(code) and _STREAMS.search(code) or _RUNS_RECEIVED.search(code)):
        return HIGH, f"{prog} code connects a shell to another machine: whoever is there runs commands here ({shown})"
    if KEY_FILE_IN_CODE.search(code) and _NETWORK.search(code):
        return HIGH, f"{prog} code reads a key or credentials and talks to the network ({shown})"
    if _WALK.search(code) and _DELETE.search(code) and _HOME_ANYWHERE.search(code):
        return HIGH, f"{prog} code walks your home directory and deletes what it finds ({shown})"
    return None


_PS_SOCKETS = lazy(r"Sockets\.(?:TcpClient|TcpListener|Socket|UdpClient)|\bTcp(?:Client|Listener)\b", re.IGNORECASE)
_CODE_WRITERS = frozenset({"echo", "printf", "print", "write-output", "set-content", "out-file"})


def line_shell_channel(text: str, segs: list) -> Optional[tuple]:
    """A shell connected to another machine by code the shell's reading splits: PowerShell typed at its prompt
    (``$c = New-Object Net.Sockets.TCPClient(H, P); … iex $d …``), and source written by ``echo``/``printf`` into a
    file, or a heredoc written by ``cat >``/``tee``, that a later command of the line names (``echo 'package
    main;…net.Dial…exec.Command("/bin/sh")…' > t.go && go run t.go``, ``cat > r.py <<'EOF' … EOF⏎python3 r.py``)."""
    if ("lient" in text or "istener" in text or "ockets" in text or "OCKETS" in text) and _PS_SOCKETS.search(text):
        found = judge("PowerShell", text)
        if found is not None and found[0] == HIGH:
            return found
    if len(segs) < 2 or not ((">" in text and ("echo" in text or "print" in text)) or "<<" in text):
        return None
    for k, seg in enumerate(segs[:-1]):
        if not seg.words:
            continue
        writer = seg.words[0].text.lower()
        heredoc = "\n".join(r.body for r in seg.redirects if r.body) if writer in ("cat", "tee") else ""
        if writer not in _CODE_WRITERS and not heredoc:
            continue
        written = [r.target.text for r in seg.redirects if r.op in (">", ">>") and r.target is not None]
        written += [w.text for w in seg.words[1:] if writer == "tee" and not w.text.startswith("-")]
        if not written or not any(name in w.text for later in segs[k + 1:] for w in later.words for name in written):
            continue
        code = heredoc or " ".join(w.text for w in seg.words[1:])
        if _SOCKET.search(code):
            found = judge(written[0].rsplit("/", 1)[-1], code)
            if found is not None and found[0] == HIGH:
                return found
    return None


# Words one of which code that opens a socket holds (every `_SOCKET` form but `socat`'s and bash's, read elsewhere).
_SOCKET_WORDS = ("socket", "fsockopen", "net.connect", "createconnection", "gen_tcp", "deno.connect", "bun.connect",
                 "net.dial", "tcpstream", "tcpclient", "tcplistener", "require(")


@triggered_by(_SOCKET_WORDS)
def rule_code_in_arguments(c: Ctx) -> Optional[tuple]:
    """Code given to any program in its arguments that connects a shell to another machine: a debugger's or an
    editor's script (``gdb -ex 'python import socket,pty;…'``), a batch interpreter's (``gimp -b '…'``), any tool's
    ``--eval``; interpreters' own code is ``interp``'s (this reads what no interpreter reading takes)."""
    if not c.args or len(c.args) > 64:
        return None
    code = " ".join(w.text for w in c.args if len(w.text) > 12 and "(" in w.text)
    if not code or not _SOCKET.search(code):
        return None
    found = judge(c.prog, code)
    return found if found is not None and found[0] == HIGH else None
