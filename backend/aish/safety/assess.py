"""Local safety verdicts for suggested commands: is this about to destroy something?

aish never runs a command; the user does.  This check makes sure they know
what they are about to run: every suggested command is parsed (quotes, ``&&``,
``;``, pipes, ``$( )``, ``sudo``/``env``/``xargs`` prefixes, ``bash -c``,
``ssh host cmd``) and each simple command is judged by a rule for its
program (``safety/rules/``: one module per effect).  Grepping the text would flag ``echo "rm -rf /"``
and miss ``sudo -u root /bin/rm -fr -- /``; parsing gets both right.

Levels: ``high`` irreversible data or system destruction, ``medium``
destructive but scoped or recoverable-ish, ``low`` notable (``sudo``).  The
verdict is the highest finding across all segments.  ``assess`` never raises:
a line it cannot parse is parsed best-effort, and an internal error yields no
verdict (logged) rather than a broken answer.
"""
from __future__ import annotations

import logging
import time
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from aish.safety import placeholders, ps_aliases, restarts, win_quotes, winpaths
from aish.safety.command_line import expand_abbreviations
from aish.safety.long_options import GIT_LONG_OPTIONS, LONG_OPTIONS, expand_long_options
from aish.safety.plain_programs import plain_programs
from aish.safety.program_names import plain_name
from aish.safety.programs import ABBREVIATIONS
from aish.safety.rules import documents, exfil, fleets, flows, inout, listing, meaning, shellstate, table
from aish.safety.rules import bulk_offline, clear_cmdlets, unpacked_system, win_file_losses, win_path_replaced
from aish.safety.rules import wmi_methods, wmi_mirrors, written_scripts
from aish.safety.rules import ps_targets, ps_uploads, security_products_off, socket_fds, system_parts
from aish.safety.rules import loop_files, made_here, system_writes
from aish.safety.rules import data_locked
from aish.safety.rules import covert_channels, drop_lines, public_drops, secret_destinations, secret_variables
from aish.safety.rules import code_reach, unknown_senders
from aish.safety.rules import accounts_made, autostart_lines, fetched_runs, patched_protections, times_forged, \
    typed_sessions
from aish.safety.rules.common import BASE, Ctx, fragment
from aish.safety.rules.content import redirect
from aish.safety.shell_words import Segment, segments
from aish.safety.unwrap import ASSIGN as _ASSIGN, unwrap
from aish.safety.lazy_regex import lazy

log = logging.getLogger("aish.safety")

LEVELS = ("low", "medium", "high")
_RANK = {name: i for i, name in enumerate(LEVELS)}
MAX_CHARS = 20000  # a suggested command longer than this is judged on its start
_MAX_DEPTH = 6  # nesting of $( ), bash -c, ssh ... that is still followed
_TIME_BUDGET = 1.0  # CPU seconds of its thread one command may take (a busy machine does not cut it short)
_ABBREVIATED_LONG = frozenset(LONG_OPTIONS) | ({"git"} if GIT_LONG_OPTIONS else set())
_FEEDERS = 8  # segments before a pipe that a rule may look at (`curl … | tee x | sh`)
# An init script run by its path is `service NAME VERB` (`/etc/init.d/docker stop`: every container stops).
_INIT_SCRIPT = lazy(r"^/(etc|usr/local/etc)/(rc\.d/)?(init\.d|rc\.d)/[\w@.-]+$")

# name(){ name|name& };name  (also with spaces, and ":" as the name); bounded, so no long scan per candidate
_FORK_BOMB = lazy(r"([\w:.]{1,64})\s*\(\s*\)\s*\{[^}]{0,300}?\1\s*\|\s*&?\s*\1\s*&")


@dataclass
class _Budget:
    """When judging must stop, and how much was left unjudged.

    The budget is CPU time of the judging thread, but reading that clock is a system call (~1 µs
    on a bare host, 5 µs in some VMs: more than a short command's whole judgement costs) and it was
    read at every command's start.  A thread cannot have used more CPU than wall time has passed,
    so only the wall clock (a vDSO read, ~50 ns) is read until ``_SETTLE`` seconds have passed; the
    CPU clock is read then for the first time, and the CPU spent before it is taken to be the wall
    time that passed (its upper bound: a thread that was not descheduled meanwhile gets the very
    deadline it had; one that was loses at most ``_SETTLE`` of its second).  Judging nearly always
    ends long before, without a single read of the CPU clock."""

    started: float  # on the wall clock
    deadline: Optional[float] = None  # on the thread's CPU clock, once read
    skipped: int = 0  # commands left unjudged when the time ran out
    too_deep: bool = False  # a substitution or `bash -c` nested deeper than is followed
    bare: dict = field(default_factory=dict)  # a bare word's finding, by all it was judged with (_bare_key)

    def spent(self) -> bool:
        elapsed = time.perf_counter() - self.started
        if self.deadline is None:
            if elapsed < _SETTLE and elapsed <= _TIME_BUDGET:
                return False
            self.deadline = time.thread_time() + _TIME_BUDGET - elapsed
        return elapsed > _TIME_BUDGET and time.thread_time() > self.deadline


_SETTLE = 0.01  # wall seconds a command is judged before the CPU clock is first read


_BUDGET: ContextVar = ContextVar("aish_safety_budget", default=None)


@dataclass(frozen=True)
class Verdict:
    level: str  # "low" | "medium" | "high"
    reason: str  # one line, e.g. "recursive forced delete of / (rm -rf /)"

    def to_dict(self) -> dict:
        return {"level": self.level, "reason": self.reason}


def assess(command: str, cwd: str = "") -> Optional[Verdict]:
    """The highest-level finding in ``command``, or None when nothing is worth a warning.

    ``cwd`` is where the user's shell stands: ``rm -rf usr`` typed in ``/`` is
    judged as ``rm -rf /usr``.
    """
    token = BASE.set(cwd if cwd.startswith("/") else "")
    budget = _Budget(time.perf_counter())
    budget_token = _BUDGET.set(budget)
    loops_token = listing.LOOP_LISTS.set(None)
    files_token = loop_files.LOOP_FILES.set(None)
    made_token = made_here.MADE.set(None)
    try:
        found = _assess(command[:MAX_CHARS], 0)
        blanks = placeholders.filled(command[:MAX_CHARS])  # `rm -r <directory>`: what runs once it is filled in
        if blanks is not None:
            other = _assess(blanks.text, 0)
            found = other if blanks.refused else higher(found, other)
    except Exception:  # never break an answer, nor pass a command it did not judge as quiet (as a cut-short one)
        log.exception("safety check failed on a command")
        return Verdict(LEVELS[1], "not judged: the safety check failed on this command (the daemon's log says why)")
    finally:
        BASE.reset(token)
        _BUDGET.reset(budget_token)
        listing.LOOP_LISTS.reset(loops_token)
        loop_files.LOOP_FILES.reset(files_token)
        made_here.MADE.reset(made_token)
    if budget.skipped:
        found = higher(found, (1, f"too long to judge in full: {budget.skipped} of its commands were not checked"))
    if budget.too_deep:
        found = higher(found, (1, "nested too deeply to judge in full ($( ) or sh -c inside each other)"))
    if found is None:
        return None
    return Verdict(LEVELS[found[0]], one_line(found[1]))


def higher(a: Optional[tuple], b: Optional[tuple]) -> Optional[tuple]:
    """The more severe of two findings ``(rank, reason)``; the first wins a tie."""
    if b is None:
        return a
    if a is None or b[0] > a[0]:
        return b
    return a


def _assess(text: str, depth: int) -> Optional[tuple]:
    if not text.strip():
        return None
    if depth > _MAX_DEPTH:
        budget = _BUDGET.get()
        if budget is not None:
            budget.too_deep = True
        return None
    text = win_quotes.closed(text)  # `"C:\\Program Files\\" & rd /s /q …`: cmd's quote closes after the backslash
    best = None
    recurse = _recurse(depth)  # a nested text, judged one level deeper (one function for every rule of the line)
    if "{" in text and "&" in text and _FORK_BOMB.search(text):  # the pattern needs both: one scan, not one per start
        best = (2, "fork bomb: a function that starts copies of itself until the system hangs")
    best = higher(best, _line_readings(text, recurse))
    segs = segments(text)
    if " = " in text:  # `$a = New-ScheduledTaskAction …`: the cmdlet, whose result a variable keeps
        segs = ps_aliases.assigned(segs)
    segs = ps_aliases.resolve(segs)  # `gsv | spsv` is `Get-Service | Stop-Service`
    plain_programs(segs)  # `echo … | sudo gtee /etc/sudoers`: every rule reads GNU's tee
    best = higher(best, _command_readings(text, segs, recurse))
    if "(" in text and any(s.link == "(" for s in segs):  # `Stop-VM -Name (Get-VM).Name -Force`: the group a word
        segs = ps_targets.joined_groups(segs)  # (the line's rules above read the groups as the shell splits them)
    budget = _BUDGET.get()
    chain: list = []
    # `freeze main.go -o /tmp/c.png && curl -F f=@/tmp/c.png https://0x0.st`: a file made here from the user's own
    own = drop_lines.made_own(text, segs) if "." in text else None
    own_kept = public_drops.MADE_OWN.set(own) if own else None
    loop_files.bind(segs)  # `… done < <(find /var/www -name '*.php')`: `$f` in the body is each file found
    making = made_here.names_a_maker(text)  # `d=$(mktemp -d) && … && rm -rf "$d"`: `$d` is a path the line made
    undone = restarts.restarted(segs, text)  # `net stop wuauserv && … && net start wuauserv`: the stop is a restart
    for index, seg in enumerate(segs):
        if best is not None and best[0] == 2:
            break  # nothing after a high finding changes the verdict: a higher one there is none, and a tie keeps it
        if budget is not None and budget.spent():
            budget.skipped += len(segs) - index
            break
        chain = chain[-(_FEEDERS - 1):] + [segs[index - 1]] if index and seg.link in ("|", "|&") else []
        if seg.fed_by > 1:  # `(crontab -l; echo …) | crontab -`: every command of the group feeds the pipe
            chain = segs[max(0, index - seg.fed_by, index - _FEEDERS):index]
        if index in undone:
            continue
        for word in seg.words:
            for sub in word.subs:
                best = higher(best, _assess(sub, depth + 1))
        for red in seg.redirects:
            best = higher(best, redirect(red))
            if red.target is not None:
                for sub in red.target.subs:
                    best = higher(best, _assess(sub, depth + 1))
        key = _bare_key(seg, chain, depth) if budget is not None else None
        if key is not None and key in budget.bare:  # `x | x | … | x`: this very command, judged alike before
            best = higher(best, budget.bare[key])
        else:
            marks = (budget.too_deep, budget.skipped) if budget is not None else None
            found = _segment(seg, chain, depth)
            if key is not None and BASE.get() == key[3] and listing.LOOP_LISTS.get() is None \
                    and loop_files.LOOP_FILES.get() is None and not public_drops.MADE_OWN.get() \
                    and marks == (budget.too_deep, budget.skipped):  # judging it changed nothing else
                budget.bare[key] = found
            best = higher(best, found)
        _follow_cd(seg)
        if making or made_here.MADE.get() is not None:
            made_here.follow(seg)
    if own_kept is not None:
        public_drops.MADE_OWN.reset(own_kept)
    return best


def _line_readings(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """The findings read from the whole line as typed, before it is split into commands (the first of equals kept).

    Each reading is asked only when the line holds what its own first lines look for (the same test, written at the
    call: a reading's call and its ``higher`` cost ~0.3 us even where it answers None at once, ~25 a line);
    tests/safety/test_judge_fast_paths.py asks every skipped one."""
    best = None
    low = text.lower()
    if "io.file]::" in low or "eventlog" in low and "clear" in low:
        best = clear_cmdlets.line_clears_event_log(text)
    if "wmi" in low or "cim" in low or "win32_" in low:
        best = higher(best, wmi_methods.line_wmi_method(text, recurse))  # `(gwmi …).Uninstall()`
    if "_" in text or "rov" in text or "ROV" in text:  # MSFT_MpPreference, StdRegProv called directly
        best = higher(best, wmi_mirrors.line_wmi_mirror(text, recurse))
    if "etValue" in text or "egWrite" in text or "etvalue" in text or "egwrite" in text:  # a Run key
        best = higher(best, autostart_lines.line_code_registry(text))
    if "onsumer" in text or "ONSUMER" in text:  # a permanent WMI consumer's command
        best = higher(best, autostart_lines.line_event_consumer(text))
    if "elete(" in text:
        best = higher(best, win_file_losses.line_item_deleted(text, recurse))  # (gi x).Delete()
    if "|" in text:
        best = higher(best, win_file_losses.line_listed_files_lost(text, recurse))
    if "ariable(" in text:
        best = higher(best, win_path_replaced.line_path_replaced(text, recurse))
    if ">" in text and ("echo" in low or "printf" in text):
        best = higher(best, written_scripts.line_written_script(text, recurse))  # echo > f; x /s f
    if "irectory(" in text or "IRECTORY(" in text:
        best = higher(best, unpacked_system.line_extracted(text))  # [IO.Compression.ZipFile]::ExtractToDirectory
    if "alue" in text or "opy" in text or "emory" in text or "rotect" in text or "rite" in text or \
            "] =" in text or "]=" in text:
        best = higher(best, patched_protections.line_protection_patched(text))  # AMSI, ETW patched in memory
    if "ime" in text or "IME" in text or "ouch" in text or "odif" in text or "eDate" in text or \
            "sDate" in text:
        best = higher(best, times_forged.line_times_forged(text))  # (Get-Item C:\Windows\x.dll).CreationTime = '…'
    if "\n" in text:
        best = higher(best, typed_sessions.line_code_written(text, recurse))  # `jjs⏎new FileWriter('/etc/…')`
        best = higher(best, typed_sessions.line_session_saved(text, recurse))  # `ed /etc/sudoers⏎a⏎…⏎.⏎w`
    # a ransom note, code writing noise over listed files, a loop's `mv "$f" "$f.locked"` (rules/data_locked.py)
    return higher(best, data_locked.line_data_locked(text, recurse))


def _command_readings(text: str, segs: list, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """The findings read from the line's commands together (the first of equals kept), each asked as above."""
    many = len(segs) > 1
    best = fetched_runs.downloaded_then_run(segs) if many else None  # a fetch and its run: two commands
    if "otifyCmdLine" in text or "OTIFYCMDLINE" in text or "otifycmdline" in text:  # a BITS job's run
        best = higher(best, autostart_lines.line_bits_download_run(segs))
    if "--on-" in text or "submit" in text:  # `systemd-run --on-boot=1m CMD`, `launchctl submit -l L -- CMD`
        best = higher(best, autostart_lines.line_transient_jobs(segs))
    if "user" in text or "User" in text or "USER" in text:  # `net user x /add & net localgroup …`
        best = higher(best, accounts_made.line_accounts_made(text, segs))
    if many:
        best = higher(best, flows.rule_flows(segs))
    if "push" in text:  # `docker build -t R/x ~ && docker push R/x`
        best = higher(best, unknown_senders.rule_home_image_pushed(segs))
    if "rec" in text:
        best = higher(best, unknown_senders.rule_published_recording(segs))  # `asciinema rec -c 'cat KEY' && …`
    if "$" in text or "`" in text or "<(" in text or ">(" in text:  # what sets a word's has_var
        best = higher(best, secret_variables.rule_secret_variables(segs))
    if many and secret_destinations.may_send_later(text):
        best = higher(best, secret_destinations.rule_secret_file_sent(segs))  # `carbon-now KEY -o /tmp && curl …`
    if ">" in text or "<" in text:  # a redirect's operator
        best = higher(best, socket_fds.rule_socket_fds(segs))
    best = higher(best, code_reach.line_shell_channel(text, segs))  # TCPClient typed; code echoed into a file
    best = higher(best, ps_uploads.rule_ps_upload(segs))
    if "$" in text or "et." in text or "ET." in text or "/dev/" in text:  # `$p.Send(…)`, `> /dev/tcp/h/p`
        best = higher(best, covert_channels.line_covert(text, segs))
    if "." in text:  # `U=https://0x0.st; curl -T /tmp/f $U`, `-Body (gc F)`
        best = higher(best, drop_lines.line_drops(text, segs))
    if len(segs) > 2:  # `for /f %i in (…) do (…)`: the loop, its list and its body
        best = higher(best, system_parts.rule_cmd_for(segs, recurse))
    low = text.lower()
    if "-computer" in low or "invoke-command" in low:
        best = higher(best, fleets.rule_fanned_out_line(text, recurse))
    if "get-" in low:
        best = higher(best, bulk_offline.line_every_guest_stopped(text))
    if "audit2allow" in text and "semodule" in text:
        return higher(best, security_products_off.every_denial_installed(text, segs))
    return best


def _recurser(depth: int) -> Callable[[str], Optional[tuple]]:
    return lambda text: _assess(text, depth + 1)


# The function that judges a text nested at each depth, made once (a line's rules and every command's context
# were given a fresh lambda each: ~20 a line); depth never exceeds _MAX_DEPTH where one is asked for.
_RECURSERS = tuple(_recurser(depth) for depth in range(_MAX_DEPTH + 1))


def _recurse(depth: int) -> Callable[[str], Optional[tuple]]:
    return _RECURSERS[depth] if depth < len(_RECURSERS) else _recurser(depth)


def _segment(seg: Segment, chain: list, depth: int) -> Optional[tuple]:
    """The finding of one command of a line: its own words, redirects and the commands feeding it."""
    redirected = bool(seg.redirects)  # most commands have none: the readings of a redirect answer nothing then
    if redirected:
        best = shellstate.exec_redirect(seg)
        best = higher(best, exfil.rule_tcp_redirect(seg))
        best = higher(best, inout.rule_truncates_input(seg, chain))
        best = higher(best, documents.rule_emptied(seg))
    else:
        best = documents.rule_emptied(seg)  # `cp /dev/null ~/notes.md`
    best = higher(best, meaning.rule_write_meaning(seg, chain, _recurse(depth)))
    best = higher(best, system_writes.rule_system_file_written(seg, chain))
    best = higher(best, _assignments(seg, depth))
    listing.bind_loops(seg, chain)  # `for vm in $(virsh list)`: later `$vm` is whatever the listing names
    if redirected:
        best = higher(best, loop_files.rule_each_emptied(seg))  # `: > "$f"` for each file found
    judged = loop_files.substituted(seg)  # `rm "$f"` for each file found: judged as `rm /var/www/*.php`
    return higher(best, check_words(judged.words, judged, chain, depth))


def _bare(seg: Segment) -> Optional[str]:
    """The one word of a command that is a bare word (no arguments, redirects, quotes, expansions or
    globs, not fed by a group), as typed; None for any other command."""
    words = seg.words
    if len(words) != 1 or seg.redirects or seg.fed_by:
        return None
    word = words[0]
    if word.text != word.raw or word.subs or word.quoted or word.has_var or word.glob:
        return None
    return word.raw


def _bare_key(seg: Segment, chain: list, depth: int) -> Optional[tuple]:
    """All that a bare word's judgement reads, when it and the commands feeding it are bare words:
    the word, its link, each feeder's word and link, the depth, the directory (``cd``) and no loop
    variable bound (to a listing or to files found).  A command with an argument, a redirect or an
    expansion anywhere gives None: judged in full every time.  Within one line only (``_Budget.bare``):
    the environment, the patches of a test and the rules cannot change in between."""
    word = _bare(seg)
    if word is None or listing.LOOP_LISTS.get() is not None or loop_files.LOOP_FILES.get() is not None or \
            made_here.MADE.get() is not None:  # a line that made a temporary path: judged in full
        return None
    feeders = []
    for feeder in chain:
        fed = _bare(feeder)
        if fed is None:
            return None
        feeders.append((fed, feeder.link))
    return (word, seg.link, depth, BASE.get(), tuple(feeders))


def _follow_cd(seg: Segment) -> None:
    """``cd /etc && rm -f passwd``: later relative paths are under the ``cd`` target."""
    words = seg.words
    if not words or words[0].text not in ("cd", "pushd", "chdir"):
        return
    args = [w for w in words[1:] if not w.text.startswith("-") or w.text == "-"]
    if not args:
        BASE.set("~")
        return
    arg = args[0]
    where = arg.text
    if arg.has_var:
        from aish.safety.rules.common import worst_case

        where = worst_case(where)[0] or "~"  # `cd $DIR` with DIR unset goes home
    if where.startswith(("/", "~")):
        BASE.set(where)
    elif BASE.get() and where not in ("-",):
        BASE.set(BASE.get().rstrip("/") + "/" + where)
    else:
        BASE.set("")


def _assignments(seg: Segment, depth: int) -> Optional[tuple]:
    """``PATH=/x`` alone on a line stays in the session; before a command it only affects that command."""
    if not seg.words or "=" not in seg.words[0].raw:
        if seg.words and seg.words[0].text == "env" and len(seg.words) > 2:  # `env -u HISTFILE bash`
            return shellstate.env_prefix(seg.words[1:])
        return None  # most commands: no assignment before the program
    persistent = all(_ASSIGN.match(w.raw) for w in seg.words)
    best = None
    for w in seg.words:
        if not _ASSIGN.match(w.raw):
            break
        name, _, value = w.text.partition("=")
        best = higher(best, shellstate.assignment(name.rstrip("+"), value, persistent))
        if persistent and name in ("PROMPT_COMMAND", "PS0", "BASH_ENV"):
            inner = _assess(value, depth + 1)
            if inner:
                best = higher(best, (inner[0], f"{inner[1]}, each time the prompt shows ({name})"))
    return best


_WINDOWS_PATH = lazy(r"^([A-Za-z]:|%\w+%|\$env:\w+|\.|\.\.)?\\([^\\]+\\)*[\w .+-]+$")


def check_words(words: list, seg: Segment, chain: list, depth: int) -> Optional[tuple]:
    """Judge one simple command given as words (also used for ``find -exec`` and ``xargs``)."""
    if depth > _MAX_DEPTH:  # `x -- x -- … rm -rf /`: commands handed on inside each other, followed as deep as `$( )`
        budget = _BUDGET.get()
        if budget is not None:
            budget.too_deep = True
        return None
    original = words
    words, sudo, xargs = unwrap(words)
    if not words:
        return (0, f"opens a root shell ({fragment([w.raw for w in original])})") if sudo else None
    prog = words[0].text.rsplit("/", 1)[-1].lstrip("\\")
    raw = words[0].raw.strip("'\"")
    if "\\" in raw and _WINDOWS_PATH.match(raw):  # `C:\Windows\System32\Sysprep\sysprep.exe`: the file's name
        prog = raw.rsplit("\\", 1)[-1]
    if prog[-4:].lower() == ".exe" and not table.known(prog):  # `shred.exe -u x`: the program by its file name
        prog = prog[:-4]
    if prog[:1] in "%$" and prog.lower().strip("%") in ("comspec", "$env:comspec"):  # `%COMSPEC% /c …`
        prog = "cmd"
    prog = plain_name(prog)  # `gchmod` is GNU's chmod
    if prog in ABBREVIATIONS:  # `ip a f` is `ip address flush`
        expanded = expand_abbreviations(prog, [w.text for w in words[1:]])
        words = words[:1] + [replace(w, text=t) if t != w.text else w for w, t in zip(words[1:], expanded)]
    if prog in _ABBREVIATED_LONG and any(w.text[:2] == "--" for w in words[1:]):  # `rm --recur --forc`
        words = expand_long_options(prog, words)
    found = None
    recurse = _recurse(depth)
    check: Callable[[list], Optional[tuple]] = lambda ws: check_words(ws, seg, [], depth + 1)  # noqa: E731
    cmdlet, both = ps_aliases.cmdlet_of(words, chain)
    if cmdlet:  # `spsv -Force` is `Stop-Service -Force`; `kill -Force` after `gps |` is Stop-Process, read both ways
        if both:
            named = [replace(words[0], text=words[0].raw.strip("'\""))] + words[1:]
            found = table.check(_context(named[0].text, named, seg, chain, sudo, xargs, depth, recurse, check))
        prog, words = cmdlet, [replace(words[0], text=cmdlet)] + words[1:]
    found = higher(found, table.check(_context(prog, words, seg, chain, sudo, xargs, depth, recurse, check)))
    if (found is None or found[0] < 2) and words[0].text[:5] in ("/etc/", "/usr/") and \
            _INIT_SCRIPT.match(words[0].text):
        as_service = [replace(words[0], text="service"), replace(words[0], text=prog)] + words[1:]
        found = higher(found, table.check(_context("service", as_service, seg, chain, sudo, xargs, depth, recurse,
                                                   check)))
    typed = winpaths.typed_words(words) if found is None or found[0] < 2 else None
    if typed is not None:  # `sdelete64 -s C:\Users`, `ldifde -i -f \\fs01\share\delete-users.ldf`: paths as typed
        found = higher(found, table.check(_context(prog, typed, seg, chain, sudo, xargs, depth, recurse, check)))
    if found is None and sudo:
        found = (0, f"runs as root ({fragment(['sudo'] + [w.raw for w in words])})")
    return found


def _context(prog: str, words: list, seg: Segment, chain: list, sudo: bool, xargs: bool, depth: int,
             recurse: Callable[[str], Optional[tuple]], check: Callable[[list], Optional[tuple]]) -> Ctx:
    return Ctx(prog, words, words[1:], seg, chain, sudo, xargs, depth, recurse, check)


def one_line(text: str, limit: int = 200) -> str:
    """``text`` on one line, cut at ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


__all__ = ["Verdict", "assess", "LEVELS", "one_line"]
