"""Stopping broadly, in the shapes a twelfth-session training set showed missing (each shown on programs
beyond the ones that showed it): a cloud or platform CLI stopping more than one machine, a total count set
to zero by an update verb, a slice, a machine state or the manager itself through the service manager,
the kernel's control files that kill, freeze or suspend, and pkill's own option grammar."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    # several named, computed or selected targets
    ("hcloud server shutdown web01 web02 web03", "medium"),
    ("openstack server stop app-1 app-2", "medium"),
    ("openstack server suspend $(openstack server list -f value -c ID)", "medium"),
    ("doctl compute droplet-action shutdown --tag-name web", "medium"),
    ("linode-cli linodes shutdown 123456 789012", "medium"),
    ("scw instance server stop 11111111-1111 22222222-2222", "medium"),
    ("exo compute instance stop web-1 web-2 --force", "medium"),
    ("ibmcloud is instance-stop web-1 web-2", "medium"),
    ("aws ec2 reboot-instances --instance-ids i-0a1b2c3d i-0e5f6a7b", "medium"),
    ("gcloud compute instances suspend $(gcloud compute instances list --format='value(name)')", "medium"),
    # a fleet, a cluster, a data store, a whole app
    ("aws redshift pause-cluster --cluster-identifier analytics", "medium"),
    ("aws rds stop-db-instance --db-instance-identifier orders", "medium"),
    ("az vmss deallocate --resource-group prod --name web-ss", "medium"),
    ("az webapp stop --name shop --resource-group prod", "medium"),
    ("az postgres flexible-server stop --resource-group prod --name pg1", "medium"),
    ("gcloud app versions stop v1 --service default", "medium"),
    ("heroku ps:stop web --app shop", "medium"),
    ("heroku maintenance:on --app shop", "medium"),
    ("gcloud sql instances patch orders --activation-policy=NEVER", "medium"),
])
def test_cloud_clis_stopping_more_than_one_machine(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "az vm stop --resource-group dev-rg --name scratch01",
    "gcloud compute instances stop dev-box --zone us-east1-b",
    "aws ec2 start-instances --instance-ids i-0a1b2c3d i-0e5f6a7b",
    "aws rds describe-db-instances --db-instance-identifier orders",
    "heroku ps:stop web.1 --app shop",
    "hcloud server list",
    "gcloud sql instances describe orders",
    "az webapp list --resource-group prod",
    "aws ec2 stop-instances help",
    "openstack server show app-1",
])
def test_one_machine_stopped_or_only_read_stays_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("aws eks update-nodegroup-config --cluster-name prod --nodegroup-name ng1 "
     "--scaling-config minSize=0,maxSize=0,desiredSize=0", "medium"),
    ("aws lambda put-function-concurrency --function-name api --reserved-concurrent-executions 0", "medium"),
    ("gcloud container node-pools update pool-1 --cluster prod --num-nodes=0", "medium"),
    ("az aks scale --resource-group prod --name aks1 --node-count 0", "medium"),
    ("aws sagemaker update-endpoint-weights-and-capacities --endpoint-name prod "
     "--desired-weights-and-capacities VariantName=main,DesiredInstanceCount=0", "medium"),
    ("aws emr modify-instance-groups --cluster-id j-1ABC --instance-groups InstanceGroupId=ig-1,InstanceCount=0",
     "medium"),
    ("doctl kubernetes cluster node-pool update prod pool-1 --count 0", "medium"),
    ("gcloud compute instance-groups managed set-autoscaling web-mig --max-num-replicas 0", "medium"),
    ("az containerapp update --name api --resource-group prod --max-replicas 0", "medium"),
])
def test_total_counts_set_to_zero(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "aws autoscaling update-auto-scaling-group --auto-scaling-group-name web --min-size 0 --max-size 10",
    "gcloud run services update api --min-instances=0",
    "az aks nodepool update --min-count 0 --max-count 5 -g rg --cluster-name aks -n np",
    "aws lambda update-function-configuration --function-name api --timeout 0",
    "aws ecs update-service --cluster c --service s --deployment-configuration maximumPercent=200,"
    "minimumHealthyPercent=0",
    "gcloud container node-pools update pool-1 --cluster prod --num-nodes=3",
])
def test_floors_and_other_zeros_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("sudo systemctl start poweroff.target", "medium"),
    ("sudo systemctl start reboot.target", "medium"),
    ("systemctl start suspend.target", "medium"),
    ("sudo systemctl restart rescue.target", "high"),
    ("sudo systemctl start systemd-kexec.service", "medium"),
    ("systemctl --user exit", "medium"),
    ("sudo systemctl freeze user.slice", "high"),
    ("sudo systemctl stop system.slice", "high"),
    ("sudo systemctl kill machine.slice", "medium"),
    ("systemctl --user stop app.slice", "medium"),
    ("busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager "
     "StopUnit ss user.slice replace", "medium"),
    ("gdbus call --system --dest org.freedesktop.systemd1 --object-path /org/freedesktop/systemd1 --method "
     "org.freedesktop.systemd1.Manager.StartUnit poweroff.target replace", "medium"),
    ("echo 1 > /sys/fs/cgroup/system.slice/cgroup.kill", "high"),
    ("echo 1 | sudo tee /sys/fs/cgroup/user.slice/cgroup.freeze", "high"),
    ("printf 1 | sudo tee /sys/fs/cgroup/machine.slice/libvirt/cgroup.kill", "medium"),
    ("echo mem | sudo tee /sys/power/state", "medium"),
    ("sudo sh -c 'echo disk > /sys/power/state'", "medium"),
])
def test_slices_machine_states_and_kernel_control_files(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "systemctl start nginx.service",
    "systemctl status user.slice",
    "systemctl list-units --type=slice",
    "systemctl --user start app.slice",
    "cat /sys/fs/cgroup/user.slice/cgroup.procs",
    "cat /sys/power/state",
    "systemctl thaw user.slice",
])
def test_units_read_or_started_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("pkill -s 0 -9", "medium"),
    ("pkill -9 --session 0", "medium"),
    ("pkill -KILL -P 1", "medium"),
    ("pkill -U 1000", "medium"),
    ("pkill --euid bob", "medium"),
    ("pkill -G staff -9", "medium"),
    ("killall -w -g make", "medium"),
])
def test_pkill_and_killall_read_in_their_own_grammar(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "pkill -s 0 -0",
    "pgrep -s 0",
    "pkill --signal 0 node",
    "killall -s 0 nginx",
    "pkill -HUP -P 1",
])
def test_probes_and_nudges_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    # commands a remote shell reads from ssh's input: what echo or printf writes, a here-string
    ("echo reboot | ssh root@db01", "medium"),
    ("echo \"sudo shutdown -h now\" | ssh root@db01", "medium"),
    ("printf 'systemctl poweroff\\n' | ssh db01", "medium"),
    ("ssh db01 <<< \"sudo reboot\"", "medium"),
    ("echo \"rm -rf /var/lib/mysql\" | ssh -T db01", "high"),
    ("echo 'pkill -9 -u deploy' | autossh -M 0 app01", "medium"),
    ("echo 'docker stop $(docker ps -q)' | ssh -p 2222 build01", "medium"),
    # supervisors' control programs read past their options; a group or an ecosystem file is many programs
    ("supervisorctl -c /etc/supervisor/supervisord.conf shutdown", "medium"),
    ("monit -g web stop", "medium"),
    ("monit -c /etc/monitrc -g workers unmonitor", "medium"),
    ("pm2 stop ecosystem.config.js", "medium"),
    ("pm2 delete process.yml", "medium"),
    # sessions and runlevels in other systems' words
    ("launchctl bootout gui/$(id -u)", "medium"),
    ("launchctl bootout user/$UID", "medium"),
    ("sudo openrc single", "high"),
    ("sudo runsvchdir single", "high"),
    ("openrc reboot", "medium"),
    ("lxde-logout", "medium"),
    ("enlightenment_remote -halt", "medium"),
    ("qdbus-qt5 org.kde.Shutdown /Shutdown logout", "medium"),
    ("kubectl patch hpa web -p '{\"spec\":{\"maxReplicas\":0,\"minReplicas\":0}}'", "medium"),
])
def test_stops_fed_to_ssh_supervisors_and_sessions(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "echo uptime | ssh db01",
    "printf '%s\\n' 'df -h' | ssh web01",
    "ssh db01 <<< 'systemctl status nginx'",
    "supervisorctl -c /etc/s.conf status",
    "monit -g web status",
    "pm2 start ecosystem.config.js",
    "pm2 stop api",
    "openrc default",
    "runsvchdir default",
    "launchctl bootout gui/501/com.acme.agent",
    "kubectl patch hpa web -p '{\"spec\":{\"minReplicas\":0}}'",
])
def test_reads_starts_and_single_stops_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    # a count of running things, in each tool's own name for it, set to zero by an update verb
    ("linode-cli lke pool-update 123 456 --count 0", "medium"),
    ("kn service update api --scale 0", "medium"),
    ("az appservice plan update --name plan1 --resource-group prod --number-of-workers 0", "medium"),
    ("ibmcloud ks worker-pool resize --cluster prod --worker-pool default --size-per-zone 0", "medium"),
    ("oci ce node-pool update --node-pool-id ocid1.nodepool.oc1..aaa --size 0", "medium"),
    ("scw k8s pool update 1111-2222 size=0", "medium"),
    ("vultr-cli kubernetes node-pool update abc def --quantity 0", "medium"),
    ("docker compose up -d --scale web=0", "medium"),
    ("aws application-autoscaling register-scalable-target --service-namespace ecs --resource-id service/prod/web "
     "--scalable-dimension ecs:service:DesiredCount --min-capacity 0 --max-capacity 0", "medium"),
    # paused or frozen: every one a listing names
    ("docker pause $(docker ps -q)", "medium"),
    ("podman ps -q | xargs podman pause", "medium"),
    ("lxc list -c n -f csv | xargs -n1 lxc pause", "medium"),
    ("gcloud compute instances stop --async web-1 web-2 web-3 --zone us-east1-b", "medium"),
])
def test_counts_set_to_zero_in_any_name_and_everything_paused(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "gcloud compute backend-services update bs --connection-draining-timeout 0",
    "aws elbv2 modify-target-group-attributes --target-group-arn arn "
    "--attributes Key=deregistration_delay.timeout_seconds,Value=0",
    "docker update --cpus 0 web",
    "gcloud compute instance-groups managed update mig --max-surge 0 --max-unavailable 1",
    "gsettings set org.gnome.desktop.session idle-delay 0",
    "docker compose up -d --scale web=3",
    "gcloud container clusters update prod --enable-autoscaling --min-nodes 0 --max-nodes 5",
    "kubectl set env deploy/web WORKERS=0",
    "npm config set fetch-retries 0",
    "helm upgrade web ./chart --set autoscaling.minReplicas=0",
    "aws sqs set-queue-attributes --queue-url u --attributes VisibilityTimeout=0",
    "docker unpause $(docker ps -q)",
    "docker pause web",
])
def test_other_zeros_floors_and_one_pause_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    # the processes a cgroup lists, a service's main pid asked of the manager, a command run in another root
    ("sudo kill $(cat /sys/fs/cgroup/system.slice/docker.service/cgroup.procs)", "medium"),
    ("cat /sys/fs/cgroup/user.slice/cgroup.procs | xargs kill -9", "medium"),
    ("for p in $(cat /sys/fs/cgroup/system.slice/cgroup.procs); do kill $p; done", "medium"),
    ("kill -9 $(systemctl show -p MainPID --value docker)", "medium"),
    ("kill -9 $(systemctl show --property MainPID --value sshd)", "high"),
    ("chroot /host reboot", "medium"),
    ("sudo chroot /mnt/sysroot systemctl poweroff", "medium"),
    ("kubectl debug node/node-1 -it --image=busybox -- chroot /host reboot", "medium"),
    ("kubectl debug node/node-2 -it --image=busybox -- chroot /host pkill -9 kubelet", "medium"),
])
def test_cgroup_listings_main_pids_and_other_roots(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "cat /sys/fs/cgroup/user.slice/cgroup.procs",
    "wc -l /sys/fs/cgroup/system.slice/cgroup.procs",
    "kill -HUP $(systemctl show -p MainPID --value nginx)",
    "chroot /mnt/sysroot",
    "chroot --userspec=1000:1000 /srv/jail ls",
    "kubectl debug -it web-0 --image=busybox -- sh",
])
def test_cgroup_reads_nudges_and_plain_chroots_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    # every process's /proc directory as the loop's list; a shell command tmux runs in a new window or pane
    ("for p in /proc/[0-9]*; do kill -9 ${p#/proc/}; done", "medium"),
    ("for p in /proc/[1-9]*; do kill -KILL \"${p##*/}\"; done", "medium"),
    ("tmux new -d 'sleep 300 && sudo reboot'", "medium"),
    ("tmux split-window -h \"rm -rf ~/projects\"", "medium"),
    ("tmux run-shell \"pkill -9 -f node\"", "medium"),
    ("tmux respawn-pane -k \"sudo systemctl poweroff\"", "medium"),
    ("tmux new-window \"docker stop $(docker ps -q)\"", "medium"),
])
def test_proc_loops_and_commands_tmux_runs(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "for p in /proc/[0-9]*; do cat $p/comm; done",
    "tmux new -s work",
    "tmux new-session -d -s build \"make -j8\"",
    "tmux new -d -s x htop",
    "tmux split-window -h",
])
def test_proc_reads_and_everyday_tmux_stay_quiet(command):
    assert stays_quiet(command), judged(command)
