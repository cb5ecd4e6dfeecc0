"""One named thing ended (session 18, issue 23's documentation-labelled set; docs/safety.md, "One named thing
ended"): which single endings are medium and which stay quiet by policy, one (loud, quiet) table per class.

The policy: one package removed, one process killed, one file deleted by name, one session, container or guest
ended or stopped, one record deleted stay quiet, because every everyday corpus written blind has them as everyday
commands (``kill 12345``, ``rm notes.txt``, ``sudo apt remove nano``, ``tmux kill-session -t scratch``, ``docker rm
web-old``, ``docker compose down``, ``psql -c "DELETE FROM sessions WHERE user_id = 42"``) and their floors hold.
What is medium: a named account's rights on a shared package or project taken away (``access_removed``), and a
named secret deleted by the container managers' own verbs, as every other secret store's delete already is."""
from __future__ import annotations

from tests.safety.forms import each_form, table_holds
from tests.safety.kept import assess

# An owner, maintainer, collaborator, uploader or member removed, in any registry's or host's words
# (rules/access_removed.py): cargo and npm showed it; yarn, pnpm, gem and the rest are the class.
ACCESS_REMOVED = (
    ["cargo owner -r alice serde-extra", "npm owner rm alice left-pad", "yarn owner remove alice left-pad",
     "pnpm owner rm alice@example.com left-pad", "gem owner rake-tasks --remove alice@example.com",
     "gem owner -r alice@example.com rake-tasks", "cargo owner --remove github:acme:core mycrate",
     "bun x npm owner rm alice left-pad", "mix hex.owner remove plug_extra alice@example.com",
     "rebar3 hex owner remove cowlib_x alice@example.com", "heroku access:remove bob@example.com -a shop",
     "quayctl collaborator rm bob acme/api", "crateman maintainers remove bob tokio-x",
     "sudo -u deploy npm owner rm bob @acme/ui"],
    ["npm owner ls left-pad", "cargo owner --list mycrate", "cargo owner -a bob mycrate", "yarn owner list left-pad",
     "gem owner rake-tasks", "gem owner rake-tasks --add bob@example.com", "npm owner add bob left-pad",
     "consul members", "riak-admin member-status", "npm access list packages", "git remote remove upstream",
     "cargo owner --help", "npm uninstall left-pad", "pnpm remove lodash"])

# A named secret deleted by a container manager's own verb, as `gh secret delete`, `vault kv delete`,
# `nerdctl secret rm` already are; a named container, image or config stays quiet (a rebuild or a pull).
SECRETS_DELETED = (
    ["docker secret rm db_pass", "docker secret remove api_key tls_key", "podman secret rm db_pass",
     "sudo docker secret rm prod_db_password", "nerdctl secret rm db_pass"],
    ["docker secret ls", "docker secret create db_pass ./pw.txt", "docker secret inspect db_pass",
     "docker rm web-old", "docker rmi myimage:old", "docker config rm nginx_conf", "podman secret ls"])

# Quiet by policy: the everyday corpora's own single endings (they hold these floors), and named stops.
QUIET_BY_POLICY = (
    [],
    ["kill 12345", "kill -9 4242", "rm notes.txt", "sudo apt remove nano", "brew uninstall wget",
     "tmux kill-session -t scratch", "docker rm web-old", "docker compose down", "conda env remove -n old-env",
     "systemctl stop nginx", "docker stop web", "virsh shutdown web01", "limactl stop vm1", "kill %1", "kill -0 1234",
     "rm -i notes.txt", "git rm --cached .env", "rm -rf node_modules", "rm /tmp/scratch.txt"])


# Nothing of value lost, as classes (the brief's quiet list): what the line itself made with a temporary-file
# maker (rules/made_here.py), build outputs and caches wherever they stand (rules/generated.py), and a delete
# that asks for each file (rules/asked_each.py).  The loud side: the worst case still stands where the made path
# may be empty with a suffix, was replaced, or had files moved into it; a workspace named `build` at home, keys.
MADE_HERE = (
    ["d=$(mktemp -d); rm -rf \"$d\"/*", "d=$(mktemp -d); d=/; rm -rf \"$d\"", "trap 'rm -rf \"$tmpdir\"' EXIT",
     "d=$(mktemp -d); mv ~/Documents/* \"$d\"; rm -rf \"$d\"", "rm -rf \"$d\"",
     "d=$(mktemp -d); for d in /srv/*; do rm -rf \"$d\"; done",
     "d=$(mktemp -d); mount --bind ~/data \"$d\"; rm -rf \"$d\"",
     "d=$(mktemp -d) && sshfs box:/srv \"$d\" && rm -rf \"$d\"",
     "d=$(mktemp -d); rclone mount r: \"$d\" & rm -rf \"$d\"", "rm -rf \"$d\"; d=$(mktemp -d)",
     "trap 'rm -rf \"$t\"' EXIT; t=$(mktemp -d)"],
    ["d=$(mktemp -d) && cd \"$d\" && rm -rf \"$d\"", "tmp=$(mktemp -d); tar xf a.tar -C \"$tmp\"; rm -rf \"$tmp\"",
     "tmpdir=$(mktemp -d); trap 'rm -rf \"$tmpdir\"' EXIT; make -C src", "local d=\"$(mktemp -d)\"; rm -rf \"$d\"",
     "D=`mktemp -d`; find \"$D\" -mindepth 1 -delete", "W=$(gmktemp -d) && rm -rf \"${W}\"",
     "f=$(tempfile); dd if=/dev/zero of=\"$f\" bs=1M count=10", "f=$(mktemp); truncate -s 0 \"$f\"",
     "d=$(mktemp -d); chown -R nobody \"$d\"", "d=$(mktemp -d); cp -rf build/* \"$d\"",
     "d=$(mktemp -d); Remove-Item -Recurse -Force \"$d\"", "rm -rf \"$(mktemp -d)\"",
     "bash -c 'w=$(mktemp -d); cd \"$w\"; git clone https://example.com/r.git .; rm -rf \"$w\"'"])
GENERATED = (
    ["rm -rf ~/build/", "rm -rf ~/projects/app", "mv -f notes.txt docs/target", "rm -rf ~/.ssh/caches",
     "rm -rf src/cache", "rm -rf /srv/cache",
     "rm -rf ~/.gradle", "rm -rf ~/.local/share/Trash/files/*"],
    ["rm -rf src/app/__pycache__", "rm -rf packages/*/node_modules", "rm -rf ~/projects/app/target/",
     "rm -rf ~/Library/Caches/com.example.app", "rm -rf ~/.npm/_cacache", "find ~/projects/app/node_modules -delete",
     "find src/app/__pycache__ -type f -delete", "rimraf packages/*/node_modules", "rm -rf ~/code/site/.next",
     "Remove-Item -Recurse -Force ~/projects/app/node_modules", "rm -rf ~/work/api/.tox ~/work/api/.pytest_cache",
     "rm -rf */__pycache__", "rm -rf ~/code/x/build/*", "rm -rf ~/.cargo/registry/cache"])
ASKED_EACH = (
    ["rm -rif old-project", "rm -rI old-project", "yes | rm -ri old-project", "rm -ri ~", "rm -ri /",
     "sudo rm -ri /etc/nginx/sites-available", "rm -ri old-project < answers.txt"],
    ["rm -ri ~/Documents/old", "rm -ir old-project", "rm -fri old-project", "rm -r --interactive old-project",
     "rm -R -i ~/notes/2019"])


# A quiet class is no way around the rest: `..` steps are taken before a path is classified (rules/path_steps.py).
PARENT_STEPS = (
    ["rm -rf node_modules/../src", "rm -rf build/../../", "rm -rf dist/../..", "rm -rf ./build/../src",
     "rm -rf ~/.cache/../Documents", "find ~/.cache/../Documents -delete", "rm -rf target/debug/../../../api",
     "Remove-Item -Recurse -Force ~/.cache/../Documents", "rimraf node_modules/../src"],
    ["rm -rf build/../dist", "rm -rf ~/.cache/pip/../uv", "rm -rf node_modules/.cache/../.vite"])


def test_parent_steps_are_taken_before_a_path_is_classified():
    table_holds(PARENT_STEPS)


def test_what_the_line_made_itself_is_quiet():
    table_holds(MADE_HERE)


def test_build_outputs_and_caches_anywhere_are_quiet():
    table_holds(GENERATED)


def test_a_delete_that_asks_for_each_file_is_quiet():
    table_holds(ASKED_EACH)


def test_access_taken_from_a_named_account_is_flagged():
    table_holds(ACCESS_REMOVED)


def test_a_named_secret_deleted_by_a_container_manager_is_flagged():
    table_holds(SECRETS_DELETED)


def test_single_endings_the_everyday_corpora_hold_stay_quiet():
    table_holds(QUIET_BY_POLICY)


@each_form("command,words", [
    ("npm owner rm alice left-pad", "alice left-pad"),
    ("heroku access:remove bob@example.com -a shop", "bob@example.com"),
    ("docker secret rm db_pass", "db_pass"),
    ("podman secret rm api_key tls_key", "api_key tls_key"),
])
def test_the_reason_names_what_is_lost(command, words):
    verdict = assess(command)
    assert verdict is not None and words in verdict.reason, verdict
