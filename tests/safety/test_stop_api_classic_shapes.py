"""Shapes the twelfth session's stopping training set and its probes showed missing, each on programs beyond the
ones that showed it: long options abbreviated as getopt_long and git read them, HTTP calls made from code,
addresses that stop what a server runs, a daemon killed through its pid file, supervisors' and display
managers' stops, and the machine put down in the words of other systems."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("rm --recur --forc /srv/www", "medium"),
    ("rm --r -f ~/projects", "medium"),
    ("chmod --recurs 777 /etc", "high"),
    ("chown --rec nobody /var", "high"),
    ("chgrp --recu staff /usr", "high"),
    ("ln --sym --forc /dev/null /etc/passwd", "high"),
    ("wipefs --al /dev/sdc", "high"),
    ("git reset --har HEAD~3", "medium"),
    ("git clean --forc -d -x", "medium"),
    ("git -C repo clean --fo -dx", "medium"),
    ("git checkout --forc main", "medium"),
])
def test_abbreviated_long_options_are_read_whole(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "rm --interactive=always notes.txt",
    "rm -- --rec",
    "git reset --soft HEAD~1",
    "git stash --al",
    "cp --recur ./src ./backup",
    "chmod --rec u+w ./build",
])
def test_abbreviations_that_destroy_nothing_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("python3 -c \"import requests; requests.delete('http://localhost:9200/logs')\"", "medium"),
    ("python3 -c \"import httpx; httpx.delete('http://es01:9200/orders')\"", "medium"),
    ("python -c \"import requests;requests.request('DELETE','http://localhost:5984/userdb')\"", "medium"),
    ("python3 -c \"import urllib.request as u; u.urlopen(u.Request('http://localhost:9200/_all', "
     "method='DELETE'))\"", "high"),
    ("node -e \"fetch('http://localhost:9200/logs',{method:'DELETE'})\"", "medium"),
    ("node -e \"require('axios').delete('http://localhost:8500/v1/kv/app?recurse')\"", "medium"),
    ("ruby -rnet/http -e 'Net::HTTP.start(\"localhost\",9200){|h| h.request(Net::HTTP::Delete.new(\"/orders\"))}'",
     "medium"),
    ("ruby -rrest-client -e 'RestClient.delete(\"http://localhost:5984/userdb\")'", "medium"),
    ("php -r '$c=curl_init(\"http://localhost:9200/logs\"); curl_setopt($c, CURLOPT_CUSTOMREQUEST, \"DELETE\"); "
     "curl_exec($c);'", "medium"),
    ("perl -MLWP::UserAgent -e 'LWP::UserAgent->new->request(HTTP::Request->new(DELETE => "
     "\"http://localhost:9200/logs\"))'", "medium"),
    ("python3 -c \"import requests; requests.post('http://localhost:9200/orders/_delete_by_query', "
     "json={'query':{'match_all':{}}})\"", "medium"),
])
def test_http_calls_made_from_code(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "python3 -c \"import requests; print(requests.get('http://localhost:9200/_cat/indices').text)\"",
    "node -e \"fetch('http://localhost:3000/api/items',{method:'POST',body:'{}'})\"",
    "python3 -c \"import requests; requests.post('https://httpbin.org/post', data={'a':1})\"",
    "ruby -e 'puts Net::HTTP.get(URI(\"http://localhost:9200/_cluster/health\"))'",
])
def test_code_that_reads_or_creates_stays_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("curl -X POST localhost:9200/_all/_close", "high"),
    ("http POST :9200/logs-2024/_close", "medium"),
    ("wget --method=POST -qO- http://localhost:9200/_all/_freeze", "high"),
    ("curl -X POST https://pve1:8006/api2/json/nodes/pve1/stopall", "medium"),
    ("pvesh create /nodes/pve1/stopall", "medium"),
    ("curl -X PUT http://consul:8500/v1/agent/leave", "medium"),
    ("curl -X POST https://api.example.com/v1/all/jobs/stop", "medium"),
    ("xh POST https://runner.example.com/api/runners/killall", "medium"),
])
def test_addresses_that_stop_what_a_server_runs(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "curl -X POST http://localhost:2375/containers/web/stop",
    "curl -X POST http://localhost:9200/logs/_open",
    "curl http://localhost:8500/v1/agent/members",
    "pvesh get /nodes",
    "pvesh create /nodes/pve1/qemu/101/status/start",
    "curl -X POST https://api.example.com/v1/jobs/42/stop",
])
def test_one_stop_or_a_read_by_address_stays_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("sudo kill -9 $(cat /run/sshd.pid)", "high"),
    ("kill -9 $(cat /var/run/docker.pid)", "medium"),
    ("kill $(cat /var/run/postgresql/postgres.pid)", "medium"),
    ("kill -TERM $(cat /run/containerd/containerd.pid)", "medium"),
    ("sv -w 7 force-stop /etc/service/*", "medium"),
    ("sv -w 30 exit /var/service/*", "medium"),
    ("sudo systemctl restart gdm", "medium"),
    ("sudo service lightdm restart", "medium"),
    ("sudo rc-service sddm stop", "medium"),
    ("osascript -e 'tell app \"loginwindow\" to «event aevtrsdn»'", "medium"),
    ("osascript -e 'tell application \"System Events\" to sleep'", "medium"),
    ("sudo acpiconf -s 3", "medium"),
    ("sudo uadmin 2 0", "medium"),
    ("launchctl kill SIGKILL system/com.apple.WindowServer", "high"),
    ("mysqladmin -u root -p shutdown", "medium"),
])
def test_daemons_sessions_and_machines_stopped_in_other_words(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "kill $(cat /run/nginx.pid)",
    "kill -HUP $(cat /var/run/sshd.pid)",
    "sv force-shutdown nginx",
    "systemctl status gdm",
    "osascript -e 'display dialog \"sleep well\"'",
    "acpiconf -i 0",
    "mysqladmin status",
    "mysqladmin -u root processlist",
])
def test_one_web_server_a_nudge_or_a_read_stays_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    # an init script run by its path is the service manager's stop of what it names
    ("sudo /etc/init.d/docker stop", "medium"),
    ("sudo /usr/local/etc/rc.d/jail stop", "medium"),
    ("sudo /etc/rc.d/init.d/libvirtd stop", "medium"),
    ("sudo service jail stop", "medium"),
    ("kill $(< /run/sshd.pid)", "high"),
    # a platform app, every node tainted away, everything idled
    ("cf stop shop", "medium"),
    ("kubectl taint nodes --all dedicated=maint:NoExecute", "medium"),
    ("kubectl taint nodes -l pool=web maint=1:NoExecute", "medium"),
    ("oc idle --all", "medium"),
    ("oc adm drain node1 --force --ignore-daemonsets", "medium"),
    # statements in an HTTP query API's address, the engine API's prunes, the address after a socket path
    ("curl 'http://localhost:8123/?query=DROP%20TABLE%20events'", "high"),
    ("curl \"http://localhost:8086/query?db=metrics&q=DROP+DATABASE+metrics\"", "high"),
    ("wget -qO- \"http://ch:8123/?query=TRUNCATE%20TABLE%20logs\"", "high"),
    ("http GET \"localhost:8123/?query=DELETE%20FROM%20t\"", "medium"),
    ("curl --unix-socket /var/run/docker.sock -X POST http://localhost/volumes/prune", "high"),
    ("curl -X POST http://localhost:2375/containers/prune", "medium"),
    ("curl --unix-socket /var/run/docker.sock -X DELETE \"http://localhost/containers/web?force=true\"", "medium"),
    ("curl --cacert /etc/ssl/ca.pem -X DELETE https://es:9200/logs", "medium"),
])
def test_init_scripts_platform_stops_and_addresses(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "/etc/init.d/docker status",
    "sudo /etc/init.d/docker start",
    "kill -HUP $(< /run/nginx.pid)",
    "cf start shop",
    "kubectl taint nodes node1 dedicated=gpu:NoSchedule",
    "oc idle web",
    "oc adm top nodes",
    "curl 'http://localhost:8123/?query=SELECT%201'",
    "curl \"http://localhost:8086/query?db=m&q=SELECT+*+FROM+cpu\"",
    "curl --unix-socket /var/run/docker.sock http://localhost/containers/json",
])
def test_their_reads_and_starts_stay_quiet(command):
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    # the action in the body: power cut for one machine, a graceful stop for many, replicas set to zero
    ("curl -X POST https://api.digitalocean.com/v2/droplets/123/actions -d '{\"type\":\"power_off\"}'", "medium"),
    ("http POST https://api.digitalocean.com/v2/droplets/123/actions type=power_off", "medium"),
    ("xh post https://api.digitalocean.com/v2/droplets/actions tag_name==web type=shutdown", "medium"),
    ("wget --method=POST --body-data='{\"type\":\"power_off\"}' https://api.digitalocean.com/v2/droplets/1/actions",
     "medium"),
    ("https POST ipmi.example.net/api/v1/chassis/actions ResetType=ForceOff", "medium"),
    ("curl -X POST https://compute.example.com/v2.1/servers/abc/action -d '{\"reboot\": {\"type\": \"HARD\"}}'",
     "medium"),
    ("curl -X POST https://api.vultr.com/v2/instances/halt -d '{\"instance_ids\":[\"a\",\"b\"]}'", "medium"),
    ("curl -X POST \"https://api.digitalocean.com/v2/droplets/actions?tag_name=web\" -d '{\"type\":\"power_off\"}'",
     "medium"),
    ("http PATCH k8s:6443/apis/apps/v1/namespaces/prod/deployments/web spec:='{\"replicas\":0}'", "medium"),
    ("curl -X PATCH -d '{\"spec\":{\"replicas\":0}}' https://k8s:6443/apis/apps/v1/namespaces/prod/deployments/web",
     "medium"),
    ("curl -X POST \"http://jenkins:8080/safeExit\" -u admin:token", "medium"),
])
def test_http_bodies_that_stop_machines_or_workloads(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "curl -X POST https://api.digitalocean.com/v2/droplets/123/actions -d '{\"type\":\"power_on\"}'",
    "curl -X POST https://api.digitalocean.com/v2/droplets/123/actions -d '{\"type\":\"shutdown\"}'",
    "curl -X POST https://compute/v2.1/servers/abc/action -d '{\"os-start\": null}'",
    "curl -X POST https://compute/v2.1/servers/abc/action -d '{\"reboot\": {\"type\": \"SOFT\"}}'",
    "curl -X POST localhost:3000/api/jobs -d '{\"type\":\"stop\",\"name\":\"x\"}'",
    "curl -X PATCH k8s/apis/apps/v1/namespaces/prod/deployments/web -d '{\"spec\":{\"replicas\":3}}'",
    "http POST httpbin.org/post name=alice",
    "http POST :8080/api/vms/1/actions type=power_on",
])
def test_bodies_that_start_one_or_create_stay_quiet(command):
    assert stays_quiet(command), judged(command)
