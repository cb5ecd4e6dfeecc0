"""Effect: destroys content without deleting the file.  Truncating or overwriting (``>``,
``: >``, ``cp``/``tee``/``install``/``ln -sf`` over a file, ``truncate``), writing to disks
(``dd``, ``mkfs``, partition tables), in-place edits of system configuration (``sed -i``),
replacing tables wholesale (``crontab file``, SQL ``DROP``/``TRUNCATE``/unbounded
``DELETE``/``UPDATE``, ``FLUSHALL``)."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from aish.safety.rules import made_here, records_erased, unit_groups
from aish.safety.program_names import alias
from aish.safety.rules.common import (HIGH, LOW, MEDIUM, Ctx, Target, describe, parse_opts,
                                      positionals, target, worst)
from aish.safety.rules.into_dir import into_directory
from aish.safety.rules.system_files import swap_lines_only
from aish.safety.rules.autostart_payloads import payload
from aish.safety.rules.run_files import dropped_program, user_cron_command
from aish.safety.shell_words import Redirect, Word
from aish.safety.winpaths import looks_windows, typed_text
from aish.safety.lazy_regex import lazy


# Where package managers read one key file per vendor (each added by the vendor's install notes): like a drop-in.
# A unit in the admin's own unit folder (`cp myapp.service /etc/systemd/system/`): how a service is installed; the units
# boot and logins stand on are CRITICAL_FILE's, and what a unit runs is read by the start-up readings.
_ADMIN_UNIT = re.compile(r"^/etc/systemd/(system|user)/[^/]+\.(service|timer|socket|path|mount|automount|slice)$")
_VENDOR_KEYS = lazy(r"^/(etc/apt/keyrings|usr/share/keyrings|etc/pki/rpm-gpg)/[^/]+$")


def overwrite_level(t: Target) -> Optional[int]:
    """How bad replacing the content of ``t`` is (None: routine, e.g. a project file)."""
    k = t.kind
    if k in ("device", "critical", "root", "system-top", "home"):
        return HIGH
    if k == "dot-critical":
        return HIGH if re.search(r"/\.ssh/(authorized_keys|id_|config)|/\.(aws|kube)/(config|credentials)$",
                                 t.path) else MEDIUM
    if k == "system":
        stops = unit_groups.kernel_stop(t.path)
        if stops is not None:
            return stops[0]
        if re.search(r"\.d/[^/]+$", t.path) or t.path.startswith(("/proc/sys/", "/sys/")) or \
                _VENDOR_KEYS.match(t.path) or _ADMIN_UNIT.match(t.path):
            return LOW  # a drop-in file, a kernel tunable, one vendor's repository key, an admin's own unit
        return HIGH if records_erased.who_got_in(t.path) else MEDIUM
    if k in ("dot-rc", "history"):
        return MEDIUM
    return None


def _as_typed(w: Word) -> Word:
    """``> C:\\Windows\\win.ini`` from cmd or PowerShell: the path as typed, not as a POSIX shell unescapes it."""
    if "\\" not in w.raw or w.subs:
        return w
    typed = typed_text(w)
    return replace(w, text=typed) if looks_windows(typed) else w


def redirect(red: Redirect) -> Optional[tuple]:
    """``> file`` truncates it before the command runs, whatever the command is."""
    if red.target is None or not red.op.lstrip("0123456789&").startswith((">", "<>")):
        return None
    if red.target.text in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty") or red.op.endswith("&") \
            or re.fullmatch(r"[0-9-]+", red.target.text):
        return None
    if red.target.text.endswith("/"):  # `> /`, `>/etc/`: a shell cannot open a directory to write ("Is a directory")
        return None
    typed = _as_typed(red.target)
    t = target(typed)
    where = f"({red.op} {typed.text})"
    if t.kind == "device":
        return HIGH, f"writes straight to the device {red.target.text} (its data is lost) {where}"
    if t.path == "/proc/sysrq-trigger":
        return HIGH, f"triggers a kernel action (crash, reboot, kill all) {where}"
    stops = unit_groups.kernel_stop(t.path) if ">>" not in red.op else None
    if stops is not None:
        return stops[0], f"{stops[1]} {where}"
    if ">>" in red.op:
        if t.kind == "critical" and re.search(r"/(sudoers|passwd|shadow)", t.path):  # fstab: its lines (meaning)
            return MEDIUM, f"appends to {t.path}; a bad line there locks you out or stops the boot {where}"
        return None
    if t.kind == "history":
        return MEDIUM, f"empties your shell history {where}"
    level = overwrite_level(t)
    erased = records_erased.written_over(typed.raw if "\\" in typed.raw else typed.text)  # `> /var/log/wtmp` alone
    if erased is not None and (level is None or erased[0] > level):
        return erased[0], f"{erased[1]} {where}"
    if level is None:
        return None
    return level, f"overwrites {describe(t)} {where}"


def rule_truncate(c: Ctx) -> Optional[tuple]:
    _, values, pos = parse_opts(c.args, frozenset({"-s", "--size", "-r", "--reference"}))
    size = values.get("-s") or values.get("--size") or ""
    if size.startswith("+"):
        return None
    best = None
    for w in pos:
        t = target(w)
        level = overwrite_level(t)
        if level is None:
            level = {"output": None, "temp": None, "sink": None, "project": LOW}.get(t.kind, MEDIUM)
        if level is not None:
            best = worst(best, (level, f"truncate cuts {describe(t)} to {size or 'a size'} ({c.text})"))
    return best


def rule_dd(c: Ctx) -> Optional[tuple]:
    for w in c.args:
        wiped = w.text.startswith(("wipe=", "hwipe="))
        if wiped:  # dc3dd's wipe: zeros written over the target
            w = Word("of=" + w.text.split("=", 1)[1], "of=" + w.raw.split("=", 1)[1], has_var=w.has_var, glob=w.glob)
        if w.text.startswith("of=") and w.text[3:] not in ("/dev/null", "/dev/zero"):
            typed = w.raw[3:].strip("'\"") if "\\" in w.raw else w.text[3:]  # `of=\\.\PhysicalDrive1` as typed
            t = target(Word(typed, w.raw[3:], has_var=w.has_var, glob=w.glob))
            if t.kind == "var":
                return HIGH, f"dd writes to whatever {w.text[3:]} names, typically a whole disk ({c.text})"
            if t.kind == "device":
                return HIGH, f"dd writes straight to the device {w.text[3:]} (its data is lost) ({c.text})"
            level = overwrite_level(t)
            if level is None and wiped and t.kind not in ("temp", "output"):  # `dc3dd wipe=F`: F's content goes
                level = MEDIUM
            if level is not None:
                return level, f"dd overwrites {describe(t)} ({c.text})"
    return None


def rule_mkfs(c: Ctx) -> Optional[tuple]:
    if any(w.text in ("-V", "--version", "-h", "--help") for w in c.args) and len(c.args) == 1:
        return None
    dev = next((w.text for w in reversed(c.args) if w.text.startswith("/dev/")), None)
    image = next((w.text for w in c.args if _IMAGE_FILE.search(w.text) and not w.has_var), None)
    if dev is None and image is None:  # `mkfs.ubifs -r rootfs/ -o rootfs.ubifs`: the output option names a file
        image = _output_file(c.texts)
    if dev is None and image is not None:  # `mkfs.ext4 disk.img`, `mkfs.erofs out.erofs root/`: a file is built
        return LOW, f"{c.prog} writes a new filesystem into the image file {image} ({c.text})"
    dev = dev or next((w.text for w in reversed(c.args) if not w.text.startswith("-")), "a device")
    if dev.startswith("/") and not dev.startswith("/dev/"):  # a file, not a disk: `mkswap /swapfile`
        if made_here.temporary(dev):
            return LOW, f"{c.prog} makes the file {dev}, made on this line, a filesystem or swap ({c.text})"
        if c.prog.rsplit("/", 1)[-1] == "mkswap":  # a swap file made again: what it held was swap space
            return LOW, f"mkswap makes the file {dev} swap space ({c.text})"
        return MEDIUM, f"{c.prog} writes a new filesystem over the file {dev}: what it holds is lost ({c.text})"
    return HIGH, f"{c.prog} erases {dev} (a new empty filesystem) ({c.text})"


def _output_file(texts: list) -> Optional[str]:
    """The file an image builder's ``-o FILE``/``--output=FILE`` writes, when it is not a device."""
    for k, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if name in ("-o", "--output") and (eq or k + 1 < len(texts)):
            value = value if eq else texts[k + 1]
            return value if value and not value.startswith(("/dev/", "-", "$")) else None
    return None


_IMAGE_FILE = lazy(r"^(?!-|/dev/)[^$]*\.(img|iso|raw|bin|erofs|squashfs|sqfs|cramfs|qcow2|vhdx?|vmdk|fs|"
                   r"ext[234]|fat|dmg)$", re.IGNORECASE)


# diskutil's verbs (any case, as diskutil takes them), also after a family word (`diskutil apfs deleteVolume`)
_DISKUTIL_ERASES = frozenset(("erasedisk", "erasevolume", "zerodisk", "randomdisk", "secureerase", "partitiondisk",
                              "reformat", "deletevolume", "deletecontainer", "deletevolumegroup", "delete", "deletelvg",
                              "deletelv"))
_DISKUTIL_FAMILIES = frozenset(("apfs", "cs", "corestorage", "ar", "appleraid"))


def rule_volume(c: Ctx) -> Optional[tuple]:
    """Volume managers and disk tools that erase what a device holds."""
    p, texts = c.prog, c.texts
    if p in ("zfs", "zpool") and texts[:1] in (["destroy"], ["labelclear"]) or \
            p in ("lvremove", "vgremove", "pvremove", "blkdiscard", "wipefs") and \
            not any(t in ("-n", "--no-act", "--help", "-h") for t in texts) and (p != "wipefs" or any(
                t in ("-a", "--all", "-o", "--offset") or t.startswith("-a") for t in texts)) or \
            p == "btrfs" and texts[:2] in (["subvolume", "delete"], ["device", "remove"]) or \
            p == "diskutil" and _DISKUTIL_ERASES.intersection(w.lower() for w in texts[:1] + (
                texts[1:2] if texts[:1] and texts[0].lower() in _DISKUTIL_FAMILIES else [])):
        return HIGH, f"{p} destroys a volume or its data ({c.text})"
    if p == "zfs" and texts[:1] == ["rollback"]:
        wide = any(re.fullmatch(r"-[a-zA-Z]*[rR][a-zA-Z]*", t) for t in texts)
        return (HIGH if wide else MEDIUM), (f"zfs rollback discards every change since the snapshot"
                                            f"{' and destroys the later snapshots' if wide else ''} ({c.text})")
    if p == "cryptsetup" and any(t in ("luksFormat", "erase", "luksErase", "luksKillSlot", "luksRemoveKey")
                                 for t in texts) or p == "mdadm" and "--zero-superblock" in texts or \
            p == "hdparm" and any(t.startswith("--security-erase") or t == "--trim-sector-ranges" for t in texts) or \
            p == "nvme" and texts[:1] in (["format"], ["sanitize"], ["delete-ns"]) or \
            p == "sg_format" and any(t in ("-F", "--format") or re.fullmatch(r"-[a-zA-Z]*F[a-zA-Z]*", t)
                                     for t in texts):  # without --format it only reports
        return HIGH, f"{p} erases the volume header or the whole disk (its data becomes unreadable) ({c.text})"
    shrinks = p == "lvreduce" and not {"-r", "--resizefs"} & set(texts) and \
        any(t.startswith(("-L", "-l", "--size", "--extents")) for t in texts)  # lvreduce only shrinks
    if shrinks or p in ("lvreduce", "resize2fs", "xfs_growfs", "lvresize") and \
            any(t.startswith("-L") and "-" in t[2:3] for t in texts):
        return MEDIUM, f"{p} shrinks a volume: data past the new end is lost ({c.text})"
    if p in ("flashrom", "flashprog") and any(t in ("-w", "--write", "-E", "--erase") for t in texts):
        return HIGH, f"{p} rewrites the firmware chip ({c.text})"
    return None


def rule_partition(c: Ctx) -> Optional[tuple]:
    flags, _, pos = parse_opts(c.args)
    texts = c.texts
    if flags & {"l", "--list", "p", "--print", "d", "--dump", "--help", "h"} and c.prog not in ("parted", "sgdisk"):
        return None
    if c.prog == "parted" and not set(t.split(",")[0] for t in texts) & {"mklabel", "rm", "mkpart", "resizepart",
                                                                      "mktable"}:
        return None
    if c.prog == "sgdisk" and not flags & {"Z", "--zap-all", "o", "--clear", "z", "--zap", "d", "--delete",
                                           "n", "--new", "g", "--mbrtogpt"}:
        return None
    if c.prog == "sfdisk" and flags & {"J", "--json"}:
        return None
    dev = next((t for t in texts if t.startswith("/dev/")), "a disk")
    return (HIGH if c.prog in ("parted", "sgdisk", "sfdisk") or c.seg.redirects or c.chain else MEDIUM,
            f"{c.prog} rewrites the partition table of {dev} ({c.text})")


_BACKUP_COPY = lazy(r"\.(bak|orig|old|backup|save|dist|pre-\w+|\d{6,14})$|~$")


def rule_copy_over(c: Ctx) -> Optional[tuple]:
    """``cp``/``install``/``ln -sf``/``tee``/``pv`` writing over a device, system file or dotfile."""
    flags, values, pos = parse_opts(c.args, frozenset({"-t", "--target-directory", "-m", "--mode", "-o",
                                                       "--owner", "-g", "--group", "-S", "--suffix",
                                                       "-b", "--backup"} if c.prog not in ("tee", "sponge") else set()))
    if c.prog in ("tee", "sponge"):
        if flags & {"a", "--append"}:
            return None
        dests = pos
    elif c.prog == "pv":
        return None
    else:
        into = values.get("-t") or values.get("--target-directory")
        if c.prog == "ln" and not flags & {"f", "--force"} or (len(pos) < 2 and not into):
            return None
        if into:
            dests = [into_directory(Word(into + "/", into + "/"), pos)]
        else:
            inside = into_directory(pos[-1], pos[:-1])
            dests = [inside if inside is not None else pos[-1]]
    best = None
    for w in dests:
        if w is None:
            continue
        t = target(w)
        if t.kind == "device":
            best = worst(best, (HIGH, f"{c.prog} writes straight to the device {w.text} ({c.text})"))
            continue
        if c.prog == "cp" and t.kind == "system" and _BACKUP_COPY.search(t.path):
            continue  # `sudo cp /etc/fstab /etc/fstab.bak`: a backup copy beside the original
        level = overwrite_level(t)
        if level is not None:
            best = worst(best, (level, f"{c.prog} overwrites {describe(t)} ({c.text})"))
    return best


_INPLACE = {"sed": {"-i", "--in-place"}, "perl": {"-i", "-pi"}, "ruby": {"-i"}, "awk": {"-i"}, "gawk": {"-i"},
            "ed": set(), "ex": set(), "sponge": set()}


# `sed -ri`, `-Ei`, `-ni`: sed's flags without a value, then -i (`-ir` is -i with the suffix `r`: startswith)
_SED_FLAGS_THEN_I = lazy(r"^-[nrEsuz]+i")


def rule_inplace(c: Ctx) -> Optional[tuple]:
    """``sed -i`` on a project file is routine; on system configuration it can lock you out."""
    texts = c.texts
    prog = c.prog if c.prog in _INPLACE else alias(c.prog) or c.prog  # perl5.36, ruby3.2: perl's and ruby's -i
    if prog in ("sed", "perl", "ruby"):
        if not any(t.startswith(("-i", "--in-place")) or (t.startswith("-") and not t.startswith("--")
                                                            and "i" in t and prog == "perl") or
                   (prog == "sed" and _SED_FLAGS_THEN_I.match(t)) for t in texts):
            return None
    elif c.prog.lower().endswith("awk"):  # original-awk, onetrue-awk: only their -i inplace edits
        if not any(t in ("-i", "inplace") or t == "-iinplace" for t in texts):
            return None
    best = None
    for w in c.args:
        if w.text.startswith("-"):
            continue
        t = target(w)
        if t.kind == "critical" and t.path == "/etc/fstab" and prog == "sed" and swap_lines_only(c.texts):
            best = worst(best, (LOW, f"edits the swap lines of /etc/fstab: swap is off from the next boot ({c.text})"))
        elif t.kind in ("critical",):
            best = worst(best, (HIGH, f"edits {t.path} in place; a bad edit locks you out or stops the boot "
                                      f"({c.text})"))
        elif t.kind in ("system", "dot-critical") and (w.text.startswith(("/", "~")) or w.has_var):
            best = worst(best, (MEDIUM, f"edits the system or credential file {t.shown} in place ({c.text})"))
        elif t.kind in ("system-top", "root", "home") and w.glob:
            best = worst(best, (HIGH, f"edits every file in {describe(t)} in place ({c.text})"))
    return best


_ADDS = frozenset({"echo", "printf", "cat"})


def _appended(chain: list) -> bool:
    """The table fed in is the current one (``crontab -l``) with lines printed after it, nothing filtered."""
    argvs = [seg.argv for seg in chain]
    return bool(argvs) and argvs[0][:1] == ["crontab"] and "-l" in argvs[0] and \
        all(argv[:1] and argv[0] in _ADDS for argv in argvs[1:])


def _appended_jobs(c: Ctx) -> Optional[tuple]:
    """The commands of the lines echoed after ``crontab -l``, judged as what cron will run."""
    best = None
    for seg in c.chain[1:]:
        if seg.argv[0] == "cat":
            continue
        text = " ".join(t for t in seg.argv[1:] if not re.fullmatch(r"-[neE]+", t))
        for line in re.split(r"\\n|\n", text)[:12]:
            command = user_cron_command(line)
            inner = c.recurse(command) if command else None
            marked = payload(command) if command else None  # a way back in: a shell, an account, hidden code
            if marked is not None:
                best = worst(best, (marked[0], f"{marked[1]}, each time cron runs it (crontab -)"))
            if inner is not None and inner[0] >= MEDIUM:
                best = worst(best, (inner[0], f"{inner[1]}, each time cron runs it (crontab -)"))
            elif command and dropped_program(command):
                best = worst(best, (MEDIUM, f"runs {dropped_program(command)} from a temporary or hidden place, "
                                            f"each time cron runs it (crontab -)"))
    return best


def rule_crontab(c: Ctx) -> Optional[tuple]:
    flags, _, pos = parse_opts(c.args, frozenset({"-u"}))
    if "r" in flags:
        return MEDIUM, f"crontab -r deletes all your cron jobs with no backup ({c.text})"
    if pos and not flags & {"l", "e"}:
        if pos[0].text == "-" and _appended(c.chain):  # `(crontab -l; echo "0 3 * * * job") | crontab -`
            return _appended_jobs(c)  # the old table and lines more: judged by what the new lines run
        return MEDIUM if pos[0].text != "-" or c.chain else LOW, \
            f"replaces your whole crontab with {pos[0].text} ({c.text})"
    return None


_SQL_HIGH = lazy(r"\b(DROP\s+(DATABASE|SCHEMA|TABLE|KEYSPACE|COLLECTION|USER|OWNED)|TRUNCATE)\b|"
                 r"\bDELETE\s+FROM\s+[\w.\"`\[\]]+\s*(;|$)|\bDELETE\s+[\w.\"`]+\s*(;|$)|\bALTER\s+TABLE\s+\S+\s+DELETE\s*(;|$)|"
                 r"\b_?drop(Database|Collection)?\s*\(|\bFLUSH_?(ALL|DB)\b|\bDETACH\s+DELETE\b|"
                 r"\b(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)", re.IGNORECASE)
_SQL_MEDIUM = lazy(r"\b(DROP\s+\w+|ALTER\s+TABLE\s+\S+\s+DROP|UPDATE\s+[\w.\"`]+\s+SET\s+(?!.*\bWHERE\b)"
                   r"|DELETE\s+FROM\s+\S+\s+(?!WHERE)|REVOKE\s+ALL|ALTER\s+USER|GRANT\s+ALL|DEL\s+|UNLINK\s+)\b|"
                   r"\.drop\s*\(|\.deleteMany\s*\(|\.delete_many\s*\(", re.IGNORECASE)
SQL_FLAGS = {"psql": {"-c", "--command"}, "mysql": {"-e", "--execute"}, "mariadb": {"-e", "--execute"},
             "clickhouse-client": {"-q", "--query"}, "cqlsh": {"-e", "--execute"},
             "mongo": {"--eval"}, "mongosh": {"--eval"}, "sqlcmd": {"-Q", "-q"}, "mysqlsh": {"-e", "--sql"},
             "duckdb": {"-c"}, "sqlite3": {"-cmd"}, "cockroach": {"-e", "--execute"}, "snowsql": {"-q"},
             "bq": set(), "redis-cli": set(), "influx": {"-execute"}, "cypher-shell": set(), "usql": {"-c"},
             "pgcli": set(), "mycli": {"-e", "--execute"}, "litecli": {"-e"}, "trino": {"--execute"},
             "valkey-cli": set(), "keydb-cli": set()}


# A WHERE that holds for every row is no filter: `WHERE 1=1`, `WHERE true`, `WHERE id > 0 OR 1 = 1`.
_WHERE = lazy(r"\bWHERE\s+(.*?)\s*(?=;|$|\bLIMIT\b|\bRETURNING\b|\bORDER\s+BY\b)", re.IGNORECASE | re.DOTALL)
_ALWAYS = lazy(r"^\(?\s*(1|true|not\s+false|(\S+)\s*=\s*\2|1\s*<>\s*0)\s*\)?$", re.IGNORECASE)


def _no_filter(sql: str) -> str:
    """``sql`` without a WHERE clause that every row meets."""
    def drop(m: re.Match) -> str:
        terms = re.split(r"\s+OR\s+", m.group(1), flags=re.IGNORECASE)
        return "" if any(_ALWAYS.match(t.strip()) for t in terms) else m.group(0)
    return _WHERE.sub(drop, sql)


def sql_finding(sql: str, text: str) -> Optional[tuple]:
    sql = _no_filter(re.sub(r"'[^']*'", "''", sql)).rstrip()
    m = _SQL_HIGH.search(sql)
    if m:
        return HIGH, f"{' '.join(m.group(0).split()).rstrip(';')} destroys data ({text})"
    m = _SQL_MEDIUM.search(sql)
    if m:
        return MEDIUM, f"{' '.join(m.group(0).split())} changes or removes data ({text})"
    m = re.search(r"\b(DELETE\s+FROM|UPDATE)\s+\S+.*\bWHERE\b", sql, re.IGNORECASE | re.DOTALL)
    if m:
        return LOW, f"{' '.join(m.group(1).split())} … WHERE changes or removes the matching rows ({text})"
    return None


def rule_sql(c: Ctx) -> Optional[tuple]:
    names = SQL_FLAGS.get(c.prog, set())
    sqls = []
    args = c.args
    for i, w in enumerate(args):
        t = w.text
        for name in names:
            if t == name and i + 1 < len(args):
                sqls.append(args[i + 1].text)
            elif t.startswith(name + "=") or (len(name) == 2 and t.startswith(name) and len(t) > 2):
                sqls.append(t[len(name) + (1 if t.startswith(name + "=") else 0):])
    if c.prog in ("sqlite3", "duckdb", "redis-cli", "valkey-cli", "keydb-cli", "bq", "cypher-shell", "litecli"):
        sqls.append(" ".join(positionals(args, {"-h", "-p", "-a", "-n", "-u", "--user", "--password",
                                                "--project_id", "--location"})))
    sqls.extend(r.body for r in c.seg.redirects if r.body)
    for feeder in c.chain:
        if feeder.words and feeder.words[0].text in ("echo", "printf", "cat"):
            sqls.append(" ".join(w.text for w in feeder.words[1:]))
            sqls.extend(r.body for r in feeder.redirects if r.body)
    best = None
    for sql in sqls:
        best = worst(best, sql_finding(sql, c.text))
    if c.prog in ("redis-cli", "valkey-cli", "keydb-cli"):
        command = next((w.text.upper() for w in c.args if not w.text.startswith("-")
                        and not re.fullmatch(r"[\w.-]+:\d+|\d+", w.text)), "")
        if command in ("DEL", "UNLINK", "HDEL", "SREM", "ZREM", "LREM", "EXPIRE"):
            best = worst(best, (MEDIUM if c.xargs else LOW, f"deletes keys ({c.text})"))
    if best is not None and c.xargs:  # once per line the pipe feeds
        best = (min(best[0] + 1, HIGH), f"{best[1]}, for every line the pipe feeds")
    return best


RULES = {"truncate": [rule_truncate], "dd": [rule_dd], "dcfldd": [rule_dd], "dc3dd": [rule_dd], "ddpt": [rule_dd],
         "sg_dd": [rule_dd], "mke2fs": [rule_mkfs], "mkswap": [rule_mkfs],
         "newfs": [rule_mkfs], "mkntfs": [rule_mkfs], "mkdosfs": [rule_mkfs], "mformat": [rule_mkfs],
         "fdisk": [rule_partition], "sfdisk": [rule_partition], "gdisk": [rule_partition],
         "cfdisk": [rule_partition], "parted": [rule_partition], "sgdisk": [rule_partition],
         "cp": [rule_copy_over], "install": [rule_copy_over], "ln": [rule_copy_over], "tee": [rule_copy_over],
         "sed": [rule_inplace], "perl": [rule_inplace], "ruby": [rule_inplace], "awk": [rule_inplace],
         "gawk": [rule_inplace], "sponge": [rule_copy_over], "crontab": [rule_crontab]}
for _name in ("zfs", "zpool", "lvremove", "vgremove", "pvremove", "blkdiscard", "wipefs", "btrfs", "diskutil",
              "cryptsetup", "mdadm", "hdparm", "nvme", "sg_format", "lvreduce", "lvresize", "flashrom", "flashprog"):
    RULES[_name] = [rule_volume]
for _name in SQL_FLAGS:
    RULES.setdefault(_name, []).append(rule_sql)
