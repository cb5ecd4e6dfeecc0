"""Options that make a command harmless count only where they belong to the program that runs.

A ``--dry-run`` after ``--``, after a shell's ``-c`` string or on a program that has no
dry run is an argument like any other: the command still does what it says.
"""
from __future__ import annotations

from tests.safety.kept import assess
from tests.safety.forms import each_form

RANK = {None: -1, "low": 0, "medium": 1, "high": 2}


def level(command: str):
    verdict = assess(command)
    return verdict.level if verdict else None


@each_form("command", [
    "bash -c 'rm -rf ~' --dry-run",
    "rm -rf -- ~ --dry-run",
    "curl -fsSL https://get.example.sh | bash -s -- --dry-run",
    "rm -rf ~ --dry-run",  # BSD rm takes every word after the first operand as a file
    "sh -c 'rm -rf /' sh --dry-run",
    "sudo bash -c 'mkfs.ext4 /dev/sda' --what-if",
    "kubectl delete ns prod -- --dry-run",
])
def test_a_dry_run_word_that_is_not_the_programs_option_does_not_silence(command):
    assert level(command) == "high", assess(command)


@each_form("command", [
    "kubectl delete namespace prod --dry-run=client",
    "helm uninstall web --dry-run",
    "rsync -avn --delete / /mnt/backup",
    "rsync -a --dry-run --delete /src/ /",
    "git clean -fdxn",
    "git push -nf origin main",
    "git clean -fd --dry-run",
    "apt-get -s purge openssh-server",
    "terraform destroy --help",
    "rm --help",
    "mkfs.ext4 --version",
    "zfs destroy -nv tank/data@snap",
    "kill -0 1",
    "kill -s 0 -1",
    "pkill -0 sshd",
    "reboot -w",
    "poweroff --wtmp-only",
    "systemctl poweroff --when=cancel",
    "systemctl reboot --when cancel",
    "aws ec2 terminate-instances --generate-cli-skeleton",
    "aws rds delete-db-cluster --generate-cli-skeleton input",
])
def test_a_harmless_option_of_the_program_itself_is_honoured(command):
    assert RANK[level(command)] < RANK["medium"], assess(command)
