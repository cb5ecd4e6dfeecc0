"""What a body of code does, for any program given one, whatever its language: shell-outs and deletes
by a catalogue of call names, SQL after any statement, graph and database objects dropped,
configuration as code that deletes, writes a security file or lets everyone in."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "root -l -b -q -e 'gSystem->Exec(\"rm -rf /data/runs\")'",
    "wolframscript -code 'DeleteDirectory[\"/home/bob/results\", DeleteContents -> True]'",
    "idl -e \"file_delete, '/data/archive', /recursive\"",
    "sqlcipher secrets.db \"PRAGMA key='x'; DROP TABLE secrets;\"",
    "gremlin.sh -e \"JanusGraphFactory.drop(graph)\"",
    "chef-apply -e \"file '/etc/sudoers.d/zz' do content 'ALL ALL=(ALL) NOPASSWD:ALL' end\"",
    "nim --eval:'import osproc; discard execShellCmd(\"rm -rf ~/data\")'",
    "gjs -c 'imports.gi.GLib.spawn_command_line_sync(\"rm -rf /home/bob\")'",
    "sbcl --eval '(sb-ext:run-program \"/bin/rm\" (list \"-rf\" \"/home/bob\"))'",
    "rebol --do 'call \"rm -rf /data\"'",
    "scilab-cli -e 'removedir(\"/data/results\")'",
    "fpc-like -e \"removedir('/home/bob')\"",
    "orientdb-console 'CONNECT remote:localhost/demo root x; DROP DATABASE'",
    "chef-apply -e \"directory '/var/www' do recursive true; action :delete end\"",
    "puppet apply -e \"file { '/etc/ssh': ensure => absent, force => true }\"",
    "puppet apply -e \"user { 'root': password => '' }\"",
    "mgmt-like -e \"file { '/etc/sudoers.d/x': content => 'ALL ALL=(ALL) NOPASSWD: ALL' }\"",
    "mlr -n put 'end { system(\"rm -rf /data\") }'",
    "v -e 'os.rmdir_all(\"/home/bob\")'",
    "Rscript -e 'system2(\"rm\", c(\"-rf\", \"/data\"))'",
    "haxe --run-eval 'Sys.command(\"rm -rf /data\")'",
    "swift -e 'import Foundation; try FileManager.default.removeItem(atPath: \"/Users/bob\")'",
    "ansible-console -e 'file path=/etc state=absent'",
])
def test_code_bodies_of_any_program_are_read_for_what_they_do(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "root -l -b -q -e 'gSystem->Exec(\"ls /data/runs\")'",
    "wolframscript -code 'Print[2+2]'",
    "idl -e \"print, 'hello'\"",
    "sqlcipher secrets.db \"PRAGMA key='x'; SELECT count(*) FROM secrets;\"",
    "gremlin.sh -e \"g.V().count()\"",
    "chef-apply -e \"package 'vim'\"",
    "puppet apply -e \"package { 'vim': ensure => installed }\"",
    "puppet apply -e \"file { '/tmp/scratch': ensure => absent }\"",
    "python3 -c 'import pandas as pd; df = pd.read_csv(\"a.csv\"); print(df.drop(columns=[\"b\"]))'",
    "mlr --icsv --opprint put '$z = $x . \"_\" . $y' data.csv",
    "git commit -m 'call system(\"rm -rf /data\") only in tests'",
    "jq '.items[] | select(.name == \"rm -rf\")' data.json",
    "rebol --do 'print \"hello\"'",
    "Rscript -e 'system2(\"ls\", c(\"-l\", \"/data\"))'",
    "swift -e 'print(1)'",
    "ansible-console -e 'file path=/tmp/build state=absent'",
])
def test_everyday_code_and_text_about_code_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
