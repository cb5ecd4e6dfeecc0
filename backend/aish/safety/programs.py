"""What is known about programs, as data: which only read, which run the words after them,
which options make them harmless, how their subcommands may be abbreviated.

Plain tables, no logic, so other judges can reuse them (an autorun that needs
positive knowledge of what is harmless reads ``READ_ONLY`` and ``READ_ONLY_SUBCOMMANDS``;
the destructive vocabulary is in ``verbs``).  ``command_line`` reads these tables.
"""
from __future__ import annotations

# ----------------------------------------------------------------- language package tools
# What they install and remove is a library, a client or bindings for a language, never the machine's own
# software or agents: `pip uninstall falcon` removes the web framework, `pip uninstall osquery` the bindings.
LIBRARY_PACKAGE_TOOLS: frozenset = frozenset("""
pip pip3 pipx uv poetry pdm conda mamba micromamba npm pnpm yarn bun gem bundle cargo composer dotnet nuget
cpanm luarocks opam cabal mix pub dart
""".split())

# ----------------------------------------------------------------- programs that only read
# Every form of these only reads (files, the system's state) and writes nothing but the terminal,
# unless a redirection says otherwise.  Their arguments are text, patterns or paths to read:
# `grep delete`, `man rm`, `echo destroy` say nothing about what runs.
READ_ONLY: frozenset = frozenset("""
cat tac nl head tail less more most bat batcat zcat zless zmore bzcat xzcat lzcat zstdcat
ls dir vdir exa eza lsd tree stat file du df ncdu dust duf pwd realpath readlink basename dirname
grep egrep fgrep rg ag ack zgrep pgrep pidof ugrep
wc sort uniq cut paste join comm column fold fmt pr expand unexpand tr rev shuf tsort numfmt seq yes
echo printf true false test [ [[ : type which whence whereis apropos whatis man info tldr cheat
diff diff3 cmp colordiff delta difft sdiff
jq yq gojq jless fx
cal ncal uptime uname whoami id groups who w users last lastlog finger logname tty arch
nproc lscpu lsblk lsusb lspci lsmod lshw lsof lsns lslocks lsipc lsattr lsinitramfs free vmstat iostat
mpstat pidstat sar top htop btop atop glances iotop iftop nethogs bmon nload ps pstree pmap printenv
locale getent nslookup dig host whois ping ping6 traceroute tracepath mtr ss netstat
md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum
od hexdump strings nm objdump readelf ldd size
locate plocate mlocate jobs
""".split())

# Subcommands (the first words after the program) that only read.
READ_ONLY_SUBCOMMANDS: dict = {
    "git": frozenset("status log show diff blame shortlog describe rev-parse rev-list ls-files ls-tree ls-remote "
                     "cat-file grep reflog-show show-ref for-each-ref name-rev whatchanged count-objects fsck "
                     "var version help cherry range-diff".split()),
    "docker": frozenset("ps images inspect logs top stats port history diff version info search events".split()),
    "podman": frozenset("ps images inspect logs top stats port history diff version info search events".split()),
    "kubectl": frozenset("get describe logs top explain api-resources api-versions version cluster-info diff "
                         "auth events".split()),
    "helm": frozenset("list ls status get history show search template lint version env".split()),
    "systemctl": frozenset("status show list-units list-unit-files list-timers list-sockets list-jobs "
                           "is-active is-enabled is-failed cat help get-default".split()),
    "journalctl": frozenset(),
    "apt": frozenset("list search show policy depends rdepends changelog".split()),
    "apt-cache": frozenset("search show policy depends rdepends showpkg stats".split()),
    "dnf": frozenset("list search info provides repoquery history".split()),
    "brew": frozenset("list search info deps uses outdated doctor config leaves".split()),
    "npm": frozenset("ls list view info outdated search audit-ro explain why config-get whoami".split()),
    "pip": frozenset("list show freeze check search index".split()),
    "cargo": frozenset("tree search metadata check".split()),
    "terraform": frozenset("plan show output validate fmt-check providers state-list version graph".split()),
    "aws": frozenset(),
    "gh": frozenset("status browse".split()),
}

# ----------------------------------------------------------------- words after the program
# Programs whose trailing words belong to a script or command they run, not to themselves:
# `bash -c 'rm -rf ~' --dry-run` hands "--dry-run" to the script as $0, `bash -s -- --dry-run`
# to the script's $1.  Their own options end at the first operand or at -c/-e.
PASSES_ARGUMENTS: frozenset = frozenset("""
sh bash zsh dash ksh mksh fish ash csh tcsh su runuser
python python2 python3 pypy pypy3 perl ruby node nodejs deno bun php lua luajit tclsh Rscript osascript
pwsh powershell awk gawk mawk nawk ssh mosh autossh eval exec xargs parallel watch env sudo doas
""".split())

# Programs that have no dry run: an option spelled like one is a file name or an error.
NO_DRY_RUN: frozenset = frozenset("""
rm rmdir unlink shred srm wipe dd mv cp ln install truncate chmod chown chgrp chattr find kill pkill killall
tee mkfs mke2fs mkswap fdisk sfdisk parted sgdisk dropdb mysqladmin crontab userdel groupdel passwd
""".split())

# Long options that make any program (that has them) only say what it would do.
DRY_RUN_LONG: frozenset = frozenset({"--dry-run", "--dryrun", "--what-if", "-whatif", "--simulate", "--no-act",
                                     "--just-print", "--recon", "--noop", "--no-op", "--check-only",
                                     "--preview", "--print-only", "--show-only", "--pretend", "--test-only",
                                     "--preview-only", "--list-only"})
# A value that undoes the dry run: `--dry-run=none`, `--dry-run=false`.
DRY_RUN_OFF: frozenset = frozenset({"none", "false", "0", "no", "off"})

# Short dry-run letters, by program or (program, subcommand); they count inside bundles (`-avn`).
# Filesystem builders' own dry-run letter, with the letters that take no value and may share its bundle
# (`mke2fs -n`, `mkfs.xfs -N`, `mkntfs -n`); the same `-n` is a label on FAT and a node size on btrfs.
MKFS_DRY_RUN: dict = {**{p: ("n", "cDFjnqSv") for p in ("mke2fs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4")},
                      "mkfs.xfs": ("N", "fKNq"), "mkntfs": ("n", "fFnqQvIT"), "mkfs.ntfs": ("n", "fFnqQvIT"),
                      **{p: ("N", "EjlnNtU") for p in ("newfs", "newfs_msdos", "mkfs.ufs")},  # BSD newfs -N
                      "newfs_exfat": ("N", "INv"), "newfs_hfs": ("N", "NPU")}  # macOS: -N prints the parameters
DRY_RUN_SHORT: dict = {
    "rsync": "n", "make": "n", "gmake": "n", "apt-get": "s", "apt": "s", "rclone": "n", "wipefs": "n",
    "borg": "n", "ansible-playbook": "C", "ansible": "C", "rpm": "", "pacman": "p", "nix-collect-garbage": "",
    ("git", "clean"): "n", ("git", "push"): "n", ("git", "rm"): "n", ("git", "add"): "n", ("git", "mv"): "n",
    ("git", "prune"): "n", ("git", "remote"): "n", ("zfs", "destroy"): "n", ("zfs", "rollback"): "",
    ("restic", "forget"): "n", ("restic", "prune"): "n", ("btrfs", "subvolume"): "",
    "pg_resetwal": "n", "pg_resetxlog": "n",  # -n prints the values it would write
}
# Options that only print (help, a version, a skeleton to fill in) whatever else is given.
PRINT_ONLY_LONG: frozenset = frozenset({"--help", "--version", "--generate-cli-skeleton", "--usage",
                                        "--help-all", "-?", "/?", "-help"})
# HTTPie's kind of client: `key=value`, `key:=json`, `key@file` after the URL are the request's items (its data).
HTTPIE_CLIENTS = frozenset({"http", "https", "xh", "xhs", "httpie", "curlie"})

# Per program: options that turn the whole command into a report or a record.
PRINT_ONLY_BY_PROGRAM: dict = {
    # halt/poweroff/reboot -w only write the wtmp record; shutdown -k only warns the users
    "reboot": frozenset({"-w", "--wtmp-only"}), "poweroff": frozenset({"-w", "--wtmp-only"}),
    "halt": frozenset({"-w", "--wtmp-only"}), "shutdown": frozenset({"-k", "-c"}),
    "systemctl": frozenset({"--when=cancel", "--when=show"}),
    # HTTPie and xh build and print the request without sending it
    **{p: frozenset({"--offline"}) for p in HTTPIE_CLIENTS if p != "curlie"},
}

# Programs whose default run only says what it would do: they act only when told by one of these options
# (`aws-nuke -c cfg` lists what it would delete, `--no-dry-run` deletes; `octodns-sync` plans, `--doit` applies;
# `rdfind` reports duplicates, `-deleteduplicates true` deletes them).
DRY_RUN_BY_DEFAULT: dict = {
    **{p: frozenset({"--no-dry-run"}) for p in ("aws-nuke", "azure-nuke", "gcp-nuke")},
    "octodns-sync": frozenset({"--doit"}),
    "rdfind": frozenset({"-deleteduplicates", "-makehardlinks", "-makesymlinks"}),
    "duperemove": frozenset({"-d", "--dedupe"}),
}

# Documentation viewers: their operands name a program, a page or a topic to read (`man shutdown`,
# `tldr killall`, `perldoc -f unlink`), never something to act on; a pager or output option is a command or a file.
DOC_VIEWERS: frozenset = frozenset("""
man info pinfo woman tldr tealdeer tlrc cheat cht.sh whatis apropos help run-help perldoc pydoc pydoc3 ri eg bro
""".split())
DOC_VIEWER_ACTIVE_OPTIONS: frozenset = frozenset({"-P", "--pager", "-H", "--html", "--browser", "-o", "--output",
                                                  "-T", "--troff-device", "-Z", "--ditroff", "-t", "--troff"})
# `kill -0 PID`, `pkill -0 NAME`: signal 0 only asks whether the process exists.
SIGNAL_PROBES: frozenset = frozenset({"-0", "-s0", "--signal=0", "-SIG0"})
SIGNALLERS: frozenset = frozenset({"kill", "pkill", "killall", "skill", "pgrep"})
SIGNAL_VALUED: frozenset = frozenset({"-s", "--signal", "-n"})

# ----------------------------------------------------------------- abbreviated subcommands
# Programs that accept any prefix of a subcommand (`ip a f` is `ip address flush`,
# `btrfs su d` is `btrfs subvolume delete`).  Each level lists the names in the order the
# program tries them; the first name the word is a prefix of wins.
_IP_VERBS = ("add", "change", "replace", "delete", "flush", "show", "list", "save", "restore", "get")
_PVE_QM = ("agent", "cleanup", "clone", "cloudinit", "config", "create", "delsnapshot", "destroy", "disk", "guest",
           "help", "import", "list", "listsnapshot", "migrate", "monitor", "mtunnel", "nbdstop", "pending", "reboot",
           "remote-migrate", "rescan", "reset", "resize", "resume", "rollback", "sendkey", "set", "showcmd",
           "shutdown", "snapshot", "start", "status", "stop", "suspend", "template", "terminal", "unlink", "unlock",
           "vncproxy", "wait")
_PVE_PCT = ("clone", "config", "console", "cpusets", "create", "delsnapshot", "destroy", "df", "enter", "exec",
            "fsck", "fstrim", "help", "list", "listsnapshot", "migrate", "mount", "move-volume", "pending", "pull",
            "push", "reboot", "remote-migrate", "rescan", "resize", "restore", "resume", "rollback", "set", "shutdown",
            "snapshot", "start", "status", "stop", "suspend", "template", "unlock", "unmount")
# Programs that accept a prefix of a subcommand: (objects, verbs by object) and, for those that take only a
# unique prefix, "unique" (`ip` takes the first match in its own order, as its manual says).
ABBREVIATIONS: dict = {
    "ip": (("address", "addrlabel", "maddress", "route", "rule", "neighbor", "neighbour", "ntable", "link",
            "l2tp", "fou", "ila", "macsec", "tunnel", "tuntap", "token", "tcp_metrics", "monitor", "xfrm",
            "mroute", "mrule", "netns", "netconf", "vrf", "sr", "nexthop", "mptcp", "stats"),
           {"link": ("add", "set", "change", "replace", "delete", "show", "list"), "*": _IP_VERBS}),
    "btrfs": (("subvolume", "filesystem", "balance", "device", "scrub", "check", "rescue", "restore",
               "inspect-internal", "property", "send", "receive", "quota", "qgroup", "replace"),
              {"subvolume": ("create", "delete", "snapshot", "list", "show", "sync", "get-default",
                             "set-default", "find-new"),
               "device": ("add", "delete", "remove", "stats", "scan", "ready", "usage"),
               "filesystem": ("df", "du", "show", "sync", "defragment", "resize", "label", "usage"),
               "*": ()}),
    "nmcli": (("general", "networking", "radio", "connection", "device", "agent", "monitor"),
              {"connection": ("show", "up", "down", "add", "modify", "clone", "edit", "delete", "monitor",
                              "reload", "load", "import", "export"),
               "device": ("status", "show", "set", "up", "connect", "reapply", "modify", "disconnect", "delete",
                          "monitor", "wifi", "lldp"),
               "networking": ("on", "off", "connectivity"), "radio": ("all", "wifi", "wwan"), "*": ()}),
    # Proxmox VE's tools take any unique prefix of a subcommand (`pvecm d node`, `pvesm f vol`, `qm di u 100`).
    "qm": (_PVE_QM, {"disk": ("import", "move", "rescan", "resize", "unlink"), "*": ()}, "unique"),
    "pct": (_PVE_PCT, {"*": ()}, "unique"),
    "pvesm": (("add", "alloc", "apiinfo", "cifsscan", "export", "extractconfig", "free", "glusterfsscan", "help",
               "import", "iscsiscan", "list", "lvmscan", "lvmthinscan", "nfsscan", "path", "prune-backups", "remove",
               "scan", "set", "status", "zfsscan"), {"*": ()}, "unique"),
    "pvecm": (("add", "addnode", "apiver", "create", "delnode", "expected", "help", "keygen", "mtunnel", "nodes",
               "qdevice", "status", "updatecerts"), {"*": ()}, "unique"),
    "pveam": (("available", "download", "help", "list", "remove", "update"), {"*": ()}, "unique"),
    "pvesubscription": (("delete", "get", "help", "set", "set-offline-key", "update"), {"*": ()}, "unique"),
}
