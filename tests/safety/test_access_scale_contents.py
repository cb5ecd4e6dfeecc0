"""Three weak classes, as mechanisms for any program: a server's own access checks switched off
(in its flags, its environment or a line written into its configuration), firewalls opened wide
and updates switched off; services scaled to zero or nodes taken out of service by any fleet or
cloud tool; and files lost in everyday ways (a directory's contents copied over home or a
configuration directory, rsync's short `--del`, a git command run in every submodule, a listing
of a directory fed back to `rm` inside it).  Each form was seen unflagged before its rule."""
from __future__ import annotations

from tests.safety.test_long_tail import judged, reaches, stays_quiet
from tests.safety.forms import each_form


# ----------------------------------------------------------------- a server's access checks off
@each_form("command,at_least", [
    ("redis-server --protected-mode no --bind 0.0.0.0", "medium"),
    ("docker run -d -p 6379:6379 redis redis-server --protected-mode no", "medium"),
    ("redis-cli -h 10.0.0.5 CONFIG SET protected-mode no", "medium"),
    ("redis-cli config set requirepass ''", "medium"),
    ("mongod --bind_ip_all --dbpath /data/db", "medium"),
    ("mongod --noauth --bind_ip 0.0.0.0", "medium"),
    ("mysqld_safe --skip-grant-tables &", "medium"),
    ("elasticsearch -E xpack.security.enabled=false", "medium"),
    ("docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16", "medium"),
    ("docker run -e MARIADB_ALLOW_EMPTY_ROOT_PASSWORD=1 -p 3306:3306 mariadb", "medium"),
    ("code-server --bind-addr 0.0.0.0:8080 --auth none", "medium"),
    ("kubelet --anonymous-auth=true --authorization-mode=AlwaysAllow", "medium"),
    ("dockerd -H tcp://0.0.0.0:2375", "high"),
    ("kubectl create clusterrolebinding open --clusterrole=cluster-admin --group=system:unauthenticated", "high"),
    ("kubectl proxy --address=0.0.0.0 --accept-hosts='.*'", "medium"),
    # the same settings written into the server's configuration, by any writer
    ("echo 'protected-mode no' | sudo tee -a /etc/redis/redis.conf", "medium"),
    ("echo 'skip-grant-tables' | sudo tee -a /etc/mysql/my.cnf", "medium"),
    ("echo 'host all all 0.0.0.0/0 trust' >> /etc/postgresql/16/main/pg_hba.conf", "high"),
    ("sudo sed -i 's/scram-sha-256/trust/g' /var/lib/pgsql/data/pg_hba.conf", "medium"),
    ("sudo sed -i 's/authorization: enabled/authorization: disabled/' /etc/mongod.conf", "medium"),
    ("echo 'xpack.security.enabled: false' >> /etc/elasticsearch/elasticsearch.yml", "medium"),
    ("echo 'allow_anonymous true' >> /etc/mosquitto/mosquitto.conf", "medium"),
    ("sudo tee /etc/docker/daemon.json <<< '{\"hosts\": [\"tcp://0.0.0.0:2375\"]}'", "high"),
])
def test_a_servers_access_checks_switched_off(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "redis-server --bind 127.0.0.1",
    "redis-cli CONFIG GET protected-mode",
    "redis-cli config set maxmemory 2gb",
    "mongod --bind_ip 127.0.0.1 --auth",
    "mongod --bind_ip_all --auth --dbpath /data/db",
    "docker run -d -e POSTGRES_PASSWORD=secret -p 127.0.0.1:5432:5432 postgres:16",
    "code-server --bind-addr 127.0.0.1:8080",
    "dockerd -H unix:///var/run/docker.sock",
    "dockerd -H tcp://0.0.0.0:2376 --tlsverify --tlscacert=ca.pem --tlscert=cert.pem --tlskey=key.pem",
    "kubectl create clusterrolebinding ops --clusterrole=view --user=alice",
    "kubectl proxy --port=8001",
    "echo 'protected-mode yes' | sudo tee -a /etc/redis/redis.conf",
    "echo 'local all postgres peer' >> /etc/postgresql/16/main/pg_hba.conf",
    "grep trust /etc/postgresql/16/main/pg_hba.conf",
])
def test_servers_started_or_read_with_their_checks_on_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- firewalls opened, updates off
@each_form("command", [
    "sudo iptables -P INPUT ACCEPT",
    "sudo iptables -I INPUT 1 -j ACCEPT",
    "sudo iptables -A INPUT -p tcp --dport 1:65535 -j ACCEPT",
    "sudo nft add rule inet filter input accept",
    "sudo ufw allow from any to any",
    "sudo firewall-cmd --zone=public --add-port=0-65535/tcp --permanent",
    "sudo systemctl disable --now unattended-upgrades",
    "sudo systemctl disable --now dnf-automatic.timer",
    "sudo apt-get purge -y unattended-upgrades",
    "sudo softwareupdate --schedule off",
    "sudo defaults write /Library/Preferences/com.apple.SoftwareUpdate AutomaticCheckEnabled -bool false",
    "echo 'APT::Periodic::Unattended-Upgrade \"0\";' | sudo tee /etc/apt/apt.conf.d/20auto-upgrades",
    "setx NODE_TLS_REJECT_UNAUTHORIZED 0",
    "sudo systemctl mask apt-daily-upgrade.timer",
    "reg add HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU /v NoAutoUpdate /t REG_DWORD /d 1 /f",
])
def test_firewalls_opened_wide_and_updates_switched_off(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "sudo iptables -A INPUT -p tcp --dport 443 -j ACCEPT",
    "sudo iptables -A INPUT -i lo -j ACCEPT",
    "sudo iptables -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT",
    "sudo iptables -A INPUT -s 10.0.0.0/8 -j ACCEPT",
    "sudo nft add rule inet filter input tcp dport 22 accept",
    "sudo ufw allow from 192.168.1.0/24",
    "sudo ufw allow 22/tcp",
    "sudo firewall-cmd --zone=public --add-port=8080/tcp --permanent",
    "sudo systemctl enable --now unattended-upgrades",
    "systemctl status dnf-automatic.timer",
    "softwareupdate --list",
    "softwareupdate --schedule on",
])
def test_narrow_openings_and_updates_on_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- scaled to zero, taken out of service
@each_form("command", [
    "docker service scale web=0",
    "nomad job scale api 0",
    "heroku ps:scale web=0 --app shop",
    "fly scale count 0 -a api",
    "aws ecs update-service --cluster prod --service api --desired-count 0",
    "aws autoscaling update-auto-scaling-group --auto-scaling-group-name web --desired-capacity 0",
    "gcloud compute instance-groups managed resize web-mig --size=0 --zone us-central1-a",
    "az vmss scale -g rg -n web --new-capacity 0",
    "cf scale api -i 0",
    "oc scale dc/web --replicas=0",
    "docker node update --availability drain worker-2",
    "nomad node drain -enable -yes -self",
    "consul maint -enable -reason 'down'",
    "sudo systemctl stop ssh.socket",
])
def test_services_scaled_to_zero_and_nodes_out_of_service(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "docker service scale web=3",
    "heroku ps:scale web=2 --app shop",
    "fly scale count 2 -a api",
    "aws ecs update-service --cluster prod --service api --desired-count 3",
    "gcloud compute instance-groups managed resize web-mig --size=4",
    "cf scale api -i 2",
    "docker node update --availability active worker-2",
    "nomad node drain -disable -self",
    "consul maint -disable",
    "nomad node status",
    "head -c 0 file.txt",
    "truncate --size=0 build/out.log",
])
def test_scaling_up_and_back_to_service_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- files lost in everyday ways
@each_form("command", [
    "cp -rf ~/dotfiles/. ~/",
    "cp -a skel/. ~",
    "cp -r defaults/. ~/.config/nvim/",
    "cp -R backup/.config ~/",
    "rsync -a ~/dotfiles/ ~/",
    "rsync -a --del ./public/ user@host:/var/www/site/",
    "git submodule foreach git reset --hard",
    "git submodule foreach --recursive 'git clean -fdx'",
    "ls ~/Documents | xargs -I{} rm ~/Documents/{}",
    "rm ~/Pictures/*.jpg",
    "rsync -a --existing backup/ ~/Documents/",
    "Copy-Item -Recurse -Force .\\backup\\* $HOME",
    "xcopy /E /Y D:\\backup\\* %USERPROFILE%",
    "zip -m archive.zip ~/Documents/*",
    "7z a -sdel old.7z ~/Documents/old",
    "fd . ~/Downloads -x rm -rf",
    "sed -i '1,$d' ~/.profile",
    "sed -i d ~/Documents/todo.txt",
    "ln -sf /tmp/x ~/Documents/thesis.tex",
    "find . -name '*.jpg' -exec mv {} ~/Pictures/photo.jpg \\;",
    "osascript -e 'tell application \"Finder\" to empty the trash'",
    "unison -batch -prefer /mnt/backup ~/Documents /mnt/backup/Documents",
    "git checkout HEAD -- src/",
    "cd ~ && tar xf dotfiles.tar",
    "scp nginx.conf root@web1:/etc/nginx/nginx.conf",
    "scp id.pub admin@bastion:.ssh/authorized_keys",
    "chezmoi apply --force",
    "rcup -f",
    "mise dotfiles apply --force --yes",
    "yadm reset --hard origin/master",
    "vcsh zsh clean -fdx",
])
def test_files_lost_in_everyday_ways(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "cp -r ~/dotfiles ~/dotfiles-backup",
    "cp -r defaults/. ~/projects/new-defaults/",
    "cp notes.txt ~/",
    "rsync -a ~/Documents/ /mnt/backup/Documents/",
    "rsync -an ~/dotfiles/ ~/",
    "git submodule foreach git pull",
    "git submodule foreach 'git status'",
    "ls build | xargs -I{} rm build/{}",
    "rm ~/Downloads/*.iso",
    "rm ~/Documents/draft.txt",
    "Copy-Item -Recurse .\\backup $HOME\\backup-2024",
    "xcopy /E D:\\backup\\* %USERPROFILE%",
    "zip -r archive.zip ~/Documents",
    "zip -m logs.zip build/*.log",
    "fd -e jpg . ~/Pictures",
    "fd -e pyc . build -x rm",
    "sed -i '/^#/d' config.ini",
    "sed -i '$d' notes.txt",
    "ln -s ~/dotfiles/zshrc ~/Documents/zshrc.link",
    "find . -name '*.jpg' -exec mv {} ~/Pictures/ \\;",
    "osascript -e 'tell application \"Finder\" to open home'",
    "unison ~/Documents /mnt/backup/Documents",
    "git checkout -- src/app.py",
    "cd ~ && tar tf dotfiles.tar",
    "cd /tmp && tar xf dotfiles.tar",
    "scp nginx.conf root@web1:/tmp/",
    "scp root@web1:/etc/nginx/nginx.conf .",
    "scp report.pdf me@nas:backups/",
    "chezmoi apply",
    "chezmoi diff",
    "yadm status",
    "yadm add ~/.zshrc",
])
def test_copies_into_new_places_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- opened to everyone, in a cloud's words
@each_form("command,at_least", [
    ("aws s3api put-bucket-acl --bucket reports --acl public-read-write", "medium"),
    ("aws s3 cp ./exports s3://reports/ --recursive --acl public-read", "medium"),
    ("gsutil iam ch allUsers:objectViewer gs://reports", "medium"),
    ("gcloud storage buckets add-iam-policy-binding gs://reports --member=allUsers --role=roles/storage.objectViewer",
     "medium"),
    ("az storage container set-permission --name data --public-access container", "medium"),
    ("mc anonymous set public myminio/backups", "medium"),
    ("gh repo edit me/private-repo --visibility public --accept-visibility-change-consequences", "medium"),
    ("aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol -1 --cidr 0.0.0.0/0", "high"),
    ("aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0", "medium"),
    ("gcloud compute firewall-rules create allow-all --allow all --source-ranges 0.0.0.0/0", "high"),
    ("az network nsg rule create -g rg --nsg-name nsg -n all --priority 100 --source-address-prefixes '*' "
     "--destination-port-ranges '*' --access Allow", "high"),
    ("kubectl create clusterrolebinding x --clusterrole=cluster-admin --serviceaccount=default:default", "medium"),
    ("kubectl patch deploy web -p '{\"spec\":{\"replicas\":0}}'", "medium"),
    ("helm upgrade web ./chart --set replicaCount=0", "medium"),
    ("mv ~/Downloads/* ~/Documents/", "medium"),
])
def test_opened_to_everyone_and_scaled_away(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "aws s3api get-bucket-acl --bucket reports",
    "aws s3 cp ./exports s3://reports/ --recursive",
    "aws s3api put-bucket-acl --bucket reports --acl private",
    "gsutil iam get gs://reports",
    "gsutil iam ch user:alice@example.com:objectViewer gs://reports",
    "az storage container set-permission --name data --public-access off",
    "mc anonymous get myminio/backups",
    "gh repo edit me/site --visibility private",
    "gh repo create me/new --public",
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 443 --cidr 0.0.0.0/0",
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol -1 --cidr 10.0.0.0/16",
    "gcloud compute firewall-rules create web --allow tcp:80,tcp:443 --source-ranges 0.0.0.0/0",
    "az network nsg rule create -g rg --nsg-name nsg -n ssh --priority 100 --source-address-prefixes 203.0.113.7 "
    "--destination-port-ranges 22 --access Allow",
    "kubectl patch deploy web -p '{\"spec\":{\"replicas\":3}}'",
    "helm upgrade web ./chart --set replicaCount=2",
    "mv ~/Downloads/*.pdf ~/Documents/",
    "mv build/* dist/",
])
def test_narrow_grants_and_scaling_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- the second set's misses, as classes
@each_form("command", [
    "docker run -d -p 27018:27017 mongo:6 --bind_ip_all --replSet rs0",
    "memcached -u memcache -l 0.0.0.0 -m 512",
    "etcd --name n1 --listen-client-urls http://0.0.0.0:2379",
    "docker run -p 8888:8888 quay.io/jupyter/scipy-notebook start-notebook.py --ServerApp.token=''",
    "az storage account update --name logs --resource-group ops --allow-blob-public-access true",
    "gcloud sql instances patch orders --authorized-networks=0.0.0.0/0",
    "sudo firewall-cmd --add-rich-rule='rule family=\"ipv4\" source address=\"0.0.0.0/0\" accept'",
    "sudo systemctl disable --now packagekit.service",
    "mv ~/Downloads/* ~/Pictures/2024/",
    "ls ~/Documents/*.odt | xargs rm",
    "sudo systemctl isolate multi-user.target",
])
def test_the_second_sets_classes(command):
    assert reaches(command), judged(command)


@each_form("command", [
    "docker run -d -p 127.0.0.1:27017:27017 mongo:6 --auth --bind_ip_all",
    "memcached -u memcache -l 127.0.0.1 -m 512",
    "etcd --name n1 --listen-client-urls https://0.0.0.0:2379 --client-cert-auth",
    "az storage account update --name logs --resource-group ops --allow-blob-public-access false",
    "gcloud sql instances patch orders --authorized-networks=203.0.113.0/24",
    "sudo firewall-cmd --add-rich-rule='rule family=\"ipv4\" source address=\"10.0.0.0/8\" accept'",
    "sudo firewall-cmd --add-rich-rule='rule family=\"ipv4\" source address=\"0.0.0.0/0\" port port=443 "
    "protocol=tcp accept'",
    "systemctl status packagekit",
    "ls ~/Music/*.flac | wc -l",
    "sudo systemctl set-default multi-user.target",
    "sudo systemctl isolate graphical.target",
])
def test_the_second_sets_near_misses_stay_quiet(command):
    assert stays_quiet(command), judged(command)
