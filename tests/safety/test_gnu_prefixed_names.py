"""GNU tools installed under their ``g`` prefix (Homebrew's coreutils, findutils, gnu-sed, gnu-tar,
inetutils; the BSDs' ports) are the same tools: ``gchmod``, ``grm``, ``gdd``, ``gtimeout`` are judged as
``chmod``, ``rm``, ``dd``, ``timeout`` (safety/program_names.py)."""
from __future__ import annotations

from tests.safety.kept import assess
from aish.safety.program_names import plain_name
from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("sudo gchmod -R 777 /", "high"),
    ("sudo gchown -R nobody:nogroup /etc", "high"),
    ("gchgrp -R staff /usr", "high"),
    ("grm -rf ~/", "high"),
    ("sudo grm -rf --no-preserve-root /", "high"),
    ("gmv ~/Documents /dev/null", "medium"),
    ("sudo gdd if=/dev/zero of=/dev/disk2 bs=1m", "high"),
    ("gshred -uz ~/.ssh/id_ed25519", "medium"),
    ("sudo gtruncate -s 0 /etc/passwd", "high"),
    ("sudo gsed -i 's/^root:.*//' /etc/passwd", "high"),
    ("gfind ~ -type f -delete", "high"),
    ("gfind / -name '*.conf' -exec grm -f {} +", "high"),
    ("ls ~ | gxargs grm -rf", "medium"),
    ("gtimeout 60 grm -rf /var/lib/mysql", "high"),
    ("genv -i grm -rf ~", "high"),
    ("gnohup grm -rf ~/projects &", "medium"),
    ("sudo gunlink /etc/fstab", "high"),
    ("sudo gln -sf /dev/null /etc/resolv.conf", "medium"),
    ("echo '' | sudo gtee /etc/hosts", "medium"),
    ("gkill -9 -1", "medium"),
    ("sudo ginstall -m 777 /dev/null /etc/sudoers", "high"),
    ("sudo gifconfig en0 down", "medium"),
    ("sudo uu-chmod -R 777 /", "high"),
    ("uu-rm -rf ~", "high"),
    ("toybox chmod -R 777 /", "high"),
])
def test_gnu_tools_under_their_g_names_are_judged_as_the_tools(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "gls -la",
    "gdate +%s",
    "gsed 's/foo/bar/' notes.txt",
    "gsed -i 's/foo/bar/' notes.txt",
    "gcp a.txt b.txt",
    "gmv draft.txt final.txt",
    "grm build/main.o",
    "gchmod +x script.sh",
    "gfind . -name '*.py'",
    "gstat -c %s file.bin",
    "greadlink -f .",
    "gdu -sh *",
    "gsort -V versions.txt",
    "gtimeout 5 curl -s https://example.com",
    "gtruncate -s 1G disk.img",
    "gtar -czf backup.tgz project/",
    "gfind . -name '*.txt' -print0 | gxargs -0 wc -l",
    "gdd if=disk.img of=/dev/null bs=1M",
    "gawk '{print $1}' access.log",
    "gpg --list-keys",
    "gdisk -l /dev/sda",
    "uu-ls -la",
    "toybox ls -la",
])
def test_everyday_g_named_tools_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


def test_only_gnu_tools_lose_their_g() -> None:
    assert [plain_name(n) for n in ("gchmod", "gtimeout", "gsed", "gawk", "gpg", "gdisk", "grep", "g", "gpaste")] \
        == ["chmod", "timeout", "sed", "gawk", "gpg", "gdisk", "grep", "g", "gpaste"]


# Rules that read another segment's words (the `tee` a pipe feeds, the `sed` after `find`'s pipe) read
# them as typed: a g-name there used to leave the line judged as if the tool were unknown.
_PIPED = [
    "echo 'deploy ALL=(ALL) NOPASSWD: ALL' | sudo {g}tee -a /etc/sudoers",
    "echo 0 | sudo {g}tee /proc/sys/kernel/randomize_va_space",
    "echo 0 | sudo {g}tee /sys/fs/selinux/enforce",
    "{g}tee -a ~/.bash_profile <<< 'exit 1'",
    "printf 'nameserver 203.0.113.9\\n' | sudo {g}tee /etc/resolv.conf",
    "echo 'PermitRootLogin yes' | sudo {g}tee -a /etc/ssh/sshd_config",
    "echo '* * * * * root /sbin/reboot' | sudo {g}tee /etc/cron.d/reboot",
    "echo 'auth sufficient pam_permit.so' | sudo {g}tee /etc/pam.d/common-auth",
    "cat /dev/null | sudo {g}tee /etc/fstab",
]


def test_gnu_tools_under_their_g_names_are_judged_as_the_tools_wherever_a_rule_reads_them() -> None:
    plain = {form: _level(form.format(g="")) for form in _PIPED}
    assert all(level in ("medium", "high") for level in plain.values()), plain
    named = {form: _level(form.format(g="g")) for form in _PIPED}
    assert named == plain


def _level(command: str) -> str:
    verdict = assess(command)
    return verdict.level if verdict is not None else "none"
