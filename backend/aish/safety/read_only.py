"""What is known to only read, as data: the vocabulary autorun may run without the user.

Positive knowledge, written from each program's own manual: a program is listed here only
when every form of it reads (files, the system's state) and writes nothing but the
terminal, except for the options named beside it, which write a file, run another
program, follow forever or reach the network.  Anything not listed is not known, and a
Norris step that uses it waits for the user (``autorun`` reads these tables).

``programs.READ_ONLY`` serves the safety rules (it quiets a verb word in ``grep delete``);
it includes network lookups (``dig``, ``ping``) and pagers, which read but are no step to
run unattended, so this table is kept apart and stricter.
"""
from __future__ import annotations

import re
from aish.safety.lazy_regex import lazy

# ----------------------------------------------------------------- why a step waits
NETWORK = "sends data to the network"
WRITES = "writes files"
RUNS = "runs another program"
FOREVER = "runs until stopped"
INTERACTIVE = "opens an interactive screen"
SECRETS = "reads keys or credentials"
ROOT = "runs as root"
INTERPRETER = "runs code in an interpreter"
ENVIRONMENT = "prints the environment or history, which hold secrets"
SETTINGS = "changes the system's settings"
LINKS = "follows links out of the directory"
SCRIPT = "runs a script from a file"
LIST = "reads a list of names or values from a file"  # each line may come back in an error or be opened

# ----------------------------------------------------------------- readers, by what they print
CONTENTS = "contents"  # prints what files hold: each file it reads is checked for keys and credentials
NAMES = "names"  # prints names, sizes, counts, types, checksums: what a file holds does not leave it
TEXT = "text"  # its words are text it prints or compares
SYSTEM = "system"  # reads the system's own state

READERS: dict = {
    **dict.fromkeys("""
cat tac nl head tail grep egrep fgrep zgrep rg ag bat batcat zcat bzcat xzcat lzcat zstdcat
sort uniq cut paste join comm column fold fmt pr expand unexpand tr rev shuf tsort numfmt
od hexdump xxd strings base64 base32 jq yq diff diff3 cmp sdiff colordiff sed awk gawk mawk objdump
""".split(), CONTENTS),
    **dict.fromkeys("""
ls dir vdir exa eza lsd tree stat file du df wc find fd fdfind locate plocate realpath readlink basename
dirname namei md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum nm size readelf
lsattr
""".split(), NAMES),
    **dict.fromkeys("echo printf true false test [ : pwd seq sleep type which whereis".split(), TEXT),
    **dict.fromkeys("""
date cal uname whoami id groups hostname uptime w who users tty arch nproc lscpu lsblk lsusb lspci lsmod
free ps pstree pgrep pidof lsof ss netstat locale getent jobs dirs findmnt lsns lslocks dmesg vmstat iostat
mpstat pidstat lsb_release sw_vers last lastlog lastb printenv
""".split(), SYSTEM),
}

# Options that make a reader more than a reader.  Long options also match by prefix
# (getopt_long and git accept any unambiguous abbreviation: `sort --out=f` is `--output`);
# a short option counts anywhere in a bundle (`sort -uo f`).
UNSAFE_OPTIONS: dict = {
    "tail": {"-f": FOREVER, "-F": FOREVER, "--follow": FOREVER, "--retry": FOREVER},
    "sort": {"-o": WRITES, "--output": WRITES, "--compress-program": RUNS},
    "shuf": {"-o": WRITES, "--output": WRITES, "-r": FOREVER, "--repeat": FOREVER},
    "sdiff": {"-o": WRITES, "--output": WRITES, "--diff-program": RUNS},
    "tree": {"-o": WRITES, "--fromfile": LIST},
    "file": {"-C": WRITES, "--compile": WRITES, "-f": LIST, "--files-from": LIST},
    "rg": {"--pre": RUNS, "--hostname-bin": RUNS, "-L": LINKS,
           "--follow": LINKS},
    "ag": {"--pager": RUNS, "-f": LINKS,
           "--follow": LINKS},
    "grep": {"-R": LINKS, "--dereference-recursive": LINKS},
    "bat": {"--pager": RUNS}, "batcat": {"--pager": RUNS},
    "zstdcat": {"-o": WRITES},
    "yq": {"-i": WRITES, "--inplace": WRITES, "--split-exp": WRITES, "-s": WRITES},
    "fd": {"-x": RUNS, "--exec": RUNS, "-X": RUNS, "--exec-batch": RUNS},
    "fdfind": {"-x": RUNS, "--exec": RUNS, "-X": RUNS, "--exec-batch": RUNS},
    "sed": {"-i": WRITES, "--in-place": WRITES, "-f": SCRIPT, "--file": SCRIPT},
    "awk": {"-f": SCRIPT, "--file": SCRIPT, "-i": RUNS, "--include": RUNS,
            "-l": RUNS, "--load": RUNS, "-E": SCRIPT, "--exec": SCRIPT,
            "-o": WRITES, "--pretty-print": WRITES, "-p": WRITES, "--profile": WRITES, "-d": WRITES,
            "--dump-variables": WRITES},
    "printf": {"-v": "sets a shell variable"},
    "dmesg": {"-c": WRITES, "-C": WRITES, "--clear": WRITES, "--read-clear": WRITES, "-w": FOREVER, "-W": FOREVER,
              "--follow": FOREVER, "--follow-new": FOREVER, "-D": SETTINGS, "-E": SETTINGS,
              "-n": SETTINGS, "--console-off": SETTINGS, "--console-on": SETTINGS, "--console-level": SETTINGS},
    "date": {"-s": SETTINGS, "--set": SETTINGS, "-f": LIST, "--file": LIST},
    "free": {"-s": FOREVER, "--seconds": FOREVER},
    "hostname": {"-F": SETTINGS, "--file": SETTINGS, "-b": SETTINGS, "--boot": SETTINGS},
    "lsof": {"-r": FOREVER, "+r": FOREVER},
    "ss": {"-E": FOREVER, "--events": FOREVER, "-K": "closes connections", "--kill": "closes connections"},
    "netstat": {"-c": FOREVER, "--continuous": FOREVER},
    "xxd": {"-r": WRITES, "-revert": WRITES},
    "objdump": {"--debuginfod": NETWORK},
    "readelf": {"--debuginfod": NETWORK, "-wk": NETWORK},
}
UNSAFE_OPTIONS["gawk"] = UNSAFE_OPTIONS["mawk"] = UNSAFE_OPTIONS["awk"]
UNSAFE_OPTIONS["egrep"] = UNSAFE_OPTIONS["fgrep"] = UNSAFE_OPTIONS["zgrep"] = UNSAFE_OPTIONS["grep"]

# Programs whose first option says what they do (`dpkg -l` lists, `dpkg -i` installs): the
# options that only query.
QUERY_OPTIONS: dict = {
    "dpkg": frozenset("-l --list -L --listfiles -s --status -S --search -p --print-avail --get-selections "
                      "--print-architecture --print-foreign-architectures --audit -C --verify -V".split()),
    "dpkg-query": frozenset("-l --list -L --listfiles -s --status -S --search -p --print-avail -W --show".split()),
    "rpm": frozenset("-q --query -qa -qi -ql -qf -qc -qd -qR -qil -qal -qip -qlp -V --verify".split()),
}
# Options that take the next word as their value (it is no operand: `xxd -l 64 f`, `date -d now`).
VALUED_OPTIONS: dict = {
    "xxd": frozenset("-l -len -c -cols -g -groupsize -s -seek -o -offset -n -name".split()),
    "date": frozenset("-d --date -r --reference --rfc-3339".split()),
    "uniq": frozenset("-f --skip-fields -s --skip-chars -w --check-chars".split()),
    "head": frozenset("-n -c --lines --bytes".split()), "tail": frozenset("-n -c --lines --bytes -s".split()),
}
# A runtime's own short version flag (`node -v`, `python3 -V`), alone on its line.
VERSION_FLAGS: dict = {"node": "-v", "nodejs": "-v", "python": "-V", "python3": "-V", "python2": "-V", "ruby": "-v",
                       "perl": "-v", "php": "-v", "java": "-version", "deno": "-V", "bun": "-v", "lua": "-v"}
# find's tests that take a value (which may start with `-`: `-perm -u+x`, `-size -10M`).
FIND_VALUED: frozenset = frozenset("""
-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype -size -mtime -mmin -atime
-amin -ctime -cmin -newer -anewer -cnewer -newermt -newerct -newerat -newermm -perm -user -group -uid -gid -links
-inum -samefile -maxdepth -mindepth -printf -fstype -lname -ilname -used -context
""".split())
# At most this many operands: a second one is a file the program writes (`uniq in out`),
# or a count that keeps it running (`vmstat 1`).
MAX_OPERANDS: dict = {"uniq": 1, "xxd": 1, "vmstat": 0, "iostat": 0, "mpstat": 0, "pidstat": 0, "hostname": 0,
                      "dmesg": 0, "lsb_release": 0, "free": 0, "uptime": 0, "nproc": 0, "tty": 0, "arch": 0,
                      "sw_vers": 0, "whoami": 0, "pwd": 0, "jobs": 0, "dirs": 0}
# Operands that turn a reader into something else (`getent shadow` prints password hashes).
FORBIDDEN_OPERANDS: dict = {"getent": {"shadow": SECRETS, "gshadow": SECRETS,  # hosts: a name lookup goes out
                                       **dict.fromkeys("hosts ahosts ahostsv4 ahostsv6 networks".split(), NETWORK)},
                            "bat": {"cache": WRITES}, "batcat": {"cache": WRITES}}
# Each operand must match (`date +%F` prints, `date 0101` sets the clock).
OPERAND_PATTERN: dict = {"date": re.compile(r"^\+"), "printenv": re.compile(r"^(HOME|PWD|OLDPWD|USER|LOGNAME|SHELL|"
                                                                        r"TERM|LANG|LC_\w+|PATH|HOSTNAME|EDITOR|"
                                                                        r"PAGER|TZ|XDG_\w+_(HOME|DIR|DIRS))$")}
# printenv with no name prints the whole environment.
MIN_OPERANDS: dict = {"printenv": 1}
# Searches that read every file under a directory (with no directory: the current one).
RECURSIVE: dict = {"grep": ("-r", "--recursive"), "egrep": ("-r", "--recursive"), "fgrep": ("-r", "--recursive"),
                   "zgrep": ("-r", "--recursive"), "rg": ("",), "ag": ("",)}

# find's expression, positively: tests and the actions that only print.
FIND_PRIMARIES: frozenset = frozenset("""
-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype -size -empty -mtime -mmin
-atime -amin -ctime -cmin -newer -anewer -cnewer -newermt -newerct -newerat -newermm -perm -user -group -uid -gid
-nouser -nogroup -links -inum -samefile -maxdepth -mindepth -depth -prune -print -print0 -printf -ls -true -false
-not -a -and -o -or -mount -xdev -readable -writable -executable -lname -ilname -daystart -quit -fstype -noleaf
-ignore_readdir_race -noignore_readdir_race -follow -used -context ( ) , -H -L -P -O0 -O1 -O2 -O3 -D
""".split())
FIND_ACTIONS: dict = {"-delete": "deletes files", "-exec": RUNS, "-execdir": RUNS, "-ok": RUNS, "-okdir": RUNS,
                      "-fprint": WRITES, "-fprint0": WRITES, "-fprintf": WRITES, "-fls": WRITES}

# ----------------------------------------------------------------- subcommands that only read
# program -> subcommand -> options that make it more than a read (as UNSAFE_OPTIONS).
_GIT_OUTPUT = {"--output": WRITES}
SUBCOMMANDS: dict = {
    "git": {
        **dict.fromkeys("status shortlog describe rev-parse rev-list ls-files ls-tree cat-file show-ref for-each-ref "
                        "name-rev count-objects cherry merge-base show-branch check-ignore check-attr var version "
                        "help check-ref-format verify-commit verify-tag".split(), {}),
        **dict.fromkeys("log show diff whatchanged range-diff diff-tree diff-files diff-index".split(), _GIT_OUTPUT),
        "blame": {}, "annotate": {},
        "grep": {"-O": RUNS, "--open-files-in-pager": RUNS},
    },
    "docker": {**dict.fromkeys("ps images version info port top history diff".split(), {}),
               "logs": {"-f": FOREVER, "--follow": FOREVER}, "stats": {}},
    "podman": {**dict.fromkeys("ps images version info port top history diff".split(), {}),
               "logs": {"-f": FOREVER, "--follow": FOREVER}, "stats": {}},
    "systemctl": dict.fromkeys("status list-units list-unit-files list-timers list-sockets list-jobs list-dependencies "
                               "is-active is-enabled is-failed is-system-running cat get-default show".split(),
                               {"-H": NETWORK, "--host": NETWORK, "-M": NETWORK, "--machine": NETWORK,
                                "--wait": FOREVER}),
    "apt": dict.fromkeys("list search show policy depends rdepends showsrc".split(), {}),
    "apt-cache": dict.fromkeys("search show policy depends rdepends showpkg stats madison pkgnames showsrc".split(),
                               {}),
    "pip": dict.fromkeys("list show freeze check".split(), {"-o": NETWORK, "--outdated": NETWORK, "-u": NETWORK,
                                                              "--uptodate": NETWORK}),
    "npm": dict.fromkeys("ls list ll la explain why root prefix".split(), {}),
    "go": dict.fromkeys("version env".split(), {"-w": WRITES, "-u": WRITES}),
    "ip": dict.fromkeys("address addrlabel route rule neighbor neighbour link maddress netconf netns tunnel".split(),
                        {}),
    "hostnamectl": {"": {}, "status": {}}, "timedatectl": {"": {}, "status": {}, "show": {}},
    "brew": dict.fromkeys("list ls leaves config deps --prefix --cellar --repository".split(), {}),
    "journalctl": {},  # no subcommands: options only (JOURNALCTL_UNSAFE)
}
SUBCOMMANDS["pip3"] = SUBCOMMANDS["pip"]
SUBCOMMANDS["systemctl"][""] = SUBCOMMANDS["systemctl"]["status"]  # `systemctl --failed` lists units
# `git branch`, `git tag`, `git remote`, `git stash`, `git config`, `git worktree`, `git reflog`: read only in
# these forms (the first word after the subcommand; "" for none) and with only these options.
GIT_LISTING: dict = {
    "branch": (("",), frozenset("-a --all -r --remotes -v -vv --verbose --list -l --show-current --merged --no-merged "
                                "--contains --no-contains --sort --format --color --no-color --column --no-column "
                                "--points-at --ignore-case -i".split())),
    "tag": (("",), frozenset("-l --list -n --sort --format --contains --no-contains --merged --no-merged --points-at "
                             "--column --no-column --color -i --ignore-case".split())),
    "remote": (("", "get-url"), frozenset("-v --verbose --all --push".split())),
    "stash": (("list", "show"), frozenset("-p --patch --stat --name-only --name-status --oneline".split())),
    "worktree": (("list",), frozenset("-v --verbose --porcelain -z".split())),
    "reflog": (("", "show"), frozenset("-n --oneline --date --all".split())),
    "notes": (("", "list", "show"), frozenset()),
    "submodule": (("", "status"), frozenset("--recursive --cached -q --quiet".split())),
    "config": (("",), frozenset("--get --get-all --get-regexp --list -l --show-origin --show-scope --local --global "
                                "--system --worktree --name-only --type --bool --int --path -z --null".split())),
}
# git's own options before the subcommand: these only choose where and how it reads.
GIT_GLOBAL: dict = {"-C": True, "--git-dir": True, "--work-tree": True, "--namespace": True, "--no-pager": False,
                    "-P": False, "--paginate": False, "-p": False, "--bare": False, "--no-optional-locks": False,
                    "--literal-pathspecs": False, "--glob-pathspecs": False, "--noglob-pathspecs": False,
                    "--icase-pathspecs": False, "--no-replace-objects": False}
# The words after git subcommands that show a file's contents are checked as paths (`git diff --no-index`).
GIT_CONTENTS: frozenset = frozenset("show diff blame annotate cat-file grep log whatchanged".split())
# systemd's journal: options that only read, negatively (it has no subcommands).
JOURNALCTL_UNSAFE: dict = {"-H": NETWORK, "--host": NETWORK, "-M": NETWORK, "--machine": NETWORK,  # over ssh
                           "-f": FOREVER, "--follow": FOREVER, "--vacuum-size": WRITES, "--vacuum-time": WRITES,
                           "--vacuum-files": WRITES, "--rotate": WRITES, "--flush": WRITES, "--sync": WRITES,
                           "--relinquish-var": WRITES, "--smart-relinquish-var": WRITES, "--setup-keys": WRITES,
                           "--update-catalog": WRITES, "--cursor-file": WRITES}
# `ip OBJECT [show|list]`: the verbs that only read.
IP_READ_VERBS: frozenset = frozenset({"", "show", "list", "get", "lst"})

# Compilers, runtimes and build tools: known by name, so their `--version` and `--help` only print.
TOOLCHAINS: frozenset = frozenset("""
gcc g++ cc c++ clang clang++ rustc rustup make cmake ninja meson bazel java javac mvn gradle kotlin kotlinc scala sbt
dotnet swift swiftc go cargo npm npx yarn pnpm pip pip3 pipx poetry uv conda mamba ruby gem bundle rails php
composer perl lua terraform tofu ansible docker podman kubectl helm tldr node deno bun python python3 zig ghc stack
cabal elixir mix erl lein clojure tsc eslint prettier black ruff mypy pytest jest vite webpack git hg svn
""".split())

# ----------------------------------------------------------------- what is known not to only read
INTERACTIVE_PROGRAMS: frozenset = frozenset("""
less more most man info pinfo top htop btop atop glances iotop iftop nethogs bmon nload vi vim nvim view nano emacs
pico micro ed ncdu tig lazygit mc ranger nnn fzf watch screen tmux
""".split())
NETWORK_PROGRAMS: frozenset = frozenset("""
curl wget http https xh httpie curlie aria2c axel lynx w3m links elinks ssh scp sftp mosh autossh rclone ftp lftp
tftp telnet nc ncat netcat socat openssl ping ping6 traceroute tracepath mtr dig host nslookup whois nmap smbclient
mail mailx sendmail mutt s-nail gh hub glab aws gcloud gsutil az doctl kubectl helm oc k9s nc.openbsd
nc.traditional wormhole croc ffsend transfer pastebinit termbin ngrok
""".split())
NETWORK_SUBCOMMANDS: dict = {
    "git": frozenset("push pull fetch clone ls-remote request-pull send-email svn p4 archive".split()),
    "docker": frozenset("pull push login search run build".split()),
    "podman": frozenset("pull push login search run build".split()),
    "npm": frozenset("install i ci add publish view info outdated search audit update login exec".split()),
    "pip": frozenset("install download search index".split()),
    "pip3": frozenset("install download search index".split()),
    "apt": frozenset("update install upgrade full-upgrade changelog download".split()),
    "cargo": frozenset("install fetch update publish search".split()), "go": frozenset("get install mod".split()),
}
INTERPRETERS: frozenset = frozenset("""
sh bash zsh dash ksh mksh fish ash csh tcsh python python2 python3 pypy pypy3 perl ruby node nodejs deno bun php lua
luajit tclsh Rscript osascript pwsh powershell eval source . exec irb julia groovy elixir erl ghci
""".split())
ROOT_WRAPPERS: frozenset = frozenset({"sudo", "doas", "pkexec", "run0", "su", "runuser"})
PRINTS_SECRETS: frozenset = frozenset({"env", "printenv", "set", "export", "declare", "typeset", "history", "fc"})
# Builtins that change the shell itself (its variables, options, limits, keys, traps).
SHELL_STATE: frozenset = frozenset("""
export unset umask alias unalias set shopt setopt unsetopt bindkey bind trap ulimit hash declare typeset readonly
local enable disable autoload zmodload emulate
""".split())
STATE = "changes the shell's state"
# Prefixes that run the command after them and only change how it runs.
HARMLESS_WRAPPERS: frozenset = frozenset({"command", "builtin", "time", "nice", "timeout", "stdbuf", "nocorrect",
                                          "noglob", "xargs"})
# Programs that only change the shell's directory (the line's later paths are under it).
DIRECTORY_CHANGERS: frozenset = frozenset({"cd", "pushd", "popd", "chdir"})

# ----------------------------------------------------------------- what a line may expand
# Variables whose values are known kinds (a directory, a name, a number): never secrets, never options.
KNOWN_VARIABLES: frozenset = frozenset("""
HOME PWD OLDPWD USER LOGNAME SHELL TERM LANG LC_ALL HOSTNAME HOST PATH UID EUID PPID SECONDS RANDOM COLUMNS LINES
? $ # 0
""".split())
# Assignments before a command that only change its language, time zone, width or colours, or
# turn its pager off (a pager's value is a command, so only `cat` and nothing are known).
HARMLESS_ASSIGNMENT = lazy(r"^((LC_[A-Z]+|LANG|LANGUAGE|TZ|COLUMNS|LINES|NO_COLOR|CLICOLOR|TERM)=[\w.:/+-]*|"
                           r"(GIT_|SYSTEMD_|MAN|AWS_|)PAGER=(cat)?)$")
# Programs that write or delete files by nature.
FILE_WRITERS: frozenset = frozenset("""
rm rmdir unlink shred mv cp ln install truncate dd chmod chown chgrp chattr touch mkdir tee patch rsync split csplit
mktemp mkfifo mknod tar zip unzip gzip gunzip bzip2 xz zstd 7z
""".split())
# Writers autorun may run when [norris] autorun_writes = "workdir", on paths under the task's directory.
WORKDIR_WRITERS: dict = {"mkdir": frozenset({"-p", "--parents", "-v", "--verbose"}),
                         "touch": frozenset({"-c", "--no-create", "-a", "-m"}),
                         "tee": frozenset({"-a", "--append", "-i", "--ignore-interrupts", "-p"})}
# Substitutions whose output is of a known kind (a directory, a name, a date, a number): their
# result may stand where an argument goes.  The command inside must be harmless too.
KNOWN_RESULTS: tuple = (
    re.compile(r"^pwd( -[LP])?$"), re.compile(r"^(whoami|hostname|nproc|tty|arch|logname)$"),
    re.compile(r"^id( -[ugnr]+)*$"), re.compile(r"^uname( -[a-z]+)*$"), re.compile(r"^date( \+\S+)?$"),
    re.compile(r"^git rev-parse( --(show-toplevel|git-dir|abbrev-ref|short|show-prefix|show-cdup|absolute-git-dir))*"
               r"( HEAD)?$"),
    re.compile(r"^git branch --show-current$"), re.compile(r"^(basename|dirname|realpath|readlink -f|which) \S+$"),
    re.compile(r"^command -v \S+$"),
)

# ----------------------------------------------------------------- what must not be read
# Files whose contents are secrets, beyond the safety rules' keys-and-credentials class.
SECRET_FILES = lazy(
    r"(^|[/:])(id_(rsa|dsa|ecdsa|ed25519|xmss)(_sk)?|[\w.-]*\.(pem|key|p12|pfx|kdbx|keystore|jks|ovpn)|"
    r"\.env(\.(?!example$|sample$|template$|dist$)[\w-]+)?|credentials(\.json|\.csv)?|secrets?\.(ya?ml|json|toml|env)|"
    r"\.netrc|\.pgpass|\.git-credentials|\.vault-token|\.npmrc|\.pypirc|\.my\.cnf|shadow-?|gshadow-?|"
    r"service[-_]?account[\w.-]*\.json|terraform\.tfstate(\.backup)?|[\w.-]*\.tfvars(\.json)?|\.?tokens?(\.json|\.txt)?|\.htpasswd|wp-config\.php)$"
    r"|^/proc/(.+/)?(environ|mem|maps)$|^/proc/kcore$|^/etc/(sudoers(\.d/.*)?|ssh/ssh_host_\w+_key)$|"
    r"^/dev/(mem|kmem|port)$",
    re.IGNORECASE)
# The place a redirection may point at besides the terminal: nowhere (a sink) or the terminal itself.
# Escapes that put terminal control sequences in what echo and printf print (a terminal's answer
# to some of them arrives as typed input).
# Any escape that makes a byte (octal, hex, unicode) counts: `\0033`, `\u1b` and `\U1b` are ESC too.
CONTROL_ESCAPES = lazy(r"\\([eEcxuU]|[0-7])|[\x1b\x7f-\x9f]")
TERMINAL_TARGETS: frozenset = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "&1", "&2", "1", "2"})
