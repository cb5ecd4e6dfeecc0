"""Credential dumpers by name (rules/secrets_dumped.py): its docstring said they count, and none was registered.
They exist to pull saved or signed-in credentials out in clear, as `procdump -ma lsass.exe` and `reg save HKLM\\SAM`
(high) do; medium, as nothing has left the machine yet.  The network kits' dumping options do it on every host they
reach.  Help, and the kits' other work, quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'pypykatz lsa minidump lsass.dmp',
    'lsassy -u admin -p Winter2024 10.0.0.5',
    'secretsdump.py -just-dc corp.local/admin@10.0.0.1',
    'impacket-secretsdump -sam sam.save -system system.save LOCAL',
    'lazagne.exe all -oN',
    'sudo mimipenguin',
    'donpapi collect -u admin -p x -d corp.local -t 10.0.0.0/24',
    'nxc smb 10.0.0.0/24 -u admin -p x --sam',
    'crackmapexec smb 10.0.0.5 -u a -p b -M lsassy',
    'netexec smb dc01 -u a -H NTHASH --ntds',
    'mimikatz.exe "privilege::debug" "sekurlsa::logonpasswords" exit',
])
def test_a_credential_dumper_run_by_name_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'lazagne --help',
    'pypykatz -h',
    'pypykatz version',
    'nxc smb 10.0.0.0/24 -u alice -p x --shares',
    'crackmapexec smb 10.0.0.5 --gen-relay-list relay.txt',
    'mimikatz.exe "privilege::debug" exit',
])
def test_help_and_the_kits_other_work_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
