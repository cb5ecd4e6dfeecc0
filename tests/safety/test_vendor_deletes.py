"""Deletes said in a vendor's own abbreviations and odd verbs: a delete prefix fused with a suite's noun
(short_verbs), a delete mode letter or short long option (delete_letters), a retention or expiry set
to zero (retention_zero), and verbs that cannot be taken back (one_way_verbs)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    # a delete or clear prefix fused with a suite's noun
    "dltmqm QM1",
    "dltmqm -z PROD.QM",
    "dltmqlsr -m QM1 LISTENER1",
    "DLTLIB LIB(PRODLIB)",
    "dltlib PRODLIB",
    "CLRLIB LIB(PRODLIB)",
    "clrpfm FILE(ORDERS)",
    "rmvm FILE(ORDERS) MBR(Q1)",
    "dltusrprf ALICE",
    "rmtxns --all TXLOG1",
    "rmvmqinf -m QM1",
    "mqsideletebroker BRK1",
    "cmdeleteconf -f -c prodcluster",
    # a delete mode letter, an admin's -x / -r ID, --del NAME
    "onspaces -d datadbs1 -y",
    "onspaces -d logdbs -p /dev/chunk1 -o 0 -y",
    "poudriere jail -d -j 13amd64",
    "poudriere ports -d -p default",
    "nsrmm -d -y -S 4123456789",
    "nsrmm -d -y -V volume001",
    "lpadmin -x OfficePrinter",
    "manage_agents -r 003",
    "/var/ossec/bin/manage_agents -r 001",
    "synouser --del alice",
    "synogroup --del staff",
    "synoshare --del TRUE projects",
    "iocage snapshot -d myjail@snap1",
    # retention or expiry set to zero or now
    "bpexpdate -backupid host_1600000000 -d 0",
    "bpexpdate -m A00001 -d 0 -force",
    "nsrmm -e now -S 4123456789 -y",
    "paccache -rk0",
    "paccache -ruk0",
    "paccache -r -k 0",
    "purge -age 0",
    "backup-cleaner purge --older-than 0d",
    "snapshot-manager prune --keep 0",
    "logcleaner --retention-days 0 --delete",
    # verbs that cannot be taken back
    "solana program close 7Xz9Qk --bypass-warning",
    "solana program close --buffers",
    "lighthouse account validator exit --keystore ./keystore.json --beacon-node http://localhost:5052",
    "ethdo validator exit --validator=12345",
    "prysmctl validator exit --wallet-dir=/data/wallet",
    "teku voluntary-exit --beacon-node-api-endpoint=http://localhost:5051",
    "dolt branch -d main --force",
    "dolt branch -D main",
    "jj bookmark delete main",
    "hg bookmark -d main",
    "sl bookmark -d master",
    "vagrant plugin expunge --force",
])
def test_vendor_abbreviations_and_odd_verbs_of_delete_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "dspmq",
    "crtmqm QM1",
    "dltmqm --help",
    "CRTLIB LIB(PRODLIB)",
    "onspaces -c -d datadbs1 -p /dev/chunk1 -o 0 -s 1000000",
    "poudriere jail -l",
    "poudriere jail -c -j 13amd64 -v 13.2-RELEASE",
    "nsrmm -C",
    "lpadmin -p OfficePrinter -E",
    "lpadmin -d OfficePrinter",
    "manage_agents -l",
    "synouser --get alice",
    "synouser --add alice pass 'Alice' 0 alice@example.com 0",
    "cut -d ' ' -f 1 file.txt",
    "arecord -vv -f cd -d 10 out.wav",
    "xrandr -d :0 -q",
    "bspc node -d 3",
    "redis-benchmark -t set -r 100000",
    "ppmforge -m 512 -d 2.5 -x 1000 -y 1000",
    "bpexpdate -backupid host_1600000000 -d 12/31/2030",
    "paccache -d",
    "paccache -rk3",
    "backup-cleaner list --older-than 0d",
    "restic snapshots",
    "at now + 1 minute",
    "solana program show --buffers",
    "solana balance",
    "lighthouse account validator list",
    "ethdo validator info --validator=12345",
    "dolt branch -d feature-x",
    "dolt branch",
    "jj bookmark list",
    "jj bookmark delete old-feature",
    "hg bookmark",
    "vagrant plugin list",
    "vagrant plugin expunge",
])
def test_everyday_forms_of_vendor_tools_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
