"""A cmdlet's parameters are names, and a cmdlet's verdict says what it does.

``-Name``, ``-Path``, ``-Id`` after ``Remove-Printer`` are PowerShell parameter names, not a cluster of
one-letter options: read letter by letter, ``-Name`` held ``-a`` ("all"), and removing one printer by name was
"every one it matches", high.  And the cmdlets the Windows rules level by name said only "removes or stops
something": the reason now names the effect (the machine restarts, the Recycle Bin is emptied, the account goes).
"""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.kept import assess


@each_form("command", [
    'Remove-Printer -Name "HP"',
    'Remove-Printer -Name "HP LaserJet"',
    "Remove-PrinterDriver -Name HPUniversal",
    "Remove-Widget -Path C:\\x",
    "Remove-DnsServerZone -Name corp.example -PassThru",
    "Uninstall-Widget -Name foo",
    "Remove-VpnConnection -Name Work",
])
def test_one_thing_named_by_a_parameter_is_not_every_one(command: str) -> None:
    verdict = assess(command)
    assert verdict is None or verdict.level != "high" and "every one" not in verdict.reason, (command, verdict)


@each_form("command,at_least", [
    ("Remove-Printer -Name *", "medium"),  # a wildcard still names every one
    ("Remove-Widget -All", "medium"),
    ("Get-Printer | Remove-Printer", "medium"),
])
def test_every_one_said_by_a_cmdlet_stays_flagged(command: str, at_least: str) -> None:
    verdict = assess(command)
    assert verdict is not None and {"medium": 1, "high": 2}[verdict.level] >= {"medium": 1, "high": 2}[at_least], \
        (command, verdict)


@each_form("command,level,says", [
    ("Restart-Computer", "medium", "restarts the computer"),
    ("Restart-Computer -Force", "medium", "restarts the computer"),
    ("Stop-Computer", "medium", "shuts the computer down"),
    ("Clear-RecycleBin -Force", "medium", "empties the Recycle Bin"),
    ("Remove-Computer -UnjoinDomainCredential x -Restart", "medium", "out of its domain"),
    ("Remove-LocalUser bob", "medium", "deletes the local user account"),
    ("Disable-LocalUser bob", "medium", "can no longer log in"),
    ("Disable-ADAccount -Identity bob", "medium", "can no longer log in"),
    ("Remove-ADUser bob", "medium", "deletes the Active Directory user"),
    ("Clear-Disk -Number 1 -RemoveData", "high", "every partition"),
    ("Format-Volume -DriveLetter D", "high", "formats the volume"),
    ("Clear-Tpm", "high", "clears the TPM"),
    ("Disable-ComputerRestore -Drive C:\\", "medium", "restore points"),
    ("Remove-SmbShare -Name Data -Force", "medium", "removes the share"),
])
def test_a_leveled_cmdlet_says_what_it_does(command: str, level: str, says: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == level and says in verdict.reason, (command, verdict)
    assert "removes or stops something" not in verdict.reason and "destroys data (" not in verdict.reason, verdict


@each_form("command", [
    "zorkctl delete vol1 -name bar",  # single-dash words of Go-style and find-style options: names, not clusters
    "zorkctl rm -tags old",
    "zorkctl delete -path /srv/x",
    "nexus-cli image delete -name backend -keep 0",
    "symaccess -sid 0457 delete view -name ESX_CLUSTER_MV -unmap -nop",
])
def test_a_single_dash_word_is_not_a_cluster_of_letters(command: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "medium" and "every one" not in verdict.reason, (command, verdict)


@each_form("command", [
    "sudo diskutil apfs eraseVolume disk3s1 -name X",
    "diskutil apfs deleteVolume disk3s2",
    "diskutil apfs deleteContainer disk2",
    "diskutil apfs deleteVolumeGroup 5C3F-…",
    "diskutil cs delete lvg-uuid",
    "diskutil erasedisk APFS X disk4",
])
def test_a_volume_erased_through_a_disk_tools_family_verb_is_high(command: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "high", (command, verdict)


@each_form("command,says", [
    ("git submodule deinit -f --all", "git deinit acts on every one it manages"),
    ("zorkctl deinit --all", "zorkctl deinit acts on every one it manages"),
])
def test_a_weak_verbs_reason_reads_as_a_sentence(command: str, says: str) -> None:
    verdict = assess(command)
    assert verdict is not None and says in verdict.reason and " on its data" not in verdict.reason, (command, verdict)


@each_form("command,says", [
    ("kubectl delete secret mysecret", "secrets: their values cannot be read back"),
    ("kubectl delete ns dev", "the namespace and everything in it"),
    ("kubectl delete pods --all", "all pods in the namespace"),
    ("kubectl delete pods --all -A", "all pods in every namespace"),
    ("kubectl delete pvc data-db-0", "persistent volumes"),
    ("kubectl delete deploy web -n production", "resources in production"),
    ("oc delete node worker-3", "nodes from the cluster"),
])
def test_a_heavy_kubernetes_delete_says_what_goes(command: str, says: str) -> None:
    verdict = assess(command)
    assert verdict is not None and verdict.level == "high" and says in verdict.reason, (command, verdict)
    assert "with everything in them" not in verdict.reason, verdict
