"""Data made unreadable or unrecoverable, by any program (issue 23, session 20): files encrypted in place, an
encrypted file system mounted over a folder of data, every file renamed to a new ending, a ransom note, code writing
noise or ciphertext over the files it lists (rules/data_locked.py); versions, soft deletes and local backups
switched off, backup files deleted by their format, Windows' recovery environment switched off (rules/recovery_off.py).
Each table holds forms of many programs and the everyday near-misses that must stay quiet."""
from __future__ import annotations

from tests.safety.forms import table_holds
from tests.safety.kept import assess

# WHERE: the user's files, a share, a mount; THAT: replaced by their encrypted copies (in place by the tool's
# default, told to remove the original, or the output written over the input).
ENCRYPTED_IN_PLACE = ([
    "ccencrypt -r ~/Documents", "ccencrypt -K k ~/Documents/*.docx", "ccrypt -e -r /srv/share", "bcrypt ~/Pictures/*",
    "mcrypt -u ~/Documents/*.pdf", "filecrypt --delete-original -r /mnt/nas/projects",
    "find ~/Documents -type f -exec ccencrypt -K k {} +", "find /srv/share -type f -exec mcrypt -u {} \\;",
    "openssl enc -aes-256-cbc -in db.sqlite -out db.sqlite -k pw", "gpg --yes --batch -c --passphrase x -o a.txt a.txt",
    "age -p -o ledger.csv ledger.csv", "scrypt enc budget.ods budget.ods", "ccencrypt -K k q1.xlsx q2.xlsx q3.xlsx",
    "xorcrypt --remove-input /home/bob/Music/*",
], [
    "ccencrypt notes.txt", "bcrypt -r ~/Documents/*", "ccencrypt -d -r ~/Documents", "ccdecrypt notes.txt.cpt",
    "ccrypt -c secret.cpt", "gpg -c report.pdf", "gpg -c --batch --passphrase x /etc/passwd",
    "age -r age1xyz -o x.age x", "aescrypt -e -p pass ~/Pictures/*.jpg", "scrypt enc secret.txt secret.enc",
    "openssl enc -aes-256-cbc -in a.tar -out a.tar.enc", "mcrypt ~/Documents/*.pdf", "7z a -p backup.7z dir",
    "gpg -d -o notes.txt notes.txt.gpg", "openssl enc -d -aes-256-cbc -in x.enc -out x",
])

# A loop that encrypts each file of a tree and removes the original (high); one kind of file, a build directory, a
# loop that keeps the originals, or one that removes a file made from each stay below high.
LOOP_ENCRYPTED = [
    "for f in ~/Documents/*; do gpg -c --batch --passphrase x \"$f\" && rm \"$f\"; done",
    "for f in $(find /srv/share -type f); do openssl enc -aes-256-cbc -in \"$f\" -out \"$f.enc\" -pass pass:x && "
    "shred -u \"$f\"; done",
    "find ~/Pictures -type f | while read f; do age -p -o \"$f.age\" \"$f\" && rm -f \"$f\"; done",
    "while read -r f; do ccrypt -e -K k \"$f\"; rm -f \"$f\"; done < <(find /mnt/nas -type f)",
    "for file in /home/*/Desktop/*; do 7z a -pX \"$file.7z\" \"$file\"; rm \"$file\"; done",
]
LOOP_KEPT = [
    "for f in *.pdf; do gpg -c \"$f\"; done", "for f in ~/Documents/*.pdf; do gpg -c \"$f\" && rm \"$f\"; done",
    "for f in build/*; do gpg -c \"$f\" && rm \"$f\"; done", "for f in ~/Documents/*; do gpg -c \"$f\"; done",
    "for f in ~/Documents/*; do gpg -c \"$f\" && rm \"$f.bak\"; done",
    "for f in ~/Documents/*; do zip \"$f.zip\" \"$f\" && rm \"$f\"; done",
]

# A tree of data overwritten beyond recovery by any overwriting deleter, or any program told to encrypt home (high for
# the overwrite, medium for the encryption); one file, a build or temporary directory stay below high.
TREE_OVERWRITTEN = [
    "shred -u ~/Documents/*", "wipe -rf /srv/share", "srm -r ~/Pictures", "sdelete -s C:\\Users\\bob\\Documents",
    "sdelete64.exe -p 3 -s D:\\Shares\\Finance", "bcwipe -rf /mnt/nas", "shred -n1 -u /home/*/Desktop/*",
]
TOLD_TO_ENCRYPT = ["python3 ransom.py --encrypt /home", "locker encrypt /home/alice", "node lock.js --encrypt ~"]
OVERWRITTEN_KEPT = [
    "shred -u secret.key", "shred -u ~/Documents/old-tax.pdf", "srm notes.txt", "shred -u build/*", "wipe -rf ./tmp",
    "borg init --encryption=repokey /mnt/backup", "duplicity --encrypt-key ABCD /home file:///mnt/backup",
    "tar c /home | gpg --encrypt -r me > /mnt/b.tar.gpg", "gpg --encrypt -r bob report.pdf",
]

# A tree packed into an archive only a password opens, the originals deleted: high; no password, no delete, or a
# build's logs stay below high.
LOCKED_ARCHIVES = [
    "7z a -pSecret -sdel loot.7z ~/Documents", "zip -r -e -m -P pw x.zip ~/Documents",
    "rar a -hpPASS -df x.rar /home/user/Documents", "rar m -hpPASS x.rar /srv/share",
    "7za a -mhe=on -pX -sdel /tmp/p.7z /mnt/nas/projects", "zip -rmP pw x.zip ~/Pictures",
]
ARCHIVES_KEPT = ["7z a -p backup.7z dir", "7z a -pX -sdel logs.7z ./logs", "7z a -sdel old.7z ~/Documents",
                 "zip -r -e x.zip ~/Documents", "zip -m x.zip notes.txt"]

# An encrypted file system mounted over a folder that holds the user's data.
MOUNTED_OVER = ([
    "encfs ~/.enc ~/Documents", "gocryptfs ~/.cipher ~/Pictures", "cryfs ~/.cryfs ~/Desktop",
    "securefs mount ~/.sec ~/Documents", "encfs /srv/.enc /srv/share", "gocryptfs -allow_other /mnt/.c /mnt/data",
], [
    "encfs ~/.enc ~/Private", "gocryptfs -init ~/.cipher", "encfs --reverse ~/Documents ~/enc",
    "gocryptfs ~/.cipher ~/vault", "cryfs ~/.cryfs /tmp/view", "securefs create ~/.sec",
])

# Every file given a new ending no program opens, by any renamer, cmdlet or loop.
RENAMED_AWAY = ([
    "rename 's/$/.enc/' ~/Documents/*", "perl-rename 's/(.*)/$1.locked/' *", "mmv '*' '#1.locked'",
    "zmv '(*)' '$1.enc'", "ren *.* *.crypt", "rename *.* *.wncry",
    "Get-ChildItem C:\\Users\\bob\\Documents -Recurse -File | Rename-Item -NewName { $_.Name + '.locked' }",
    "gci -r ~\\Pictures | rni -NewName { \"$($_.Name).crypted\" }",
    "for f in ~/Pictures/*; do mv \"$f\" \"$f.locked\"; done", "ls | xargs -I{} mv {} {}.wncry",
    "while read f; do mv \"$f\" \"$f.enc\"; done < <(find /srv/share -type f)",
], [
    "rename 's/\\.jpeg$/.jpg/' *.jpeg", "for f in *.txt; do mv \"$f\" \"${f%.txt}.md\"; done",
    "ls | xargs -I % mv % %.bak", "Get-ChildItem | Rename-Item -NewName { $_.Name -replace ' ','_' }",
    "Get-ChildItem *.txt | Rename-Item -NewName { $_.Name + '.bak' }", "mmv '*.jpeg' '#1.jpg'", "ren *.txt *.md",
    "rename 's/$/.txt/' *", "for f in *.log; do mv \"$f\" \"$f.old\"; done", "mv notes notes.locked",
])

# A ransom note: the line says the data is held and how to pay or get it back, written where the user looks.
RANSOM_NOTES = ([
    "echo T1486 - Purelocker Ransom Note > %USERPROFILE%\\Desktop\\YOUR_FILES.txt",
    "echo \"Your files have been encrypted. Pay 1 BTC\" > ~/Desktop/README_DECRYPT.txt",
    "Set-Content -Path $env:USERPROFILE\\Desktop\\HOW_TO_DECRYPT.txt -Value 'All your documents are encrypted. "
    "Contact us via Tor Browser'",
    "printf 'Your files are locked. Send 0.1 bitcoin to the wallet below' | tee /home/alice/Desktop/RESTORE.txt",
    "echo \"all your data was stolen and encrypted, visit http://x.onion\" > C:\\Users\\Public\\Desktop\\README.html",
], [
    "echo \"data is encrypted at rest\" >> ~/Documents/notes.txt", "echo \"BTC price alert\" > ~/Desktop/prices.txt",
    "echo \"# Project\" > README.md",
    "echo \"Files are encrypted with age; decrypt with age -d\" > ~/Documents/HOW.txt",
])

# Code in any language writing noise or ciphertext over every file a listing names.
CODE_SCRAMBLES = ([
    "python3 -c \"import os,glob; [open(f,'wb').write(os.urandom(1024)) for f in glob.glob('/home/*/Documents/*')]\"",
    "python3 -c \"from cryptography.fernet import Fernet;import os;k=Fernet(Fernet.generate_key());"
    "[open(os.path.join(r,f),'wb').write(k.encrypt(open(os.path.join(r,f),'rb').read())) "
    "for r,d,fs in os.walk(os.path.expanduser('~')) for f in fs]\"",
    "node -e \"const fs=require('fs'),c=require('crypto');for(const f of fs.readdirSync('/home/u/Documents'))"
    "fs.writeFileSync('/home/u/Documents/'+f,c.randomBytes(4096))\"",
    "ruby -e 'Dir.glob(File.expand_path(\"~/Pictures/**/*\")).each{|f| File.binwrite(f, Random.bytes(1024))}'",
    "php -r 'foreach(glob(\"/srv/share/*\") as $f) file_put_contents($f, random_bytes(4096));'",
], [
    "python3 -c \"import os; open('key.bin','wb').write(os.urandom(32))\"",
    "python3 -c \"import glob; print(glob.glob('*.txt'))\"",
    "node -e \"console.log(require('crypto').randomBytes(16).toString('hex'))\"",
    "ruby -e 'puts Dir.glob(\"*\").size'",
])

# Versions, soft deletes and local backups switched off; backup files deleted by their format.
RECOVERY_OFF = ([
    "gsutil versioning set off gs://bucket", "gcloud storage buckets update gs://b --no-versioning",
    "aws s3api put-bucket-versioning --bucket b --versioning-configuration Status=Suspended",
    "az storage account blob-service-properties update --account-name a --enable-versioning false",
    "az storage account blob-service-properties update --account-name a --enable-delete-retention false",
    "az backup vault backup-properties set --soft-delete-feature-state Disable -n v -g rg",
    "mc version suspend myminio/bucket", "gcloud storage buckets update gs://b --clear-soft-delete",
    "Disable-ComputerRestore -Drive C:\\", "tmutil disable", "tmutil disablelocal",
    "defaults write /Library/Preferences/com.apple.TimeMachine AutoBackup -bool false",
    "Disable-ScheduledTask -TaskName SR -TaskPath \\Microsoft\\Windows\\SystemRestore\\",
    "rm -f /backup/*.vbk", "find /mnt/backup -name '*.tib' -delete", "del /s /q D:\\*.wbcat",
    "Remove-Item E:\\Backups\\*.mrimg", "gio trash /srv/veeam/job.vbm",
    "sc sdset VSS D:(D;;GA;;;NU)(D;;GA;;;WD)(D;;GA;;;AN)", "sc.exe sdset swprv D:(D;;GA;;;WD)",
], [
    "gsutil versioning set on gs://bucket", "gsutil versioning get gs://bucket", "mc version enable s3/b",
    "aws s3api put-bucket-versioning --bucket b --versioning-configuration Status=Enabled",
    "az storage account blob-service-properties update --account-name a --enable-delete-retention true",
    "tmutil enable", "tmutil listlocalsnapshots /", "tmutil startbackup", "ls /backup/*.vbk",
    "cp /backup/full.vbk /mnt/offsite/", "find /mnt/backup -name '*.tib'", "rm -f *.bak", "sc sdshow VSS",
    "Enable-ComputerRestore -Drive C:\\", "Checkpoint-Computer -Description before-update",
])

# Every snapshot, backup, recovery point or version a listing names, deleted (high); one named, or a filtered listing
# (a retention prune, a few from the top), stays the verb's own reading.
EVERY_COPY_DELETED = [
    "az snapshot list --query [].id -o tsv | xargs az snapshot delete --ids",
    "gcloud compute snapshots list --format='value(name)' | xargs gcloud compute snapshots delete --quiet",
    "aws rds describe-db-snapshots --query 'DBSnapshots[].DBSnapshotIdentifier' --output text | xargs -n1 aws rds "
    "delete-db-snapshot --db-snapshot-identifier",
    "aws backup list-recovery-points-by-backup-vault --backup-vault-name v --output text | xargs -n1 aws backup "
    "delete-recovery-point --backup-vault-name v --recovery-point-arn",
    "openstack volume snapshot list -f value -c ID | xargs openstack volume snapshot delete",
    "doctl compute snapshot list --format ID --no-header | xargs doctl compute snapshot delete --force",
    "hcloud image list -t snapshot -o noheader -o columns=id | xargs hcloud image delete",
    "Get-VMSnapshot -VMName * | Remove-VMSnapshot",
    "for v in $(VBoxManage list vms); do VBoxManage snapshot $v delete --all; done",
]
SOME_COPIES_DELETED = [
    "gcloud compute snapshots list --filter=\"creationTimestamp<2024-01-01\" --format='value(name)' | xargs gcloud "
    "compute snapshots delete --quiet",
    "doctl compute snapshot list --format ID --no-header | head -3 | xargs doctl compute snapshot delete --force",
    "openstack volume snapshot list --status error -f value -c ID | xargs openstack volume snapshot delete",
    "Get-VMSnapshot -VMName web01 -Name before-update | Remove-VMSnapshot", "openstack volume snapshot delete snap-1",
    "docker ps -aq | xargs docker rm", "aws ec2 describe-snapshots --owner-ids self",
]


# Windows' own way back after a failed start (its recovery environment) switched off: high.
RECOVERY_DISABLED = [
    "bcdedit /set {default} recoveryenabled No", "bcdedit.exe /set {default} bootstatuspolicy ignoreallfailures",
    "reagentc /disable", "reagentc.exe /disable",
]
RECOVERY_KEPT = ["bcdedit /set {current} recoveryenabled yes", "bcdedit /enum", "reagentc /info", "reagentc /enable"]


def test_files_encrypted_in_place_by_any_encryptor() -> None:
    table_holds(ENCRYPTED_IN_PLACE)


def test_whole_trees_encrypted_are_high() -> None:
    wrong = [f"{c} -> {v.level if v else None}" for c in ENCRYPTED_IN_PLACE[0][:8] if not (v := assess(c)) or
             v.level != "high"]
    assert not wrong, "\n".join(wrong)


def test_encrypted_file_systems_mounted_over_data() -> None:
    table_holds(MOUNTED_OVER)


def test_every_file_renamed_to_a_new_ending() -> None:
    table_holds(RENAMED_AWAY)


def test_ransom_notes_left_where_the_user_looks() -> None:
    table_holds(RANSOM_NOTES)


def test_code_writing_noise_or_ciphertext_over_listed_files() -> None:
    table_holds(CODE_SCRAMBLES)


def test_versions_backups_and_backup_files_removed() -> None:
    table_holds(RECOVERY_OFF)


def test_windows_recovery_switched_off_is_high() -> None:
    wrong = [f"{c} -> {v.level if v else None}" for c in RECOVERY_DISABLED if not (v := assess(c)) or
             v.level != "high"]
    wrong += [f"{c} -> {v.level}" for c in RECOVERY_KEPT if (v := assess(c)) and v.level in ("medium", "high")]
    assert not wrong, "\n".join(wrong)


def test_every_snapshot_or_backup_a_listing_names_deleted_is_high() -> None:
    wrong = [f"{c} -> {v.level if v else None}" for c in EVERY_COPY_DELETED if not (v := assess(c)) or
             v.level != "high"]
    wrong += [f"{c} -> {v.level}" for c in SOME_COPIES_DELETED if (v := assess(c)) and v.level == "high"]
    assert not wrong, "\n".join(wrong)


def test_a_loop_encrypting_each_file_and_removing_it_is_high() -> None:
    wrong = [f"{c} -> {v.level if v else None}" for c in LOOP_ENCRYPTED if not (v := assess(c)) or v.level != "high"]
    wrong += [f"{c} -> {v.level}" for c in LOOP_KEPT if (v := assess(c)) and v.level == "high"]
    assert not wrong, "\n".join(wrong)


def test_a_tree_overwritten_is_high_and_any_program_told_to_encrypt_home_medium() -> None:
    wrong = [f"{c} -> {v.level if v else None}" for c in TREE_OVERWRITTEN if not (v := assess(c)) or v.level != "high"]
    wrong += [f"{c} -> {v.level if v else None}" for c in TOLD_TO_ENCRYPT if not (v := assess(c)) or
              v.level not in ("medium", "high")]
    wrong += [f"{c} -> {v.level}" for c in OVERWRITTEN_KEPT if (v := assess(c)) and v.level == "high" or
              c.startswith(("borg", "duplicity", "tar", "gpg")) and v and v.level == "medium"]
    assert not wrong, "\n".join(wrong)


def test_a_tree_packed_under_a_password_with_the_originals_deleted_is_high() -> None:
    wrong = [f"{c} -> {v.level if v else None}" for c in LOCKED_ARCHIVES if not (v := assess(c)) or v.level != "high"]
    wrong += [f"{c} -> {v.level}" for c in ARCHIVES_KEPT if (v := assess(c)) and v.level == "high"]
    assert not wrong, "\n".join(wrong)
