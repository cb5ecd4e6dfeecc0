"""Round 19's names that carry the verb, for any program (session 13, wave 3; tests/corpus/effects/names_w3): a
removal fused into a program's name (rm<object>, <store>rm), an end word in a name or first word (decommission,
self-destruct, revoke<object>, a product's bare -cleanup), a single-dash verb option, a volume cut off from its
hosts, essential packages removed by any spelling and a system binary re-pointed.  One case per file.
Measured at main 90a4704: fused 12/39, unmap 2/8, core 5/14 flagged; everyday 0 of 69 loud.  Second part at
main 0aed14a: a zero age inside a command given as one value 1/6, patches rolled back 1/10, a password file
forced anew 0/5; everyday 0 of 81 loud.  Third part at main d372d40: creds 5/12 (a secrets store created anew
answered yes, a TPM hierarchy's authorization replaced); everyday 0 of 87 loud.  Fourth at
main 9e62c58: purge 6/9 (a pattern matching everything told to act: pypi-cleanup -r '.*' --do-it)."""
from __future__ import annotations

from pathlib import Path

from tests.safety.forms import corpus_floor, loud_and_quiet

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "names_w3"


def test_verb_carried_by_a_name_or_a_dash_option_is_flagged():
    corpus_floor(CORPUS / "fused.txt", 1.0, 6)  # rmvdiskhostmap, s3qlrm, nbdecommission, self-destruct, -delete


def test_volume_cut_off_from_its_hosts_is_flagged():
    corpus_floor(CORPUS / "unmap.txt", 1.0, 6)  # purehost disconnect --vol, lun unmap -igroup, removevlun


def test_essential_package_removed_or_system_binary_repointed_is_flagged():
    corpus_floor(CORPUS / "core.txt", 1.0, 6)  # spkg -d glibc, lrm glibc, -e openssl, patchelf on /usr/bin/sudo


def test_zero_age_inside_a_command_value_is_flagged():
    corpus_floor(CORPUS / "purge.txt", 1.0, 5)  # adrci exec="…; purge -age 0", a cleaner told -r ".*" --do-it


def test_installed_patches_rolled_back_are_flagged():
    corpus_floor(CORPUS / "rollback.txt", 1.0, 6)  # opatch rollback -id, datapatch -rollback, history undo, emgr -r -L


def test_password_file_forced_anew_is_flagged():
    corpus_floor(CORPUS / "creds.txt", 1.0, 5)  # orapwd force=y, yes | X-keystore create, tpm2_changeauth -c owner


def test_everyday_names_stay_quiet():
    loud, _ = loud_and_quiet(CORPUS / "everyday.txt")
    assert not loud, "\n".join(loud)
