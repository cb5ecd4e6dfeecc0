"""Effect: destruction said in vendors' short words, for programs no rule names.

- a program named for dropping or deleting behind a short abbreviation (``dbidrop prod``, ``qdrop``,
  ``ipdel``): the abbreviation names the kind of thing, the tail the verb;
- ``down`` of an infrastructure tool, told not to ask (``sky down -a -y``, ``nitric down -y``): it tears
  down what the tool deployed (compose's own ``down`` keeps its quiet);
- a program named for clearing or resetting something, forced (``tpm_clear --force``, ``nvram-reset -y``);
- a cluster member removed by a short option (``crm_node -R node3 --force``);
- a schema diff made with its unsafe statements allowed, piped into a database client (``migra --unsafe
  A B | psql B``, ``… --enable-drop-table | mysql``): the drops it writes are run.

Medium; high where everything is said (``--all``/``-a``)."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment
from aish.safety.rules.triggers import triggered_by

# `dbidrop`, `qdrop`, `vgdestroy`: up to three consonants (an `i` allowed last), then the verb.
_FUSED_NAME = LazyRegex(r"^[b-df-hj-np-tv-z]{1,3}i?(drop|destroy|delete)$")
_LOOKS = frozenset({"list", "ls", "show", "help", "status", "info", "version"})
_CONFIRM = frozenset({"-y", "--yes", "--force", "-f", "--auto-approve", "--non-interactive", "--no-confirm",
                      "--confirm", "-auto-approve", "--assume-yes", "--yes-i-really-mean-it"})
_ALL = frozenset({"-a", "--all", "all", "--everything"})
# Programs whose `down` is routine or not a teardown (compose keeps volumes; links and VPNs have their own rules).
_DOWN_ROUTINE = LazyRegex(r"compose|^(ip|ifdown|nmcli|networkctl|wg-quick|wg|vpn|tailscale|zerotier-cli|"
                           r"openvpn|docker|podman|nerdctl|migrate|goose|dbmate|sqlx|diesel|sql-migrate|knex|"
                           r"sequelize|typeorm|flyway|liquibase|alembic|rake|rails|yii|artisan)$")
# `cf d APP -f`, `cf ds SERVICE -f`: CLIs' one- to three-letter delete aliases (never `do`, `db`, `dev`...).
_DELETE_LETTERS = LazyRegex(r"^d[a-z]{0,2}$")
_NOT_DELETE = frozenset({"do", "db", "dev", "dns", "dir", "doc", "dig", "dl", "dry", "dbg", "def", "dep", "deb", "dot",
                         "du", "df", "dd", "diff", "dup", "dt", "dx", "dm", "dc"})
# A migration tool taken back to before everything (`update 0`, `-Migration 0`, `--to-version 0`).
_ZERO = frozenset({"0", "zero", "base", "first"})
_MIGRATION_WORDS = frozenset({"migrate", "migration", "migrations", "database", "update-database", "downgrade", "down",
                              "rollback", "revert", "update", "schema"})
_TARGET_OPTIONS = frozenset({"-migration", "--migration", "-targetmigration", "--target", "--to", "--to-version",
                             "--target-version", "--version", "-target", "--step-to"})
_CLEARS_NAME = LazyRegex(r"([-_]|(?<=[a-z]{3}))(clear|reset|wipe|erase|zeroize|factory[-_]?reset)$", re.IGNORECASE)
# AIX-style names: a delete prefix fused with the kind of thing (`rmlv datalv`, `rmvg datavg`, `rmdev -dl hdisk2`).
_PREFIXED_DELETE = LazyRegex(r"^(rm|del|dlt|rmv|clr)(lv|lvcopy|vg|pv|dev|fs|ps|user|group|role|snap|path|cluster|"
                             r"node|vol|disk|lun|pool|vdisk|share|queue|q|site|domain|zone|tenant|bucket|db|"
                             # vendor suites' own nouns: IBM MQ and IBM i (`dltmqm`, `DLTLIB`, `CLRPFM`), transactions
                             r"mqm|qmgr|mqlsr|mqsvc|mqinst|mqinf|lib|f|file|pfm|mbr|m|usrprf|obj|dtaara|dtaq|jobq|outq|msgq|"
                             r"sbsd|jrn|jrnrcv|pgm|srvpgm|splf|txn|txns|chl|sub|topic|tbl|tbls|idx|space|spaces|"
                             r"chunk|dbspace|ckpt|backup|bkp|vault|volset)$")
_CLUSTER_NAME = LazyRegex(r"(node|member|peer|cluster)", re.IGNORECASE)
# Options that let a schema diff write destructive statements (drops, column losses).
_UNSAFE = frozenset({"--unsafe", "--allow-unsafe", "--with-drop", "--enable-drop", "--enable-drop-table",
                     "--allow-hazards", "--allow-data-loss", "--accept-data-loss", "--drop", "--include-drops"})
_DB_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "cockroach", "duckdb",
                         "mongosh", "cqlsh", "usql", "pgcli", "mycli", "litecli", "isql", "sqlplus", "db2", "vsql"})


# Asked on every unflagged command; each finding holds one of these in the line: a migration's word (a schema taken
# back to 0), a prefixed delete's name (`rm…`, `del…`, `dlt…`, `clr…`), the force a short delete needs (`-f`, `-y`),
# a fused name's verb, a clearing name's verb, or a cluster member's word (`-R` of a member).
@triggered_by(("migrat", "database", "down", "rollback", "revert", "update", "schema", "rm", "del", "dlt", "clr", "-f",
               "-y", "drop", "destroy", "clear", "reset", "wipe", "erase", "zeroize", "node", "member", "peer",
               "cluster"))
def rule_short_verbs(c: Ctx) -> Optional[tuple]:
    """Destruction in abbreviations: fused names, `down -y`, forced clears, `-R` of a member."""
    texts = c.texts
    prog = c.prog.lower()
    said = set(texts)
    zero = _to_zero(c, said)
    if zero is not None:
        return zero
    operands = [t for t in texts if not t.startswith("-")]
    prefixed = _PREFIXED_DELETE.match(prog) if operands and operands[0] not in _LOOKS else None
    if prefixed is not None:
        verb = "clearing" if prefixed.group(1) == "clr" else "deleting"
        return MEDIUM, f"{c.prog} is named for {verb} a {prefixed.group(2)}: {operands[0]} ({c.text})"
    if not (said & _CONFIRM or "-R" in said or _FUSED_NAME.match(prog)):
        return None  # each form below is forced, confirmed, `-R`, or a fused name
    if len(operands) >= 2 and _DELETE_LETTERS.match(operands[0]) and operands[0] not in _NOT_DELETE and \
            said & {"-f", "--force", "-y", "--yes"}:
        return MEDIUM, f"{c.prog} {operands[0]} (a short delete) removes {operands[1]}, forced ({c.text})"
    if _FUSED_NAME.match(prog) and operands and operands[0] not in _LOOKS:
        return MEDIUM, f"{c.prog} is named for deleting what it is given: {operands[0]} ({c.text})"
    if operands[:1] == ["down"] and said & _CONFIRM and not _DOWN_ROUTINE.search(prog):
        wide = bool(said & _ALL)
        return (HIGH if wide else MEDIUM), f"{c.prog} down tears down what it deployed" \
            f"{', all of it,' if wide else ''} without asking ({c.text})"
    if _CLEARS_NAME.search(prog) and said & _CONFIRM:
        return MEDIUM, f"{c.prog} clears or resets what it is named for, forced ({c.text})"
    if "-R" in texts and _CLUSTER_NAME.search(prog) and texts.index("-R") + 1 < len(texts) and \
            not texts[texts.index("-R") + 1].startswith("-"):
        return MEDIUM, f"{c.prog} -R removes {texts[texts.index('-R') + 1]} from the cluster ({c.text})"
    return None


def _to_zero(c: Ctx, said: set) -> Optional[tuple]:
    """``dotnet ef database update 0``, ``Update-Database -Migration 0``, ``atlas migrate down --to-version 0``:
    a schema taken back to before its first migration drops every table the migrations made."""
    if not said & _ZERO or "--sql" in said or not (said | {c.prog.lower()}) & _MIGRATION_WORDS and \
            not any(w in c.lowered for w in ("migrat", "database")):
        return None
    texts = c.texts
    for k, t in enumerate(texts):
        if t.lower() not in _ZERO:
            continue
        before = texts[k - 1].lower() if k else ""
        if before in _TARGET_OPTIONS or before in _MIGRATION_WORDS or not before.startswith("-") and k >= 2:
            return HIGH, f"{c.prog} takes the schema back to {t}, before its first migration: every table the " \
                f"migrations made is dropped ({c.text})"
    return None


def rule_unsafe_diff_applied(c: Ctx) -> Optional[tuple]:
    """``migra --unsafe A B | psql B``: a diff's drops run on the database that reads them."""
    if not c.chain or c.prog.lower() not in _DB_CLIENTS:
        return None
    for feeder in c.chain:
        words = [w.text.split("=", 1)[0] for w in feeder.words]
        unsafe = next((t for t in words if t in _UNSAFE), None)
        if unsafe is not None:
            return MEDIUM, f"{c.prog} runs a schema diff made with {unsafe}: the drops it holds lose data " \
                f"({fragment([w.raw for w in feeder.words])} | {c.prog} …)"
    return None
