"""Effect: a command carried inside another program's arguments, for any program that runs it.

Cluster shells, remote runners, job schedulers, container and chroot enterers, terminal
multiplexers and environment wrappers take a command and run it elsewhere, later or as someone
else.  Whatever the program, the command is in one of three places:

- the words after ``--`` (``rd adhoc -F 'tags: web' -- sudo systemctl stop nginx``, ``runuser -u
  postgres -- rm -rf DATA``, ``schroot -c sid -- rm -rf /home``);
- one quoted argument whose first word is a program (``xdsh GROUP 'shutdown -h now'``, ``tmux
  send-keys -t prod 'rm -rf ~/data' Enter``, ``gcloud compute ssh vm --command '…'``, ``sbatch
  --wrap '…'``, ``screen -X stuff 'sudo reboot\\n'``); where a command is due (after ``run``, ``exec``, a
  command option, or a fan-out's hosts) a program no rule names counts when a destructive verb follows it
  (``heroku run -a app "mgmt flush_database"``);
- the rest of the words from a destructive program's name on (``srun -N 16 rm -rf /scratch``,
  ``pbsdsh -u /sbin/shutdown -h now``, ``crictl exec -it ID rm -rf /data``, ``faketime '2020-01-01'
  find /var/log -delete``).

The carried command is judged by the same judge, one level deeper, and reported when it destroys
(medium or more): a quiet inner command keeps the line quiet, so ``srun -N 2 hostname`` or
``tmux send-keys 'npm test' Enter`` say nothing.  Programs whose arguments are text to print,
search, store or send (``echo``, ``grep``, ``git commit -m``, ``man``, package managers' names)
are not read.  Each command is read for one carried command (the first place that holds one),
within its first words, and nested programs only up to the judge's depth: the work stays linear
in the line's length.
"""
from __future__ import annotations

from typing import Callable, Optional


from aish.safety.programs import READ_ONLY
from aish.safety.rules.action import names_a_verb
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.fed import PROSE_PROGRAMS
from aish.safety.rules.fleets import _STOPPING as STOPPING
from aish.safety.unwrap import _WRAPPERS as WRAPPERS
from aish.safety.lazy_regex import lazy

# Programs whose arguments are text (printed, searched, stored, sent, looked up) or names of packages,
# files and keys: a command's name among them is not a command that runs.
TEXT_ARGUMENTS = READ_ONLY | PROSE_PROGRAMS | frozenset("""
git hg svn jj gh glab bzr fossil alias unalias complete compdef compctl bind hash help zle history fc builtin
type command declare typeset export set unset readonly local trap
man info tldr cheat apropos whatis whereis which navi
vi vim nvim emacs nano micro code subl gedit kate hx helix ed ex view
apt apt-get apt-cache aptitude dpkg brew port pacman yay paru dnf yum zypper apk snap flatpak nix-env rpm pip pip3
pipx npm pnpm yarn bun cargo gem go conda mamba choco winget scoop
cd pushd mkdir touch ln cp install open xdg-open
printf echo logger notify-send say espeak wall write mail mailx
sed awk gawk perl tee xargs parallel ssh scp sftp rsync kubectl docker podman at batch crontab
""".split())
# Options whose value is prose for people, not a command for a program.
_PROSE_OPTIONS = frozenset({"-m", "--message", "--title", "--body", "--description", "--comment", "--subject",
                            "--note", "--notes", "--summary", "--reason", "--label", "--name", "--desc"})
# Programs whose name, met among another program's words, starts a command that destroys when it runs.
HEADS = frozenset("""
rm rmdir unlink shred srm wipe dd truncate wipefs blkdiscard sgdisk fdisk sfdisk parted mkfs mke2fs mkswap
shutdown reboot poweroff halt init telinit systemctl service kill pkill killall killall5 find mv chmod chown
userdel deluser groupdel usermod passwd iptables ip6tables nft ufw zfs zpool lvremove vgremove pvremove
cryptsetup mdadm sudo doas pkexec su runuser sh bash zsh dash ksh mksh ash
""".split())
# Options whose value starts the command (`nix develop -c rm …`, `--run rm …`).
_COMMAND_OPTIONS = frozenset({"-c", "--command", "--cmd", "-e", "--exec", "--execute", "--run", "-x", "--wrap", "-C"})
# Heads that are also many programs' own subcommands (`adb reboot`, `virsh shutdown vm`, `pm2 kill`): as the
# first word they are the program's, unless written as a path (`daemonize /sbin/shutdown -h now`).
_SUBCOMMAND_LIKE = frozenset({"shutdown", "reboot", "poweroff", "halt", "init", "telinit", "kill", "pkill", "killall",
                              "systemctl", "service", "passwd", "usermod", "su"})
_SHELL_WORDS = frozenset(WRAPPERS) - {"xargs", "parallel"}
# Words after which a command is due: a runner's subcommand or a command option (`heroku run`, `--scripts`).
_RUN_BEFORE = frozenset({"run", "exec", "--scripts", "--script", "--command", "--cmd", "-c", "--exec", "--execute",
                         "--run", "--wrap", "-C", "-x", "-e"})
_PROGRAM_NAME = lazy(r"[a-z][a-z0-9._+-]{2,40}")  # `no shutdown` (a router shell's) is no program
_SCANNED = 64  # words of one command looked at for a carried command
_MAX_DEPTH = 6  # programs carried inside each other that are still followed


def may_carry(c: Ctx) -> bool:
    """Could this command carry another (cheap: its name, and whether it has words)?"""
    return bool(c.args) and c.prog.lower() not in TEXT_ARGUMENTS and c.depth <= _MAX_DEPTH


def _name(text: str) -> str:
    return text.rsplit("/", 1)[-1]


def _runs_from(word_text: str, known: Callable[[str], bool], unknown: bool = False) -> bool:
    """Does this quoted text start with a program (past ``sudo``, ``env``, ``nohup``…)?"""
    tokens = word_text.split()[:8]
    for k, token in enumerate(tokens[:6]):
        name = _name(token)
        if "=" in token and not token.startswith("-"):  # `FOO=1 rm …`
            continue
        if name in _SHELL_WORDS or token.startswith("-"):
            continue
        return name in HEADS or known(name) or unknown and _unknown_acting(name, tokens[k + 1:k + 5])
    return False


def _unknown_acting(name: str, rest: list) -> bool:
    """``heroku run -a app "mgmt flush_database --noinput"``, ``pdsh -w n1 'nodectl cluster destroy x'``: where a
    command is due, a program no rule names with a destructive verb among its next words is one (the judge then
    decides); elsewhere such text is prose (``task add "project delete review"``)."""
    return bool(_PROGRAM_NAME.fullmatch(name)) and name not in TEXT_ARGUMENTS and \
        any(names_a_verb(t.lstrip("-")) for t in rest if len(t) >= 2)


def _clean(text: str) -> str:
    """A line typed into a terminal or a multiplexer: its written-out line ends are the command's end."""
    for end in ("\\n", "\\r", "^M", "\\015", "\\012"):
        text = text.replace(end, "\n")
    return text


def _carried(c: Ctx, known: Callable[[str], bool]) -> Optional[tuple]:
    """(how, the carried words or text): the first place in the command that holds a command."""
    args = c.args[:_SCANNED]
    for k, w in enumerate(args):
        t = w.text
        before = args[k - 1].text if k else ""
        if t == "--" and k + 1 < len(args):
            after = args[k + 1]
            if after.quoted and " " in after.text.strip():
                return "text", _clean(after.text)
            if not after.text.startswith("-"):
                return "after --", list(c.args[k + 1:])
            continue
        if before in _PROSE_OPTIONS:
            continue
        if w.quoted and " " in t.strip():
            text = _clean(t)
            if _runs_from(text, known) or (before in _RUN_BEFORE or _fanned_out(c)) and _runs_from(text, known, True):
                return "text", text
        name = _name(t)
        if name in HEADS and k + 1 < len(c.args) and (not before.startswith("-") or t.startswith("/") or
                                                     before in _COMMAND_OPTIONS) and \
                (k or name not in _SUBCOMMAND_LIKE or t.startswith("/")):
            return "words", list(c.args[k:])
    return None


def rule_carried_command(c: Ctx, known: Callable[[str], bool], covered: bool) -> Optional[tuple]:
    """The command another program is given to run, judged as a command; reported when it destroys.
    The words after ``--`` of a program no rule judges in full are the vocabulary's to judge (judged
    once: two readings of each level would double the work at every level)."""
    carried = _carried(c, known)
    if carried is None:
        return None
    how, what = carried
    if how == "after --" and not covered:
        found = None
    else:
        found = c.recurse(what) if how == "text" else c.check(what)
    if found is None or found[0] < MEDIUM:
        text = what if how == "text" else " ".join(w.text for w in what)
        if _fanned_out(c) and STOPPING.search(text):  # `rd adhoc -F 'tags: web' -- sudo systemctl stop nginx`
            return MEDIUM, f"{c.prog} runs `{' '.join(text.split()[:6])}` on every host it targets ({c.text})"
        return None
    return found[0], f"{found[1]}, run by {c.prog}"


# Options and words that name many targets at once: a group, a filter, a list, every node.
_MANY = frozenset({"-g", "--group", "-w", "-F", "--filter", "--targets", "--hosts", "-H", "--all", "-a", "--nodes",
                   "--inventory", "-i", "--tags", "--query", "-q"})


def _fanned_out(c: Ctx) -> bool:
    """Does the runner aim at many hosts (a group, a filter, a list of hosts, every one)?"""
    return any(t in _MANY or t.split("=", 1)[0] in _MANY or t in ("all", "'*'", "*") or
               ("," in t and not t.startswith("-") and " " not in t) for t in c.texts[:16])
