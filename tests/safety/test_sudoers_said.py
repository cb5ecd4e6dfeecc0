"""What a sudoers line gives is said as it is: a rule naming commands with their arguments lets a user run those
alone (`deploy ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart myapp` was "lets a user run anything as root");
everything, a shell, an editor or a program that gives a shell, or a program with any arguments, is anything."""
from __future__ import annotations

from tests.safety.kept import assess

ANYTHING = (
    'echo "deploy ALL=(ALL) NOPASSWD: ALL" | sudo tee -a /etc/sudoers',
    'echo "ci ALL=(ALL:ALL) NOPASSWD:ALL" >> /etc/sudoers', 'echo "%wheel ALL=(ALL) ALL" | sudo tee -a /etc/sudoers',
    'echo "deploy ALL=(ALL) NOPASSWD: /bin/bash" >> /etc/sudoers',
    'echo "jenkins ALL=(root) NOPASSWD: /usr/bin/vim" >> /etc/sudoers',
    'echo "backup ALL=(root) NOPASSWD: /usr/bin/rsync *" >> /etc/sudoers',
    "echo 'Defaults !authenticate' | sudo tee -a /etc/sudoers",
)
NAMED = (
    'echo "deploy ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart myapp" >> /etc/sudoers',
    'echo "web ALL=(root) NOPASSWD: /usr/bin/python3 /opt/app/manage.py migrate" >> /etc/sudoers',
    'echo "ops ALL=(root) NOPASSWD: /usr/sbin/service nginx reload, /usr/sbin/service nginx status" >> /etc/sudoers',
)


def test_what_a_sudoers_rule_gives_is_said() -> None:
    wrong = [f"{c} -> {assess(c)}" for c in ANYTHING if "anything" not in getattr(assess(c), "reason", "")]
    wrong += [f"{c} -> {assess(c)}" for c in NAMED if assess(c) is None or "anything" in assess(c).reason or
              assess(c).level not in ("medium", "high")]
    assert not wrong, "\n".join(wrong)
