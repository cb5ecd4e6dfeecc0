"""Commands carried inside another program's arguments, for any program: remote and parallel runners,
schedulers, container enterers, multiplexers and wrappers (the words after ``--``, one quoted argument
that starts with a program, the rest of the words from a destructive program's name on)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    # remote, parallel and wrapped execution
    "xdsh compute 'shutdown -h now'",
    'dcli -g hosts.txt -l root "shutdown -h now"',
    "pbsdsh -u /sbin/shutdown -h now",
    "tsh ssh root@db 'systemctl stop postgresql'",
    "xpanes -c 'ssh {} sudo systemctl poweroff' h1 h2",
    "srun -N 16 rm -rf /scratch/project/data",
    "mpirun -np 8 --hostfile hosts sudo shutdown -h now",
    "tmux send-keys -t prod:0 'rm -rf ~/data' Enter",
    "screen -S build -X stuff 'sudo reboot\\n'",
    "gcloud compute ssh web-1 --zone us-east1-b --command 'sudo rm -rf /var/lib/postgresql'",
    "nomad alloc exec -task web 8f3c rm -rf /data",
    "flyctl ssh console -C 'rm -rf /data'",
    "machinectl shell root@web /bin/rm -rf /var/lib",
    "crictl exec -it 4f2a rm -rf /data",
    "et db1 -c 'sudo systemctl stop postgresql'",
    "aws ecs execute-command --cluster prod --task abc --interactive --command 'rm -rf /app/data'",
    "az vm run-command invoke -g rg -n vm1 --command-id RunShellScript --scripts 'rm -rf /var/lib/mysql'",
    "sbatch --wrap 'rm -rf /lustre/project'",
    "ip netns exec blue rm -rf /etc",
    "cssh-run web 'sudo poweroff'",
    # wrappers that run the rest of their words
    "runuser -u postgres -- rm -rf /var/lib/pgsql/data",
    "faketime '2020-01-01' find /var/log -delete",
    "daemonize /bin/rm -rf /srv/data",
    "sem --id cleanup rm -rf /data",
    "nix-shell -p hello --run 'rm -rf ~/src'",
    "nix develop -c rm -rf ~/data",
    "sops exec-env secrets.env 'rm -rf /data'",
    "vendorwrap --foo -- rm -rf /var/lib/mysql",
    "aws ssm send-command --document-name AWS-RunShellScript --parameters 'commands=[\"rm -rf /var/www\"]'",
    "systemd-run -H host rm -rf /data",
    "rd adhoc -p ops -F 'tags: web' -- sudo systemctl stop nginx",
    "hyperfine 'rm -rf /data'",
    "zellij action write-chars 'rm -rf ~/proj'",
    "limactl shell default sudo rm -rf /etc",
])
def test_a_command_carried_in_arguments_is_judged_as_a_command(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "srun -N 2 hostname",
    "mpirun -np 4 ./simulate input.dat",
    "tmux send-keys -t dev 'npm test' Enter",
    "screen -S build -X stuff 'make\\n'",
    "gcloud compute ssh web-1 --command 'uptime'",
    "nomad alloc exec 8f3c cat /local/config.json",
    "flyctl ssh console -C 'df -h'",
    "sbatch --wrap 'python train.py'",
    "qsub -b y hostname",
    "xdsh compute 'uptime'",
    "tsh ssh root@db 'systemctl status postgresql'",
    "ip netns exec blue ip addr",
    "runuser -u postgres -- psql -c 'select 1'",
    "faketime '2020-01-01' date",
    "nix develop -c cargo build",
    "cpulimit -l 50 -- ffmpeg -i a.mp4 b.webm",
    "npm run build -- --prod",
    "git commit -m 'rm -rf the old build dir'",
    "gh issue create --title 'shutdown -h now hangs' --body 'see logs'",
    "grep -r 'rm -rf' scripts/",
    "printf '%s\\n' 'rm -rf /tmp/x'",
    "git checkout -- rm.txt",
    "adb reboot bootloader",
    "fastboot reboot bootloader",
    "hyperfine 'sleep 0.1'",
    "watchexec -e py -- pytest",
    "limactl shell default uname -a",
    "tmux send-keys -t dev 'systemctl status nginx' Enter",
])
def test_quiet_carried_commands_and_text_arguments_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


def test_commands_carried_inside_each_other_stay_bounded_and_are_not_passed_as_harmless():
    """Words handed on after ``--`` level after level once ran past Python's recursion limit (no verdict at all):
    they are followed as deep as ``$( )`` is, then reported as too deep, in bounded time."""
    import time

    from aish.safety.assess import assess

    chain = "x -- " * 3000 + "true"
    start = time.thread_time()
    verdict = assess(chain)
    assert time.thread_time() - start < 5.0
    assert verdict is not None and "nested too deeply" in verdict.reason, verdict
    many = "tool " + " ".join(f"'echo {i}'" for i in range(2500))  # one carried command read, not 2,500
    start = time.thread_time()
    assess(many)
    assert time.thread_time() - start < 2.0
