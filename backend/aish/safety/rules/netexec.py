"""Effect: runs code fetched from the network (or hidden from the reader).

``curl … | sh``, ``bash <(curl …)``, ``eval "$(wget -qO- …)"``, ``source <(…)``,
``iwr … | iex``, downloading a script and running it in the same line, and
running decoded text (``base64 -d | sh``) that nobody can read first."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.program_names import canonical
from aish.safety.programs import READ_ONLY
from aish.safety.rules.fed import PROSE_PROGRAMS
from aish.safety.lazy_regex import lazy

DOWNLOADERS = {"curl", "wget", "fetch", "http", "https", "aria2c", "lwp-request", "iwr", "irm", "invoke-webrequest",
               "invoke-restmethod", "wget2", "xh", "httpie", "lynx", "w3m", "nc", "ncat", "busybox", "scp", "gh",
               "aws", "gsutil",
               # other fetchers: OpenWrt's, resumable and parallel ones, libwww-perl's, text browsers, object stores
               "uclient-fetch", "axel", "get", "lwp-download", "curlie", "links", "links2", "elinks", "rclone", "mc",
               "s3cmd", "certutil", "bitsadmin", "hurl", "xidel", "start-bitstransfer", "tftp"}
_FETCHES = {"busybox": ("wget", "tftp"), "gh": ("api",), "aws": ("s3",), "gsutil": ("cat",), "rclone": ("cat",),
            "mc": ("cat",), "s3cmd": ("get",), "certutil": ("-urlcache",), "bitsadmin": ("/transfer",),
            "tftp": ("-g", "get")}
# Code files' extensions, of any language a host runs (what a runner given such a file executes).
CODE_EXTENSIONS = frozenset("""
sh bash zsh ksh py ipynb rb pl pm js mjs cjs ts lua java jsh kts groovy gvy gradle ps1 psm1 r jl tcl scala sc exs ex
sql cypher gremlin csx fsx ss scm sls sld lisp lsp cl el clj cljs cljc bb edn rkt st fs fth 4th pike pmod janet fnl
escript erl hrl hs lhs ml mli nim swift php php5 phtml io rexx rex cmd bat vbs ahk au3 sno spt ijs awk jsx tsx coffee
go d cr v zig hx moon wren raku p6 pro tex m mk nu elv xsh fish
""".split())
# Programs whose `-f` or operands are data (archives, manifests, diffs): a download there is not run.
DATA_READERS = (READ_ONLY | PROSE_PROGRAMS | frozenset("""
tar bsdtar unzip 7z 7za zip gzip gunzip xz unxz zstd bzip2 cpio ar jar pax gpg gpg2 kubectl oc helm docker podman
vim nvim vi emacs code meld vimdiff kdiff3 patch git diff comm paste join openssl sha256sum md5sum ffmpeg ffprobe mpv
vlc feh display convert magick xdg-open open firefox chromium google-chrome deno
""".split()) | DOWNLOADERS) - {"awk", "gawk", "mawk", "nawk", "sed"}  # `awk -f <(curl …)` runs awk code
INTERPRETERS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "python", "python3",
                "python2", "perl", "ruby", "node", "nodejs", "php", "pwsh", "powershell", "deno", "bun", "lua",
                "tclsh", "Rscript", "osascript", "iex", "invoke-expression", "source", ".", "eval"}
_DECODERS = {"base64", "base32", "xxd", "openssl", "gunzip", "zcat", "rev", "uudecode", "gpg"}


def _is_download(words: list) -> bool:
    if not words:
        return False
    prog = words[0].text.rsplit("/", 1)[-1].lower().removesuffix(".exe")
    if prog not in DOWNLOADERS:
        return False
    need = _FETCHES.get(prog)
    return need is None or any(w.text.lower() in need for w in words[1:3])


def _sub_downloads(text: str) -> bool:
    first = text.strip().split(None, 2)[:2]
    prog = first[0].rsplit("/", 1)[-1].lower() if first else ""
    if prog in _FETCHES:  # `<(busybox wget -O- URL)`, `$(rclone cat remote:x)`
        return first[1:2] != [] and first[1] in _FETCHES[prog]
    return prog in DOWNLOADERS - {"scp"}


def rule_pipe_to_interpreter(c: Ctx) -> Optional[tuple]:
    if c.prog.lower() not in INTERPRETERS and canonical(c.prog) not in INTERPRETERS:  # python3.12, pypy3, bash5
        return None
    fed = [r.target for r in c.seg.redirects if r.target is not None and r.op in ("<<<", "<")]
    for w in c.args + fed:
        for sub in w.subs:  # bash <(curl …), eval "$(curl …)", source /dev/stdin <<< "$(curl …)"
            if _sub_downloads(sub):
                return HIGH, f"runs a script straight from the network ({c.text})"
    if any(_sub_downloads(sub) for r in c.seg.redirects if r.body for sub in _subs_in(r.body)):
        return HIGH, f"runs a script straight from the network ({c.text})"
    if not c.chain or _stdin_is_data(c.texts):
        return None
    if any(_is_download(f.words) for f in c.chain):
        first = next(f for f in c.chain if _is_download(f.words))
        return HIGH, (f"runs a script straight from the network "
                      f"({fragment([first.words[0].text, '…', '|', c.prog])})")
    if any(f.words and f.words[0].text.rsplit("/", 1)[-1] in _DECODERS for f in c.chain) and \
            not any(a.text.endswith((".py", ".sh", ".rb", ".pl", ".js")) for a in c.args):
        return MEDIUM, f"runs decoded text nobody read first ({c.text})"
    return None


# Code on the line that runs what it reads (`exec(sys.stdin.read())`, `eval(STDIN.read)`, `load(io.read())`).
_RUNS_INPUT = lazy(r"\b(exec|eval|compile|execfile|system|popen|subprocess|execSync|spawn|Function|"
                   r"child_process|loadstring|(?<!\.)load|dofile|instance_eval|iex|Invoke-Expression|runpy)\b")


def _stdin_is_data(texts: list) -> bool:
    """Does the interpreter run a module or a script file, so that what is piped in is that program's
    data (``curl … | python3 -m json.tool``, ``curl … | python3 parse.py``), not code to run?"""
    for k, t in enumerate(texts):
        if t == "-m" and k + 1 < len(texts):
            return True
        if t in ("-", "/dev/stdin", "/dev/fd/0", "-s") or not t.startswith("-") and k and texts[k - 1] in ("-c", "-e"):
            return False
        if t.startswith("-"):
            if t in ("-c", "-e", "--eval", "-E", "-r"):
                code = texts[k + 1] if k + 1 < len(texts) else ""
                return bool(code) and not _RUNS_INPUT.search(code)  # `json.load(sys.stdin)` reads data; exec runs it
            continue
        return True  # a script file: stdin is what it reads
    return False


def _subs_in(text: str) -> list:
    return re.findall(r"\$\(([^()]*)\)", text)


# Package installs from a URL or a repository: the package's install scripts run unreviewed.
_INSTALLERS = {"pip": {"install"}, "pip3": {"install"}, "pipx": {"install"}, "uv": {"install", "add"},
               "npm": {"install", "i", "add"}, "yarn": {"add", "install"}, "pnpm": {"add", "install", "i"},
               "bun": {"add", "install", "i"}, "gem": {"install"}, "cargo": {"install"}, "rpm": {"-i", "-U", "-ivh",
               "-Uvh", "--install", "--upgrade"}, "dnf": {"install"}, "yum": {"install"}, "zypper": {"install", "in"},
               "brew": {"install"}, "snap": {"install"}, "flatpak": {"install"}, "Install-Package": set(),
               "Install-Module": set(), "apt": {"install", "reinstall"}, "apt-get": {"install", "reinstall"},
               "dpkg": {"-i", "--install"}, "pacman": {"-U", "--upgrade"}, "msiexec": {"/i", "/package", "/a", "-i"},
               "apk": {"add"}, "pkg": {"add", "install"}, "pkg_add": set(), "installer": {"-pkg"},
               "tdnf": {"install"}, "microdnf": {"install"}, "urpmi": set(), "xbps-install": set(),
               "opkg": {"install"}, "emerge": set(), "port": {"install"}, "helm": {"install", "upgrade"},
               "poetry": {"add"}, "pipenv": {"install"}, "pdm": {"add"}, "cpanm": set(), "luarocks": {"install"},
               "choco": {"install", "upgrade"}, "add-appxpackage": set(), "conda": {"install", "create"},
               "mamba": {"install", "create"}, "winget": {"install", "upgrade"}, "pecl": {"install", "upgrade"},
               "pear": {"install", "upgrade"}, "nimble": {"install"}, "raco": {"install"}, "opam": {"install", "pin"},
               "mix": {"archive.install", "escript.install"}, "easy_install": set(), "install-psresource": set(),
               "install-script": set(), "vagrant": {"plugin"}}
for _p in ("dnf", "yum", "tdnf"):
    _INSTALLERS[_p] = _INSTALLERS[_p] | {"localinstall", "reinstall", "upgrade", "update"}
_FROM_URL = lazy(r"^(git\+)?(https?|ftp|git|ssh)://|^git@|^(github|gitlab|bitbucket):|"
                 r"\.(tgz|tar\.gz|whl|gem|rpm|deb|apk|msi|pkg|zip|pkg\.tar\.\w+)$", re.IGNORECASE)
# A requirement that names where to fetch it (`pkg @ git+https://…`).
_DIRECT_REFERENCE = lazy(r"@\s*(git\+\w+://|https?://)")
# Sources that skip the checks: plain-http indexes, TLS verification off, unsigned packages.
_UNSAFE_SOURCE = {"--trusted-host", "--dangerous", "--nogpgcheck", "--allow-unauthenticated", "--no-verify",
                  "--no-gpg-checks", "--insecure", "--allow-untrusted", "--force-bad-verify", "--nosignature"}
_PLAIN_HTTP_INDEX = {"--index-url", "-i", "--extra-index-url", "--source", "--registry", "-f", "--find-links", "-c",
                     "--channel", "--server", "--only-server", "-s", "--repository", "--repo", "-repository",
                     "--plugin-source"}


def rule_install_from_url(c: Ctx) -> Optional[tuple]:
    """``pip install git+https://…``, ``npm i https://…/x.tgz``, ``rpm -i http://…``, ``snap install --dangerous``."""
    verbs = _INSTALLERS.get(c.prog) if c.prog != "msiexec.exe" else _INSTALLERS["msiexec"]
    verbs = _INSTALLERS.get(c.prog.lower()) if verbs is None else verbs
    verbs = _INSTALLERS.get(canonical(c.prog)) if verbs is None else verbs  # pip3.12, dnf5
    texts = c.texts
    lowered = {t.lower() for t in texts[:3]}
    if texts[:1] in (["source"], ["sources"], ["config"], ["repo"]):
        return None  # `poetry source add NAME URL` adds a source (package_sources judges it), installs nothing
    if verbs is None or verbs and not lowered & verbs and not any(
            re.fullmatch(r"-[a-zA-Z]*[iU][a-zA-Z]*", t) and c.prog in ("rpm", "pacman", "dpkg") for t in texts):
        return None
    for w in c.args:  # `dpkg -i <(curl …)`: the package is the download itself
        if any(_sub_downloads(sub) for sub in w.subs):
            return MEDIUM, f"installs a package straight from the network: its scripts run unreviewed ({c.text})"
    if c.prog in ("gem", "choco"):  # a source other than the default one is a source nobody checked
        source = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("--source", "-s", "--clear-sources")
                       and "://" in texts[k + 1]), "")
        if source and not re.search(r"rubygems\.org|chocolatey\.org", source):
            return MEDIUM, f"installs a gem from {fragment([source], 40)}: its install hooks run unreviewed ({c.text})"
    if canonical(c.prog) in ("pip", "uv"):
        texts = [t for t in texts if t not in ("-r", "--requirement")]
    url = next((t for k, t in enumerate(texts) if (_FROM_URL.search(t) or _DIRECT_REFERENCE.search(t)) and
                not t.startswith("-") and not (k and texts[k - 1] in _PLAIN_HTTP_INDEX)), None)
    unsafe = next((t.split("=", 1)[0] for t in texts if t.split("=", 1)[0] in _UNSAFE_SOURCE), None)
    for k, t in enumerate(texts):
        name, _, value = t.partition("=")
        value = value or (texts[k + 1] if k + 1 < len(texts) else "")
        if name in _PLAIN_HTTP_INDEX and value.startswith("http://") and not re.match(
                r"http://(localhost|127\.|\[::1\])", value):
            unsafe = f"{name} over plain http"
    if url and (url.startswith(("http", "ftp", "git", "ssh")) or "://" in url):
        return MEDIUM, (f"installs a package straight from {fragment([url], 40)}: its install scripts run "
                        f"unreviewed ({c.text})")
    if unsafe:
        return MEDIUM, f"installs from an unchecked source ({unsafe}): its install scripts run unreviewed ({c.text})"
    return None


# Runtimes that run a script given by URL; with these permissions it may do anything the user can.
_URL_RUNNERS = {"deno": ({"run", "install", "x"}, {"-A", "--allow-all", "--allow-run", "--allow-write", "--allow-ffi"})}


def rule_run_from_url(c: Ctx) -> Optional[tuple]:
    """``deno run -A https://…/install.ts``: remote code with the run of the machine (sandboxed without -A)."""
    subs, powers = _URL_RUNNERS.get(c.prog, (set(), set()))
    texts = c.texts
    url = next((t for t in texts if re.match(r"^https?://", t)), None)
    if texts[:1] and texts[0] in subs and url and {t.split("=", 1)[0] for t in texts} & powers:
        return HIGH, f"runs a script straight from the network with full permissions ({c.text})"
    return None


# An address of code a runner fetches: a URL, a repository, a host-named module path.
_CODE_ADDRESS = lazy(r"^(git\+\w+://|https?://|git://|ssh://|git@|(github|gitlab|bitbucket|sourcehut):|"
                     r"tarball\+|[\w-]+/[\w.-]+(#\S*)?$)", re.IGNORECASE)
_GO_REMOTE = lazy(r"^[a-z0-9-]+(\.[a-z0-9-]+)+/\S+@\S+$")
_RUNNER_VERBS = {"npx": None, "bunx": None, "pnpx": None, "uvx": None, "pipx": {"run"}, "uv": {"run"},
                 "pnpm": {"dlx"}, "yarn": {"dlx"}, "bun": {"x"}, "go": {"run"}, "nix": {"run", "develop"},
                 "nix-shell": None}
_FROM_OPTIONS = {"--from", "--spec", "-p", "--package"}
RUNS_FROM_ADDRESSES = frozenset(_URL_RUNNERS) | frozenset(_RUNNER_VERBS)  # judged here, with their own permissions


def rule_run_from_address(c: Ctx) -> Optional[tuple]:
    """``go run github.com/x/y@latest``, ``npx github:u/r``, ``uvx --from git+https://…``, ``nix run github:u/r``:
    a program fetched from an address and run at once, its code unread."""
    texts = c.texts
    verbs = _RUNNER_VERBS.get(c.prog, set())
    operands = [t for t in texts if not t.startswith("-")]
    if verbs is not None and (not operands or operands[0] not in verbs) and not (c.prog == "uv" and
                                                                                operands[:2] == ["tool", "run"]):
        return None
    given = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _FROM_OPTIONS]
    given += [t.split("=", 1)[1] for t in texts if t.split("=", 1)[0] in _FROM_OPTIONS and "=" in t]
    first = operands[1 if verbs else 0:][:1]
    if c.prog == "go":
        remote = [t for t in first if _GO_REMOTE.match(t)]
    elif c.prog.startswith("nix"):
        remote = [t for t in first + given if re.match(r"^(github|gitlab|sourcehut|git\+\w+|https?|tarball\+\w+|git):",
                                                       t)]
    else:
        remote = [t for t in given + first if _CODE_ADDRESS.match(t) and not t.startswith("@")]
    if remote:
        return MEDIUM, (f"runs a program fetched from {fragment([remote[0]], 40)} at once: its code runs unread "
                        f"({c.text})")
    return None


def python_module(c: Ctx) -> Optional[tuple]:
    """``python -m pip install …``: judged as the module's own command."""
    texts = c.texts
    if re.fullmatch(r"python[\d.]*|py", c.prog) and texts[:1] == ["-m"] and len(texts) > 1 and texts[1] in _INSTALLERS:
        return c.check(list(c.args[1:]))
    return None


RULES: dict = {}
# Programs no other rule names: judged by these rules from the broad pass, so they stay unknown to the rest.
BROAD = frozenset({"msiexec", "msiexec.exe", "pkg_add", "installer", "tdnf", "microdnf", "urpmi", "xbps-install",
                   "port", "npx", "bunx", "pnpx", "uvx", "go", "nix", "nix-shell", "poetry", "pipenv", "pdm", "cpanm",
                   "luarocks", "choco", "add-appxpackage", "conda", "mamba", "apt-key", "add-apt-repository", "winget"})
for _p in INTERPRETERS:
    RULES[_p] = [rule_pipe_to_interpreter]
for _p in _INSTALLERS:
    RULES.setdefault(_p, []).append(rule_install_from_url)
RULES.setdefault("deno", []).append(rule_run_from_url)
for _p in _RUNNER_VERBS:
    RULES.setdefault(_p, []).append(rule_run_from_address)
RULES["msiexec.exe"] = RULES["msiexec"]


def rule_trusts_unchecked(c: Ctx) -> Optional[tuple]:
    """``curl http://… | sudo apt-key add -``, ``rpm --import http://…``: a signing key fetched over plain http;
    ``add-apt-repository 'deb [trusted=yes] …'``: a source whose packages nobody signed."""
    texts = c.texts
    if c.prog == "add-apt-repository" and any("trusted=yes" in t for t in texts):
        return MEDIUM, f"adds a package source whose packages nobody signed ({c.text})"
    plain = any(t.startswith("http://") for t in texts) or c.prog == "apt-key" and any(
        w.text.startswith("http://") for f in c.chain for w in f.words[1:])
    if plain and (c.prog == "apt-key" and "add" in texts or c.prog == "rpm" and "--import" in texts):
        return MEDIUM, f"trusts a signing key fetched over plain http: anyone on the way can sign packages ({c.text})"
    return None


RULES["apt-key"] = [rule_trusts_unchecked]
RULES["add-apt-repository"] = [rule_trusts_unchecked]
RULES.setdefault("rpm", []).append(rule_trusts_unchecked)
_BROAD_RULES = {p: RULES.pop(p) for p in BROAD if p in RULES}


def rule_fetched_code(c: Ctx) -> Optional[tuple]:
    """The rules above for programs no other rule names (``go run``, ``npx``, ``msiexec``)."""
    best = None
    for rule in _BROAD_RULES.get(c.prog) or _BROAD_RULES.get(c.prog.lower(), ()):
        found = rule(c)
        if found and (best is None or found[0] > best[0]):
            best = found
    return best
for _p in ("python", "python3", "py"):
    RULES.setdefault(_p, []).append(python_module)
